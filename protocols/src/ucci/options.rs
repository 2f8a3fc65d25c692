//! UCCI options: the `option` lines `ucci` prints and `setoption <name> [<value>]`.
//!
//! Scheme: UCCI names are single lower-case words with no `name`/`value` keywords
//! (`setoption hashsize 64`). One table of the option core's [`Opt`]s in print order
//! (see `crate::options`), each with its effect; [`Values`] holds the typed
//! values. Booleans take `true`/`on` or `false`/`off` (ElephantEye's spellings). A name the
//! table does not know is accepted and ignored, as the UCCI text asks (XQWizard sends options
//! without reading the list); a bad value for a known option is an error and the old value
//! stays. Options for things this engine does not have (opening book, endgame tables, the
//! advisor-promotion variant) are declared off, accept being turned off, and answer an error
//! when turned on.
//!
//! Strength, with the meanings UCCI gives its knobs: `knowledge` is how much the evaluation
//! knows (`none` material only, `small` with piece-square tables, `medium` with mobility too,
//! `large` everything), `pruning` how selective the search is (`large` as tuned, each step down
//! switches off a family of forward pruning; see `Params::with_less_pruning`), `randomness`
//! how far the move may stray from the best (a choice among the best root lines at a
//! temperature, `none` always the best). `elo` targets a rating through xiangqi's Elo table
//! (`games::xiangqi::strength`): 0 is full strength, other values are clamped into the
//! calibrated range.

use tetrarch::games::xiangqi::{self, weights::Weights};
use tetrarch::search::params::Params;
use tetrarch::search::Skill;

use crate::options::{Dialect, Effect, Kind, Opt, Problem};

const LEVELS: &[&str] = &["none", "small", "medium", "large"];
/// ElephantEye's `randomness` has two more steps.
const RANDOMNESS: &[&str] = &["none", "tiny", "small", "medium", "large", "huge"];

/// The temperature (evaluation units) of each `randomness` step.
const TEMPERATURES: [f64; 6] = [0.0, 5.0, 10.0, 20.0, 40.0, 80.0];

fn index_of(vars: &[&str], v: &str) -> u8 {
    vars.iter()
        .position(|x| x.eq_ignore_ascii_case(v))
        .unwrap_or(0) as u8
}

/// A check for something this engine does not have: off is accepted, on is an error.
fn absent(name: &'static str) -> Opt<Values> {
    Opt::new(name, Kind::Check(false), |_, name, x| {
        if x.bool() {
            return Err(format!("{name} is not available in this engine"));
        }
        Ok(Effect::Stored)
    })
}

/// A combo only checked, not used (ElephantEye's search-style knobs).
fn knob(name: &'static str, default: &str) -> Opt<Values> {
    Opt::new(name, Kind::combo(default, LEVELS), |_, _, _| {
        Ok(Effect::Stored)
    })
}

/// Every option, in print order. A new option is one entry here (and its field in [`Values`]).
pub fn table() -> Vec<Opt<Values>> {
    use Effect::*;
    vec![
        Opt::new("usemillisec", Kind::Check(false), |v, _, x| {
            v.millisec = x.bool();
            Ok(Stored)
        }),
        Opt::new("batch", Kind::Check(false), |v, _, x| {
            v.batch = x.bool();
            Ok(Stored)
        }),
        Opt::new("debug", Kind::Check(false), |v, _, x| {
            v.debug = x.bool();
            Ok(Stored)
        }),
        Opt::new("ponder", Kind::Check(false), |v, _, x| {
            v.ponder = x.bool();
            Ok(Stored)
        }),
        absent("usebook"),
        absent("useegtb"),
        Opt::new("bookfiles", Kind::text(""), |_, _, _| Ok(Stored)),
        Opt::new("egtbpaths", Kind::text(""), |_, _, _| Ok(Stored)),
        // 0 means "the engine decides": the default.
        Opt::new("hashsize", Kind::spin(16, 0, 65536), |v, _, x| {
            v.hash_mb = if x.int() == 0 { 16 } else { x.int() as usize };
            Ok(Engine)
        }),
        // 0 means "as many as the machine has".
        Opt::new("threads", Kind::spin(1, 0, 256), |v, _, x| {
            v.threads = if x.int() == 0 {
                std::thread::available_parallelism().map_or(1, |n| n.get())
            } else {
                x.int() as usize
            };
            Ok(Engine)
        }),
        Opt::new("drawmoves", Kind::spin(60, 0, 500), |v, _, x| {
            v.draw_moves = x.int() as u32;
            Ok(Rules)
        }),
        Opt::new("move_overhead", Kind::spin(10, 0, 5000), |v, _, x| {
            v.move_overhead_ms = x.int() as u64;
            Ok(Engine)
        }),
        absent("promotion"),
        knob("idle", "none"),
        Opt::new("pruning", Kind::combo("large", LEVELS), |v, _, x| {
            v.pruning = index_of(LEVELS, x.text());
            Ok(Engine)
        }),
        Opt::new("knowledge", Kind::combo("large", LEVELS), |v, _, x| {
            v.knowledge = index_of(LEVELS, x.text());
            Ok(Engine)
        }),
        Opt::new("randomness", Kind::combo("none", RANDOMNESS), |v, _, x| {
            v.randomness = index_of(RANDOMNESS, x.text());
            Ok(Engine)
        }),
        Opt::new("elo", Kind::spin(0, 0, elo_max()), |v, _, x| {
            v.elo = x.int();
            Ok(Engine)
        }),
        Opt::new("newgame", Kind::Button, |_, _, _| Ok(NewGame)),
    ]
}

