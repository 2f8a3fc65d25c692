//! `tetrarch-set <name> <value>`: the Go engine's settings, through the option core.
//!
//! Scheme: one table of the core's `Opt`s over the [`GoEngine`] (see `crate::options`), each
//! declared once with its kind and effect: `Effect::Engine` marks a field of the engine's
//! `Settings`, which the session then applies (`apply_settings`); `Effect::Stored` a search
//! parameter written straight into the MCTS configuration (for tuning). Every refused value is
//! answered `bad value for <name>`, an unknown name `unknown option <name>`. Nothing is listed
//! (GTP has no option listing), so the kinds' defaults are `Settings::default()`'s, for the
//! reader.

use tetrarch::games::go::strength::{self, Strength};
use tetrarch::games::go::GoEngine;

use crate::options::{Dialect, Effect, Kind, Opt};

/// Every setting. A new one is one entry here.
pub fn table() -> Vec<Opt<GoEngine>> {
    use Effect::*;
    vec![
        Opt::new("threads", Kind::spin(1, 1, 256), |e, _, x| {
            e.settings.threads = x.int() as usize;
            Ok(Engine)
        }),
        // 0: no cap.
        Opt::new("playouts", Kind::spin(0, 0, i64::MAX), |e, _, x| {
            e.settings.max_playouts = (x.int() > 0).then_some(x.int() as u64);
            Ok(Engine)
        }),
        Opt::new("movetime", Kind::spin(2000, 0, i64::MAX), |e, _, x| {
            e.settings.movetime_ms = x.int() as u64;
            Ok(Engine)
        }),
        Opt::new("ponder", Kind::Check(false), |e, _, x| {
            e.settings.ponder = x.bool();
            Ok(Engine)
        }),
        Opt::new("resign", Kind::real(0.1, 0.0, 1.0), |e, _, x| {
            e.settings.resign_threshold = x.real() as f32;
            Ok(Engine)
        }),
        Opt::new(
            "max_nodes",
            Kind::spin(1 << 21, 1000, 1 << 28),
            |e, _, x| {
                e.settings.max_nodes = x.int() as usize;
                Ok(Engine)
            },
        ),
        // Any u64, which a spin (i64) cannot hold: read as text.
        Opt::new("seed", Kind::text("2121948234"), |e, name, x| {
            e.settings.seed = x.text().parse().map_err(|_| bad(name))?;
            Ok(Engine)
        }),
        // Strength: a rank (`15k`, `1d`; `full` for no limit) through Go's Elo table, or the
        // level it maps to (0..20, 20 full), which calibration sets directly.
        Opt::new("rank", Kind::text("full"), |e, name, x| {
            e.settings.strength = rank_strength(x.text()).ok_or_else(|| bad(name))?;
            Ok(Engine)
        }),
        Opt::new("level", Kind::real(20.0, 0.0, 20.0), |e, _, x| {
            e.settings.strength = Strength::from_level(x.real());
            Ok(Engine)
        }),
        Opt::new("overhead", Kind::spin(50, 0, 60_000), |e, _, x| {
            e.settings.overhead_ms = x.int() as u64;
            Ok(Engine)
        }),
        // Search parameters, for tuning.
        Opt::new("expand_visits", Kind::spin(2, 1, 10_000), |e, _, x| {
            e.settings.expand_visits = Some(x.int() as u32);
            Ok(Engine)
        }),
        Opt::new("rave_equiv", tuning(3000.0), |e, _, x| {
            e.search_config().rave_equiv = (x.real() as f32).max(1.0);
            Ok(Stored)
        }),
        Opt::new("explore", tuning(0.05), |e, _, x| {
            e.search_config().explore = x.real() as f32;
            Ok(Stored)
        }),
        Opt::new("amaf_distance", tuning(3.0), |e, _, x| {
            e.search_config().amaf_distance = x.real() as f32;
            Ok(Stored)
        }),
        Opt::new("prior_in_amaf", tuning(0.0), |e, _, x| {
            e.search_config().prior_in_amaf = x.real() != 0.0;
            Ok(Stored)
        }),
    ]
}

/// The strength of a rank text: full strength for `full`, `None` when the text is no rank,
/// or lies outside what every board size's calibration measured.
pub fn rank_strength(text: &str) -> Option<Strength> {
    if text.eq_ignore_ascii_case("full") {
        return Some(Strength::Full);
    }
    let elo = strength::parse_rank(text)?;
    let (lo, hi) = strength::rank_elo_range();
    (lo..=hi).contains(&elo).then_some(Strength::Rank(elo))
}

