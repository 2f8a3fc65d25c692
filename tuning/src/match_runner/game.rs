//! One game between two engines, refereed.
//!
//! Scheme: the loop asks the side to move for a move with its clock's allowance as the
//! deadline, charges the time the answer took (request written to answer read) to the runner's
//! clock, and hands the move text to the referee. Everything that is not a legal move in time
//! ends the game against the mover with the reason recorded: loss on time, illegal move,
//! crash, stall (no answer without a clock), malformed output, false claim, resignation.
//! Before every request the rules are asked for a result (mate, stalemate, repetition,
//! perpetual check, move-count rules; Go after two passes: dead stones agreed by both engines'
//! `final_status_list dead`, else the game is played out with cleanup moves, asked again, and
//! scored with every stone alive if the engines still disagree; the reason names the stones
//! removed). Draw and resign adjudication follow cutechess-cli's rules on the engines'
//! own reported scores.

use std::time::{Duration, Instant, SystemTime};

use tetrarch::game::{Outcome, Side, Verdict};

use super::drivers::{GameSetup, MoveRequest, PlayedMove, Player, PlayerError, Reply, SearchInfo};
use super::rules::{GameKind, Rules};
use super::tc::{PlayerClock, TimeControl};

/// cutechess-cli's draw adjudication: from move `move_number` on, when both engines' scores
/// stayed within `score` for `move_count` consecutive moves each, the game is drawn.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DrawAdjudication {
    pub move_number: u32,
    pub move_count: u32,
    pub score: i32,
}

/// cutechess-cli's resign adjudication: an engine whose score stayed at or below `-score`
/// for `move_count` consecutive moves loses; with `two_sided`, only when its opponent's score
/// also stayed at or above `score`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ResignAdjudication {
    pub move_count: u32,
    pub score: i32,
    pub two_sided: bool,
}

/// The settings of one game.
#[derive(Clone, Debug)]
pub struct GameSettings {
    pub kind: GameKind,
    /// Time controls and margins, by side.
    pub tcs: [TimeControl; 2],
    pub margins_ms: [u64; 2],
    /// How long to wait for an engine without a clock (node or depth limits) before it is
    /// declared stalled.
    pub stall_timeout: Duration,
    pub draw: Option<DrawAdjudication>,
    pub resign: Option<ResignAdjudication>,
    /// Draw after this many moves by each side.
    pub max_moves: Option<u32>,
    pub board_size: u32,
    pub komi: f64,
}

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameResult {
    Win(Side),
    Draw,
    /// Not finished (the match was stopped, or neither engine could start).
    Unfinished,
}

impl GameResult {
    /// Points of a side on the 1 / 0.5 / 0 scale.
    pub fn points(self, side: Side) -> Option<f64> {
        match self {
            GameResult::Win(s) if s == side => Some(1.0),
            GameResult::Win(_) => Some(0.0),
            GameResult::Draw => Some(0.5),
            GameResult::Unfinished => None,
        }
    }

    /// `1-0`, `0-1`, `1/2-1/2` or `*`, first mover first.
    pub fn pgn(self) -> &'static str {
        match self {
            GameResult::Win(Side::First) => "1-0",
            GameResult::Win(Side::Second) => "0-1",
            GameResult::Draw => "1/2-1/2",
            GameResult::Unfinished => "*",
        }
    }
}

/// A move as recorded.
#[derive(Clone, Debug)]
pub struct RecordedMove {
    /// Canonical text (the referee's notation).
    pub text: String,
    /// Record notation (SAN in chess).
    pub record: String,
    /// Position text after the move.
    pub after: String,
    pub used_ms: u64,
    pub info: SearchInfo,
    /// Whether the move came from the opening book.
    pub book: bool,
}

