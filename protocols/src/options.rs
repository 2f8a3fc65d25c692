//! The option core every protocol's settings go through: UCI's `setoption`, UCCI's
//! `setoption`, Hub's `set-param` and GTP's `tetrarch-set` differ only in spelling and printing.
//!
//! Scheme: a protocol declares each option once, as one [`Opt`] in its table: the name as the
//! protocol spells it, its [`Kind`] (check, spin, real, button, string or combo, with range and
//! default) and `set`, the one function that stores a checked [`Value`] into the protocol's
//! state and says what the session must do next (an [`Effect`]). [`set`] finds an option by name
//! (ignoring ASCII case), reads the text by its kind in the protocol's [`Dialect`] (how booleans
//! are spelled, how errors are worded) and calls its `set`; a bad value is refused before
//! anything is stored. No option name is matched anywhere else, and sessions handle effects by
//! an exhaustive `match`, so an option cannot be declared without its effect, nor an effect
//! added without a compile error where it is not yet handled.
//!
//! Adding an option is one entry in its protocol's table (and the field it sets). Printing is
//! the protocol's: `option name X type spin ...` (UCI), `option X type spin ...` (UCCI),
//! `param name=X value=... type=int ...` (Hub), each a function over [`Kind`].

/// What an option is, with its default (or, where a protocol prints current values, its value).
#[derive(Clone, Debug, PartialEq)]
pub enum Kind {
    Check(bool),
    Spin {
        default: i64,
        min: i64,
        max: i64,
    },
    Real {
        default: f64,
        min: f64,
        max: f64,
    },
    Button,
    Str(String),
    Combo {
        default: String,
        vars: &'static [&'static str],
    },
}

impl Kind {
    pub fn spin(default: i64, min: i64, max: i64) -> Kind {
        Kind::Spin { default, min, max }
    }

    pub fn real(default: f64, min: f64, max: f64) -> Kind {
        Kind::Real { default, min, max }
    }

    pub fn text(default: &str) -> Kind {
        Kind::Str(default.to_string())
    }

    pub fn combo(default: &str, vars: &'static [&'static str]) -> Kind {
        Kind::Combo {
            default: default.to_string(),
            vars,
        }
    }
}

/// A value read by its option's kind: a check gives `Bool`, a spin `Int` (within its range), a
/// real `Real` (finite, within its range), a string `Text` (empty when none was given), a combo
/// `Text` (one of its vars, as declared), a button `Press`.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    Bool(bool),
    Int(i64),
    Real(f64),
    Text(String),
    Press,
}

impl Value {
    /// The check's value (false for other kinds: `set` is only called with its own kind).
    pub fn bool(&self) -> bool {
        matches!(self, Value::Bool(true))
    }

    pub fn int(&self) -> i64 {
        match self {
            Value::Int(n) => *n,
            _ => 0,
        }
    }

    pub fn real(&self) -> f64 {
        match self {
            Value::Real(v) => *v,
            Value::Int(n) => *n as f64,
            _ => 0.0,
        }
    }

    pub fn text(&self) -> &str {
        match self {
            Value::Text(t) => t,
            _ => "",
        }
    }
}

/// What the session does once an option's value is stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Effect {
    /// Nothing more: the value is read when needed (or `set` already acted).
    Stored,
    /// The engine's shape changes (threads, table, strength, search parameters): applied to
    /// the engine, and refused while it searches.
    Engine,
    /// A rule or notation setting of the position (Chess960 castling text, the move limit):
    /// applied to the engine's position.
    Rules,
    ClearHash,
    NewGame,
    /// Another game: the session switches to it (UCI's `UCI_Variant`).
    Variant,
    /// Accepted, with a note for the user.
    Note(String),
}

impl Effect {
    /// Whether the option may only change while no search runs.
    pub fn needs_idle(&self) -> bool {
        match self {
            Effect::Engine | Effect::Variant => true,
            Effect::Stored
            | Effect::Rules
            | Effect::ClearHash
            | Effect::NewGame
            | Effect::Note(_) => false,
        }
    }
}

