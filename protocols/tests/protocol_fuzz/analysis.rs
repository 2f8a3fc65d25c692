//! The grammar of KataGo's JSON analysis engine protocol (`tetrarch analysis`, Go).
//!
//! Scheme: a valid line is one JSON query: mostly analysis queries on small boards (sizes 2 to
//! 25, most 9x9) with random moves, legal or not, setup stones, rules by name or object, komi,
//! turns, visit limits, ownership, policy, partial reports and overrides, each field now and
//! then of the wrong type or out of range; the rest actions (`query_version`, `clear_cache`,
//! `query_models`, `terminate`, `terminate_all`, an unknown one). The probe is
//! `{"id":"probe-<k>","action":"terminate_all"}`, answered by its exact echo; it also empties
//! the queue, so the jobs never pile up past one probe interval, and the last probe leaves
//! nothing to run at the end of input. The sanitiser caps every number at 60 (visits, time,
//! turns and sizes stay small on a shared machine) and keeps the probe's id out.

use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::Rng;

use crate::harness::{Grammar, Kind};
use crate::mutate::cap_numbers;

const WORDS: &[&str] = &[
    "{",
    "}",
    "[",
    "]",
    ":",
    ",",
    "\"",
    "\"id\"",
    "\"moves\"",
    "\"rules\"",
    "\"komi\"",
    "\"boardXSize\"",
    "\"boardYSize\"",
    "\"analyzeTurns\"",
    "\"maxVisits\"",
    "\"action\"",
    "\"terminate\"",
    "\"B\"",
    "\"W\"",
    "\"D4\"",
    "\"pass\"",
    "true",
    "null",
    "1e400",
    "-0",
    "\"\\u00e9\"",
    "\"\\ud800\"",
    "9",
    "19",
];

pub struct Analysis {
    ids: u64,
    /// The query being made has no deliberate fault (half of them), so that many reach a
    /// search.
    clean: bool,
}

impl Analysis {
    pub fn new() -> Analysis {
        Analysis {
            ids: 0,
            clean: false,
        }
    }

    /// Whether to put a fault here: with probability `p`, in a query that may have faults.
    fn fault(&self, rng: &mut StdRng, p: f64) -> bool {
        !self.clean && rng.gen_bool(p)
    }

    /// One of `good`, or one of `bad` when a fault is due.
    fn pick(&self, rng: &mut StdRng, p: f64, good: &[&str], bad: &[&str]) -> String {
        if self.fault(rng, p) {
            bad.choose(rng).unwrap().to_string()
        } else {
            good.choose(rng).unwrap().to_string()
        }
    }

    fn vertex(&self, rng: &mut StdRng, size: usize) -> String {
        const LETTERS: &[u8] = b"ABCDEFGHJKLMNOPQRSTUVWXYZ";
        if self.fault(rng, 0.05) {
            let bad = ["Z99", "I5", "", "a", "(99,2)", "(1,)"];
            return bad.choose(rng).unwrap().to_string();
        }
        match rng.gen_range(0..20) {
            0 => "pass".into(),
            1 => "(0,0)".into(),
            _ => format!(
                "{}{}",
                LETTERS[rng.gen_range(0..size)] as char,
                rng.gen_range(1..=size)
            ),
        }
    }

    fn stones(&self, rng: &mut StdRng, size: usize, n: usize) -> String {
        let list: Vec<String> = (0..n)
            .map(|i| {
                let colour = if self.fault(rng, 0.03) {
                    "\"x\""
                } else if rng.gen_range(0..10) == 0 {
                    "\"white\""
                } else if i % 2 == 0 {
                    "\"B\""
                } else {
                    "\"W\""
                };
                if self.fault(rng, 0.02) {
                    return format!("[{colour}]");
                }
                if self.fault(rng, 0.02) {
                    return "\"D4\"".to_string();
                }
                format!("[{colour},\"{}\"]", self.vertex(rng, size))
            })
            .collect();
        format!("[{}]", list.join(","))
    }

