//! UCI options: their declarations, current values and `setoption` parsing.
//!
//! Scheme: one table of [`Decl`]s in the order `uci` prints them; [`Values`] holds the typed
//! current values. `setoption` splits on the literal tokens `name` and `value` (names and
//! values may contain spaces), matches names case-insensitively, and rejects what Stockfish
//! rejects (a `check` other than `true`/`false`, a `spin` out of range or not a number), with
//! an error the loop prints as `info string error: ...`; the old value stays. Built with the
//! `tuning` feature, every search parameter of `search::params::TUNABLE` is also a spin
//! option (for SPSA tuners).

use std::sync::Arc;

use tetrarch::games::chess::nnue::load_network;
use tetrarch::nnue::Network;
use tetrarch::search::params::{Params, TUNABLE};

/// What an option is.
#[derive(Clone, Debug)]
pub enum Kind {
    Check(bool),
    Spin {
        default: i64,
        min: i64,
        max: i64,
    },
    Button,
    Str(&'static str),
    Combo {
        default: &'static str,
        vars: &'static [&'static str],
    },
}

/// One declared option.
#[derive(Clone, Debug)]
pub struct Decl {
    pub name: &'static str,
    pub kind: Kind,
}

/// The lowest and highest `UCI_Elo` the strength limiter offers.
pub const ELO_MIN: i64 = 1320;
pub const ELO_MAX: i64 = 2300;

/// The games `UCI_Variant` offers, by their Fairy-Stockfish names; the first is the default.
pub const VARIANTS: &[&str] = &["chess", "xiangqi"];

pub fn declarations() -> Vec<Decl> {
    use Kind::*;
    let mut decls = vec![
        Decl {
            name: "Threads",
            kind: Spin {
                default: 1,
                min: 1,
                max: 256,
            },
        },
        Decl {
            name: "Hash",
            kind: Spin {
                default: 16,
                min: 1,
                max: 65536,
            },
        },
        Decl {
            name: "Clear Hash",
            kind: Button,
        },
        Decl {
            name: "Ponder",
            kind: Check(false),
        },
        Decl {
            name: "MultiPV",
            kind: Spin {
                default: 1,
                min: 1,
                max: 256,
            },
        },
        Decl {
            name: "Move Overhead",
            kind: Spin {
                default: 10,
                min: 0,
                max: 5000,
            },
        },
        Decl {
            name: "Skill Level",
            kind: Spin {
                default: 20,
                min: 0,
                max: 20,
            },
        },
        Decl {
            name: "UCI_LimitStrength",
            kind: Check(false),
        },
        Decl {
            name: "UCI_Elo",
            kind: Spin {
                default: ELO_MIN,
                min: ELO_MIN,
                max: ELO_MAX,
            },
        },
        Decl {
            name: "UCI_ShowWDL",
            kind: Check(false),
        },
        Decl {
            name: "UCI_Chess960",
            kind: Check(false),
        },
        Decl {
            name: "UCI_Variant",
            kind: Combo {
                default: VARIANTS[0],
                vars: VARIANTS,
            },
        },
        // The chess network evaluation: `Use NNUE` switches it on, `EvalFile` loads another net.
        Decl {
            name: "Use NNUE",
            kind: Check(false),
        },
        Decl {
            name: "EvalFile",
            kind: Str(EVAL_FILE_DEFAULT),
        },
        Decl {
            name: "SyzygyPath",
            kind: Str(""),
        },
        Decl {
            name: "SyzygyProbeDepth",
            kind: Spin {
                default: 1,
                min: 1,
                max: 100,
            },
        },
        Decl {
            name: "SyzygyProbeLimit",
            kind: Spin {
                default: 7,
                min: 0,
                max: 7,
            },
        },
    ];
    if cfg!(feature = "tuning") {
        let defaults = Params::DEFAULT;
        for t in TUNABLE {
            decls.push(Decl {
                name: t.name,
                kind: Spin {
                    default: defaults.get(t.name).unwrap_or(t.min) as i64,
                    min: t.min as i64,
                    max: t.max as i64,
                },
            });
        }
    }
    decls
}

/// The `option ...` line of a declaration.
pub fn declaration_line(d: &Decl) -> String {
    match &d.kind {
        Kind::Check(v) => format!("option name {} type check default {v}", d.name),
        Kind::Spin { default, min, max } => format!(
            "option name {} type spin default {default} min {min} max {max}",
            d.name
        ),
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
            elo: ELO_MIN,
            show_wdl: false,
            chess960: false,
            variant: VARIANTS[0],
            syzygy_path: String::new(),
            syzygy_probe_depth: 1,
            syzygy_probe_limit: 7,
            params: Params::DEFAULT,
            use_nnue: false,
            eval_file: EVAL_FILE_DEFAULT.into(),
            network: None,
        }
    }
}