/// The setter of an option: stores a checked value into the state `S` (given the option's
/// declared name) and says what follows; it may still refuse (`Err`), having stored nothing.
pub type Setter<S> = fn(&mut S, &'static str, Value) -> Result<Effect, String>;

/// One declared option.
pub struct Opt<S> {
    pub name: &'static str,
    pub kind: Kind,
    pub set: Setter<S>,
}

impl<S> Opt<S> {
    pub fn new(name: &'static str, kind: Kind, set: Setter<S>) -> Opt<S> {
        Opt { name, kind, set }
    }
}

/// Why a value was refused, for the dialect's wording.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Problem {
    Missing,
    NotBool,
    NotInt,
    NotReal,
    OutOfRange,
    NotOneOf,
}

/// How a protocol spells values and words errors.
pub struct Dialect {
    /// Spellings of true and of false a check takes.
    pub truths: &'static [&'static str],
    pub falsehoods: &'static [&'static str],
    /// Whether check spellings compare ignoring ASCII case (the value is then shown lower-cased
    /// in errors, combo values too).
    pub fold_case: bool,
    /// The error text for a refused value: option name, its kind, the value as read (if any).
    pub message: fn(&str, &Kind, Option<&str>, Problem) -> String,
}

/// Reads `raw` (the text after the option's name, if any) by `opt`'s kind.
pub fn read<S>(opt: &Opt<S>, raw: Option<&str>, dialect: &Dialect) -> Result<Value, String> {
    let raw = raw.map(str::trim);
    let folded = raw.map(|v| {
        if dialect.fold_case {
            v.to_ascii_lowercase()
        } else {
            v.to_string()
        }
    });
    let err = |seen: Option<&str>, p: Problem| Err((dialect.message)(opt.name, &opt.kind, seen, p));
    match &opt.kind {
        Kind::Check(_) => match folded.as_deref() {
            Some(v) if dialect.truths.contains(&v) => Ok(Value::Bool(true)),
            Some(v) if dialect.falsehoods.contains(&v) => Ok(Value::Bool(false)),
            Some(v) => err(Some(v), Problem::NotBool),
            None => err(None, Problem::Missing),
        },
        Kind::Spin { min, max, .. } => {
            let Some(v) = raw else {
                return err(None, Problem::Missing);
            };
            match v.parse::<i64>() {
                Ok(n) if (*min..=*max).contains(&n) => Ok(Value::Int(n)),
                Ok(_) => err(Some(v), Problem::OutOfRange),
                Err(_) => err(Some(v), Problem::NotInt),
            }
        }
        Kind::Real { min, max, .. } => {
            let Some(v) = raw else {
                return err(None, Problem::Missing);
            };
            match v.parse::<f64>() {
                Ok(x) if x.is_finite() && *min <= x && x <= *max => Ok(Value::Real(x)),
                Ok(x) if x.is_finite() => err(Some(v), Problem::OutOfRange),
                _ => err(Some(v), Problem::NotReal),
            }
        }
        Kind::Button => Ok(Value::Press),
        Kind::Str(_) => Ok(Value::Text(raw.unwrap_or("").to_string())),
        Kind::Combo { vars, .. } => {
            let v = folded.unwrap_or_default();
            match vars.iter().find(|c| c.eq_ignore_ascii_case(&v)) {
                Some(c) => Ok(Value::Text(c.to_string())),
                None => err(Some(&v), Problem::NotOneOf),
            }
        }
    }
}

/// A kind's default as a protocol would send it (`None` for a button). Tests set every option
/// to it and expect the state's own defaults unchanged, so the two cannot drift apart.
#[cfg(test)]
pub fn default_text(kind: &Kind) -> Option<String> {
    match kind {
        Kind::Check(v) => Some(v.to_string()),
        Kind::Spin { default, .. } => Some(default.to_string()),
        Kind::Real { default, .. } => Some(default.to_string()),
        Kind::Button => None,
        Kind::Str(v) => Some(v.clone()),
        Kind::Combo { default, .. } => Some(default.clone()),
    }
}

