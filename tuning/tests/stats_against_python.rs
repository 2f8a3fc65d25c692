//! The statistics checked against an independent Python computation (tests/stats_reference.py:
//! Newton's method where the Rust code bisects, math.erf where it has its own erf).

use std::io::Write;
use std::process::{Command, Stdio};

use tetrarch_tuning::stats::{elo_pentanomial, elo_trinomial, Penta, Sprt, Wdl};

#[test]
fn elo_error_and_llr_agree_with_the_python_reference() {
    // A spread of cases: balanced, lopsided, few games, many, empty bins.
    let mut lines = String::new();
    let mut expect = Vec::new();
    let tri = [
        (67u64, 110u64, 23u64, 0.0, 10.0),
        (120, 50, 80, -5.0, 5.0),
        (10, 0, 3, 0.0, 5.0),
        (1450, 3020, 1390, 0.0, 2.0),
        (3, 1, 9, -10.0, 0.0),
        (500, 8000, 480, 0.0, 3.0),
    ];
    for (w, d, l, e0, e1) in tri {
        lines.push_str(&format!("tri {w} {d} {l} {e0} {e1}\n"));
        let wdl = Wdl::new(w, d, l);
        let e = elo_trinomial(&wdl).unwrap();
        let s = Sprt::new(e0, e1, 0.05, 0.05).unwrap();
        expect.push((e.elo, e.error, s.llr_trinomial(&wdl)));
    }
    let penta = [
        ([1u64, 11, 0, 47, 25, 16], 0.0, 10.0),
        ([30, 210, 90, 400, 230, 40], 0.0, 5.0),
        ([0, 3, 1, 5, 2, 0], -3.0, 3.0),
        ([12, 60, 20, 300, 40, 2], 0.0, 2.0),
        ([5, 5, 5, 5, 5, 5], -10.0, 10.0),
    ];
    for (c, e0, e1) in penta {
        lines.push_str(&format!(
            "penta {} {} {} {} {} {} {e0} {e1}\n",
            c[0], c[1], c[2], c[3], c[4], c[5]
        ));
        let p = Penta {
            ll: c[0],
            ld: c[1],
            wl: c[2],
            dd: c[3],
            wd: c[4],
            ww: c[5],
        };
        let e = elo_pentanomial(&p).unwrap();
        let s = Sprt::new(e0, e1, 0.05, 0.05).unwrap();
        expect.push((e.elo, e.error, s.llr_pentanomial(&p)));
    }

    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/stats_reference.py");
    let mut child = Command::new("python3")
        .arg(script)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("python3 must be installed for this test");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(lines.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "reference script failed");
    let text = String::from_utf8(out.stdout).unwrap();
    let got: Vec<Vec<f64>> = text
        .lines()
        .map(|l| l.split_whitespace().map(|x| x.parse().unwrap()).collect())
        .collect();
    assert_eq!(got.len(), expect.len());
    for (i, (g, (elo, err, llr))) in got.iter().zip(&expect).enumerate() {
        assert!((g[0] - elo).abs() < 1e-8, "case {i}: elo {elo} vs {}", g[0]);
        assert!(
            (g[1] - err).abs() < 1e-8,
            "case {i}: error {err} vs {}",
            g[1]
        );
        assert!((g[2] - llr).abs() < 1e-6, "case {i}: llr {llr} vs {}", g[2]);
    }
}
