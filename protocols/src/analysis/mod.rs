//! `tetrarch analysis`: KataGo's JSON analysis engine protocol for Go, the interface KaTrain
//! and many web and desktop tools drive.
//!
//! Scheme: every input line is one JSON query and every output line one JSON response. A
//! query names a game (setup stones, moves, rules, komi, board size) and the turns of it to
//! analyse; each turn becomes a job, and jobs run one at a time on the Go bot's search thread,
//! in the order they came (KataGo runs several at once and by priority; `priority` is
//! accepted and ignored here). Each job ends with exactly one response whose
//! `isDuringSearch` is false, after its visits (`maxVisits`, else `--max-visits`), its time
//! (`overrideSettings.maxTime`) or a `terminate`; with `reportDuringSearchEvery` partial
//! responses come before it. The session loop `select!`s over input lines, the end of the
//! running job and its time limit, so actions are answered at once while a job searches:
//! `query_version`, `query_models`, `clear_cache` (there is no cache: every job starts a fresh
//! tree, so it only acknowledges), `terminate` and `terminate_all` (a queued job answers with
//! `noResults`, the running one stops and answers with what it found). At the end of input
//! the queued jobs are still run, as KataGo does, then the process exits.
//!
//! Values: winrate, lcb and utility (`2 * winrate - 1`, no score term) are the playouts' mean
//! results; `scoreLead`, `scoreMean` and `scoreSelfplay` are all the playouts' mean final
//! area margin (Tetrarch has no separate lead estimate) and `scoreStdev` its spread; `prior`
//! and `policy` are the shares of the engine's prior knowledge (patterns and tactics, not a
//! network). `rootInfo` averages the root moves' values over their visits. Ownership is the
//! playouts' mean owner of each point. All are from the view `reportAnalysisWinratesAs` names:
//! by default the player to move, KataGo's default when its config does not set it.
//!
//! Errors and warnings have KataGo's forms: `{"error": ...}` for a line that is not a query,
//! `{"error": ..., "field": ..., "id": ...}` for a bad field (the query is dropped), and
//! `{"warning": ..., "field": ..., "id": ...}` for an unknown field or one Tetrarch accepts but
//! does not honour (the query runs).

pub mod json;
pub mod query;
#[cfg(test)]
mod tests;

use std::collections::VecDeque;
use std::sync::Arc;
use std::time::{Duration, Instant};

use crossbeam::channel::{self, Receiver, Sender};
use tetrarch::game::Side;
use tetrarch::games::go::{AnalysisRequest, Board, GoBot, Move, SearchFailed, Settings};
use tetrarch::mcts::Snapshot;

use crate::io::{Input, Output};
use json::{object, Json};
use query::{Defaults, Perspective, Query, Turn};

/// Command-line options of `tetrarch analysis`.
#[derive(clap::Args, Clone, Debug)]
pub struct AnalysisArgs {
    /// Search threads per position.
    #[arg(long)]
    pub threads: Option<usize>,
    /// Visits per position when a query sets no `maxVisits`.
    #[arg(long, default_value_t = 500)]
    pub max_visits: u64,
    /// Moves of each principal variation after its first (a query's `analysisPVLen` wins).
    #[arg(long, default_value_t = 15)]
    pub pv_len: usize,
    /// Whose view winrates, scores and ownership are reported from: black, white or
    /// sidetomove (KataGo's `reportAnalysisWinratesAs`).
    #[arg(long, default_value = "sidetomove", value_parser = perspective_arg)]
    pub report_winrates_as: Perspective,
    /// Search tree size in nodes.
    #[arg(long)]
    pub max_nodes: Option<usize>,
    /// Seed of the playouts.
    #[arg(long)]
    pub seed: Option<u64>,
}

impl Default for AnalysisArgs {
    fn default() -> Self {
        AnalysisArgs {
            threads: None,
            max_visits: 500,
            pv_len: 15,
            report_winrates_as: Perspective::SideToMove,
            max_nodes: None,
            seed: None,
        }
    }
}

fn perspective_arg(s: &str) -> Result<Perspective, String> {
    Perspective::parse(s).ok_or_else(|| format!("'{s}' is not black, white or sidetomove"))
}

impl AnalysisArgs {
    fn settings(&self) -> Settings {
        let mut s = Settings::default();
        if let Some(t) = self.threads {
            s.threads = t.clamp(1, 256);
        }
        if let Some(n) = self.max_nodes {
            s.max_nodes = n.clamp(1000, 1 << 28);
        }
        if let Some(seed) = self.seed {
            s.seed = seed;
        }
        s
    }
}

