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

use crate::options::{Dialect, Effect, Kind, Opt, Problem};

const LEVELS: &[&str] = &["none", "small", "medium", "large"];

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
        knob("pruning", "large"),
        knob("knowledge", "large"),
        knob("randomness", "none"),
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
        }
    }
}

impl Values {
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
}
