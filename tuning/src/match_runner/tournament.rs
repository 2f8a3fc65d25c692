//! Tournament schedules, standings and tie-breaks.
//!
//! Scheme: a schedule is a list of [`ScheduledGame`]s, each naming the engine playing first and second,
//! the opening slot, and the pair it belongs to (the two games of a colour-swapped pair share
//! an opening). Round robin plays every pairing, gauntlet the first engine against each other
//! one; `rounds` repeats the whole cycle, `games` sets games per encounter per round. Colours
//! alternate within an encounter and between rounds.
//!
//! Standings use the rule books' points (chess 1 / 0.5 / 0, the others 2 / 1 / 0) and break
//! ties in this order: Sonneborn-Berger (the final scores of the opponents beaten plus
//! half those of the opponents drawn, game by game), then wins, then direct encounter (points
//! scored in the games among the tied engines), then fewer games with the first move.

use crate::stats::{cca, elo_trinomial, EloEstimate, Wdl};

/// Who plays whom.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    RoundRobin,
    Gauntlet,
}

impl Format {
    pub fn parse(text: &str) -> Result<Format, String> {
        match text {
            "round-robin" | "roundrobin" | "rr" => Ok(Format::RoundRobin),
            "gauntlet" => Ok(Format::Gauntlet),
            _ => Err(format!(
                "unknown tournament '{text}' (round-robin or gauntlet)"
            )),
        }
    }
}

/// One scheduled game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ScheduledGame {
    /// Sequence number, from 1.
    pub number: usize,
    pub round: usize,
    /// Engine indices playing first and second.
    pub first: usize,
    pub second: usize,
    /// Opening slot: games with the same slot use the same opening.
    pub opening: usize,
    /// Games of one colour-swapped pair share this id.
    pub pair: Option<usize>,
}

/// Builds the schedule. With `repeat`, `games` is rounded up to an even number so that every
/// opening is played with both colours.
pub fn schedule(
    engines: usize,
    format: Format,
    rounds: usize,
    games: usize,
    repeat: bool,
) -> Vec<ScheduledGame> {
    let pairings: Vec<(usize, usize)> = match format {
        Format::Gauntlet => (1..engines).map(|j| (0, j)).collect(),
        Format::RoundRobin => {
            let mut v = Vec::new();
            for i in 0..engines {
                for j in i + 1..engines {
                    v.push((i, j));
                }
            }
            v
        }
    };
    let games = if repeat { games.div_ceil(2) * 2 } else { games };
    let mut jobs = Vec::new();
    let mut opening = 0;
    let mut pair_id = 0;
    for round in 0..rounds {
        for &(a, b) in &pairings {
            for g in 0..games {
                // Alternate colours within the encounter and from round to round.
                let swap = (g + round) % 2 == 1;
                let (first, second) = if swap { (b, a) } else { (a, b) };
                let (slot, pair) = if repeat {
                    if g % 2 == 1 {
                        (opening - 1, Some(pair_id - 1))
                    } else {
                        opening += 1;
                        pair_id += 1;
                        (opening - 1, Some(pair_id - 1))
                    }
                } else {
                    opening += 1;
                    (opening - 1, None)
                };
                jobs.push(ScheduledGame {
                    number: jobs.len() + 1,
                    round: round + 1,
                    first,
                    second,
                    opening: slot,
                    pair,
                });
            }
        }
    }
    jobs
}

/// A finished game as the standings see it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Played {
    pub first: usize,
    pub second: usize,
    /// Points of the first mover on the 1 / 0.5 / 0 scale.
    pub first_points: f64,
}

/// One line of the table.
#[derive(Clone, Debug, PartialEq)]
pub struct Standing {
    pub engine: usize,
    pub games: u64,
    /// Rule-book points.
    pub points: f64,
    pub wdl: Wdl,
    pub sonneborn_berger: f64,
    /// Points in games among the engines tied with this one on points, SB and wins.
    pub direct: f64,
    pub games_first: u64,
    /// Logistic Elo of the engine's score against the field.
    pub elo: Option<EloEstimate>,
    /// CCA rating after these games (start rating plus `K (W - We)`).
    pub rating: f64,
}

