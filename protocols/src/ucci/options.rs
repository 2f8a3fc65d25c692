//! UCCI options: the `option` lines `ucci` prints and `setoption <name> [<value>]`.
//!
//! Scheme: UCCI names are single lower-case words with no `name`/`value` keywords
//! (`setoption hashsize 64`). One table of [`Decl`]s in print order; [`Values`] holds the typed
//! values. Booleans take `true`/`on` or `false`/`off` (ElephantEye's spellings). A name the
//! table does not know is accepted and ignored, as the UCCI text asks (XQWizard sends options
//! without reading the list); a bad value for a known option is an error and the old value
//! stays. Options for things this engine does not have (opening book, endgame tables, the
//! advisor-promotion variant) are declared off, accept being turned off, and answer an error
//! when turned on.

/// What an option is.
#[derive(Clone, Debug)]
pub enum Kind {
    Check(bool),
    Spin { default: i64, min: i64, max: i64 },
    Combo(&'static str, &'static [&'static str]),
    Str,
    Button,
}

#[derive(Clone, Debug)]
pub struct Decl {
    pub name: &'static str,
    pub kind: Kind,
}

const LEVELS: &[&str] = &["none", "small", "medium", "large"];

pub fn declarations() -> Vec<Decl> {
    use Kind::*;
    vec![
        Decl {
            name: "usemillisec",
            kind: Check(false),
        },
        Decl {
            name: "batch",
            kind: Check(false),
        },
        Decl {
            name: "debug",
            kind: Check(false),
        },
        Decl {
            name: "ponder",
            kind: Check(false),
        },
        Decl {
            name: "usebook",
            kind: Check(false),
        },
        Decl {
            name: "useegtb",
            kind: Check(false),
        },
        Decl {
            name: "bookfiles",
            kind: Str,
        },
        Decl {
            name: "egtbpaths",
            kind: Str,
        },
        Decl {
            name: "hashsize",
            kind: Spin {
                default: 16,
                min: 0,
                max: 65536,
            },
        },
        Decl {
            name: "threads",
            kind: Spin {
                default: 1,
                min: 0,
                max: 256,
            },
        },
        Decl {
            name: "drawmoves",
            kind: Spin {
                default: 60,
                min: 0,
                max: 500,
            },
        },
        Decl {
            name: "move_overhead",
            kind: Spin {
                default: 10,
                min: 0,
                max: 5000,
            },
        },
        Decl {
            name: "promotion",
            kind: Check(false),
        },
        Decl {
            name: "idle",
            kind: Combo("none", LEVELS),
        },
        Decl {
            name: "pruning",
            kind: Combo("large", LEVELS),
        },
        Decl {
            name: "knowledge",
            kind: Combo("large", LEVELS),
        },
        Decl {
            name: "randomness",
            kind: Combo("none", LEVELS),
        },
        Decl {
            name: "newgame",
            kind: Button,
        },
    ]
}

/// The `option ...` line of a declaration, in UCCI's layout.
pub fn declaration_line(d: &Decl) -> String {
    match &d.kind {
        Kind::Check(v) => format!("option {} type check default {v}", d.name),
        Kind::Spin { default, min, max } => format!(
            "option {} type spin min {min} max {max} default {default}",
            d.name
        ),
        Kind::Combo(default, vars) => {
            let vars: Vec<String> = vars.iter().map(|v| format!("var {v}")).collect();
            format!(
                "option {} type combo {} default {default}",
                d.name,
                vars.join(" ")
            )
        }
        Kind::Str => format!("option {} type string default <empty>", d.name),
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

/// What a `setoption` changed, for the session to act on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Change {
    Hash,
    Threads,
    MoveLimit,
    Overhead,
    NewGame,
    /// Stored, nothing else to do.
    Stored,
    /// Not an option of this engine: ignored, as UCCI asks.
    Ignored,
}

fn boolean(name: &str, value: Option<&str>) -> Result<bool, String> {
    match value.map(str::to_ascii_lowercase).as_deref() {
        Some("true" | "on") => Ok(true),
        Some("false" | "off") => Ok(false),
        Some(v) => Err(format!("{name} takes true/on or false/off, not '{v}'")),
        None => Err(format!("{name} needs a value (true or false)")),
    }
}

fn spin(name: &str, min: i64, max: i64, value: Option<&str>) -> Result<i64, String> {
    let v = value.ok_or_else(|| format!("{name} needs a number"))?;
    let n: i64 = v
        .parse()
        .map_err(|_| format!("{name} takes a whole number, not '{v}'"))?;
    if n < min || n > max {
        return Err(format!("{name} must lie in {min}..{max}, not {n}"));
    }
    Ok(n)
}

impl Values {
    /// Applies `setoption <name> [<value>]`; `args` is everything after `setoption`.
    pub fn set(&mut self, args: &str) -> Result<Change, String> {
        let mut words = args.split_whitespace();
        let Some(name) = words.next() else {
            return Err("setoption needs an option name".into());
        };
        let rest: Vec<&str> = words.collect();
        let value = (!rest.is_empty()).then(|| rest.join(" "));
        let value = value.as_deref();
        let lower = name.to_ascii_lowercase();
        let decls = declarations();
        let Some(decl) = decls.iter().find(|d| d.name == lower) else {
            return Ok(Change::Ignored);
        };
        let name = decl.name;
        Ok(match (name, &decl.kind) {
            ("usemillisec", _) => {
                self.millisec = boolean(name, value)?;
                Change::Stored
            }
            ("batch", _) => {
                self.batch = boolean(name, value)?;
                Change::Stored
            }
            ("debug", _) => {
                self.debug = boolean(name, value)?;
                Change::Stored
            }
            ("ponder", _) => {
                self.ponder = boolean(name, value)?;
                Change::Stored
            }
            ("usebook" | "useegtb" | "promotion", _) => {
                if boolean(name, value)? {
                    return Err(format!("{name} is not available in this engine"));
                }
                Change::Stored
            }
            ("bookfiles" | "egtbpaths", _) => Change::Stored,
            ("hashsize", Kind::Spin { min, max, .. }) => {
                // 0 means "the engine decides": the default.
                let n = spin(name, *min, *max, value)?;
                self.hash_mb = if n == 0 { 16 } else { n as usize };
                Change::Hash
            }
            ("threads", Kind::Spin { min, max, .. }) => {
                let n = spin(name, *min, *max, value)?;
                self.threads = if n == 0 {
                    std::thread::available_parallelism().map_or(1, |n| n.get())
                } else {
                    n as usize
                };
                Change::Threads
            }
            ("drawmoves", Kind::Spin { min, max, .. }) => {
                self.draw_moves = spin(name, *min, *max, value)? as u32;
                Change::MoveLimit
            }
            ("move_overhead", Kind::Spin { min, max, .. }) => {
                self.move_overhead_ms = spin(name, *min, *max, value)? as u64;
                Change::Overhead
            }
            (_, Kind::Combo(_, vars)) => {
                let v = value.unwrap_or("").to_ascii_lowercase();
                if !vars.contains(&v.as_str()) {
                    return Err(format!(
                        "{name} takes one of {}, not '{v}'",
                        vars.join(", ")
                    ));
                }
                Change::Stored
            }
            ("newgame", _) => Change::NewGame,
            _ => Change::Ignored,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_follow_ucci_layout() {
        let lines: Vec<String> = declarations().iter().map(declaration_line).collect();
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
    fn values_parse_without_keywords_and_keep_old_values_on_error() {
        let mut v = Values::default();
        assert_eq!(v.set("hashsize 64"), Ok(Change::Hash));
        assert_eq!(v.hash_mb, 64);
        assert!(v.set("hashsize lots").is_err());
        assert!(v.set("hashsize -3").is_err());
        assert_eq!(v.hash_mb, 64);
        assert_eq!(v.set("usemillisec on"), Ok(Change::Stored));
        assert!(v.millisec);
        assert_eq!(v.set("UseMillisec false"), Ok(Change::Stored));
        assert!(!v.millisec);
        assert!(v.set("batch maybe").is_err());
        assert_eq!(v.set("nosuchoption 3"), Ok(Change::Ignored));
        assert_eq!(v.set("newgame"), Ok(Change::NewGame));
        assert!(v.set("usebook true").is_err());
        assert_eq!(v.set("usebook false"), Ok(Change::Stored));
        assert!(v.set("idle huge").is_err());
        assert_eq!(v.set("idle medium"), Ok(Change::Stored));
        assert_eq!(v.set("drawmoves 50"), Ok(Change::MoveLimit));
        assert_eq!(v.draw_moves, 50);
        assert_eq!(v.set("Move_Overhead 100"), Ok(Change::Overhead));
        assert_eq!(v.move_overhead_ms, 100);
        assert!(v.set("move_overhead -1").is_err());
        assert_eq!(v.move_overhead_ms, 100);
        assert!(v.set("").is_err());
    }
}