/// UCCI's spellings: `true`/`on` and `false`/`off` in any case (ElephantEye's).
pub const DIALECT: Dialect = Dialect {
    truths: &["true", "on"],
    falsehoods: &["false", "off"],
    fold_case: true,
    message: |name, kind, v, problem| {
        let v = v.unwrap_or("");
        match (problem, kind) {
            (Problem::Missing, Kind::Check(_)) => format!("{name} needs a value (true or false)"),
            (Problem::Missing, _) => format!("{name} needs a number"),
            (Problem::NotBool, _) => format!("{name} takes true/on or false/off, not '{v}'"),
            (Problem::OutOfRange, Kind::Spin { min, max, .. }) => {
                format!("{name} must lie in {min}..{max}, not {v}")
            }
            (Problem::NotOneOf, Kind::Combo { vars, .. }) => {
                format!("{name} takes one of {}, not '{v}'", vars.join(", "))
            }
            _ => format!("{name} takes a whole number, not '{v}'"),
        }
    },
};

/// The `option ...` line of a declaration, in UCCI's layout.
pub fn declaration_line(d: &Opt<Values>) -> String {
    match &d.kind {
        Kind::Check(v) => format!("option {} type check default {v}", d.name),
        Kind::Spin { default, min, max } => format!(
            "option {} type spin min {min} max {max} default {default}",
            d.name
        ),
        Kind::Combo { default, vars } => {
            let vars: Vec<String> = vars.iter().map(|v| format!("var {v}")).collect();
            format!(
                "option {} type combo {} default {default}",
                d.name,
                vars.join(" ")
            )
        }
        // UCCI declares its strings empty; it has no real type (and declares no real option).
        Kind::Str(_) | Kind::Real { .. } => {
            format!("option {} type string default <empty>", d.name)
        }
        Kind::Button => format!("option {} type button", d.name),
    }
}

/// Current option values.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Values {
    /// Times in `go` are milliseconds (else seconds, UCCI's default).
    pub millisec: bool,
    /// Batch mode: the loop waits for a bounded search to end before reading on.
    pub batch: bool,
    pub debug: bool,
    pub ponder: bool,
    pub hash_mb: usize,
    pub threads: usize,
    /// The natural move limit in moves (60 by the rules; 0 turns it off).
    pub draw_moves: u32,
    /// Milliseconds the clock loses per move outside the search (pipes, scheduling): the time
    /// allocation keeps that much in reserve for every move. Named as Fairy-Stockfish names its
    /// `Move Overhead` in UCCI mode, so a GUI's setting for one engine fits the other.
    pub move_overhead_ms: u64,
    /// `pruning`, `knowledge`: 0 (`none`) to 3 (`large`); `randomness`: 0 (`none`) to 5.
    pub pruning: u8,
    pub knowledge: u8,
    pub randomness: u8,
    /// The target rating; 0 for full strength.
    pub elo: i64,
}

/// The highest `elo`: the top of xiangqi's calibrated table.
fn elo_max() -> i64 {
    i64::from(xiangqi::strength::ELO.max_elo())
}

impl Default for Values {
    fn default() -> Self {
        Values {
            millisec: false,
            batch: false,
            debug: false,
            ponder: false,
            hash_mb: 16,
            threads: 1,
            draw_moves: 60,
            move_overhead_ms: 10,
            pruning: 3,
            knowledge: 3,
            randomness: 0,
            elo: 0,
        }
    }
}

impl Values {
    /// The strength limiter of `elo` and `randomness`, or `None` at full strength.
    pub fn skill(&self) -> Option<Skill> {
        let t = xiangqi::strength::ELO;
        let by_elo = (self.elo > 0)
            .then(|| Skill::from_level(t.level(self.elo.min(i64::from(i32::MAX)) as i32)))
            .flatten();
        let temperature = TEMPERATURES[usize::from(self.randomness.min(5))];
        match by_elo {
            Some(s) => Some(s.warmer(temperature)),
            None => Skill::choice_only(temperature),
        }
    }

    /// The search parameters of `pruning`.
    pub fn params(&self) -> Params {
        Params::DEFAULT.with_less_pruning(3 - self.pruning.min(3))
    }

