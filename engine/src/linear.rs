//! The linear form of a tunable evaluation, for fitting its weights to game results.
//!
//! Scheme: a hand-written evaluation is (almost) a linear function of its weight table: each
//! term adds a count times a midgame/endgame weight pair, and the two halves are blended by the
//! game phase. For one position, [`LinearForm`] holds that function explicitly: per weight pair
//! the coefficient of its midgame and of its endgame half (the phase blend, drawish scaling and
//! any final factor folded in), plus a constant for the parts no tunable weight moves (mop-up).
//! King danger, quadratic in attack units that are themselves a weighted count, is the one
//! non-linear part an evaluation may state too: a [`Quadratic`] term `factor * min(cap,
//! max(0, units)^2 / div)` whose units are linear in some weights' midgame halves. So
//! `form.value(weights)` is the evaluation under any other table, up to integer rounding, and
//! a tuner extracts the forms once and then fits the table by gradient descent without running
//! the evaluation again. An evaluator offers this
//! through [`LinearEval`], next to `Evaluator::evaluate`; its tests check that the form
//! reproduces `evaluate`. Values are from the first player's view (White, Red), as game results
//! are recorded.
//!
//! The tables themselves are declared with [`weights!`](crate::weights): each field's name,
//! type and default once, in the order the table is visited; the macro derives the walk
//! (`visit_mut`, `weight_list`), the flat index of a field (`flat_index`, for tracers), the
//! flat round trip (`from_flat`), the overlay of a tuned table by term name (`overlay`) and the writer of the
//! tuned file (`tuned_source`). A tuned file lists terms by name, so a term added to the
//! table after the file was written keeps its default there: a new term is the table's line
//! and the evaluation's use of it.
//!
//! Every evaluation reads its weights through one [`Sink`]: [`Play`] hands the values back,
//! [`Tracer`] also records each weight's count, the fixed part and the king-danger units, and
//! folds them into a [`FormBuilder`]; [`Summed`] adds the running sum for evaluations that
//! sum as they go. The game's code states each term once, for play and tuning alike.

use crate::game::{Evaluator, Position, Side};
use std::ops::{Add, AddAssign, Mul, Neg, Sub, SubAssign};

/// A midgame/endgame pair: the unit of every evaluation table.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[repr(C)]
pub struct S(pub i32, pub i32);

impl Add for S {
    type Output = S;
    #[inline(always)]
    fn add(self, o: S) -> S {
        S(self.0 + o.0, self.1 + o.1)
    }
}
impl Sub for S {
    type Output = S;
    #[inline(always)]
    fn sub(self, o: S) -> S {
        S(self.0 - o.0, self.1 - o.1)
    }
}
impl AddAssign for S {
    #[inline(always)]
    fn add_assign(&mut self, o: S) {
        self.0 += o.0;
        self.1 += o.1;
    }
}
impl SubAssign for S {
    #[inline(always)]
    fn sub_assign(&mut self, o: S) {
        self.0 -= o.0;
        self.1 -= o.1;
    }
}
impl Neg for S {
    type Output = S;
    #[inline(always)]
    fn neg(self) -> S {
        S(-self.0, -self.1)
    }
}
impl Mul<i32> for S {
    type Output = S;
    #[inline(always)]
    fn mul(self, k: i32) -> S {
        S(self.0 * k, self.1 * k)
    }
}

/// `N` pairs rising from `low` to `high` along `x^curve` (`x` from 0 to 1; each rise is
/// truncated towards zero): the shape of a hand-set mobility table.
pub fn ramp<const N: usize>(low: S, high: S, curve: f64) -> [S; N] {
    let mut out = [S(0, 0); N];
    for (i, v) in out.iter_mut().enumerate() {
        let x = (i as f64 / (N - 1).max(1) as f64).powf(curve);
        *v = S(
            low.0 + ((high.0 - low.0) as f64 * x) as i32,
            low.1 + ((high.1 - low.1) as f64 * x) as i32,
        );
    }
    out
}

/// A field of a weight table: a pair, an array (of arrays) of pairs, or such an array on the
/// heap ([`Heap`]), walked in memory order.
pub trait Pairs {
    /// The number of pairs in the field.
    const COUNT: usize;
    /// Calls `f` on every pair, in memory order.
    fn each_mut(&mut self, f: &mut dyn FnMut(&mut S));
    /// The index (in walk order) of the pair at address `at`, if it is one of this field's.
    fn locate(&self, at: usize) -> Option<usize>;
}

impl Pairs for S {
    const COUNT: usize = 1;
    #[inline]
    fn each_mut(&mut self, f: &mut dyn FnMut(&mut S)) {
        f(self)
    }
    #[inline]
    fn locate(&self, at: usize) -> Option<usize> {
        (self as *const S as usize == at).then_some(0)
    }
}

impl<T: Pairs, const N: usize> Pairs for [T; N] {
    const COUNT: usize = N * T::COUNT;
    #[inline]
    fn each_mut(&mut self, f: &mut dyn FnMut(&mut S)) {
        for t in self.iter_mut() {
            t.each_mut(f);
        }
    }
    #[inline]
    fn locate(&self, at: usize) -> Option<usize> {
        // An array's elements lie one after another: find the element by its address range,
        // then the pair inside it (which may be a heap field of its own).
        let start = self.as_ptr() as usize;
        let size = std::mem::size_of::<T>();
        if at < start || at >= start + N * size {
            return None;
        }
        let k = (at - start) / size;
        self[k].locate(at).map(|i| k * T::COUNT + i)
    }
}