/// The option named `name` (ignoring ASCII case).
pub fn find<'t, S>(table: &'t [Opt<S>], name: &str) -> Option<&'t Opt<S>> {
    table.iter().find(|o| o.name.eq_ignore_ascii_case(name))
}

/// Sets option `name` in `state` from `raw`: `None` when the table has no such option, else
/// what `set` said (nothing is stored on an error).
pub fn set<S>(
    table: &[Opt<S>],
    state: &mut S,
    name: &str,
    raw: Option<&str>,
    dialect: &Dialect,
) -> Option<Result<Effect, String>> {
    let opt = find(table, name)?;
    Some(read(opt, raw, dialect).and_then(|v| (opt.set)(state, opt.name, v)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Default)]
    struct State {
        on: bool,
        n: i64,
        x: f64,
        word: String,
    }

    fn table() -> Vec<Opt<State>> {
        vec![
            Opt::new("On", Kind::Check(false), |s, _, v| {
                s.on = v.bool();
                Ok(Effect::Stored)
            }),
            Opt::new("Count", Kind::spin(1, 1, 9), |s, _, v| {
                s.n = v.int();
                Ok(Effect::Engine)
            }),
            Opt::new("Rate", Kind::real(0.5, 0.0, 1.0), |s, _, v| {
                s.x = v.real();
                Ok(Effect::Stored)
            }),
            Opt::new("Word", Kind::combo("a", &["a", "Bee"]), |s, _, v| {
                s.word = v.text().to_string();
                Ok(Effect::Rules)
            }),
            Opt::new("Path", Kind::text(""), |s, _, v| {
                s.word = v.text().to_string();
                Ok(Effect::Stored)
            }),
        ]
    }

    const DIALECT: Dialect = Dialect {
        truths: &["true", "on"],
        falsehoods: &["false", "off"],
        fold_case: true,
        message: |name, _, v, p| format!("{name}: {p:?} {v:?}"),
    };

    #[test]
    fn values_are_read_by_kind_and_refused_before_storing() {
        let (t, mut s) = (table(), State::default());
        assert_eq!(
            set(&t, &mut s, "on", Some("ON"), &DIALECT),
            Some(Ok(Effect::Stored))
        );
        assert!(s.on);
        assert_eq!(
            set(&t, &mut s, "COUNT", Some(" 7 "), &DIALECT),
            Some(Ok(Effect::Engine))
        );
        assert_eq!(s.n, 7);
        for bad in ["0", "10", "x", ""] {
            assert!(matches!(
                set(&t, &mut s, "Count", Some(bad), &DIALECT),
                Some(Err(_))
            ));
        }
        assert!(matches!(
            set(&t, &mut s, "Count", None, &DIALECT),
            Some(Err(_))
        ));
        assert_eq!(s.n, 7);
        assert_eq!(
            set(&t, &mut s, "rate", Some("0.25"), &DIALECT),
            Some(Ok(Effect::Stored))
        );
        assert_eq!(s.x, 0.25);
        for bad in ["nan", "inf", "1.5", "-0.1"] {
            assert!(matches!(
                set(&t, &mut s, "Rate", Some(bad), &DIALECT),
                Some(Err(_))
            ));
        }
        assert_eq!(
            set(&t, &mut s, "word", Some("BEE"), &DIALECT),
            Some(Ok(Effect::Rules))
        );
        assert_eq!(s.word, "Bee", "a combo gives its declared spelling");
        assert_eq!(
            set(&t, &mut s, "Word", Some("c"), &DIALECT),
            Some(Err("Word: NotOneOf Some(\"c\")".into()))
        );
        assert_eq!(
            set(&t, &mut s, "Path", None, &DIALECT),
            Some(Ok(Effect::Stored))
        );
        assert_eq!(s.word, "");
        assert_eq!(set(&t, &mut s, "Nothing", Some("1"), &DIALECT), None);
    }

    #[test]
    fn only_engine_and_variant_changes_wait_for_the_search() {
        assert!(Effect::Engine.needs_idle() && Effect::Variant.needs_idle());
        assert!(!Effect::Stored.needs_idle() && !Effect::ClearHash.needs_idle());
    }
}