/// The ranks `--rank` and `tetrarch-set rank` accept, for messages.
pub fn rank_range() -> String {
    let (lo, hi) = strength::rank_elo_range();
    match strength::ranks_within(lo, hi) {
        Some((lo, hi)) => format!(
            "{}..{} or full",
            strength::rank_text(lo),
            strength::rank_text(hi)
        ),
        None => "full".to_string(),
    }
}

/// A search parameter: any finite non-negative `f32`.
fn tuning(default: f64) -> Kind {
    Kind::real(default, 0.0, f32::MAX as f64)
}

fn bad(name: &str) -> String {
    format!("bad value for {name}")
}

/// GTP's spellings: `true`/`on`/`1` and `false`/`off`/`0`; one error form for every bad value.
pub const DIALECT: Dialect = Dialect {
    truths: &["true", "on", "1"],
    falsehoods: &["false", "off", "0"],
    fold_case: false,
    message: |name, _, _, _| bad(name),
};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::options::set;

    #[test]
    fn settings_are_checked_and_stored() {
        let (t, mut e) = (table(), GoEngine::default());
        let put = |e: &mut GoEngine, name: &str, value: &str| {
            set(&t, e, name, Some(value), &DIALECT).expect("a known option")
        };
        assert_eq!(put(&mut e, "threads", "3"), Ok(Effect::Engine));
        assert_eq!(e.settings.threads, 3);
        assert_eq!(
            put(&mut e, "threads", "0"),
            Err("bad value for threads".into())
        );
        assert_eq!(e.settings.threads, 3);
        assert_eq!(put(&mut e, "playouts", "0"), Ok(Effect::Engine));
        assert_eq!(e.settings.max_playouts, None);
        put(&mut e, "playouts", "800").unwrap();
        assert_eq!(e.settings.max_playouts, Some(800));
        put(&mut e, "ponder", "on").unwrap();
        assert!(e.settings.ponder);
        put(&mut e, "ponder", "0").unwrap();
        assert!(!e.settings.ponder);
        assert!(put(&mut e, "ponder", "yes").is_err());
        put(&mut e, "resign", "0.25").unwrap();
        assert_eq!(e.settings.resign_threshold, 0.25);
        for bad in ["1.5", "nan", "-0.1"] {
            assert!(put(&mut e, "resign", bad).is_err(), "{bad}");
        }
        put(&mut e, "seed", "18446744073709551615").unwrap();
        assert_eq!(e.settings.seed, u64::MAX);
        assert!(put(&mut e, "seed", "-1").is_err());
        assert!(put(&mut e, "max_nodes", "999").is_err());
        put(&mut e, "expand_visits", "4").unwrap();
        assert_eq!(e.settings.expand_visits, Some(4));
        assert_eq!(put(&mut e, "rave_equiv", "0.5"), Ok(Effect::Stored));
        assert_eq!(e.search_config().rave_equiv, 1.0, "at least 1");
        put(&mut e, "prior_in_amaf", "1").unwrap();
        assert!(e.search_config().prior_in_amaf);
        assert!(put(&mut e, "explore", "inf").is_err());
        assert!(set(&t, &mut e, "nope", Some("1"), &DIALECT).is_none());
        // Strength: a rank in some calibrated range weakens, through the table of the board
        // it is played on; `full` restores.
        let (lo, hi) = strength::rank_elo_range();
        let (lo, hi) = strength::ranks_within(lo, hi).expect("the tables span ranks");
        put(&mut e, "rank", &strength::rank_text(lo)).unwrap();
        assert_eq!(e.settings.strength, Strength::Rank(lo));
        let weak = e.settings.strength.skill(9).expect("a weak rank limits");
        put(&mut e, "rank", &strength::rank_text(hi)).unwrap();
        let strong = e
            .settings
            .strength
            .skill(9)
            .expect("the top rank still limits");
        assert!(weak.playouts() < strong.playouts());
        // 7 kyu, GNU Go's rank on both boards, takes more playouts on 19x19 than on 9x9.
        put(&mut e, "rank", "7k").unwrap();
        let (small, big) = (e.settings.strength.skill(9), e.settings.strength.skill(19));
        assert!(small.unwrap().playouts() < big.unwrap().playouts());
        assert!(put(&mut e, "rank", "99k").is_err());
        assert!(
            put(&mut e, "rank", "30k").is_err(),
            "below the calibrated range"
        );
        assert_eq!(e.settings.strength, Strength::Rank(1400), "kept on error");
        put(&mut e, "rank", "FULL").unwrap();
        assert_eq!(e.settings.strength, Strength::Full);
        put(&mut e, "level", "3.5").unwrap();
        assert_eq!(e.settings.strength.skill(19).map(|s| s.level), Some(3.5));
        put(&mut e, "level", "20").unwrap();
        assert_eq!(e.settings.strength, Strength::Full);
        assert!(put(&mut e, "level", "21").is_err());
    }
}