/// A finished game.
#[derive(Clone, Debug)]
pub struct GameRecord {
    pub kind: GameKind,
    /// Player names by side.
    pub names: [String; 2],
    pub start: String,
    pub start_is_initial: bool,
    pub moves: Vec<RecordedMove>,
    pub result: GameResult,
    /// Why the game ended, in words (`White mates`, `Black loses on time`, ...).
    pub reason: String,
    /// The side at fault when an engine failed (crash, stall, illegal move, ...): the runner
    /// restarts it with `-recover`.
    pub failed: Option<Side>,
    pub tcs: [TimeControl; 2],
    pub started: SystemTime,
    /// Wall time of the whole game and the part spent inside engines' thinking.
    pub wall: Duration,
    pub thinking: Duration,
    /// The part spent in the referee (legality, records, rule results).
    pub referee: Duration,
}

struct Adjudicator {
    /// Per side: consecutive moves with a drawish score, with a losing score, with a winning
    /// score.
    drawish: [u32; 2],
    losing: [u32; 2],
    winning: [u32; 2],
}

/// Plays a game. `players` are indexed by side; `rules` is the referee, already at the
/// opening's start position; `book` holds the opening's moves in the referee's notation.
pub fn play_game(
    players: [&mut dyn Player; 2],
    mut rules: Box<dyn Rules>,
    book: &[String],
    settings: &GameSettings,
) -> GameRecord {
    let started = SystemTime::now();
    let wall_start = Instant::now();
    let kind = settings.kind;
    let names = [players[0].name().to_string(), players[1].name().to_string()];
    let [p0, p1] = players;
    let mut players: [&mut dyn Player; 2] = [p0, p1];
    let side_names = kind.side_names();
    let mut record = GameRecord {
        kind,
        names: names.clone(),
        start: rules.start_text(),
        start_is_initial: rules.starts_from_initial(),
        moves: Vec::new(),
        result: GameResult::Unfinished,
        reason: String::new(),
        failed: None,
        tcs: settings.tcs,
        started,
        wall: Duration::ZERO,
        thinking: Duration::ZERO,
        referee: Duration::ZERO,
    };
    let finish = |mut record: GameRecord, result: GameResult, reason: String| {
        record.result = result;
        record.reason = reason;
        record.wall = wall_start.elapsed();
        record
    };

    // The opening.
    for text in book {
        let rec = rules.record_text(text);
        match rules.play(text) {
            Ok(canonical) => record.moves.push(RecordedMove {
                text: canonical,
                record: rec,
                after: rules.text(),
                used_ms: 0,
                info: SearchInfo::default(),
                book: true,
            }),
            Err(e) => {
                return finish(
                    record,
                    GameResult::Unfinished,
                    format!("opening move '{text}' is illegal: {e}"),
                )
            }
        }
    }

    // Tell both engines a game starts.
    for side in Side::BOTH {
        let setup = GameSetup {
            kind,
            board_size: settings.board_size,
            komi: settings.komi,
            side,
            tc: settings.tcs[side.index()],
            opponent: names[side.flip().index()].clone(),
        };
        if let Err(e) = players[side.index()].new_game(&setup) {
            record.failed = Some(side);
            return finish(
                record,
                GameResult::Win(side.flip()),
                format!("{} {e}", side_names[side.index()]),
            );
        }
    }

    let mut clocks = [
        PlayerClock::new(settings.tcs[0]),
        PlayerClock::new(settings.tcs[1]),
    ];
    let mut adj = Adjudicator {
        drawish: [0; 2],
        losing: [0; 2],
        winning: [0; 2],
    };
    let mut played: Vec<PlayedMove> = record
        .moves
        .iter()
        .map(|m| PlayedMove {
            text: m.text.clone(),
            after: m.after.clone(),
            used_ms: 0,
        })
        .collect();
    let mut thinking = Duration::ZERO;
    let mut referee = Duration::ZERO;
    let mut cleanup = false;
    let mut moves_by_engines = [0u32; 2];

    // A score adjudication waits one turn of the loop: the move that triggered it may also
    // have ended the game by rule (mate, repetition), and the rule result comes first.
    let mut adjudicated: Option<(GameResult, String)> = None;
    let (result, reason) = loop {
        let t = Instant::now();
        let outcome = rules.outcome();
        referee += t.elapsed();
        if let Some(o) = outcome {
            break rule_result(rules.side_to_move(), o, kind);
        }
        if let Some(a) = adjudicated.take() {
            break a;
        }
        if let Some(v) = rules.adjudicate() {
            let side = rules.side_to_move();
            break match v {
                Verdict::Draw => (GameResult::Draw, "Draw by the endgame tables".to_string()),
                v => {
                    let w = if v == Verdict::Win { side } else { side.flip() };
                    let why = format!("{} wins by the endgame tables", side_names[w.index()]);
                    (GameResult::Win(w), why)
                }
            };
        }
        if rules.awaiting_score() {
            match score_go(&mut players, &mut *rules, &record, &played, cleanup) {
                GoScoring::Scored(side, o, dead) => {
                    let (result, mut reason) = rule_result(side, o, kind);
                    if let (GameResult::Win(w), Some(m)) = (result, rules.score_margin()) {
                        // Black's margin; the winner's is its absolute value.
                        reason = format!("{} wins by {} points", side_names[w.index()], m.abs());
                    }
                    // The record says which stones were removed, so that anyone can count
                    // the final board again without judging life and death.
                    if dead.is_empty() {
                        reason.push_str(" (no dead stones)");
                    } else {
                        reason.push_str(&format!(" (dead stones: {})", dead.join(" ")));
                    }
                    break (result, reason);
                }
                GoScoring::PlayOut => {
                    cleanup = true;
                    continue;
                }
                GoScoring::Failed(side, e) => {
                    record.failed = Some(side);
                    break (
                        GameResult::Win(side.flip()),
                        format!("{} {e}", side_names[side.index()]),
                    );
                }
            }
        }
        if let Some(max) = settings.max_moves {
            if moves_by_engines[0] >= max && moves_by_engines[1] >= max {
                break (GameResult::Draw, "Draw by move limit".into());
            }
        }
        let side = rules.side_to_move();
        let me = side.index();
        let margin = settings.margins_ms[me];
        let allowance = clocks[me]
            .allowance_ms(margin)
            .map(|ms| Duration::from_millis(ms) + Duration::from_millis(20))
            .unwrap_or(settings.stall_timeout);
        let req = MoveRequest {
            kind,
            start: &record.start,
            start_is_initial: record.start_is_initial,
            moves: &played,
            side,
            clocks: [clocks[0].view(), clocks[1].view()],
            tc: settings.tcs[me],
            deadline: Instant::now() + allowance,
            cleanup,
        };
        let answer = players[me].go(&req);
        let sent = players[me].request_sent();
        let who = side_names[me];
        let answer = match answer {
            Ok(a) => a,
            Err(PlayerError::Timeout) => {
                let used = sent.elapsed().as_millis() as u64;
                thinking += sent.elapsed();
                if settings.tcs[me].has_clock() {
                    // The engine may still be thinking: it is out of step until restarted,
                    // unless the driver recovered it.
                    break (
                        GameResult::Win(side.flip()),
                        format!("{who} loses on time ({used} ms)"),
                    );
                }
                record.failed = Some(side);
                break (
                    GameResult::Win(side.flip()),
                    format!("{who}'s connection stalls"),
                );
            }
            Err(e) => {
                record.failed = Some(side);
                let reason = match &e {
                    PlayerError::Crashed(_) => format!("{who}'s engine {e}"),
                    PlayerError::Malformed(_) => format!("{who} {e}"),
                    _ => format!("{who}'s engine {e}"),
                };
                break (GameResult::Win(side.flip()), reason);
            }
        };
        let used = answer.answered_at.saturating_duration_since(sent);
        thinking += used;
        let used_ms = used.as_millis() as u64;
        if let Err(f) = clocks[me].charge(used_ms, margin) {
            break (
                GameResult::Win(side.flip()),
                format!(
                    "{who} loses on time ({} ms used, {} ms allowed)",
                    f.used_ms, f.allowed_ms
                ),
            );
        }
        let text = match answer.reply {
            Reply::Move(t) | Reply::MoveWithDrawOffer(t) => t,
            Reply::Resign => break (GameResult::Win(side.flip()), format!("{who} resigns")),
            Reply::NoMove => {
                // The rules found no result here, so legal moves exist.
                record.failed = Some(side);
                break (
                    GameResult::Win(side.flip()),
                    format!("{who} claims to have no move in a position with legal moves"),
                );
            }
            Reply::Claim(v) => {
                let truth = rules.outcome().map(|o| o.verdict);
                if truth == Some(v) {
                    break rule_result(side, rules.outcome().unwrap(), kind);
                }
                break (
                    GameResult::Win(side.flip()),
                    format!("{who} makes a false claim"),
                );
            }
        };
        let t = Instant::now();
        let rec = rules.record_text(&text);
        let played_move = rules.play(&text);
        referee += t.elapsed();
        let canonical = match played_move {
            Ok(c) => c,
            Err(e) => {
                record.failed = Some(side);
                break (
                    GameResult::Win(side.flip()),
                    format!("{who} makes an illegal move: {text} ({e})"),
                );
            }
        };
        moves_by_engines[me] += 1;
        let t = Instant::now();
        let after = rules.text();
        referee += t.elapsed();
        played.push(PlayedMove {
            text: canonical.clone(),
            after: after.clone(),
            used_ms,
        });
        record.moves.push(RecordedMove {
            text: canonical,
            record: rec,
            after,
            used_ms,
            info: answer.info,
            book: false,
        });
        // Full moves of the game so far, book moves included (cutechess's move number).
        let full_moves = record.moves.len().div_ceil(2) as u32;
        if let Some(r) = adjudicate(&mut adj, settings, side, &answer.info, full_moves) {
            let reason = match r {
                GameResult::Draw => "Draw by adjudication".to_string(),
                GameResult::Win(s) => format!("{} wins by adjudication", side_names[s.index()]),
                GameResult::Unfinished => unreachable!(),
            };
            adjudicated = Some((r, reason));
        }
    };

    let end = MoveRequest {
        kind,
        start: &record.start,
        start_is_initial: record.start_is_initial,
        moves: &played,
        side: rules.side_to_move(),
        clocks: [clocks[0].view(), clocks[1].view()],
        tc: settings.tcs[0],
        deadline: Instant::now() + Duration::from_secs(2),
        cleanup: false,
    };
    for side in Side::BOTH {
        let verdict = match result {
            GameResult::Win(s) if s == side => Some(Verdict::Win),
            GameResult::Win(_) => Some(Verdict::Loss),
            GameResult::Draw => Some(Verdict::Draw),
            GameResult::Unfinished => None,
        };
        players[side.index()].game_over(&end, verdict);
    }
    record.thinking = thinking;
    record.referee = referee;
    finish(record, result, reason)
}

