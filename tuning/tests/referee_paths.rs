//! The referee's loss paths and the match loop, proven on a toy game with fake engines
//! (tests/fake/toy_uci.py): illegal moves, crashes, hangs (on a clock and without one),
//! malformed output and false "no move" claims lose with their reason, and the match carries
//! on (restarting broken engines with -recover, stopping without it).

mod toy;

use std::time::Duration;

use tetrarch_tuning::match_runner::drivers::{EngineConfig, Protocol};
use tetrarch_tuning::match_runner::rules::GameKind;
use tetrarch_tuning::match_runner::runner::{run_match, MatchConfig, MatchSummary};
use tetrarch_tuning::match_runner::tc::TimeControl;

fn engine(mode: &str) -> EngineConfig {
    let mut e = EngineConfig::new("python3");
    e.launch.args = vec![toy::fake_engine(), mode.to_string()];
    e.name = mode.to_string();
    e.proto = Protocol::Uci;
    e
}

fn config(a: EngineConfig, b: EngineConfig, games: usize, tc: &str) -> MatchConfig {
    let mut c = MatchConfig::new(GameKind::Chess);
    c.engines = vec![a, b];
    c.games = games;
    c.tc = Some(TimeControl::parse(tc).unwrap());
    c.rules = Some(toy::factory());
    c.rating_interval = 0;
    // Generous: a busy machine can delay even an instant engine.
    c.stall_timeout = Duration::from_secs(2);
    c
}

fn run(c: &MatchConfig) -> (MatchSummary, String) {
    let mut out = Vec::new();
    let s = run_match(c, &mut out).expect("match runs");
    let out = String::from_utf8(out).unwrap();
    eprintln!("{out}");
    (s, out)
}

fn count(s: &MatchSummary, reason: &str) -> usize {
    s.reasons
        .iter()
        .filter(|(r, _)| r.contains(reason))
        .map(|(_, c)| c)
        .sum()
}

#[test]
fn correct_play_wins_for_the_first_mover_and_pairs_are_counted() {
    let mut c = config(engine("good"), engine("good"), 4, "10+0.1");
    c.repeat = true;
    let pgn = std::env::temp_dir().join(format!("toy-{}.pgn", std::process::id()));
    let _ = std::fs::remove_file(&pgn);
    c.pgnout = Some(pgn.to_string_lossy().to_string());
    let (s, out) = run(&c);
    assert_eq!(s.games, 4, "{out}");
    // The first mover wins every game: each colour-swapped pair is one win and one loss.
    assert_eq!((s.wdl.wins, s.wdl.draws, s.wdl.losses), (2, 0, 2), "{out}");
    assert_eq!(s.penta.wl, 2);
    assert!(out.contains("Ptnml(0-2): [0, 0, 2, 0, 0]"), "{out}");
    let text = std::fs::read_to_string(&pgn).unwrap();
    assert_eq!(text.matches("[Result \"1-0\"]").count(), 4, "{text}");
    assert!(text.contains("1. +1 {+1.00/1"), "{text}");
    let _ = std::fs::remove_file(&pgn);
}

#[test]
fn a_resumed_match_plays_only_the_games_its_journal_lacks() {
    use tetrarch_tuning::match_runner::journal::JournalSpec;
    let path = std::env::temp_dir().join(format!("toy-{}.journal", std::process::id()));
    let _ = std::fs::remove_file(&path);
    let mut c = config(engine("good"), engine("good"), 6, "10+0.1");
    c.repeat = true;
    c.journal = Some(JournalSpec {
        path: path.to_string_lossy().to_string(),
        fingerprint: "toy, 6 games".into(),
    });
    let (s, out) = run(&c);
    assert_eq!((s.games, s.penta.wl), (6, 3), "{out}");
    let full = std::fs::read_to_string(&path).unwrap();
    assert_eq!(full.lines().count(), 2 + 6, "{full}");
    // Stopped after three games, the third one's line cut short: a new run plays four.
    let cut: Vec<&str> = full.lines().take(2 + 3).collect();
    std::fs::write(&path, format!("{}\n{}", cut[..4].join("\n"), &cut[4][..5])).unwrap();
    let (s, out) = run(&c);
    assert!(out.contains("Resuming: 2 games"), "{out}");
    assert_eq!(out.matches("Finished game").count(), 4, "{out}");
    assert_eq!((s.games, s.penta.wl), (6, 3), "{out}");
    assert!(out.contains("Ptnml(0-2): [0, 0, 3, 0, 0]"), "{out}");
    // Complete: nothing is played again.
    let (s, out) = run(&c);
    assert_eq!(out.matches("Finished game").count(), 0, "{out}");
    assert_eq!(s.games, 6, "{out}");
    // Another match's arguments are refused.
    c.journal.as_mut().unwrap().fingerprint = "toy, 8 games".into();
    let err = run_match(&c, &mut Vec::new()).err().unwrap();
    assert!(err.contains("other arguments"), "{err}");
    let _ = std::fs::remove_file(&path);
}

