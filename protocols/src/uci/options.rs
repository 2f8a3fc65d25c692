//! UCI options: their table, current values and `setoption` parsing.
//!
//! Scheme: one table ([`table`]) of the option core's [`Opt`]s in the order `uci` prints them,
//! each declared once with its kind and the effect of setting it (see `crate::options`);
//! [`Values`] holds the typed current values. `setoption` splits on the literal tokens `name`
//! and `value` (names and values may contain spaces), matches names case-insensitively, and
//! rejects what Stockfish rejects (a `check` other than `true`/`false`, a `spin` out of range
//! or not a number), with an error the loop prints as `info string error: ...`; the old value
//! stays. Built with the `tuning` feature, every search parameter of `search::params::TUNABLE`
//! is also a spin option (for SPSA tuners).

use std::sync::Arc;

use tetrarch::games::chess::nnue::load_network;
use tetrarch::games::{chess, xiangqi};
use tetrarch::nnue::Network;
use tetrarch::search::params::{Params, TUNABLE};
use tetrarch::strength::EloTable;

use crate::options::{Dialect, Effect, Kind, Opt, Problem};

/// The lowest and highest `UCI_Elo` the strength limiter offers: what the calibration of
/// either game supports (their tables in `games::<g>::strength`). One range is declared for
/// both variants (options are listed before `UCI_Variant` is set); a value outside the
/// variant's own table plays at its nearest end.
pub fn elo_range() -> (i64, i64) {
    let (c, x) = (chess::strength::ELO, xiangqi::strength::ELO);
    (
        i64::from(c.min_elo().min(x.min_elo())),
        i64::from(c.max_elo().max(x.max_elo())),
    )
}

/// `Use NNUE`'s default: on whenever the build embeds a chess network.
pub fn nnue_by_default() -> bool {
    chess::nnue::embedded_network().is_some()
}

/// The games `UCI_Variant` offers, by their Fairy-Stockfish names; the first is the default.
pub const VARIANTS: &[&str] = &["chess", "xiangqi"];

