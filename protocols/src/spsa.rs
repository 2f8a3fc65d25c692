//! `tetrarch spsa`: the search parameters in OpenBench's SPSA input format.
//!
//! Scheme: one line per parameter of `search::params::TUNABLE`, `name, int, default, min, max,
//! c_end, r_end`, as OpenBench's tune form takes them, with the defaults of the game asked for
//! (`--game`; draughts plays with its own). A parameter a game has switched off (its value
//! outside the tunable range, as draughts' futility depth) is left out. `c_end` (the final
//! perturbation) is a twentieth of the range, at least half a unit as OpenBench requires of
//! integers; `r_end` (the final learning rate) is OpenBench's customary 0.002. The values only
//! take effect in a build with the `tuning` feature, which declares each parameter as an
//! option of the same name: a UCI spin option, and a Hub `param` for draughts
//! (`cargo build --release -p tetrarch-protocols --features tuning`).

use std::process::ExitCode;

use clap::Args;
use tetrarch::games::{Game, GameKind, WithGame};
use tetrarch::search::params::{Params, TUNABLE};

#[derive(Args)]
pub struct SpsaArgs {
    /// chess, xiangqi or draughts: whose parameter values to print.
    #[arg(long, default_value = "chess")]
    game: String,
}

/// The lines `tetrarch spsa` prints for a game playing with `defaults`.
pub fn lines(defaults: &Params) -> Vec<String> {
    TUNABLE
        .iter()
        .filter_map(|t| {
            let default = t.tuned_value(defaults)?;
            let c_end = ((t.max - t.min) as f64 / 20.0).max(0.5);
            Some(format!(
                "{}, int, {default}, {}, {}, {}, 0.002",
                t.name,
                t.min,
                t.max,
                (c_end * 100.0).round() / 100.0
            ))
        })
        .collect()
}

/// A game's search parameters.
struct SearchParams;

impl WithGame for SearchParams {
    type Output = Params;
    fn run<G: Game>(self) -> Params {
        G::search_params()
    }
}

pub fn run(args: &SpsaArgs) -> ExitCode {
    let params = GameKind::parse(&args.game)
        .ok()
        .and_then(|kind| kind.with_game(SearchParams));
    let Some(params) = params else {
        let other = &args.game;
        eprintln!("tetrarch spsa: unknown game '{other}' (try chess, xiangqi or draughts)");
        return ExitCode::FAILURE;
    };
    for line in lines(&params) {
        println!("{line}");
    }
    ExitCode::SUCCESS
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_line_per_parameter_in_openbench_form() {
        let l = lines(&Params::DEFAULT);
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

    /// Draughts' switched-off pruning (futility, razoring) is not offered for tuning, and the
    /// rest carries draughts' own values.
    #[test]
    fn draughts_lines_leave_out_what_draughts_switches_off() {
        let l = lines(&tetrarch::games::draughts::SEARCH_PARAMS);
        assert!(l.len() < TUNABLE.len());
        assert!(!l
            .iter()
            .any(|x| x.starts_with("fp_depth,") || x.starts_with("razor_base,")));
        assert!(l
            .iter()
            .any(|x| x.starts_with("alpha_raise_depth, int, 0,")));
    }
}
