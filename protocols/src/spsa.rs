//! `tetrarch spsa`: the search parameters in OpenBench's SPSA input format.
//!
//! Scheme: one line per parameter of `search::params::TUNABLE`, `name, int, default, min, max,
//! c_end, r_end`, as OpenBench's tune form takes them. `c_end` (the final perturbation) is a
//! twentieth of the range, at least half a unit as OpenBench requires of integers; `r_end`
//! (the final learning rate) is OpenBench's customary 0.002. The values only take effect in a
//! build with the `tuning` feature, which declares each parameter as a UCI spin option of the
//! same name (`cargo build --release -p tetrarch-protocols --features tuning`).

use tetrarch::search::params::{Params, TUNABLE};

/// The lines `tetrarch spsa` prints.
pub fn lines() -> Vec<String> {
    let defaults = Params::DEFAULT;
    TUNABLE
        .iter()
        .map(|t| {
            let default = defaults.get(t.name).unwrap_or(t.min);
            let c_end = ((t.max - t.min) as f64 / 20.0).max(0.5);
            format!(
                "{}, int, {default}, {}, {}, {}, 0.002",
                t.name,
                t.min,
                t.max,
                (c_end * 100.0).round() / 100.0
            )
        })
        .collect()
}

pub fn run() {
    for line in lines() {
        println!("{line}");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_line_per_parameter_in_openbench_form() {
        let l = lines();
        assert_eq!(l.len(), TUNABLE.len());
        for line in &l {
            let f: Vec<&str> = line.split(", ").collect();
            assert_eq!(f.len(), 7, "{line}");
            assert_eq!(f[1], "int");
            let (d, lo, hi): (i32, i32, i32) = (
                f[2].parse().unwrap(),
                f[3].parse().unwrap(),
                f[4].parse().unwrap(),
            );
            assert!(lo <= d && d <= hi, "{line}");
            let c: f64 = f[5].parse().unwrap();
            assert!(c >= 0.5 && c <= (hi - lo) as f64, "{line}");
            assert_eq!(f[6], "0.002");
        }
        assert!(l
            .iter()
            .any(|x| x.starts_with("lmr_base, int, 80, 0, 200, 10, 0.002")));
    }
}