/// Every option, in print order. A new option is one entry here (and its field in [`Values`]).
pub fn table() -> Vec<Opt<Values>> {
    use Effect::*;
    let mut t: Vec<Opt<Values>> = vec![
        Opt::new("Threads", Kind::spin(1, 1, 256), |v, _, x| {
            v.threads = x.int() as usize;
            Ok(Engine)
        }),
        Opt::new("Hash", Kind::spin(16, 1, 65536), |v, _, x| {
            v.hash_mb = x.int() as usize;
            Ok(Engine)
        }),
        Opt::new("Clear Hash", Kind::Button, |_, _, _| Ok(ClearHash)),
        Opt::new("Ponder", Kind::Check(false), |v, _, x| {
            v.ponder = x.bool();
            Ok(Stored)
        }),
        Opt::new("MultiPV", Kind::spin(1, 1, 256), |v, _, x| {
            v.multipv = x.int() as usize;
            Ok(Stored)
        }),
        // Read by every `go`, so it may change during a search.
        Opt::new("Move Overhead", Kind::spin(10, 0, 5000), |v, _, x| {
            v.move_overhead_ms = x.int() as u64;
            Ok(Stored)
        }),
        Opt::new("Skill Level", Kind::spin(20, 0, 20), |v, _, x| {
            v.skill_level = x.int();
            Ok(Engine)
        }),
        Opt::new("UCI_LimitStrength", Kind::Check(false), |v, _, x| {
            v.limit_strength = x.bool();
            Ok(Engine)
        }),
        Opt::new(
            "UCI_Elo",
            Kind::spin(elo_range().0, elo_range().0, elo_range().1),
            |v, _, x| {
                v.elo = x.int();
                Ok(Engine)
            },
        ),
        Opt::new("UCI_ShowWDL", Kind::Check(false), |v, _, x| {
            v.show_wdl = x.bool();
            Ok(Stored)
        }),
        Opt::new("UCI_Chess960", Kind::Check(false), |v, _, x| {
            v.chess960 = x.bool();
            Ok(Rules)
        }),
        Opt::new(
            "UCI_Variant",
            Kind::combo(VARIANTS[0], VARIANTS),
            |v, _, x| {
                let game = VARIANTS.iter().find(|g| **g == x.text()).copied();
                match game {
                    Some(g) if g != v.variant => {
                        v.variant = g;
                        Ok(Variant)
                    }
                    _ => Ok(Stored),
                }
            },
        ),
        // The chess network evaluation: on by default when the build embeds a network (it beat
        // the hand-written evaluation by SPRT); `EvalFile` loads another net.
        Opt::new("Use NNUE", Kind::Check(nnue_by_default()), |v, _, x| {
            let on = x.bool();
            if on && v.net().is_none() {
                return Err("Use NNUE: this build embeds no network; set EvalFile first".into());
            }
            v.use_nnue = on;
            Ok(Engine)
        }),
        Opt::new("EvalFile", Kind::text(EVAL_FILE_DEFAULT), |v, _, x| {
            let file = x.text();
            if file.is_empty() || file == EVAL_FILE_DEFAULT {
                v.eval_file = EVAL_FILE_DEFAULT.into();
                v.network = None;
            } else {
                let bytes = std::fs::read(file).map_err(|e| format!("EvalFile {file}: {e}"))?;
                let net = load_network(&bytes).map_err(|e| format!("EvalFile {file}: {e}"))?;
                v.eval_file = file.to_string();
                v.network = Some(NetHandle(Arc::new(net)));
            }
            Ok(Engine)
        }),
        Opt::new("SyzygyPath", Kind::text(""), |v, _, x| {
            let path = if x.text() == "<empty>" { "" } else { x.text() };
            v.syzygy_path = path.to_string();
            Ok(if path.is_empty() {
                Stored
            } else {
                Note("SyzygyPath stored, but this build does not probe tablebases".into())
            })
        }),
        Opt::new("SyzygyProbeDepth", Kind::spin(1, 1, 100), |v, _, x| {
            v.syzygy_probe_depth = x.int();
            Ok(Stored)
        }),
        Opt::new("SyzygyProbeLimit", Kind::spin(7, 0, 7), |v, _, x| {
            v.syzygy_probe_limit = x.int();
            Ok(Stored)
        }),
    ];
    if cfg!(feature = "tuning") {
        let defaults = Params::DEFAULT;
        for p in TUNABLE {
            let Some(default) = p.tuned_value(&defaults) else {
                continue;
            };
            let default = default as i64;
            t.push(Opt::new(
                p.name,
                Kind::spin(default, p.min as i64, p.max as i64),
                |v, name, x| {
                    v.params.set(name, x.int() as i32);
                    Ok(Engine)
                },
            ));
        }
    }
    t
}

/// UCI's spellings: `true`/`false` exactly; errors as Stockfish words them.
pub const DIALECT: Dialect = Dialect {
    truths: &["true"],
    falsehoods: &["false"],
    fold_case: false,
    message: |name, kind, v, problem| {
        let v = v.unwrap_or("");
        match (problem, kind) {
            (Problem::Missing, Kind::Check(_)) => format!("{name} needs a value (true or false)"),
            (Problem::Missing, _) => format!("{name} needs a value"),
            (Problem::NotBool, _) => format!("{name} takes true or false, not '{v}'"),
            (Problem::OutOfRange, Kind::Spin { min, max, .. }) => {
                format!("{name} must lie in {min}..{max}, not {v}")
            }
            (Problem::NotOneOf, Kind::Combo { vars, .. }) => {
                format!(
                    "{name} '{v}' is not supported (one of: {})",
                    vars.join(", ")
                )
            }
            _ => format!("{name} takes a whole number, not '{v}'"),
        }
    },
};

/// The `option ...` line of a declaration.
pub fn declaration_line(d: &Opt<Values>) -> String {
    match &d.kind {
        Kind::Check(v) => format!("option name {} type check default {v}", d.name),
        Kind::Spin { default, min, max } => format!(
            "option name {} type spin default {default} min {min} max {max}",
            d.name
        ),
        // UCI has no real type (and declares no real option): shown as text.
        Kind::Real { default, .. } => {
            format!("option name {} type string default {default}", d.name)
        }
        Kind::Button => format!("option name {} type button", d.name),
        Kind::Str(v) => format!(
            "option name {} type string default {}",
            d.name,
            if v.is_empty() { "<empty>" } else { v }
        ),
        Kind::Combo { default, vars } => {
            let mut line = format!("option name {} type combo default {default}", d.name);
            for v in *vars {
                line.push_str(" var ");
                line.push_str(v);
            }
            line
        }
    }
}