/// The result of a rule outcome seen from `side` (the side to move when it was found).
fn rule_result(side: Side, o: Outcome, kind: GameKind) -> (GameResult, String) {
    let names = kind.side_names();
    let result = match o.verdict {
        Verdict::Win => GameResult::Win(side),
        Verdict::Loss => GameResult::Win(side.flip()),
        Verdict::Draw => GameResult::Draw,
    };
    use tetrarch::game::Reason::*;
    let reason = match (o.reason, result) {
        (Checkmate, GameResult::Win(w)) => format!("{} mates", names[w.index()]),
        (Stalemate, GameResult::Draw) => "Draw by stalemate".into(),
        (Stalemate, GameResult::Win(w)) => {
            format!(
                "{} wins: {} is stalemated",
                names[w.index()],
                names[w.flip().index()]
            )
        }
        (NoLegalMove, GameResult::Win(w)) => format!(
            "{} wins: {} has no legal move",
            names[w.index()],
            names[w.flip().index()]
        ),
        (NoPieces, GameResult::Win(w)) => format!(
            "{} wins: {} has no pieces",
            names[w.index()],
            names[w.flip().index()]
        ),
        (Repetition, _) => "Draw by repetition".into(),
        (PerpetualCheck, GameResult::Win(w)) => format!(
            "{} wins: {} gives perpetual check",
            names[w.index()],
            names[w.flip().index()]
        ),
        (PerpetualChase, GameResult::Win(w)) => format!(
            "{} wins: {} chases perpetually",
            names[w.index()],
            names[w.flip().index()]
        ),
        (MoveLimit, _) => format!("Draw by {}", kind.move_rule()),
        (EndgameRule, _) => "Draw by the 16/5-move endgame rule".into(),
        (DeadPosition, _) => "Draw by insufficient mating material".into(),
        (Score, GameResult::Win(w)) => format!("{} wins on points", names[w.index()]),
        (Score, _) => "Draw on points".into(),
        (r, res) => format!("{r:?} ({})", res.pgn()),
    };
    (result, reason)
}