/// A field kept on the heap: a large table (the draughts patterns, some ten thousand pairs)
/// that would make the weight table too big to build or move on a thread's stack. It walks,
/// locates and counts as the array it holds; build one with [`heap`].
pub type Heap<T> = Box<T>;

impl<T: Pairs> Pairs for Box<T> {
    const COUNT: usize = T::COUNT;
    #[inline]
    fn each_mut(&mut self, f: &mut dyn FnMut(&mut S)) {
        (**self).each_mut(f)
    }
    #[inline]
    fn locate(&self, at: usize) -> Option<usize> {
        (**self).locate(at)
    }
}

/// An `M` by `N` table of `fill` on the heap, built there (never whole on the stack).
pub fn heap<const N: usize, const M: usize>(fill: S) -> Heap<[[S; N]; M]> {
    let rows: Box<[[S; N]]> = (0..M).map(|_| [fill; N]).collect();
    rows.try_into()
        .unwrap_or_else(|_| unreachable!("M rows were collected"))
}

/// A tuned table as its generated file states it: each term's name and its pairs in visit
/// order. Terms the table has and the file lacks keep their defaults ([`weights!`]'s
/// `overlay`).
pub type Tuned = &'static [(&'static str, &'static [(i32, i32)])];

/// The `doc` a generated table file was written with (the inverse of [`table_source`]'s
/// module documentation), so a test can check that the writer reproduces a file exactly.
pub fn generated_doc(file: &str) -> String {
    let doc: Vec<&str> = file
        .lines()
        .skip(2)
        .take_while(|l| !l.starts_with("//! Generated:"))
        .map(|l| l.strip_prefix("//! ").unwrap_or(""))
        .collect();
    // The blank `//!` line before `Generated:` is the writer's own.
    doc[..doc.len().saturating_sub(1)].join("\n")
}