    /// The evaluation weights of `knowledge`, or `None` for all of them (the default).
    pub fn weights(&self) -> Option<Weights> {
        if self.knowledge >= 3 {
            return None;
        }
        let mut w = Weights::default();
        let keep = |name: &str| match self.knowledge {
            0 => name == "material",
            1 => name == "material" || name == "pst",
            _ => name == "material" || name == "pst" || name.contains("mobility"),
        };
        w.visit_mut(|name, _, s| {
            if !keep(name) {
                *s = tetrarch::linear::S(0, 0);
            }
        });
        Some(w)
    }

    /// Applies `setoption <name> [<value>]`; `args` is everything after `setoption`. A name the
    /// table does not know is `Ok(None)`: UCCI asks for it to be ignored.
    pub fn set(&mut self, args: &str) -> Result<Option<Effect>, String> {
        let mut words = args.split_whitespace();
        let Some(name) = words.next() else {
            return Err("setoption needs an option name".into());
        };
        let rest: Vec<&str> = words.collect();
        let value = (!rest.is_empty()).then(|| rest.join(" "));
        crate::options::set(&table(), self, name, value.as_deref(), &DIALECT).transpose()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_follow_ucci_layout() {
        let lines: Vec<String> = table().iter().map(declaration_line).collect();
        assert!(lines.contains(&"option usemillisec type check default false".to_string()));
        assert!(lines.contains(&"option hashsize type spin min 0 max 65536 default 16".to_string()));
        assert!(lines.contains(&"option newgame type button".to_string()));
        assert!(lines.contains(
            &"option idle type combo var none var small var medium var large default none"
                .to_string()
        ));
        for l in &lines {
            assert!(!l.contains(" name "), "{l}");
        }
    }

    #[test]
    fn declared_defaults_are_the_values_defaults() {
        for o in table() {
            let mut v = Values::default();
            let text = crate::options::default_text(&o.kind).unwrap_or_default();
            let effect = v.set(&format!("{} {text}", o.name));
            assert!(matches!(effect, Ok(Some(_))), "{}: {effect:?}", o.name);
            assert_eq!(v, Values::default(), "{}", o.name);
        }
    }

    #[test]
    fn values_parse_without_keywords_and_keep_old_values_on_error() {
        let mut v = Values::default();
        assert_eq!(v.set("hashsize 64"), Ok(Some(Effect::Engine)));
        assert_eq!(v.hash_mb, 64);
        assert!(v.set("hashsize lots").is_err());
        assert!(v.set("hashsize -3").is_err());
        assert_eq!(v.hash_mb, 64);
        assert_eq!(v.set("usemillisec on"), Ok(Some(Effect::Stored)));
        assert!(v.millisec);
        assert_eq!(v.set("UseMillisec false"), Ok(Some(Effect::Stored)));
        assert!(!v.millisec);
        assert!(v.set("batch maybe").is_err());
        assert_eq!(v.set("nosuchoption 3"), Ok(None));
        assert_eq!(v.set("newgame"), Ok(Some(Effect::NewGame)));
        assert!(v.set("usebook true").is_err());
        assert_eq!(v.set("usebook false"), Ok(Some(Effect::Stored)));
        assert!(v.set("idle huge").is_err());
        assert_eq!(v.set("idle medium"), Ok(Some(Effect::Stored)));
        assert_eq!(v.set("drawmoves 50"), Ok(Some(Effect::Rules)));
        assert_eq!(v.draw_moves, 50);
        assert_eq!(v.set("Move_Overhead 100"), Ok(Some(Effect::Engine)));
        assert_eq!(v.move_overhead_ms, 100);
        assert!(v.set("move_overhead -1").is_err());
        assert_eq!(v.move_overhead_ms, 100);
        assert!(v.set("").is_err());
    }

    #[test]
    fn strength_knobs_take_effect() {
        let mut v = Values::default();
        assert_eq!(v.skill(), None);
        assert_eq!(v.params(), Params::DEFAULT);
        assert!(v.weights().is_none());
        v.set("randomness huge").unwrap();
        let s = v.skill().expect("randomness limits");
        assert_eq!(s.nodes(), None, "randomness alone costs no depth");
        v.set("elo 1").unwrap();
        let low = v.skill().unwrap();
        assert!(low.nodes().is_some() && low.temperature() >= 80.0);
        assert!(v.set(&format!("elo {}", elo_max() + 1)).is_err());
        v.set("randomness none").unwrap();
        v.set(&format!("elo {}", elo_max())).unwrap();
        assert!(v.skill().unwrap().nodes() > low.nodes());
        v.set("pruning none").unwrap();
        assert_eq!(v.params().nmp_min_depth, 1000);
        assert!(v.set("pruning huge").is_err());
        v.set("knowledge none").unwrap();
        let w = v.weights().unwrap();
        let full = Weights::default();
        assert_eq!(w.material, full.material);
        assert_eq!(w.hollow_cannon, tetrarch::linear::S(0, 0));
        v.set("knowledge medium").unwrap();
        assert_eq!(v.weights().unwrap().pst, full.pst);
    }
}