enum GoScoring {
    /// Scored from the side to move's view, with the stones removed as dead.
    Scored(Side, Outcome, Vec<String>),
    PlayOut,
    Failed(Side, PlayerError),
}

/// After two passes: dead stones agreed by both engines are removed and the board is scored.
/// A dispute sends the game back to play with cleanup moves the first time; after the cleanup
/// the engines are asked again, and a second dispute scores the board as it stands (every
/// stone alive, which is what an engine playing kgs-genmove_cleanup is told to bring about).
fn score_go(
    players: &mut [&mut dyn Player; 2],
    rules: &mut dyn Rules,
    record: &GameRecord,
    played: &[PlayedMove],
    already_cleaned: bool,
) -> GoScoring {
    let side = rules.side_to_move();
    let mut lists = Vec::new();
    for s in Side::BOTH {
        let req = MoveRequest {
            kind: GameKind::Go,
            start: &record.start,
            start_is_initial: record.start_is_initial,
            moves: played,
            side,
            clocks: [None, None],
            tc: TimeControl::Infinite,
            deadline: Instant::now() + Duration::from_secs(60),
            cleanup: false,
        };
        match players[s.index()].dead_stones(&req) {
            Ok(mut l) => {
                l.sort();
                l.dedup();
                lists.push(l);
            }
            Err(e) => return GoScoring::Failed(s, e),
        }
    }
    let dead = if lists[0] == lists[1] {
        lists.swap_remove(0)
    } else if already_cleaned {
        Vec::new()
    } else {
        rules.resume_play();
        return GoScoring::PlayOut;
    };
    match rules.score_with_dead(&dead) {
        Ok(o) => GoScoring::Scored(rules.side_to_move(), o, dead),
        Err(e) => GoScoring::Failed(side, PlayerError::Refused(e)),
    }
}