#[test]
fn two_passers_draw_by_the_rules() {
    let c = config(engine("passer"), engine("passer"), 2, "10+0.1");
    let (s, out) = run(&c);
    assert_eq!(s.wdl.draws, 2, "{out}");
    assert_eq!(count(&s, "Draw by repetition"), 2, "{out}");
}

#[test]
fn an_illegal_move_loses_and_the_match_goes_on() {
    let c = config(engine("good"), engine("illegal"), 4, "10+0.1");
    let (s, out) = run(&c);
    assert_eq!(s.games, 4, "{out}");
    // The illegal engine loses every game in which it has to move: all of them.
    assert_eq!(s.wdl.wins, 4, "{out}");
    assert_eq!(count(&s, "illegal move"), 4, "{out}");
    assert!(out.contains("makes an illegal move: +7"), "{out}");
}

#[test]
fn a_crash_loses_and_recover_restarts_the_engine() {
    let mut c = config(engine("good"), engine("crash"), 4, "10+0.1");
    c.recover = true;
    let (s, out) = run(&c);
    assert_eq!(s.games, 4, "{out}");
    assert!(count(&s, "crashed") >= 2, "{out}");
    assert!(out.contains("exited with code 3"), "{out}");
    assert_eq!(s.stopped_early, None);
}

#[test]
fn without_recover_a_crash_stops_the_match() {
    let c = config(engine("good"), engine("crash"), 6, "10+0.1");
    let (s, out) = run(&c);
    assert!(s.games < 6, "{out}");
    assert!(s.stopped_early.is_some(), "{out}");
    assert!(out.contains("Terminating match"), "{out}");
}

#[test]
fn a_hang_on_the_clock_loses_on_time_and_the_engine_is_restarted() {
    let mut c = config(engine("good"), engine("hang"), 2, "st=0.2");
    c.recover = true;
    let (s, out) = run(&c);
    assert_eq!(s.games, 2, "{out}");
    assert_eq!(count(&s, "loses on time"), 2, "{out}");
}

#[test]
fn a_hang_without_a_clock_is_a_stall() {
    let mut c = config(engine("good"), engine("hang"), 2, "nodes=100");
    c.recover = true;
    let (s, out) = run(&c);
    assert_eq!(s.games, 2, "{out}");
    assert_eq!(count(&s, "stalls"), 2, "{out}");
}

#[test]
fn a_slow_engine_flags_and_margins_forgive() {
    let mut slow = engine("slow");
    slow.launch.args.push("0.25".into());
    let c = config(engine("good"), slow.clone(), 2, "st=0.1");
    let (s, out) = run(&c);
    assert_eq!(count(&s, "loses on time"), 2, "{out}");
    // With a 1.5 s margin the same engine is in time (generous, for busy machines).
    slow.margin_ms = 1500;
    let c = config(engine("good"), slow, 2, "st=0.1");
    let (s, out) = run(&c);
    assert_eq!(count(&s, "loses on time"), 0, "{out}");
}

#[test]
fn garbage_and_false_no_move_claims_lose() {
    let c = config(engine("good"), engine("garbage"), 2, "10+0.1");
    let (s, out) = run(&c);
    assert_eq!(count(&s, "malformed"), 2, "{out}");
    let c = config(engine("good"), engine("none"), 2, "10+0.1");
    let (s, out) = run(&c);
    assert_eq!(count(&s, "claims to have no move"), 2, "{out}");
}

#[test]
fn sprt_stops_when_a_bound_is_crossed() {
    // The illegal engine loses every game: H1 (the first engine is stronger) is accepted
    // long before the 200 scheduled games.
    let mut c = config(engine("good"), engine("illegal"), 200, "10+0.1");
    c.sprt = Some(tetrarch_tuning::stats::Sprt::new(0.0, 10.0, 0.05, 0.05).unwrap());
    let (s, out) = run(&c);
    assert_eq!(
        s.sprt_state,
        Some(tetrarch_tuning::stats::SprtState::AcceptH1),
        "{out}"
    );
    assert!(s.games < 200, "{out}");
    assert!(out.contains("H1 was accepted"), "{out}");
}