/// `EvalFile`'s value while the embedded network is in use.
pub const EVAL_FILE_DEFAULT: &str = "<embedded>";

/// A loaded network, compared by identity (two loads of one file are two nets).
#[derive(Clone)]
pub struct NetHandle(pub Arc<Network>);

impl PartialEq for NetHandle {
    fn eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
}

impl Eq for NetHandle {}

impl std::fmt::Debug for NetHandle {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Network({}x{})", self.0.inputs, self.0.hidden)
    }
}

/// The current option values.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Values {
    pub threads: usize,
    pub hash_mb: usize,
    pub ponder: bool,
    pub multipv: usize,
    pub move_overhead_ms: u64,
    pub skill_level: i64,
    pub limit_strength: bool,
    pub elo: i64,
    pub show_wdl: bool,
    pub chess960: bool,
    /// The game the session plays (`UCI_Variant`), one of [`VARIANTS`].
    pub variant: &'static str,
    pub syzygy_path: String,
    pub syzygy_probe_depth: i64,
    pub syzygy_probe_limit: i64,
    /// Search parameters (options only in `tuning` builds).
    pub params: Params,
    /// `Use NNUE`: evaluate chess with the network.
    pub use_nnue: bool,
    /// `EvalFile` as given, and the network it loaded (`None`: the embedded one, if any).
    pub eval_file: String,
    pub network: Option<NetHandle>,
}

impl Default for Values {
    fn default() -> Self {
        Values {
            threads: 1,
            hash_mb: 16,
            ponder: false,
            multipv: 1,
            move_overhead_ms: 10,
            skill_level: 20,
            limit_strength: false,
            elo: elo_range().0,
            show_wdl: false,
            chess960: false,
            variant: VARIANTS[0],
            syzygy_path: String::new(),
            syzygy_probe_depth: 1,
            syzygy_probe_limit: 7,
            params: Params::DEFAULT,
            use_nnue: nnue_by_default(),
            eval_file: EVAL_FILE_DEFAULT.into(),
            network: None,
        }
    }
}

/// Splits `setoption`'s arguments into name and value.
pub fn split_setoption(args: &str) -> Result<(String, Option<String>), String> {
    let tokens: Vec<&str> = args.split_whitespace().collect();
    if tokens.first() != Some(&"name") {
        return Err("setoption needs 'name <id> [value <x>]'".into());
    }
    let value_at = tokens.iter().position(|&t| t == "value");
    let name_end = value_at.unwrap_or(tokens.len());
    let name = tokens[1..name_end].join(" ");
    if name.is_empty() {
        return Err("setoption without an option name".into());
    }
    let value = value_at.map(|i| tokens[i + 1..].join(" "));
    Ok((name, value))
}

impl Values {
    /// Applies `setoption name <name> value <value>`.
    pub fn set(&mut self, name: &str, value: Option<&str>) -> Result<Effect, String> {
        crate::options::set(&table(), self, name, value, &DIALECT)
            .unwrap_or_else(|| Err(format!("unknown option '{name}'")))
    }

    /// The chess network in force: `EvalFile`'s, else the embedded one (if the build has one).
    pub fn net(&self) -> Option<Arc<Network>> {
        match &self.network {
            Some(n) => Some(n.0.clone()),
            None => tetrarch::games::chess::nnue::embedded_network(),
        }
    }

    /// The strength-limiter level (0..20, fractional), or `None` at full strength.
    /// `UCI_LimitStrength` with `UCI_Elo` takes precedence over `Skill Level`.
    pub fn skill_level(&self) -> Option<f64> {
        if self.limit_strength {
            Some(self.elo_table().level(self.elo as i32))
        } else if self.skill_level < 20 {
            Some(self.skill_level as f64)
        } else {
            None
        }
    }
}