/// Runs the analysis engine until the end of input and of the jobs queued before it.
pub fn run(input: Input, out: Output, args: &AnalysisArgs) {
    let (done_tx, done_rx) = channel::unbounded();
    let mut s = Session {
        out,
        input,
        input_closed: false,
        bot: GoBot::new(args.settings()),
        defaults: Defaults {
            max_visits: args.max_visits.clamp(1, 1 << 50),
            perspective: args.report_winrates_as,
            pv_len: args.pv_len.clamp(1, 1000),
        },
        queue: VecDeque::new(),
        running: None,
        serial: 0,
        done_tx,
        done_rx,
    };
    s.run();
}

/// One position to analyse, with what its responses need.
struct Job {
    query: Arc<Query>,
    turn: Turn,
}

/// What a response is formatted from, shared with the search thread's progress reports.
struct Context {
    query: Arc<Query>,
    turn: usize,
    /// The root, with the player to move set.
    board: Board,
    /// `policy`, computed once when asked for.
    policy: Option<Json>,
}

struct Running {
    context: Arc<Context>,
    serial: u64,
    deadline: Option<Instant>,
}

type Finished = (u64, Result<Snapshot<Move>, SearchFailed>);

struct Session {
    out: Output,
    input: Input,
    input_closed: bool,
    bot: GoBot,
    defaults: Defaults,
    queue: VecDeque<Job>,
    running: Option<Running>,
    /// Numbers the jobs started, so a late end of an old job is told apart.
    serial: u64,
    done_tx: Sender<Finished>,
    done_rx: Receiver<Finished>,
}

impl Session {
    fn run(&mut self) {
        loop {
            if self.running.is_none() {
                self.start_next();
            }
            if self.running.is_none() && self.input_closed {
                break;
            }
            let lines = if self.input_closed {
                channel::never()
            } else {
                self.input.receiver().clone()
            };
            let timer = match self.running.as_ref().and_then(|r| r.deadline) {
                Some(at) => channel::at(at),
                None => channel::never(),
            };
            channel::select! {
                recv(lines) -> line => match line {
                    Ok(l) => self.line(&l),
                    Err(_) => self.input_closed = true,
                },
                recv(self.done_rx) -> finished => {
                    if let Ok((serial, result)) = finished {
                        self.finish(serial, result);
                    }
                }
                recv(timer) -> _ => {
                    if let Some(r) = self.running.as_mut() {
                        r.deadline = None;
                    }
                    self.bot.stop();
                }
            }
        }
    }

    fn send(&self, v: &Json) {
        self.out.line(&v.to_line());
    }

    fn error(&self, message: &str) {
        self.send(&object([("error", message.into())]));
    }

    fn field_error(&self, id: &str, field: &str, message: &str) {
        self.send(&object([
            ("error", message.into()),
            ("field", field.into()),
            ("id", id.into()),
        ]));
    }

    /// One input line: a query or an action.
    fn line(&mut self, line: &str) {
        if line.trim().is_empty() {
            return;
        }
        let input = match json::parse(line) {
            Ok(v) => v,
            Err(e) => {
                return self.error(&format!("Could not parse input line as json request: {e}"))
            }
        };
        if input.as_object().is_none() {
            return self.error("Request line was valid json but was not an object, ignoring");
        }
        let Some(id) = input.get("id").and_then(Json::as_str).map(str::to_string) else {
            return self.error("Request must have a string \"id\" field");
        };
        match input.get("action") {
            None => self.query(&input, &id),
            Some(Json::String(action)) => self.action(&input, &id, action),
            Some(_) => self.field_error(&id, "action", "Must be a string"),
        }
    }

    fn query(&mut self, input: &Json, id: &str) {
        let (mut q, warnings) = match query::read(input, id, &self.defaults) {
            Ok(r) => r,
            Err(p) => return self.field_error(id, &p.field, &p.message),
        };
        for w in warnings {
            self.send(&object([
                ("warning", w.message.into()),
                ("field", w.field.into()),
                ("id", id.into()),
            ]));
        }
        let turns = std::mem::take(&mut q.turns);
        let q = Arc::new(q);
        for turn in turns {
            self.queue.push_back(Job {
                query: q.clone(),
                turn,
            });
        }
    }

    fn action(&mut self, input: &Json, id: &str, action: &str) {
        let echo_with = |extra: Vec<(&str, Json)>| {
            let mut members: Vec<(String, Json)> = input
                .as_object()
                .unwrap_or(&[])
                .iter()
                .filter(|(k, _)| !extra.iter().any(|(e, _)| e == k))
                .cloned()
                .collect();
            members.extend(extra.into_iter().map(|(k, v)| (k.to_string(), v)));
            Json::Object(members)
        };
        match action {
            "query_version" => self.send(&echo_with(vec![
                ("version", env!("CARGO_PKG_VERSION").into()),
                ("git_hash", "<omitted>".into()),
            ])),
            "query_models" => self.send(&echo_with(vec![("models", Json::Array(Vec::new()))])),
            "clear_cache" => self.send(&echo_with(Vec::new())),
            "terminate" | "terminate_all" => self.terminate(input, id, action == "terminate_all"),
            _ => self.field_error(
                id,
                "action",
                "'action' field must be 'query_version' or 'query_models' or 'clear_cache' or \
                 'terminate' or 'terminate_all'",
            ),
        }
    }