/// The table, best first. `win_points` is the rule book's points for a win (1 or 2);
/// `ratings` the engines' ratings before the games (CCA method), `k` its K factor.
pub fn standings(
    engines: usize,
    games: &[Played],
    win_points: f64,
    ratings: &[f64],
    k: f64,
) -> Vec<Standing> {
    let mut table: Vec<Standing> = (0..engines)
        .map(|e| Standing {
            engine: e,
            games: 0,
            points: 0.0,
            wdl: Wdl::default(),
            sonneborn_berger: 0.0,
            direct: 0.0,
            games_first: 0,
            elo: None,
            rating: ratings[e],
        })
        .collect();
    let mut cca_games: Vec<Vec<(f64, f64)>> = vec![Vec::new(); engines];
    for g in games {
        for (me, opp, pts, first) in [
            (g.first, g.second, g.first_points, true),
            (g.second, g.first, 1.0 - g.first_points, false),
        ] {
            let s = &mut table[me];
            s.games += 1;
            s.points += pts * win_points;
            s.wdl.add(pts);
            if first {
                s.games_first += 1;
            }
            cca_games[me].push((ratings[opp], pts));
        }
    }
    let totals: Vec<f64> = table.iter().map(|s| s.points).collect();
    for g in games {
        for (me, opp, pts) in [
            (g.first, g.second, g.first_points),
            (g.second, g.first, 1.0 - g.first_points),
        ] {
            // Game by game: a win adds the opponent's final score, a draw half of it.
            table[me].sonneborn_berger += pts * totals[opp];
        }
    }
    for s in &mut table {
        s.elo = elo_trinomial(&s.wdl);
        s.rating =
            ratings[s.engine] + cca::rating_change(k, ratings[s.engine], &cca_games[s.engine]);
    }
    // Direct encounter among engines level on points, SB and wins.
    let key = |s: &Standing| (s.points, s.sonneborn_berger, s.wdl.wins);
    for i in 0..engines {
        let tied: Vec<usize> = (0..engines)
            .filter(|&j| key(&table[j]) == key(&table[i]))
            .collect();
        if tied.len() < 2 {
            continue;
        }
        let mut direct = 0.0;
        for g in games {
            if g.first == i && tied.contains(&g.second) {
                direct += g.first_points * win_points;
            } else if g.second == i && tied.contains(&g.first) {
                direct += (1.0 - g.first_points) * win_points;
            }
        }
        table[i].direct = direct;
    }
    table.sort_by(|a, b| {
        b.points
            .total_cmp(&a.points)
            .then(b.sonneborn_berger.total_cmp(&a.sonneborn_berger))
            .then(b.wdl.wins.cmp(&a.wdl.wins))
            .then(b.direct.total_cmp(&a.direct))
            .then(a.games_first.cmp(&b.games_first))
            .then(a.engine.cmp(&b.engine))
    });
    table
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_robin_pairs_everyone_with_both_colours() {
        let jobs = schedule(3, Format::RoundRobin, 1, 2, true);
        assert_eq!(jobs.len(), 6);
        for (a, b) in [(0, 1), (0, 2), (1, 2)] {
            let mine: Vec<&ScheduledGame> = jobs
                .iter()
                .filter(|j| (j.first, j.second) == (a, b) || (j.first, j.second) == (b, a))
                .collect();
            assert_eq!(mine.len(), 2);
            assert_ne!(mine[0].first, mine[1].first);
            assert_eq!(mine[0].opening, mine[1].opening);
            assert_eq!(mine[0].pair, mine[1].pair);
        }
        let openings: std::collections::HashSet<usize> = jobs.iter().map(|j| j.opening).collect();
        assert_eq!(openings.len(), 3);
    }

    #[test]
    fn gauntlet_plays_the_first_engine_only() {
        let jobs = schedule(4, Format::Gauntlet, 2, 1, false);
        assert_eq!(jobs.len(), 6);
        assert!(jobs.iter().all(|j| j.first == 0 || j.second == 0));
        // Colours alternate between rounds.
        assert_eq!(jobs[0].first, 0);
        assert_eq!(jobs[3].first, 1);
        assert!(jobs.iter().all(|j| j.pair.is_none()));
    }

    #[test]
    fn repeat_rounds_games_up_to_pairs() {
        let jobs = schedule(2, Format::RoundRobin, 1, 3, true);
        assert_eq!(jobs.len(), 4);
        assert_eq!(jobs[2].pair, jobs[3].pair);
        assert_ne!(jobs[1].pair, jobs[2].pair);
    }

    #[test]
    fn sonneborn_berger_then_wins_then_direct_encounter() {
        // A beats B, B beats C, C beats A; A and B draw D; C beats D... built so that
        // points tie and the tie-breaks decide.
        let g = |first, second, first_points| Played {
            first,
            second,
            first_points,
        };
        let games = [
            g(0, 1, 1.0),
            g(1, 2, 1.0),
            g(2, 0, 1.0),
            g(0, 3, 0.5),
            g(1, 3, 0.5),
            g(2, 3, 0.0),
        ];
        // Points (chess): A 1.5, B 1.5, C 1, D 2.
        let t = standings(4, &games, 1.0, &[1500.0; 4], 10.0);
        assert_eq!(t[0].engine, 3);
        assert_eq!(t[0].points, 2.0);
        // A: beat B (1.5) + drew D (2 / 2) = 2.5. B: beat C (1) + drew D (1) = 2.
        let a = t.iter().find(|s| s.engine == 0).unwrap();
        let b = t.iter().find(|s| s.engine == 1).unwrap();
        assert_eq!(a.sonneborn_berger, 2.5);
        assert_eq!(b.sonneborn_berger, 2.0);
        assert_eq!(t[1].engine, 0);
        assert_eq!(t[2].engine, 1);
        // Xiangqi points double.
        let t2 = standings(4, &games, 2.0, &[1500.0; 4], 10.0);
        assert_eq!(t2[0].points, 4.0);
    }

    #[test]
    fn direct_encounter_breaks_a_full_tie() {
        // Two engines, one game each way, each won as first mover: everything level except
        // the direct encounter is level too; then fewer games first decides nothing, and
        // the engine order is stable.
        let g = |first, second, first_points| Played {
            first,
            second,
            first_points,
        };
        let games = [
            g(0, 1, 1.0),
            g(1, 0, 1.0),
            g(0, 2, 1.0),
            g(1, 2, 1.0),
            g(2, 0, 0.0),
        ];
        let t = standings(3, &games, 1.0, &[1500.0; 3], 10.0);
        // 0: 2 wins vs 2 (beat 2 twice) and 1 win vs 1: 3 points; 1: 1 vs 0, 1 vs 2: 2 points.
        assert_eq!(t[0].engine, 0);
        assert_eq!(t[0].points, 3.0);
    }

    #[test]
    fn cca_ratings_move_by_k_times_surplus() {
        let games = [Played {
            first: 0,
            second: 1,
            first_points: 1.0,
        }];
        let t = standings(2, &games, 1.0, &[1500.0, 1600.0], 10.0);
        let a = t.iter().find(|s| s.engine == 0).unwrap();
        // Expected 0.36 against a player 100 points higher: +6.4.
        assert!((a.rating - 1506.4).abs() < 1e-9, "{}", a.rating);
    }
}
