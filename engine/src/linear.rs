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

use crate::game::{Evaluator, Position};

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
}