    fn terminate(&mut self, input: &Json, id: &str, all: bool) {
        let target =
            if all {
                None
            } else {
                match input.get("terminateId").and_then(Json::as_str) {
                    Some(t) => Some(t.to_string()),
                    None => return self.field_error(
                        id,
                        "terminateId",
                        "Requests for a terminate action must have a string \"terminateId\" field",
                    ),
                }
            };
        let turns: Option<Vec<i64>> =
            match input.get("turnNumbers") {
                None => None,
                Some(v) => match v
                    .as_array()
                    .and_then(|l| l.iter().map(Json::as_i64).collect::<Option<Vec<_>>>())
                {
                    Some(l) => Some(l),
                    None => return self.field_error(
                        id,
                        "turnNumbers",
                        "If provided, must be an array of integers indicating turns to terminate",
                    ),
                },
            };
        let hit = |job_id: &str, turn: usize| {
            target.as_deref().is_none_or(|t| t == job_id)
                && turns.as_ref().is_none_or(|l| l.contains(&(turn as i64)))
        };
        self.send(input);
        let queued = std::mem::take(&mut self.queue);
        for job in queued {
            if hit(&job.query.id, job.turn.number) {
                self.send(&no_results(&job.query.id, job.turn.number));
            } else {
                self.queue.push_back(job);
            }
        }
        if let Some(r) = &self.running {
            if hit(&r.context.query.id, r.context.turn) {
                self.bot.stop();
            }
        }
    }

    /// Starts the next queued job, if any.
    fn start_next(&mut self) {
        let Some(job) = self.queue.pop_front() else {
            return;
        };
        let Job { query: q, turn } = job;
        let engine = self.bot.engine();
        engine.set_record(turn.record);
        let mut board = engine.board().clone();
        board.set_to_move(turn.to_move);
        let policy = q.policy.then(|| {
            let shares = engine.policy(turn.to_move);
            policy_json(&board, turn.to_move, &shares)
        });
        let context = Arc::new(Context {
            query: q.clone(),
            turn: turn.number,
            board,
            policy,
        });
        self.serial += 1;
        let serial = self.serial;

        // Partial reports: the first after `first_report`, then every `report_every`; the
        // search calls back at the finer of the two (at least every 10 ms).
        let interval = match (q.first_report, q.report_every) {
            (Some(a), Some(b)) => a.min(b),
            (Some(a), None) | (None, Some(a)) => a,
            (None, None) => Duration::from_secs(3600),
        };
        let mut next_report = q.first_report;
        let every = q.report_every;
        let (out, ctx) = (self.out.clone(), context.clone());
        let progress = Box::new(move |_: &Board, snap: &Snapshot<Move>| {
            let Some(due) = next_report else { return };
            if snap.elapsed < due || snap.moves.is_empty() {
                return;
            }
            out.line(&response(&ctx, snap, true).to_line());
            next_report = every.map(|e| snap.elapsed + e);
        });
        let done_tx = self.done_tx.clone();
        let done = Box::new(move |result| {
            let _ = done_tx.send((serial, result));
        });
        let request = AnalysisRequest {
            interval,
            allow: turn.allow,
            avoid: turn.avoid,
            playouts: Some(q.max_visits),
        };
        self.bot.analyze_then(turn.to_move, request, progress, done);
        self.running = Some(Running {
            context,
            serial,
            deadline: q.max_time.map(|t| Instant::now() + t),
        });
    }

    /// The running job ended: its final response.
    fn finish(&mut self, serial: u64, result: Result<Snapshot<Move>, SearchFailed>) {
        if self.running.as_ref().map(|r| r.serial) != Some(serial) {
            return;
        }
        let Some(r) = self.running.take() else { return };
        let c = &r.context;
        match result {
            Ok(snap) if !snap.moves.is_empty() => self.send(&response(c, &snap, false)),
            Ok(_) => self.send(&no_results(&c.query.id, c.turn)),
            Err(e) => {
                eprintln!(
                    "tetrarch: {e} on turn {} of query {:?}; the engine goes on",
                    c.turn, c.query.id
                );
                self.send(&no_results(&c.query.id, c.turn));
            }
        }
        // The engine comes back to the session.
        self.bot.stop_and_wait();
    }
}