    fn query(&mut self, rng: &mut StdRng) -> String {
        self.clean = rng.gen_bool(0.5);
        let size = match rng.gen_range(0..20) {
            0 => 2,
            1 => 19,
            2 => 25,
            3 => 13,
            4..=6 => 5,
            7..=9 => 7,
            _ => 9,
        };
        let mut fields = vec![format!("\"id\":\"q{}\"", self.ids)];
        let moves = rng.gen_range(0..8);
        if !self.fault(rng, 0.05) {
            fields.push(format!("\"moves\":{}", self.stones(rng, size, moves)));
        }
        if rng.gen_bool(0.2) {
            let n = rng.gen_range(1..5);
            fields.push(format!("\"initialStones\":{}", self.stones(rng, size, n)));
        }
        if rng.gen_bool(0.2) {
            let p = self.pick(rng, 0.4, &["\"B\"", "\"W\"", "\"b\""], &["\"red\"", "3"]);
            fields.push(format!("\"initialPlayer\":{p}"));
        }
        if !self.fault(rng, 0.05) {
            let rules = self.pick(
                rng,
                0.2,
                &[
                    "\"chinese\"",
                    "\"japanese\"",
                    "\"tromp-taylor\"",
                    "\"aga\"",
                    "\"korean\"",
                    "{\"ko\":\"SIMPLE\",\"scoring\":\"AREA\",\"suicide\":false}",
                    "{\"scoring\":\"TERRITORY\",\"komi\":6.5}",
                ],
                &["\"klingon\"", "{\"ko\":7}", "7"],
            );
            fields.push(format!("\"rules\":{rules}"));
        }
        let (x, y) = if self.fault(rng, 0.15) {
            *[(size, size + 2), (0, 0), (26, 26)].choose(rng).unwrap()
        } else {
            (size, size)
        };
        if !self.fault(rng, 0.03) {
            fields.push(format!("\"boardXSize\":{x},\"boardYSize\":{y}"));
        }
        if rng.gen_bool(0.5) {
            let k = self.pick(
                rng,
                0.3,
                &["7.5", "6.5", "0", "-3.5"],
                &["7.3", "401", "\"7.5\"", "1e2"],
            );
            fields.push(format!("\"komi\":{k}"));
        }
        if rng.gen_bool(0.4) {
            let extra = if self.clean { 0 } else { 1 };
            let turns: Vec<String> = (0..rng.gen_range(0..3))
                .map(|_| rng.gen_range(-extra..=moves as i64 + extra).to_string())
                .collect();
            fields.push(format!("\"analyzeTurns\":[{}]", turns.join(",")));
        }
        let visits = if self.fault(rng, 0.15) {
            ["0", "2.5"].choose(rng).unwrap().to_string()
        } else {
            rng.gen_range(1..=40).to_string()
        };
        fields.push(format!("\"maxVisits\":{visits}"));
        for name in ["includeOwnership", "includePolicy", "includePVVisits"] {
            if rng.gen_bool(0.3) {
                let v = self.pick(rng, 0.3, &["true", "false"], &["1", "\"yes\""]);
                fields.push(format!("\"{name}\":{v}"));
            }
        }
        if rng.gen_bool(0.2) {
            let every = self.pick(rng, 0.3, &["0.01", "0.05"], &["0", "-1", "\"often\""]);
            fields.push(format!("\"reportDuringSearchEvery\":{every}"));
        }
        if rng.gen_bool(0.15) {
            let o = self.pick(
                rng,
                0.3,
                &[
                    "{\"reportAnalysisWinratesAs\":\"BLACK\"}",
                    "{\"maxTime\":0.05}",
                    "{\"maxVisits\":\"12\",\"wideRootNoise\":0.04}",
                ],
                &["{\"reportAnalysisWinratesAs\":\"GREEN\"}", "[]"],
            );
            fields.push(format!("\"overrideSettings\":{o}"));
        }
        if rng.gen_bool(0.1) {
            let player = ["\"B\"", "\"W\""].choose(rng).unwrap();
            let key = ["avoidMoves", "allowMoves"].choose(rng).unwrap();
            fields.push(format!(
                "\"{key}\":[{{\"player\":{player},\"moves\":[\"{}\"],\"untilDepth\":1}}]",
                self.vertex(rng, size)
            ));
        }
        if rng.gen_bool(0.1) {
            fields.push(format!("\"priority\":{}", rng.gen_range(-5..5)));
        }
        if rng.gen_bool(0.05) {
            fields.push("\"typo\":1".into());
        }
        fields.shuffle(rng);
        format!("{{{}}}", fields.join(","))
    }

    fn action(&mut self, rng: &mut StdRng) -> String {
        let id = self.ids;
        let target = format!("q{}", id.saturating_sub(rng.gen_range(0..4)));
        match rng.gen_range(0..8) {
            0 => format!("{{\"id\":\"a{id}\",\"action\":\"query_version\"}}"),
            1 => format!("{{\"id\":\"a{id}\",\"action\":\"clear_cache\"}}"),
            2 => format!("{{\"id\":\"a{id}\",\"action\":\"query_models\"}}"),
            3 => format!("{{\"id\":\"a{id}\",\"action\":\"terminate\",\"terminateId\":\"{target}\"}}"),
            4 => format!(
                "{{\"id\":\"a{id}\",\"action\":\"terminate\",\"terminateId\":\"{target}\",\"turnNumbers\":[0,1]}}"
            ),
            5 => format!("{{\"id\":\"a{id}\",\"action\":\"terminate\"}}"),
            6 => format!("{{\"id\":\"a{id}\",\"action\":\"dance\"}}"),
            _ => format!("{{\"id\":\"a{id}\",\"action\":7}}"),
        }
    }
}

impl Grammar for Analysis {
    fn name(&self) -> &'static str {
        "analysis"
    }

    fn args(&self) -> Vec<String> {
        ["analysis", "--max-visits", "20", "--max-nodes", "100000"]
            .iter()
            .map(|s| s.to_string())
            .collect()
    }

    fn opening(&mut self) -> Vec<Vec<u8>> {
        vec![br#"{"id":"open","action":"query_version"}"#.to_vec()]
    }

    fn valid(&mut self, rng: &mut StdRng) -> Vec<u8> {
        self.ids += 1;
        if rng.gen_range(0..100) < 80 {
            self.query(rng).into_bytes()
        } else {
            self.action(rng).into_bytes()
        }
    }

    fn words(&self) -> &'static [&'static str] {
        WORDS
    }

    fn sanitize(&mut self, _rng: &mut StdRng, line: Vec<u8>, _kind: Kind) -> Vec<Vec<u8>> {
        let line = cap_numbers(&line, 60, u64::MAX);
        if String::from_utf8_lossy(&line).contains("probe") {
            return vec![b"{}".to_vec()];
        }
        vec![line]
    }

    fn probe(&mut self, k: usize) -> Vec<u8> {
        format!(r#"{{"id":"probe-{k}","action":"terminate_all"}}"#).into_bytes()
    }

    fn is_answer(&self, line: &str) -> bool {
        line.strip_prefix(r#"{"id":"probe-"#)
            .and_then(|l| l.strip_suffix(r#"","action":"terminate_all"}"#))
            .is_some_and(|k| k.bytes().all(|b| b.is_ascii_digit()))
    }

    fn is_result(&self, line: &str) -> bool {
        line.contains(r#""isDuringSearch":false"#) || line.starts_with(r#"{"error""#)
    }
}