impl Values {
    /// The Elo table of the session's game.
    pub fn elo_table(&self) -> EloTable {
        match self.variant {
            "xiangqi" => xiangqi::strength::ELO,
            _ => chess::strength::ELO,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn setoption_splits_on_name_and_value() {
        assert_eq!(
            split_setoption("name Clear Hash").unwrap(),
            ("Clear Hash".to_string(), None)
        );
        assert_eq!(
            split_setoption("name Move Overhead value 30").unwrap(),
            ("Move Overhead".to_string(), Some("30".to_string()))
        );
        assert_eq!(
            split_setoption("name SyzygyPath value").unwrap(),
            ("SyzygyPath".to_string(), Some(String::new()))
        );
        assert!(split_setoption("value 3").is_err());
    }

    #[test]
    fn variant_is_a_combo_of_the_games() {
        let decls = table();
        let d = decls.iter().find(|d| d.name == "UCI_Variant").unwrap();
        assert_eq!(
            declaration_line(d),
            "option name UCI_Variant type combo default chess var chess var xiangqi"
        );
        let mut v = Values::default();
        assert_eq!(v.set("UCI_Variant", Some("chess")), Ok(Effect::Stored));
        assert_eq!(v.set("uci_variant", Some("Xiangqi")), Ok(Effect::Variant));
        assert_eq!(v.variant, "xiangqi");
        assert!(v.set("UCI_Variant", Some("shogi")).is_err());
        assert_eq!(v.variant, "xiangqi");
    }

    #[test]
    fn values_are_validated_and_kept_on_error() {
        let mut v = Values::default();
        assert_eq!(v.set("hash", Some("64")), Ok(Effect::Engine));
        assert_eq!(v.hash_mb, 64);
        assert!(v.set("Hash", Some("0")).is_err());
        assert!(v.set("Hash", Some("lots")).is_err());
        assert_eq!(v.hash_mb, 64);
        assert!(v.set("Ponder", Some("yes")).is_err());
        assert!(v.set("No Such Option", Some("1")).is_err());
        assert_eq!(v.set("SyzygyPath", Some("")), Ok(Effect::Stored));
        assert_eq!(v.set("SyzygyPath", Some("<empty>")), Ok(Effect::Stored));
        assert!(v.skill_level().is_none());
        v.set("UCI_LimitStrength", Some("true")).unwrap();
        v.set("UCI_Elo", Some("1500")).unwrap();
        let l = v.skill_level().unwrap();
        assert!(l > 0.0 && l < 20.0);
    }

    #[test]
    fn declared_defaults_are_the_values_defaults() {
        for o in table() {
            let mut v = Values::default();
            let text = crate::options::default_text(&o.kind);
            let effect = v.set(o.name, text.as_deref());
            assert!(effect.is_ok(), "{}: {effect:?}", o.name);
            assert_eq!(v, Values::default(), "{}", o.name);
        }
    }

    #[test]
    fn elo_levels_increase() {
        let mut last = -1.0;
        let (min, max) = elo_range();
        assert!(min <= 1320 && max >= 2300, "{min}..{max}");
        for variant in VARIANTS {
            let v = Values {
                variant,
                ..Values::default()
            };
            let t = v.elo_table();
            for elo in (min..=max).step_by(50) {
                let l = t.level(elo as i32);
                // At the lowest anchor itself the level is the clamped one below it.
                let inside = (t.min_elo() + 1..t.max_elo()).contains(&(elo as i32));
                assert!(l > last || (!inside && l == last), "{variant} {elo}: {l}");
                assert!(l < 20.0, "the limiter always limits");
                last = l;
            }
            last = -1.0;
        }
        let mut v = Values::default();
        v.set("UCI_LimitStrength", Some("true")).unwrap();
        v.set("UCI_Elo", Some(&min.to_string())).unwrap();
        let chess = v.skill_level().unwrap();
        v.set("UCI_Variant", Some("xiangqi")).unwrap();
        assert_eq!(
            v.skill_level(),
            Some(xiangqi::strength::ELO.level(min as i32))
        );
        assert_eq!(chess, chess::strength::ELO.level(min as i32));
    }

    #[cfg(feature = "tuning")]
    #[test]
    fn tuning_builds_expose_search_parameters() {
        let decls = table();
        assert!(decls.iter().any(|d| d.name == "rfp_margin"));
        let mut v = Values::default();
        assert_eq!(v.set("rfp_margin", Some("120")), Ok(Effect::Engine));
        assert_eq!(v.params.rfp_margin, 120);
        assert!(v.set("rfp_margin", Some("100000")).is_err());
    }
}