/// What a successful `setoption` changed, for the session to act on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Change {
    Threads,
    Hash,
    ClearHash,
    Strength,
    Chess960,
    /// `UCI_Variant` named another game: the session switches to it.
    Variant,
    /// A search parameter (`tuning` builds).
    Params,
    /// `Use NNUE` or `EvalFile`: the session rebuilds its evaluator.
    Eval,
    /// Stored; nothing else to do.
    Stored,
    /// Accepted, with a note for the user.
    Note(String),
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

fn check(name: &str, value: Option<&str>) -> Result<bool, String> {
    match value {
        Some("true") => Ok(true),
        Some("false") => Ok(false),
        Some(v) => Err(format!("{name} takes true or false, not '{v}'")),
        None => Err(format!("{name} needs a value (true or false)")),
    }
}

fn spin(decl: &Decl, value: Option<&str>) -> Result<i64, String> {
    let Kind::Spin { min, max, .. } = decl.kind else {
        unreachable!("spin() on a non-spin option")
    };
    let v = value.ok_or_else(|| format!("{} needs a value", decl.name))?;
    let n: i64 = v
        .parse()
        .map_err(|_| format!("{} takes a whole number, not '{v}'", decl.name))?;
    if n < min || n > max {
        return Err(format!("{} must lie in {min}..{max}, not {n}", decl.name));
    }
    Ok(n)
}

impl Values {
    /// Applies `setoption name <name> value <value>`.
    pub fn set(&mut self, name: &str, value: Option<&str>) -> Result<Change, String> {
        let decls = declarations();
        let Some(decl) = decls.iter().find(|d| d.name.eq_ignore_ascii_case(name)) else {
            return Err(format!("unknown option '{name}'"));
        };
        let value = value.map(str::trim);
        Ok(match decl.name {
            "Threads" => {
                self.threads = spin(decl, value)? as usize;
                Change::Threads
            }
            "Hash" => {
                self.hash_mb = spin(decl, value)? as usize;
                Change::Hash
            }
            "Clear Hash" => Change::ClearHash,
            "Ponder" => {
                self.ponder = check(decl.name, value)?;
                Change::Stored
            }
            "MultiPV" => {
                self.multipv = spin(decl, value)? as usize;
                Change::Stored
            }
            "Move Overhead" => {
                self.move_overhead_ms = spin(decl, value)? as u64;
                Change::Stored
            }
            "Skill Level" => {
                self.skill_level = spin(decl, value)?;
                Change::Strength
            }
            "UCI_LimitStrength" => {
                self.limit_strength = check(decl.name, value)?;
                Change::Strength
            }
            "UCI_Elo" => {
                self.elo = spin(decl, value)?;
                Change::Strength
            }
            "UCI_ShowWDL" => {
                self.show_wdl = check(decl.name, value)?;
                Change::Stored
            }
            "UCI_Chess960" => {
                self.chess960 = check(decl.name, value)?;
                Change::Chess960
            }
            "UCI_Variant" => {
                let v = value.unwrap_or("");
                let Some(&game) = VARIANTS.iter().find(|g| g.eq_ignore_ascii_case(v)) else {
                    return Err(format!(
                        "UCI_Variant '{v}' is not supported (one of: {})",
                        VARIANTS.join(", ")
                    ));
                };
                if game == self.variant {
                    Change::Stored
                } else {
                    self.variant = game;
                    Change::Variant
                }
            }
            "Use NNUE" => {
                let on = check(decl.name, value)?;
                if on && self.net().is_none() {
                    return Err("Use NNUE: this build embeds no network; set EvalFile first".into());
                }
                self.use_nnue = on;
                Change::Eval
            }
            "EvalFile" => {
                let v = value.unwrap_or("");
                if v.is_empty() || v == EVAL_FILE_DEFAULT {
                    self.eval_file = EVAL_FILE_DEFAULT.into();
                    self.network = None;
                } else {
                    let bytes = std::fs::read(v).map_err(|e| format!("EvalFile {v}: {e}"))?;
                    let net = load_network(&bytes).map_err(|e| format!("EvalFile {v}: {e}"))?;
                    self.eval_file = v.to_string();
                    self.network = Some(NetHandle(Arc::new(net)));
                }
                Change::Eval
            }
            "SyzygyPath" => {
                let v = value.unwrap_or("");
                let v = if v == "<empty>" { "" } else { v };
                self.syzygy_path = v.to_string();
                if v.is_empty() {
                    Change::Stored
                } else {
                    Change::Note(
                        "SyzygyPath stored, but this build does not probe tablebases".into(),
                    )
                }
            }
            "SyzygyProbeDepth" => {
                self.syzygy_probe_depth = spin(decl, value)?;
                Change::Stored
            }
            "SyzygyProbeLimit" => {
                self.syzygy_probe_limit = spin(decl, value)?;
                Change::Stored
            }
            tuned if TUNABLE.iter().any(|t| t.name == tuned) => {
                let n = spin(decl, value)?;
                self.params.set(tuned, n as i32);
                Change::Params
            }
            other => return Err(format!("option '{other}' is declared but not handled")),
        })
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
            Some(elo_to_level(self.elo))
        } else if self.skill_level < 20 {
            Some(self.skill_level as f64)
        } else {
            None
        }
    }
}