fn adjudicate(
    adj: &mut Adjudicator,
    settings: &GameSettings,
    side: Side,
    info: &SearchInfo,
    full_moves: u32,
) -> Option<GameResult> {
    let me = side.index();
    let Some(score) = info.score else {
        adj.drawish[me] = 0;
        adj.losing[me] = 0;
        adj.winning[me] = 0;
        return None;
    };
    if let Some(d) = settings.draw {
        if score.abs() <= d.score {
            adj.drawish[me] += 1;
        } else {
            adj.drawish[me] = 0;
        }
        if full_moves >= d.move_number
            && adj.drawish[0] >= d.move_count
            && adj.drawish[1] >= d.move_count
        {
            return Some(GameResult::Draw);
        }
    }
    if let Some(r) = settings.resign {
        if score <= -r.score {
            adj.losing[me] += 1;
        } else {
            adj.losing[me] = 0;
        }
        if score >= r.score {
            adj.winning[me] += 1;
        } else {
            adj.winning[me] = 0;
        }
        let other = side.flip().index();
        if adj.losing[me] >= r.move_count && (!r.two_sided || adj.winning[other] >= r.move_count) {
            return Some(GameResult::Win(side.flip()));
        }
        if adj.winning[me] >= r.move_count && adj.losing[other] >= r.move_count {
            return Some(GameResult::Win(side));
        }
    }
    None
}