#[test]
fn an_sprt_goes_on_from_the_pairs_of_earlier_runs() {
    use tetrarch_tuning::stats::{Penta, Sprt, SprtState};
    let mut c = config(engine("good"), engine("illegal"), 400, "10+0.1");
    c.repeat = true;
    c.sprt = Some(Sprt::new(0.0, 50.0, 0.05, 0.05).unwrap());
    // Earlier runs even between the two: the winner of every pair here is soon accepted.
    c.sprt_prior = Penta::from_five([10, 0, 10, 0, 10]);
    let (even, out) = run(&c);
    assert_eq!(even.sprt_state, Some(SprtState::AcceptH1), "{out}");
    assert!(out.contains("SPRT with 30 earlier pairs"), "{out}");
    // Earlier runs that leaned the other way: this run's wins must outweigh them first.
    c.sprt_prior = Penta::from_five([20, 0, 10, 0, 10]);
    let (s, out) = run(&c);
    assert_eq!(s.sprt_state, Some(SprtState::AcceptH1), "{out}");
    assert!(s.games > even.games, "{} <= {}: {out}", s.games, even.games);
    // Earlier runs that already rejected the gain: nothing is played.
    c.sprt_prior = Penta::from_five([60, 0, 20, 0, 10]);
    let (s, out) = run(&c);
    assert_eq!(s.sprt_state, Some(SprtState::AcceptH0), "{out}");
    assert_eq!(s.games, 0, "{out}");
    // Counts of pairs need pairs.
    c.repeat = false;
    assert!(run_match(&c, &mut Vec::new()).is_err());
}

#[test]
fn concurrent_games_and_a_round_robin_table() {
    let mut c = config(engine("good"), engine("illegal"), 2, "10+0.1");
    c.engines.push(engine("passer"));
    c.concurrency = 2;
    c.rounds = 2;
    let (s, out) = run(&c);
    assert_eq!(s.games, 12, "{out}");
    // good beats both; passer beats illegal: good first, passer second.
    let lines: Vec<&str> = out
        .lines()
        .filter(|l| l.trim_start().starts_with(char::is_numeric))
        .collect();
    assert!(lines[0].contains("good"), "{out}");
    assert!(lines[1].contains("passer"), "{out}");
}

#[test]
fn resign_and_draw_adjudication_follow_the_engines_scores() {
    use tetrarch_tuning::match_runner::game::{DrawAdjudication, ResignAdjudication};
    // The good engine scores +1.00 when it is winning and -1.00 when it is losing: the side
    // to move second is lost from the start, and loses by adjudication after two such moves.
    let mut c = config(engine("good"), engine("good"), 2, "10+0.1");
    c.resign = Some(ResignAdjudication {
        move_count: 2,
        score: 50,
        two_sided: true,
    });
    let (s, out) = run(&c);
    assert_eq!(count(&s, "wins by adjudication"), 2, "{out}");
    assert_eq!((s.wdl.wins, s.wdl.losses), (1, 1), "{out}");
    // Passers score 0.00: with a one-move draw adjudication both have said so after one move
    // each, before the rules' third pass.
    let mut c = config(engine("passer"), engine("passer"), 2, "10+0.1");
    c.draw = Some(DrawAdjudication {
        move_number: 0,
        move_count: 1,
        score: 10,
    });
    let (s, out) = run(&c);
    assert_eq!(count(&s, "Draw by adjudication"), 2, "{out}");
    // From move 5 on only: the rules' repetition comes first.
    c.draw = Some(DrawAdjudication {
        move_number: 5,
        move_count: 1,
        score: 10,
    });
    let (s, out) = run(&c);
    assert_eq!(count(&s, "Draw by repetition"), 2, "{out}");
    // From move 2 on: the adjudication falls due on the third pass, the very move that ends
    // the game by rule, and the rule result wins (a PGN checker would flag the other).
    c.draw = Some(DrawAdjudication {
        move_number: 2,
        move_count: 1,
        score: 10,
    });
    let (s, out) = run(&c);
    assert_eq!(count(&s, "Draw by repetition"), 2, "{out}");
}

#[test]
fn an_engine_that_cannot_start_is_the_one_named() {
    // The missing engine moves first, so the other one is never started: the stop names the
    // engine at fault, not the one that was never asked to run.
    let mut ghost = EngineConfig::new("/nonexistent/tetrarch-ghost-engine");
    ghost.name = "ghost".into();
    ghost.proto = Protocol::Uci;
    let mut c = config(ghost, engine("good"), 2, "10+0.1");
    let (s, out) = run(&c);
    assert!(s.stopped_early.is_some(), "{out}");
    assert!(out.contains("engine 'ghost' could not start"), "{out}");
    assert!(!out.contains("engine 'good' could not start"), "{out}");
    assert_eq!(s.games, 0, "a game nobody could play is not scored");
    // -recover restarts engines that crash in a game; one that never started is a broken
    // setup, and still stops the match without handing out forfeits.
    c.recover = true;
    let (s, out) = run(&c);
    assert!(s.aborted, "{out}");
    assert!(out.contains("engine 'ghost' could not start"), "{out}");
    assert_eq!(s.games, 0, "{out}");
}