/// Maps a target Elo to a strength level, linearly between anchors measured against
/// Stockfish 15.1's `UCI_Elo` ladder at 5+0.05 (40-game matches, so about +/-110 each): level
/// 2.25 scored -168 against Stockfish at 1500 (about 1330), level 8.5 scored -127 against
/// Stockfish at 2000 (about 1870), and full strength scored +52 against 2200 and +21 against
/// 2400 over 100 games each (taken as 2300). Levels at or above 20 are full strength, so
/// `ELO_MAX` is the full engine's own rating on that ladder.
pub fn elo_to_level(elo: i64) -> f64 {
    // (Elo, level) anchors, increasing.
    const ANCHORS: [(f64, f64); 3] = [(1320.0, 2.1), (1870.0, 8.5), (2300.0, 19.9)];
    let e = elo as f64;
    if e <= ANCHORS[0].0 {
        return ANCHORS[0].1;
    }
    for w in ANCHORS.windows(2) {
        let ((e0, l0), (e1, l1)) = (w[0], w[1]);
        if e <= e1 {
            return l0 + (l1 - l0) * (e - e0) / (e1 - e0);
        }
    }
    ANCHORS[ANCHORS.len() - 1].1
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
        let decls = declarations();
        let d = decls.iter().find(|d| d.name == "UCI_Variant").unwrap();
        assert_eq!(
            declaration_line(d),
            "option name UCI_Variant type combo default chess var chess var xiangqi"
        );
        let mut v = Values::default();
        assert_eq!(v.set("UCI_Variant", Some("chess")), Ok(Change::Stored));
        assert_eq!(v.set("uci_variant", Some("Xiangqi")), Ok(Change::Variant));
        assert_eq!(v.variant, "xiangqi");
        assert!(v.set("UCI_Variant", Some("shogi")).is_err());
        assert_eq!(v.variant, "xiangqi");
    }

    #[test]
    fn values_are_validated_and_kept_on_error() {
        let mut v = Values::default();
        assert_eq!(v.set("hash", Some("64")), Ok(Change::Hash));
        assert_eq!(v.hash_mb, 64);
        assert!(v.set("Hash", Some("0")).is_err());
        assert!(v.set("Hash", Some("lots")).is_err());
        assert_eq!(v.hash_mb, 64);
        assert!(v.set("Ponder", Some("yes")).is_err());
        assert!(v.set("No Such Option", Some("1")).is_err());
        assert_eq!(v.set("SyzygyPath", Some("")), Ok(Change::Stored));
        assert_eq!(v.set("SyzygyPath", Some("<empty>")), Ok(Change::Stored));
        assert!(v.skill_level().is_none());
        v.set("UCI_LimitStrength", Some("true")).unwrap();
        v.set("UCI_Elo", Some("1500")).unwrap();
        let l = v.skill_level().unwrap();
        assert!(l > 0.0 && l < 20.0);
    }

    #[test]
    fn elo_levels_increase() {
        let mut last = -1.0;
        for elo in (ELO_MIN..=ELO_MAX).step_by(50) {
            let l = elo_to_level(elo);
            assert!(l > last || (l == last && l == 0.0), "{elo}: {l}");
            assert!(l < 20.0);
            last = l;
        }
    }

    #[cfg(feature = "tuning")]
    #[test]
    fn tuning_builds_expose_search_parameters() {
        let decls = declarations();
        assert!(decls.iter().any(|d| d.name == "rfp_margin"));
        let mut v = Values::default();
        assert_eq!(v.set("rfp_margin", Some("120")), Ok(Change::Params));
        assert_eq!(v.params.rfp_margin, 120);
        assert!(v.set("rfp_margin", Some("100000")).is_err());
    }
}