/// The answer for a job that was not analysed at all.
fn no_results(id: &str, turn: usize) -> Json {
    object([
        ("id", id.into()),
        ("isDuringSearch", false.into()),
        ("noResults", true.into()),
        ("turnNumber", (turn as i64).into()),
    ])
}

fn player(side: Side) -> Json {
    (if side == Side::First { "B" } else { "W" }).into()
}

/// A response for the state of a search.
fn response(c: &Context, snap: &Snapshot<Move>, during: bool) -> Json {
    let q = &c.query;
    let to_move = c.board.to_move();
    let flip = q.perspective.flips(to_move);
    let wr = |w: f32| if flip { 1.0 - w } else { w };
    let pts = |s: f32| if flip { -s } else { s };
    let name = |m: Move| c.board.vertex(m).to_uppercase();
    let mut infos = Vec::with_capacity(snap.moves.len());
    for (order, m) in snap.moves.iter().enumerate() {
        let pv: Vec<Json> =
            m.pv.iter()
                .take(q.pv_len + 1)
                .map(|&x| name(x).into())
                .collect();
        let (w, lcb, score) = (wr(m.winrate), wr(m.lcb), pts(m.score));
        infos.push(object([
            ("move", name(m.mv).into()),
            ("visits", (m.visits as i64).into()),
            ("edgeVisits", (m.visits as i64).into()),
            ("winrate", Json::num(w)),
            ("scoreLead", Json::num(score)),
            ("scoreMean", Json::num(score)),
            ("scoreSelfplay", Json::num(score)),
            ("scoreStdev", Json::num(m.score_stdev)),
            ("prior", Json::num(m.prior)),
            ("utility", Json::num(2.0 * w - 1.0)),
            ("lcb", Json::num(lcb)),
            ("utilityLcb", Json::num(2.0 * lcb - 1.0)),
            ("order", (order as i64).into()),
            ("pv", Json::Array(pv)),
        ]));
    }
    // The root's value: its moves' values weighed by their visits.
    let visits: f64 = snap.moves.iter().map(|m| m.visits as f64).sum();
    let mean = |f: &dyn Fn(&tetrarch::mcts::MoveStats<Move>) -> f32| {
        (snap
            .moves
            .iter()
            .map(|m| f(m) as f64 * m.visits as f64)
            .sum::<f64>()
            / visits.max(1.0)) as f32
    };
    let root_winrate = wr(mean(&|m| m.winrate));
    let root_score = pts(mean(&|m| m.score));
    let root = object([
        ("currentPlayer", player(to_move)),
        ("visits", (snap.root_visits as i64).into()),
        ("winrate", Json::num(root_winrate)),
        ("scoreLead", Json::num(root_score)),
        ("scoreSelfplay", Json::num(root_score)),
        ("utility", Json::num(2.0 * root_winrate - 1.0)),
    ]);
    let mut members = vec![
        ("id".to_string(), Json::from(q.id.as_str())),
        ("isDuringSearch".to_string(), during.into()),
        ("turnNumber".to_string(), (c.turn as i64).into()),
        ("moveInfos".to_string(), Json::Array(infos)),
        ("rootInfo".to_string(), root),
    ];
    if q.ownership {
        let n = c.board.size();
        let black_view = match q.perspective {
            Perspective::Black => true,
            Perspective::White => false,
            Perspective::SideToMove => to_move == Side::First,
        };
        let sign = if black_view { 1.0 } else { -1.0 };
        let mut cells = Vec::with_capacity(n * n);
        // Top row first, as KataGo writes it; the snapshot counts rows from the bottom.
        for y in (0..n).rev() {
            for x in 0..n {
                let v = snap.ownership.get(y * n + x).copied().unwrap_or(0.0);
                cells.push(Json::num(sign * v));
            }
        }
        members.push(("ownership".to_string(), Json::Array(cells)));
    }
    if let Some(p) = &c.policy {
        members.push(("policy".to_string(), p.clone()));
    }
    Json::Object(members)
}

/// KataGo's `policy`: per point, top row first, the prior's share, `-1` where the move is
/// illegal; the pass last.
fn policy_json(board: &Board, side: Side, shares: &[(Move, f32)]) -> Json {
    let mut by_index = vec![0.0f32; board.mailbox_len()];
    for &(m, p) in shares {
        if let Some(slot) = by_index.get_mut(m.0 as usize) {
            *slot = p;
        }
    }
    let n = board.size();
    let mut cells = Vec::with_capacity(n * n + 1);
    for y in (0..n).rev() {
        for x in 0..n {
            let m = Move::at(board.point(x, y));
            cells.push(if board.check_as(m, side).is_ok() {
                Json::num(by_index[m.0 as usize])
            } else {
                Json::Int(-1)
            });
        }
    }
    cells.push(Json::num(by_index[Move::PASS.0 as usize]));
    Json::Array(cells)
}