/// Replaces absolute paths in `doc` by their file names: a generated file must not carry the
/// layout of the machine it was written on.
pub fn portable_doc(doc: &str) -> String {
    fn portable(token: &str) -> String {
        token
            .split(',')
            .map(|part| {
                let absolute = part.starts_with('/')
                    || part.starts_with('~')
                    || part.as_bytes().get(1..3) == Some(b":\\");
                if absolute {
                    part.rsplit(['/', '\\']).next().unwrap_or(part)
                } else {
                    part
                }
            })
            .collect::<Vec<_>>()
            .join(",")
    }
    doc.lines()
        .map(|line| line.split(' ').map(portable).collect::<Vec<_>>().join(" "))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The Rust source of a tuned table: a module documentation of `title` and `doc` (absolute
/// paths reduced to file names), then `pub(crate) const NAME: Tuned` listing `terms` by name
/// in visit order. A term of more than four board rows (`row` pairs each) is written a row to
/// a line; a shorter one on one line when it fits in 100 columns, else wrapped there.
pub fn table_source(
    title: &str,
    doc: &str,
    konst: &str,
    row: usize,
    terms: &[(&str, Vec<S>)],
) -> String {
    let mut out = format!("//! {title}\n//!\n");
    for line in portable_doc(doc).lines() {
        out.push_str(format!("//! {line}").trim_end());
        out.push('\n');
    }
    out.push_str(
        "//!\n//! Generated: regenerate with the tuner rather than edit by hand. Terms are listed \
         by name;\n//! a term of `weights.rs` missing here keeps its default there.\n\n",
    );
    out.push_str("/// Every term's `(midgame, endgame)` pairs, in visit order.\n");
    out.push_str("#[rustfmt::skip]\n");
    out.push_str(&format!(
        "pub(crate) const {konst}: crate::linear::Tuned = &[\n"
    ));
    let pair = |s: &S| format!("({}, {})", s.0, s.1);
    for (name, v) in terms {
        let items: Vec<String> = v.iter().map(pair).collect();
        let one_line = format!("    (\"{name}\", &[{}]),", items.join(", "));
        if v.len() <= 4 * row && one_line.len() <= 100 {
            out.push_str(&one_line);
            out.push('\n');
            continue;
        }
        out.push_str(&format!("    (\"{name}\", &[\n"));
        if v.len() > 4 * row {
            for chunk in items.chunks(row) {
                out.push_str(&format!("        {},\n", chunk.join(", ")));
            }
        } else {
            let mut line = String::from("       ");
            for item in &items {
                if line.len() + item.len() + 2 > 100 {
                    out.push_str(&line);
                    out.push('\n');
                    line = String::from("       ");
                }
                line.push(' ');
                line.push_str(item);
                line.push(',');
            }
            out.push_str(&line);
            out.push('\n');
        }
        out.push_str("    ]),\n");
    }
    out.push_str("];\n");
    out
}

/// Declares an evaluation's weight table once: each field with its documentation, type (a
/// pair or arrays of pairs) and default, in the order the table is visited and laid out.
///
/// ```ignore
/// weights! {
///     /// The evaluation's weights.
///     #[derive(Clone, Debug, PartialEq)]
///     pub struct Weights for "chess", rows 8, defaults geometric {
///         /// Pawn, knight, bishop, rook, queen.
///         pub material: [S; 5] = [S(80, 100), ...],
///         pub tempo: S = S(18, 8),
///     }
/// }
/// ```
///
/// The struct is `repr(C)`, so it is one flat array of pairs in declaration order, but for
/// [`Heap`] fields, whose pairs live behind a pointer (and still count in declaration order).
/// Derived:
/// `defaults()` (under the given name), `LEN`, `visit_mut`, `len`, `flat_index`, `from_flat`,
/// `overlay` (a [`Tuned`] file's terms by name over a table) and `overlay_errors`, `to_text`
/// and `parse_over` (one `name mg eg` line per pair, `name_i` inside an array), and
/// `tuned_source` (the generated file's text, `rows` pairs to a line for board tables).
#[macro_export]
macro_rules! weights {
    (
        $(#[$meta:meta])*
        $vis:vis struct $name:ident for $game:literal, rows $row:literal, defaults $defaults:ident {
            $(
                $(#[$fmeta:meta])*
                $fvis:vis $field:ident : $ty:ty = $default:expr
            ),* $(,)?
        }
    ) => {
        $(#[$meta])*
        #[repr(C)]
        $vis struct $name {
            $( $(#[$fmeta])* $fvis $field: $ty, )*
        }

        // Not every table uses every derived method.
        #[allow(dead_code)]
        impl $name {
            /// The number of weight pairs.
            pub const LEN: usize = 0 $( + <$ty as $crate::linear::Pairs>::COUNT )*;

            /// The table as each field's declaration states its default.
            pub fn $defaults() -> $name {
                $name { $( $field: $default, )* }
            }

            /// Visits every weight as `(term name, index within the term, pair)`, in
            /// declaration (and memory) order.
            pub fn visit_mut(&mut self, mut f: impl FnMut(&'static str, usize, &mut $crate::linear::S)) {
                $(
                    let mut i = 0;
                    $crate::linear::Pairs::each_mut(&mut self.$field, &mut |s| {
                        f(stringify!($field), i, s);
                        i += 1;
                    });
                )*
            }

            /// Every pair with its term's name and index within the term, in visit order: an
            /// evaluator's `LinearEval::weight_list`.
            pub fn weight_list(&self) -> Vec<$crate::linear::WeightInfo> {
                let mut out = Vec::with_capacity(Self::LEN);
                self.clone().visit_mut(|name, index, s| {
                    out.push($crate::linear::WeightInfo {
                        name,
                        index,
                        mg: s.0,
                        eg: s.1,
                    })
                });
                out
            }

            /// The number of pairs [`visit_mut`](Self::visit_mut) walks.
            pub fn len(&self) -> usize {
                Self::LEN
            }

            pub fn is_empty(&self) -> bool {
                Self::LEN == 0
            }

            /// The flat index (in [`visit_mut`](Self::visit_mut) order) of `field`, a pair
            /// of `table`. Panics if it is not one.
            #[inline]
            pub fn flat_index(table: &$name, field: &$crate::linear::S) -> usize {
                let at = field as *const $crate::linear::S as usize;
                let mut offset = 0;
                $(
                    if let Some(i) = $crate::linear::Pairs::locate(&table.$field, at) {
                        return offset + i;
                    }
                    offset += <$ty as $crate::linear::Pairs>::COUNT;
                )*
                panic!("a pair outside the {} table (of {} pairs)", $game, offset)
            }

            /// `base` with every pair replaced by `values`, in visit order.
            pub fn from_flat(base: &$name, values: &[(i32, i32)]) -> Result<$name, String> {
                if values.len() != Self::LEN {
                    return Err(format!(
                        "the {} table has {} weight pairs, not {}",
                        $game,
                        Self::LEN,
                        values.len()
                    ));
                }
                let mut w = base.clone();
                let mut i = 0;
                w.visit_mut(|_, _, s| {
                    *s = $crate::linear::S(values[i].0, values[i].1);
                    i += 1;
                });
                Ok(w)
            }

            /// Sets term `name` to `values`; an unknown name or a wrong count is an error.
            fn set_term(&mut self, name: &str, values: &[(i32, i32)]) -> Result<(), String> {
                $(
                    if name == stringify!($field) {
                        let n = <$ty as $crate::linear::Pairs>::COUNT;
                        if values.len() != n {
                            return Err(format!(
                                "{}: {} pairs, not {}", name, values.len(), n
                            ));
                        }
                        let mut i = 0;
                        $crate::linear::Pairs::each_mut(&mut self.$field, &mut |s| {
                            *s = $crate::linear::S(values[i].0, values[i].1);
                            i += 1;
                        });
                        return Ok(());
                    }
                )*
                Err(format!("{}: no such term", name))
            }

            /// `self` with the terms of `table` (a tuned file) put over it; terms the file
            /// lacks keep their values. Entries that do not fit the table (see
            /// [`overlay_errors`](Self::overlay_errors), which the tests check) are skipped.
            pub fn overlay(mut self, table: $crate::linear::Tuned) -> $name {
                for &(name, values) in table {
                    let _ = self.set_term(name, values);
                }
                self
            }

            /// What in `table` does not fit this table: unknown names, wrong pair counts.
            pub fn overlay_errors(table: $crate::linear::Tuned) -> Vec<String> {
                let mut w = Self::$defaults();
                table
                    .iter()
                    .filter_map(|&(name, values)| w.set_term(name, values).err())
                    .collect()
            }

            /// The terms with their pairs, in visit order.
            fn terms(&self) -> Vec<(&'static str, Vec<$crate::linear::S>)> {
                let mut terms: Vec<(&'static str, Vec<$crate::linear::S>)> = Vec::new();
                self.clone().visit_mut(|name, _, s| match terms.last_mut() {
                    Some((n, v)) if *n == name => v.push(*s),
                    _ => terms.push((name, vec![*s])),
                });
                terms
            }

            /// The text name of each pair: the term's name, with `_i` inside an array.
            fn pair_names() -> Vec<String> {
                let mut names = Vec::with_capacity(Self::LEN);
                $(
                    let n = <$ty as $crate::linear::Pairs>::COUNT;
                    for i in 0..n {
                        names.push(if n == 1 && stringify!($ty) == "S" {
                            stringify!($field).to_string()
                        } else {
                            format!("{}_{}", stringify!($field), i)
                        });
                    }
                )*
                names
            }

            /// The table as text: one `name mg eg` line per pair.
            pub fn to_text(&self) -> String {
                let names = Self::pair_names();
                let mut out = String::new();
                let mut k = 0;
                self.clone().visit_mut(|_, _, s| {
                    out.push_str(&format!("{} {} {}\n", names[k], s.0, s.1));
                    k += 1;
                });
                out
            }

            /// Reads `name mg eg` lines over a copy of `self`; blank lines and `#` comments
            /// are skipped. An unknown name or a malformed line is an error naming it.
            pub fn parse_over(&self, text: &str) -> Result<$name, String> {
                // By name through a map: a table of pattern weights has tens of thousands.
                let names: ::std::collections::HashMap<String, usize> = Self::pair_names()
                    .into_iter()
                    .enumerate()
                    .map(|(i, n)| (n, i))
                    .collect();
                let mut values = Vec::with_capacity(Self::LEN);
                self.clone().visit_mut(|_, _, s| values.push((s.0, s.1)));
                for (n, line) in text.lines().enumerate() {
                    let line = line.split('#').next().unwrap_or("").trim();
                    if line.is_empty() {
                        continue;
                    }
                    let fields: Vec<&str> = line.split_whitespace().collect();
                    let [name, mg, eg] = fields[..] else {
                        return Err(format!("line {}: expected 'name mg eg'", n + 1));
                    };
                    let i = *names
                        .get(name)
                        .ok_or_else(|| format!("line {}: unknown weight '{name}'", n + 1))?;
                    let parse = |t: &str| {
                        t.parse::<i32>()
                            .ok()
                            .filter(|v| v.abs() <= 10_000)
                            .ok_or_else(|| format!("line {}: '{t}' is not a weight", n + 1))
                    };
                    values[i] = (parse(mg)?, parse(eg)?);
                }
                Self::from_flat(self, &values)
            }

            /// The table as the Rust source of the game's `tuned.rs` (the constant `TUNED`),
            /// with `doc` in the module documentation.
            pub fn tuned_source(&self, doc: &str) -> String {
                self.table_source(doc, "TUNED")
            }

            /// The table as a generated file defining the constant `konst`.
            pub fn table_source(&self, doc: &str, konst: &str) -> String {
                $crate::linear::table_source(
                    &format!(
                        "The {} evaluation's weights fitted by `tetrarch-tune texel`.",
                        $game
                    ),
                    doc,
                    konst,
                    $row,
                    &self.terms(),
                )
            }
        }
    };
}

/// One weight pair's part in a position's linear form.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Term {
    /// Index of the pair in the evaluator's flat weight list ([`LinearEval::weight_list`]).
    pub index: u32,
    /// Coefficient of the pair's midgame half.
    pub mg: f32,
    /// Coefficient of the pair's endgame half.
    pub eg: f32,
}

/// A term quadratic in attack units: `factor * min(cap, max(0, units)^2 / div)`, where
/// `units = constant + sum(coefficient * midgame half of the weight)`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Quadratic {
    /// (weight index, coefficient of its midgame half).
    pub units: Vec<(u32, f32)>,
    pub constant: f32,
    pub div: f32,
    pub cap: f32,
    /// The square's weight in the evaluation (sign, blend and scaling folded in).
    pub factor: f32,
}

impl Quadratic {
    /// The attack units under `weights`.
    pub fn units(&self, weights: &[(f32, f32)]) -> f32 {
        self.constant
            + self
                .units
                .iter()
                .map(|&(i, c)| c * weights[i as usize].0)
                .sum::<f32>()
    }

    /// The term's value for `units`.
    pub fn value_at(&self, units: f32) -> f32 {
        let u = units.max(0.0);
        self.factor * (u * u / self.div).min(self.cap)
    }
}

/// A position's evaluation as a linear function of the weights (plus quadratic terms).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct LinearForm {
    /// At most one term per weight index, in increasing index order.
    pub terms: Vec<Term>,
    /// The part of the evaluation that no tunable weight moves.
    pub constant: f32,
    /// King-danger terms, if the evaluation has any.
    pub quadratic: Vec<Quadratic>,
}

impl LinearForm {
    /// The evaluation under the weight pairs `weights` (midgame, endgame), first player's view.
    pub fn value(&self, weights: &[(f32, f32)]) -> f32 {
        self.constant
            + self
                .terms
                .iter()
                .map(|t| {
                    let (mg, eg) = weights[t.index as usize];
                    t.mg * mg + t.eg * eg
                })
                .sum::<f32>()
            + self
                .quadratic
                .iter()
                .map(|q| q.value_at(q.units(weights)))
                .sum::<f32>()
    }
}

/// Collects terms in any order, merging repeated indices; dropping terms whose coefficients
/// cancel (a White and a Black piece on mirrored squares).
#[derive(Clone, Debug, Default)]
pub struct FormBuilder {
    terms: Vec<Term>,
    constant: f32,
    quadratic: Vec<Quadratic>,
}

impl FormBuilder {
    pub fn new() -> FormBuilder {
        FormBuilder::default()
    }

    #[inline]
    pub fn term(&mut self, index: usize, mg: f32, eg: f32) {
        self.terms.push(Term {
            index: index as u32,
            mg,
            eg,
        });
    }

    #[inline]
    pub fn constant(&mut self, value: f32) {
        self.constant += value;
    }

    pub fn quadratic(&mut self, q: Quadratic) {
        self.quadratic.push(q);
    }

    pub fn build(mut self) -> LinearForm {
        self.terms.sort_by_key(|t| t.index);
        let mut merged: Vec<Term> = Vec::with_capacity(self.terms.len());
        for t in self.terms {
            match merged.last_mut() {
                Some(last) if last.index == t.index => {
                    last.mg += t.mg;
                    last.eg += t.eg;
                }
                _ => merged.push(t),
            }
        }
        merged.retain(|t| t.mg != 0.0 || t.eg != 0.0);
        LinearForm {
            terms: merged,
            constant: self.constant,
            quadratic: self.quadratic,
        }
    }
}

/// Where an evaluation's weight reads go: straight back into the score ([`Play`], for play)
/// or also into the linear form's counts ([`Tracer`], for tuning). Every weight an
/// evaluation reads passes through its sink, which returns the value it contributes, so the
/// traced form and the played score are one piece of code and cannot disagree; the sink is a
/// type parameter, so play is monomorphised and pays nothing for the tracing. Sides are
/// given as anything that names one (a `game::Side`, chess's `Color`); the first player's
/// counts add, the second's subtract. An evaluation that sums as it goes wraps its sink in
/// [`Summed`].
pub trait Sink {
    /// Whether the sink records (an evaluation bypasses caches that keep only sums then).
    const TRACE: bool;
    /// `count` times the pair `w`, a field of the table, in `side`'s score; returns
    /// `*w * count`, that value.
    fn term(&mut self, side: impl Into<Side>, w: &S, count: i32) -> S;
    /// A value no tunable weight moves in `side`'s score (the tracer keeps it as the form's
    /// constant).
    fn fixed(&mut self, side: impl Into<Side>, s: S);
    /// `count` times the midgame half of `w` in `side`'s attack units against the enemy king;
    /// returns those units.
    fn unit(&mut self, side: impl Into<Side>, w: &S, count: i32) -> i32;
    /// The midgame half of `w` divided by `div` (rounded towards zero) in `side`'s attack
    /// units; returns those units.
    fn unit_div(&mut self, side: impl Into<Side>, w: &S, div: i32) -> i32;
    /// `units` attack units of `side` that no weight moves; returns them.
    fn unit_fixed(&mut self, side: impl Into<Side>, units: i32) -> i32;
    /// `side`'s king danger, quadratic in the units noted since its last danger, counts with
    /// those units times `scale` (`Some`), or does not apply and the units are forgotten
    /// (`None`).
    fn danger(&mut self, side: impl Into<Side>, scale: Option<f32>);
}

/// The sink of play: it only hands the weights back.
pub struct Play;

impl Sink for Play {
    const TRACE: bool = false;
    #[inline(always)]
    fn term(&mut self, _: impl Into<Side>, w: &S, count: i32) -> S {
        *w * count
    }
    #[inline(always)]
    fn fixed(&mut self, _: impl Into<Side>, _: S) {}
    #[inline(always)]
    fn unit(&mut self, _: impl Into<Side>, w: &S, count: i32) -> i32 {
        w.0 * count
    }
    #[inline(always)]
    fn unit_div(&mut self, _: impl Into<Side>, w: &S, div: i32) -> i32 {
        w.0 / div
    }
    #[inline(always)]
    fn unit_fixed(&mut self, _: impl Into<Side>, units: i32) -> i32 {
        units
    }
    #[inline(always)]
    fn danger(&mut self, _: impl Into<Side>, _: Option<f32>) {}
}

/// One side's king danger as the tracer saw it.
#[derive(Clone, Debug, Default)]
pub struct Danger {
    /// 1 when the first player attacks, -1 when the second does.
    pub sign: f32,
    /// The factor the units are taken at (a half when the attack is halved).
    pub scale: f32,
    /// (flat index, coefficient) of the unit weights' midgame halves.
    pub units: Vec<(usize, f32)>,
    /// Units no weight moves (plain counts, and what dividing a unit weight rounded away at the
    /// current table).
    pub extra: f32,
}

/// The sink of tuning: each weight's count (the first player's less the second's) by flat
/// index, the fixed part, and the king-danger units, for a [`LinearForm`].
pub struct Tracer<'a> {
    /// The traced table's `flat_index` (from [`weights!`](crate::weights)), bound to it.
    index: Box<dyn Fn(&S) -> usize + 'a>,
    /// (flat index, count), in the order read; an index may recur.
    pub counts: Vec<(usize, i32)>,
    /// The sum of the values no weight moves, from the first player's view.
    pub fixed: S,
    /// Units noted per attacking side, until its danger is decided.
    pending: [(Vec<(usize, f32)>, f32); 2],
    pub dangers: Vec<Danger>,
}

#[inline(always)]
fn first(side: Side) -> bool {
    side == Side::First
}

impl<'a> Tracer<'a> {
    /// A tracer of reads from `table`, whose fields `index` numbers
    /// (`Weights::flat_index`).
    pub fn new<T>(table: &'a T, index: fn(&T, &S) -> usize) -> Tracer<'a> {
        Tracer {
            index: Box::new(move |s| index(table, s)),
            counts: Vec::with_capacity(128),
            fixed: S(0, 0),
            pending: Default::default(),
            dangers: Vec::new(),
        }
    }

    /// The flat index of `w`, a field of the traced table.
    pub fn index_of(&self, w: &S) -> usize {
        (self.index)(w)
    }

    /// Every count into `f` at `mg` per unit for the midgame half and `eg_scale * eg` for
    /// the endgame half (the two factors kept apart so the products round as they always have).
    pub fn fold_counts(&self, f: &mut FormBuilder, mg: f32, eg_scale: f32, eg: f32) {
        for &(index, n) in &self.counts {
            f.term(index, n as f32 * mg, n as f32 * eg_scale * eg);
        }
    }

    /// Every king danger into `f` as a quadratic term `min(cap, units^2 / div)`, at `factor`
    /// (times the attacker's sign).
    pub fn fold_dangers(&self, f: &mut FormBuilder, div: f32, cap: f32, factor: f32) {
        for d in &self.dangers {
            f.quadratic(Quadratic {
                units: d
                    .units
                    .iter()
                    .map(|&(i, c)| (i as u32, c * d.scale))
                    .collect(),
                constant: d.extra * d.scale,
                div,
                cap,
                factor: d.sign * factor,
            });
        }
    }
}

impl Sink for Tracer<'_> {
    const TRACE: bool = true;
    fn term(&mut self, side: impl Into<Side>, w: &S, count: i32) -> S {
        if count != 0 {
            let sign = if first(side.into()) { 1 } else { -1 };
            self.counts.push((self.index_of(w), sign * count));
        }
        *w * count
    }
    fn fixed(&mut self, side: impl Into<Side>, s: S) {
        if first(side.into()) {
            self.fixed += s;
        } else {
            self.fixed -= s;
        }
    }
    fn unit(&mut self, side: impl Into<Side>, w: &S, count: i32) -> i32 {
        if count != 0 {
            let i = self.index_of(w);
            self.pending[side.into().index()].0.push((i, count as f32));
        }
        w.0 * count
    }
    fn unit_div(&mut self, side: impl Into<Side>, w: &S, div: i32) -> i32 {
        let i = self.index_of(w);
        let p = &mut self.pending[side.into().index()];
        p.0.push((i, 1.0 / div as f32));
        p.1 += (w.0 / div) as f32 - w.0 as f32 / div as f32;
        w.0 / div
    }
    fn unit_fixed(&mut self, side: impl Into<Side>, units: i32) -> i32 {
        self.pending[side.into().index()].1 += units as f32;
        units
    }
    fn danger(&mut self, side: impl Into<Side>, scale: Option<f32>) {
        let side = side.into();
        let (units, extra) = std::mem::take(&mut self.pending[side.index()]);
        if let Some(scale) = scale {
            self.dangers.push(Danger {
                sign: if first(side) { 1.0 } else { -1.0 },
                scale,
                units,
                extra,
            });
        }
    }
}

/// A sink with the running sum of what it was given, from the first player's view: for an
/// evaluation that sums its terms as it reads them (chess, draughts) rather than from the
/// values the sink hands back.
pub struct Summed<'a, K: Sink> {
    pub sink: &'a mut K,
    pub sum: S,
}

impl<'a, K: Sink> Summed<'a, K> {
    pub fn new(sink: &'a mut K) -> Summed<'a, K> {
        Summed { sink, sum: S(0, 0) }
    }

    #[inline(always)]
    fn add_value(&mut self, side: Side, v: S) {
        if first(side) {
            self.sum += v;
        } else {
            self.sum -= v;
        }
    }

    /// `count` times the pair `w` for `side` ([`Sink::term`]), summed.
    #[inline(always)]
    pub fn add(&mut self, side: impl Into<Side>, w: &S, count: i32) {
        let side = side.into();
        let v = self.sink.term(side, w, count);
        self.add_value(side, v);
    }

    /// A value no weight moves for `side` ([`Sink::fixed`]), summed.
    #[inline(always)]
    pub fn fixed(&mut self, side: impl Into<Side>, s: S) {
        let side = side.into();
        self.sink.fixed(side, s);
        self.add_value(side, s);
    }

    /// `side`'s king danger `value` from the units noted at `scale` ([`Sink::danger`]), summed.
    #[inline(always)]
    pub fn danger(&mut self, side: impl Into<Side>, scale: f32, value: S) {
        let side = side.into();
        self.sink.danger(side, Some(scale));
        self.add_value(side, value);
    }
}

/// A weight pair of a tunable evaluation: its term's name, its index within the term, and its
/// current value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WeightInfo {
    pub name: &'static str,
    pub index: usize,
    pub mg: i32,
    pub eg: i32,
}

/// An evaluation that can state itself as a linear function of its weights.
pub trait LinearEval<P: Position>: Evaluator<P> + Sized {
    /// Every weight pair, in the fixed order the forms' indices refer to.
    fn weight_list(&self) -> Vec<WeightInfo>;

    /// The same evaluation with the pairs replaced by `values` (in [`weight_list`](Self::weight_list)
    /// order; a list of the wrong length is an error).
    fn with_weights(&self, values: &[(i32, i32)]) -> Result<Self, String>;

    /// The evaluation of `pos` as a linear function of the weights, from the first player's
    /// view. `form.value(current weights)` equals `evaluate` up to rounding.
    fn linear_form(&mut self, pos: &P) -> LinearForm;

    /// A Rust source file defining this evaluator's weight table, in the form the game's
    /// module includes; `doc` (plain text lines) goes into the file's module documentation.
    fn weights_source(&self, doc: &str) -> String;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builder_merges_sorts_and_drops_cancelled_terms() {
        let mut b = FormBuilder::new();
        b.term(5, 1.0, 2.0);
        b.term(2, 0.5, 0.0);
        b.term(5, -1.0, -2.0);
        b.term(2, 0.5, 1.0);
        b.constant(3.0);
        let f = b.build();
        assert_eq!(
            f.terms,
            vec![Term {
                index: 2,
                mg: 1.0,
                eg: 1.0
            }]
        );
        let w = vec![(0.0, 0.0), (0.0, 0.0), (10.0, 20.0)];
        assert_eq!(f.value(&w), 3.0 + 10.0 + 20.0);
    }

    #[test]
    fn quadratic_terms_clamp_below_and_above() {
        let q = Quadratic {
            units: vec![(0, 2.0)],
            constant: -5.0,
            div: 10.0,
            cap: 40.0,
            factor: -0.5,
        };
        assert_eq!(q.value_at(q.units(&[(1.0, 0.0)])), 0.0); // units -3: none
        assert_eq!(q.value_at(q.units(&[(10.0, 0.0)])), -0.5 * 22.5); // units 15
        assert_eq!(q.value_at(q.units(&[(100.0, 0.0)])), -0.5 * 40.0); // capped
        let form = LinearForm {
            terms: vec![],
            constant: 1.0,
            quadratic: vec![q],
        };
        assert_eq!(form.value(&[(10.0, 0.0)]), 1.0 - 11.25);
    }

    crate::weights! {
        /// A small table for the kit's own tests.
        #[derive(Clone, Debug, PartialEq)]
        pub struct Toy for "toy", rows 1, defaults start {
            pub one: S = S(1, 2),
            /// Two rows of three.
            pub grid: [[S; 3]; 2] = [[S(3, 4); 3]; 2],
            pub list: [S; 2] = [S(-5, 6), S(7, -8)],
        }
    }

    #[test]
    fn play_and_the_tracer_agree_and_the_tracer_records_signed_counts() {
        let w = Toy::start();
        // One evaluation, fed to either sink: the first player's terms, then the second's, a
        // fixed value, and king danger from units (one danger forgotten, one kept at half).
        fn feed<K: Sink>(w: &Toy, acc: &mut Summed<'_, K>) -> i32 {
            acc.add(Side::First, &w.one, 3);
            acc.add(Side::Second, &w.grid[1][2], 2);
            acc.add(Side::Second, &w.list[0], 0);
            acc.fixed(Side::Second, S(10, 20));
            let mut units = acc.sink.unit(Side::First, &w.list[1], 2);
            units += acc.sink.unit_div(Side::First, &w.list[1], 4);
            units += acc.sink.unit_fixed(Side::First, 5);
            acc.danger(Side::First, 0.5, S(units, 0));
            acc.sink.unit(Side::Second, &w.one, 1);
            acc.sink.danger(Side::Second, None);
            units
        }
        let mut play = Play;
        let mut played = Summed::new(&mut play);
        let units = feed(&w, &mut played);
        assert_eq!(units, 7 * 2 + 7 / 4 + 5);
        let played = played.sum;
        let mut t = Tracer::new(&w, Toy::flat_index);
        let mut traced = Summed::new(&mut t);
        assert_eq!(feed(&w, &mut traced), units);
        assert_eq!(traced.sum, played);
        assert_eq!(played, S(1, 2) * 3 - S(3, 4) * 2 - S(10, 20) + S(units, 0));
        // grid[1][2] is the sixth pair; the zero count is not recorded.
        assert_eq!(t.counts, vec![(0, 3), (6, -2)]);
        assert_eq!(t.fixed, S(-10, -20));
        assert_eq!(t.index_of(&w.list[1]), 8);
        assert_eq!(t.dangers.len(), 1);
        let d = &t.dangers[0];
        assert_eq!((d.sign, d.scale), (1.0, 0.5));
        assert_eq!(d.units, vec![(8, 2.0), (8, 0.25)]);
        assert_eq!(d.extra, (7 / 4) as f32 - 7.0 / 4.0 + 5.0);
        let mut f = FormBuilder::new();
        t.fold_counts(&mut f, 1.0, 0.5, 1.0);
        t.fold_dangers(&mut f, 1.0, 1000.0, 2.0);
        let form = f.build();
        assert_eq!(form.terms.len(), 2);
        assert_eq!((form.terms[1].mg, form.terms[1].eg), (-2.0, -1.0));
        assert_eq!(form.quadratic[0].units, vec![(8, 1.0), (8, 0.125)]);
        assert_eq!(form.quadratic[0].factor, 2.0);
    }

    #[test]
    fn the_table_is_laid_out_in_visit_order() {
        assert_eq!(Toy::LEN, 9);
        assert_eq!(std::mem::size_of::<Toy>(), 9 * std::mem::size_of::<S>());
        let mut w = Toy::start();
        let base = &w as *const Toy as usize;
        let mut seen = Vec::new();
        w.visit_mut(|name, i, s| seen.push((name, i, s as *const S as usize)));
        let at = |k: usize| seen[k].2 - base;
        assert_eq!((seen[0].0, seen[0].1, at(0)), ("one", 0, 0));
        assert_eq!((seen[1].0, seen[1].1), ("grid", 0));
        assert_eq!((seen[6].0, seen[6].1), ("grid", 5));
        assert_eq!((seen[8].0, seen[8].1), ("list", 1));
        // Laid out flat: the k-th pair visited is the k-th in memory.
        for k in 0..seen.len() {
            assert_eq!(at(k), k * std::mem::size_of::<S>());
        }
        assert_eq!(Toy::flat_index(&w, &w.one), 0);
        assert_eq!(Toy::flat_index(&w, &w.grid[1][0]), 4);
        assert_eq!(Toy::flat_index(&w, &w.list[1]), 8);
    }

    crate::weights! {
        /// A table with a heap field between inline ones.
        #[derive(Clone, Debug, PartialEq)]
        pub struct Big for "big", rows 1, defaults start {
            pub one: S = S(1, 2),
            pub table: Heap<[[S; 3]; 2]> = heap(S(0, 1)),
            pub last: [S; 2] = [S(5, 6), S(7, 8)],
        }
    }

    #[test]
    fn a_heap_field_counts_and_locates_in_declaration_order() {
        assert_eq!(Big::LEN, 9);
        let w = Big::start();
        assert_eq!(*w.table, [[S(0, 1); 3]; 2]);
        assert_eq!(Big::flat_index(&w, &w.one), 0);
        assert_eq!(Big::flat_index(&w, &w.table[0][0]), 1);
        assert_eq!(Big::flat_index(&w, &w.table[1][2]), 6);
        assert_eq!(Big::flat_index(&w, &w.last[0]), 7);
        assert_eq!(Big::flat_index(&w, &w.last[1]), 8);
        let mut names = Vec::new();
        w.clone().visit_mut(|name, i, _| names.push((name, i)));
        assert_eq!(names[6], ("table", 5));
        let mut t = Tracer::new(&w, Big::flat_index);
        assert_eq!(t.term(Side::Second, &w.table[1][0], 2), S(0, 2));
        assert_eq!(t.counts, vec![(4, -2)]);
        let flat: Vec<(i32, i32)> = (0..9).map(|i| (i, -i)).collect();
        let back = Big::from_flat(&w, &flat).unwrap();
        assert_eq!(back.table[1][2], S(6, -6));
        let src = back.tuned_source("");
        assert!(src.contains("(\"table\", &[\n        (1, -1),\n"), "{src}");
        const FILE: Tuned = &[("table", &[(9, 9); 6])];
        assert_eq!(*w.clone().overlay(FILE).table, [[S(9, 9); 3]; 2]);
    }

    #[test]
    fn a_tuned_file_overlays_by_name_and_missing_terms_keep_defaults() {
        const FILE: Tuned = &[("list", &[(10, 11), (12, 13)]), ("one", &[(0, 9)])];
        let w = Toy::start().overlay(FILE);
        assert_eq!(w.one, S(0, 9));
        assert_eq!(w.list, [S(10, 11), S(12, 13)]);
        assert_eq!(w.grid, Toy::start().grid);
        assert!(Toy::overlay_errors(FILE).is_empty());
        const BAD: Tuned = &[("gone", &[(1, 1)]), ("list", &[(1, 1)])];
        assert_eq!(Toy::overlay_errors(BAD).len(), 2);
        assert_eq!(Toy::start().overlay(BAD), Toy::start());
    }

    #[test]
    fn flat_and_text_forms_round_trip() {
        let w = Toy::start();
        let mut flat = Vec::new();
        w.clone().visit_mut(|_, _, s| flat.push((s.0, s.1)));
        flat[8] = (70, 80);
        let back = Toy::from_flat(&w, &flat).unwrap();
        assert_eq!(back.list[1], S(70, 80));
        assert!(Toy::from_flat(&w, &flat[1..]).is_err());
        let text = back.to_text();
        assert!(text.starts_with("one 1 2\ngrid_0 3 4\n"), "{text}");
        assert!(text.ends_with("list_1 70 80\n"), "{text}");
        assert_eq!(w.parse_over(&text), Ok(back));
        assert!(w.parse_over("nothing 1 2").is_err());
        assert!(w.parse_over("one 1").is_err());
        assert!(w.parse_over("one 1 99999").is_err());
    }

    #[test]
    fn the_writer_writes_what_compiles_back_and_no_machine_paths() {
        let w = Toy::start();
        // An absolute path of this machine's (the temporary folder is one) keeps only its
        // file name; a relative one stays as written.
        let absolute = std::env::temp_dir().join("data").join("x.txt");
        assert!(absolute.is_absolute());
        let doc = format!("From {},rel/y.txt\nsecond", absolute.display());
        let src = w.tuned_source(&doc);
        assert!(src.starts_with("//! The toy evaluation's weights"), "{src}");
        assert!(src.contains("//! From x.txt,rel/y.txt\n//! second\n//!\n//! Generated:"));
        assert!(src.contains("    (\"one\", &[(1, 2)]),\n"), "{src}");
        // More than four rows of one: a row to a line.
        assert!(
            src.contains("    (\"grid\", &[\n        (3, 4),\n        (3, 4),\n"),
            "{src}"
        );
        assert!(
            src.contains("    (\"list\", &[(-5, 6), (7, -8)]),\n];\n"),
            "{src}"
        );
        assert_eq!(generated_doc(&src), "From x.txt,rel/y.txt\nsecond");
        assert_eq!(
            portable_doc("-data C:\\d\\a.txt -out e/t.rs"),
            "-data a.txt -out e/t.rs"
        );
    }
}
