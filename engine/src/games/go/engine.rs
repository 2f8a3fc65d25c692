//! The Go player: a game record, the Monte-Carlo search over it, clocks, and the decisions a
//! protocol asks for (a move, pass or resign; dead stones; the final score).
//!
//! Scheme: [`GoEngine`] owns the [`Record`] and an [`Mcts`] whose tree follows the game: every
//! move played, ours or the opponent's, advances the tree to the subtree of that move, so the
//! search for the next move (and pondering in between) starts from what was learned. The
//! search's per-point ownership, averaged over its playouts, judges dead stones: a group is
//! dead when the opponent owns its points in most playouts. The engine passes only when
//! passing does not lose by that judgement, and resigns when the best winrate stays under a
//! threshold for three of its searches in a row. Clocks are kept per colour in the shape the
//! controller set (absolute, Canadian, Japanese byo-yomi, Fischer) and turned into a
//! [`Clock`] for `time::allocate`.
//!
//! Komi: in a handicap game the move search (`genmove`, and pondering for it) plays for the
//! real komi plus a shift toward White ([`dynkomi`]); everything else is the real komi's:
//! analysis, the final score, the judged margin that decides a pass, and every winrate and
//! score reported (the search judges its root moves at the real komi as well). The tree
//! remembers the komi its statistics were gathered at (`GoEngine::fit_tree`).

use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use super::board::{Board, Illegal, Move, BLACK, EMPTY, WHITE};
use super::dynkomi::{self, DynamicKomi};
use super::record::{HandicapError, Record};
use super::strength::Strength;
use crate::game::{MctsState, Side};
use crate::mcts::{self, Mcts, MoveStats, PlayoutLimits, Snapshot};
use crate::time::{self, ByoYomi, Clock};
use rand::rngs::SmallRng;
use rand::SeedableRng;

/// The engine's settings.
#[derive(Clone, Debug)]
pub struct Settings {
    pub threads: usize,
    /// A cap on playouts per move (none by default).
    pub max_playouts: Option<u64>,
    /// Time per move when the controller set no clock.
    pub movetime_ms: u64,
    /// Resign when the best winrate is below this (0 never resigns).
    pub resign_threshold: f32,
    /// Search on the opponent's time.
    pub ponder: bool,
    /// Lag the controller and network add to every move.
    pub overhead_ms: u64,
    /// Search tree size in nodes.
    pub max_nodes: usize,
    pub seed: u64,
    /// Visits before a leaf is expanded; by board size when unset (2 up to 9x9, where
    /// tactics are close and the tree small; 8 above, where a node has hundreds of children).
    pub expand_visits: Option<u32>,
    /// Play below full strength (a playout cap and a drawn move; see `mcts::skill`), by a
    /// level or by a rank read through the board size's table.
    pub strength: Strength,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            threads: 1,
            max_playouts: None,
            movetime_ms: 2000,
            resign_threshold: 0.1,
            ponder: false,
            overhead_ms: 50,
            max_nodes: 1 << 21,
            seed: 0x7e7a_5c4a,
            expand_visits: None,
            strength: Strength::Full,
        }
    }
}

/// A time control as the controller set it (times in milliseconds).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum TimeControl {
    /// No clock: the engine uses its own time per move.
    #[default]
    None,
    /// Sudden death.
    Absolute { main: i64 },
    /// Main time, then `stones` moves per `period`.
    Canadian { main: i64, period: i64, stones: u32 },
    /// Main time, then `periods` periods of `period`, each free if not overrun.
    Japanese {
        main: i64,
        period: i64,
        periods: u32,
    },
    /// Main time plus `increment` after each move.
    Fischer { main: i64, increment: i64 },
}

/// One player's clock.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct PlayerClock {
    /// Main time left.
    pub main: i64,
    /// In overtime: time left in the current period.
    pub period: i64,
    /// In overtime: Canadian stones left in the period, or Japanese periods left.
    pub count: u32,
    pub overtime: bool,
}

/// What the engine does on its turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Decision {
    Play(Move),
    Pass,
    Resign,
}

/// How a group stands at the end of the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    Alive,
    Dead,
    Seki,
}

/// What `genmove` is asked for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveRequest {
    pub side: Side,
    /// Play the move chosen (`genmove`), or only name it (`reg_genmove`).
    pub commit: bool,
    /// Do not pass while dead opponent stones remain (`kgs-genmove_cleanup`).
    pub cleanup: bool,
    /// Interval of progress reports (none: no reports).
    pub interval: Option<Duration>,
}

impl MoveRequest {
    /// A plain `genmove` for `side`.
    pub fn play(side: Side) -> MoveRequest {
        MoveRequest {
            side,
            commit: true,
            cleanup: false,
            interval: None,
        }
    }
}

/// Analysis request.
#[derive(Clone, Debug, Default)]
pub struct AnalysisRequest {
    /// Interval of reports.
    pub interval: Duration,
    /// Root moves to search only (empty: all).
    pub allow: Vec<Move>,
    /// Root moves not to search.
    pub avoid: Vec<Move>,
    /// Stop after this many playouts (none: only when stopped). The tree is the engine's:
    /// with a tree kept from an earlier search of the same position the root has more visits.
    pub playouts: Option<u64>,
}

/// What the playouts say about the end of the game, per cell (row by row from the bottom).
#[derive(Clone, Debug, Default)]
struct Judgement {
    /// Mean owner, +1 Black, -1 White.
    own: Vec<f32>,
    /// Fraction of playouts in which nobody owned the cell.
    neutral: Vec<f32>,
}

impl Judgement {
    fn from(snap: &Snapshot<Move>) -> Judgement {
        Judgement {
            own: snap.ownership.clone(),
            neutral: snap.neutral.clone(),
        }
    }

    /// Whether every point has a clear fate: owned by one side, or by nobody, in most
    /// playouts. Fights the playouts resolve both ways are not settled.
    fn settled(&self) -> bool {
        self.own.iter().zip(&self.neutral).all(|(&o, &n)| {
            let black = (1.0 - n + o) / 2.0;
            let white = (1.0 - n - o) / 2.0;
            black.max(white).max(n) >= SETTLED
        })
    }
}

/// Searches in a row under the resign threshold before the engine resigns: one low reading
/// can be a fight the playouts misjudge (on 19x19 the winrate swings), three are a trend.
const RESIGN_STREAK: u32 = 3;

/// How clear a point's fate must be for the game to count as settled.
const SETTLED: f32 = 0.8;

/// How far (in points) the komi of a move search may be from the komi the kept tree was
/// searched at for the tree to be reused. The shift of dynamic komi fades by under a point
/// from one of our moves to the next; a point moves the winrates by a percent or two, less
/// than the reused visits are worth (Pachi keeps its tree across such changes too). Analysis
/// and the judgement of the real game reuse a tree only at their exact komi.
const REUSE_KOMI_STEP: f32 = 1.0;

/// The winrate the resign rule reads: the better, for the mover, of the real komi's and the
/// search's own (dynamic komi's). The handicap side, whose search must win by more than the
/// game asks, must not resign a game it still wins at the real komi; the side giving the
/// handicap must not resign for being as far behind as the stones make it, which its search's
/// komi forgives: the game is meant to start that way. So a search counts as hopeless only
/// when it is lost at both komis. In an even game the two are one number.
fn resign_winrate(m: &MoveStats<Move>) -> f32 {
    m.winrate.max(m.search_winrate)
}

/// What the last `genmove` search did, for diagnostics.
#[derive(Clone, Debug)]
pub struct SearchSummary {
    pub playouts: u64,
    pub elapsed: Duration,
    pub root_visits: u64,
    /// Winrate of the chosen line for the player who moved.
    pub winrate: f32,
    pub score: f32,
    pub nodes: usize,
    pub pv: Vec<Move>,
    /// The dynamic komi's shift the search played for (points toward White; 0 in even games).
    /// The winrate and score above are the real komi's.
    pub komi_shift: f32,
}

/// A Go player.
pub struct GoEngine {
    record: Record,
    mcts: Mcts<Board>,
    pub settings: Settings,
    time: TimeControl,
    clocks: [PlayerClock; 2],
    /// Ownership of the current position, cached with its key: per cell the mean owner (+1
    /// Black) and the fraction of playouts that left it neutral.
    ownership: Option<(u64, Judgement)>,
    last_search: Option<SearchSummary>,
    /// Per side, how many of its searches in a row (counting moves it played) found its best
    /// winrate under the resign threshold.
    low_streak: [u32; 2],
    /// Draws the weakened move (seeded from the clock: sparring games should differ).
    skill_rng: SmallRng,
    /// Dynamic komi's state over the game (the adaptive correction).
    dynkomi: DynamicKomi,
    /// The komi the kept tree's statistics were gathered at (`None`: no tree kept).
    tree_komi: Option<f32>,
}

impl Default for GoEngine {
    fn default() -> Self {
        GoEngine::new(Settings::default())
    }
}

impl GoEngine {
    pub fn new(settings: Settings) -> GoEngine {
        let config = mcts::Config {
            threads: settings.threads,
            max_nodes: settings.max_nodes,
            seed: settings.seed,
            ..mcts::Config::default()
        };
        GoEngine {
            record: Record::default(),
            mcts: Mcts::new(config),
            settings,
            time: TimeControl::None,
            clocks: [PlayerClock::default(); 2],
            ownership: None,
            last_search: None,
            low_streak: [0; 2],
            skill_rng: SmallRng::seed_from_u64(
                std::time::SystemTime::now()
                    .duration_since(std::time::UNIX_EPOCH)
                    .map_or(1, |d| d.as_nanos() as u64),
            ),
            dynkomi: DynamicKomi::default(),
            tree_komi: None,
        }
    }

    /// Applies changed settings (threads, tree size, seed) to the search.
    pub fn apply_settings(&mut self) {
        self.mcts.config.threads = self.settings.threads.max(1);
        self.mcts.config.seed = self.settings.seed;
        if self.mcts.config.max_nodes != self.settings.max_nodes {
            self.mcts.set_max_nodes(self.settings.max_nodes);
        }
    }

    /// Settings that depend on the board, applied before every search.
    fn prepare_search(&mut self) {
        let by_size = if self.record.size() <= 9 { 2 } else { 8 };
        self.mcts.config.expand_visits = self.settings.expand_visits.unwrap_or(by_size);
    }

    /// The search parameters (for tuning).
    pub fn search_config(&mut self) -> &mut mcts::Config {
        &mut self.mcts.config
    }

    /// The last `genmove` search.
    pub fn last_search(&self) -> Option<&SearchSummary> {
        self.last_search.as_ref()
    }

    pub fn record(&self) -> &Record {
        &self.record
    }

    pub fn board(&self) -> &Board {
        self.record.board()
    }

    /// A new empty board of `size`; komi and settings stay.
    pub fn set_board_size(&mut self, size: usize) {
        self.record = Record::new(size, self.record.komi());
        self.new_game();
        self.low_streak = [0; 2];
    }

    pub fn clear_board(&mut self) {
        self.record.clear();
        self.new_game();
        self.reset_clocks();
        self.low_streak = [0; 2];
    }

    pub fn set_komi(&mut self, komi: f32) {
        self.record.set_komi(komi);
        self.reset_search();
    }

    /// A new game on the board (a new size, a cleared board, a loaded record, handicap
    /// stones): no tree, and dynamic komi's correction starts again.
    fn new_game(&mut self) {
        self.reset_search();
        self.dynkomi = DynamicKomi::default();
    }

    fn reset_search(&mut self) {
        self.mcts.clear();
        self.ownership = None;
        self.tree_komi = None;
    }

    /// Keeps the tree for a search at `komi` only if its statistics were gathered at that
    /// komi, or, for a move search (`near`), within [`REUSE_KOMI_STEP`] of it; else starts a
    /// fresh one. In an even game every search is at the real komi and nothing changes; in a
    /// handicap game an analysis never reads values of the move search's shifted komi.
    fn fit_tree(&mut self, komi: f32, near: bool) {
        let tolerance = if near { REUSE_KOMI_STEP } else { 0.0 };
        if self.tree_komi.is_some_and(|k| (k - komi).abs() > tolerance) {
            self.mcts.clear();
        }
        self.tree_komi = Some(komi);
    }

    /// After a search failed (panicked) part way: forget what it may have left half done (the
    /// tree, the cached judgement), keep the game, its clocks and the settings.
    pub fn recover_from_failed_search(&mut self) {
        self.mcts.recover();
        self.ownership = None;
        self.last_search = None;
        self.tree_komi = None;
    }

    /// The search, for tests that make it fail.
    #[cfg(test)]
    pub(crate) fn mcts_mut(&mut self) -> &mut Mcts<Board> {
        &mut self.mcts
    }

    /// Replaces the game (after `loadsgf`).
    pub fn set_record(&mut self, record: Record) {
        self.record = record;
        self.new_game();
    }

    /// Plays a move of `side`; the tree follows when it can.
    pub fn play(&mut self, side: Side, m: Move) -> Result<(), Illegal> {
        let mut before = self.record.board().clone();
        before.set_to_move(side);
        self.record.play(side, m)?;
        self.mcts.advance(&before, m);
        self.ownership = None;
        Ok(())
    }

    pub fn undo(&mut self) -> bool {
        let ok = self.record.undo();
        if ok {
            self.reset_search();
        }
        ok
    }

    pub fn fixed_handicap(&mut self, n: usize) -> Result<Vec<Move>, HandicapError> {
        let r = self.record.fixed_handicap(n);
        self.new_game();
        r
    }

    pub fn set_free_handicap(&mut self, stones: &[Move]) -> Result<(), HandicapError> {
        let r = self.record.set_handicap(stones);
        self.new_game();
        r
    }

    /// Chooses and places `n` free handicap stones: the fixed points while they reach, then
    /// further points spread over the board.
    pub fn place_free_handicap(&mut self, n: usize) -> Result<Vec<Move>, HandicapError> {
        if !self.record.is_pristine() {
            return Err(HandicapError::BoardNotEmpty);
        }
        let size = self.record.size();
        if n < 2 || n >= size * size {
            return Err(HandicapError::InvalidCount);
        }
        let b = self.record.board();
        let mut stones: Vec<Move> = Vec::new();
        let fixed_max = (2..=9)
            .rev()
            .find(|&k| Record::fixed_handicap_points(size, k).is_ok())
            .unwrap_or(0);
        if fixed_max >= 2 {
            let k = n.min(fixed_max);
            for (x, y) in Record::fixed_handicap_points(size, k)? {
                stones.push(Move::at(b.point(x, y)));
            }
        }
        // More stones than the fixed points: fill a grid, densest last. More than a quarter of
        // the board helps nothing; we give at most that (GTP allows fewer stones).
        let limit = n.min((size * size / 4).max(2));
        let mut step = (size / 3).max(2);
        while stones.len() < limit && step >= 1 {
            let off = step / 2;
            let mut y = off;
            while y < size && stones.len() < limit {
                let mut x = off;
                while x < size && stones.len() < limit {
                    let m = Move::at(b.point(x, y));
                    if !stones.contains(&m) {
                        stones.push(m);
                    }
                    x += step;
                }
                y += step;
            }
            step -= 1;
        }
        self.record.set_handicap(&stones)?;
        self.new_game();
        Ok(stones)
    }

    // -----------------------------------------------------------------------------------------
    // Time

    pub fn set_time_control(&mut self, tc: TimeControl) {
        self.time = tc;
        self.reset_clocks();
    }

    pub fn time_control(&self) -> TimeControl {
        self.time
    }

    fn reset_clocks(&mut self) {
        let c = match self.time {
            TimeControl::None => PlayerClock::default(),
            TimeControl::Absolute { main } | TimeControl::Fischer { main, .. } => PlayerClock {
                main,
                ..PlayerClock::default()
            },
            TimeControl::Canadian {
                main,
                period,
                stones,
            } => PlayerClock {
                main,
                period,
                count: stones,
                overtime: main <= 0,
            },
            TimeControl::Japanese {
                main,
                period,
                periods,
            } => PlayerClock {
                main,
                period,
                count: periods,
                overtime: main <= 0,
            },
        };
        self.clocks = [c; 2];
    }

    /// GTP `time_left`: `ms` left, and `count` stones (Canadian) or periods (Japanese) left in
    /// overtime, 0 while in main time.
    pub fn time_left(&mut self, side: Side, ms: i64, count: u32) {
        let c = &mut self.clocks[side.index()];
        match self.time {
            TimeControl::Canadian { .. } | TimeControl::Japanese { .. } if count > 0 => {
                c.overtime = true;
                c.main = 0;
                c.period = ms;
                c.count = count;
            }
            _ => {
                c.main = ms;
                c.overtime = false;
            }
        }
    }

    pub fn clock(&self, side: Side) -> PlayerClock {
        self.clocks[side.index()]
    }

    /// Charges `ms` spent by `side` to its clock (for controllers that send no `time_left`).
    fn charge(&mut self, side: Side, ms: i64) {
        let tc = self.time;
        let c = &mut self.clocks[side.index()];
        match tc {
            TimeControl::None => {}
            TimeControl::Absolute { .. } => c.main -= ms,
            TimeControl::Fischer { increment, .. } => c.main += increment - ms,
            TimeControl::Canadian { period, stones, .. } => {
                let mut spend = ms;
                if !c.overtime {
                    c.main -= spend;
                    if c.main >= 0 {
                        return;
                    }
                    spend = -c.main;
                    c.main = 0;
                    c.overtime = true;
                    c.period = period;
                    c.count = stones;
                }
                c.period -= spend;
                c.count = c.count.saturating_sub(1);
                if c.count == 0 {
                    c.period = period;
                    c.count = stones;
                }
            }
            TimeControl::Japanese {
                period, periods, ..
            } => {
                let mut spend = ms;
                if !c.overtime {
                    c.main -= spend;
                    if c.main >= 0 {
                        return;
                    }
                    spend = -c.main;
                    c.main = 0;
                    c.overtime = true;
                    c.period = period;
                    c.count = periods;
                }
                while spend > c.period && c.count > 1 {
                    spend -= c.period;
                    c.count -= 1;
                }
                c.period = period;
            }
        }
    }

    /// The time budget for `side`'s next move.
    fn budget(&self, side: Side) -> time::TimeBudget {
        let overhead = self.settings.overhead_ms;
        let b = self.board();
        // Moves the mover still plays, from the empty points (a 9x9 game lasts ~30 moves each,
        // 19x19 over 120).
        let hint = (b.empty_count() / 3 + 8) as u32;
        let c = self.clocks[side.index()];
        match self.time {
            TimeControl::None => time::allocate_movetime(self.settings.movetime_ms, overhead),
            TimeControl::Absolute { .. } => time::allocate(
                &Clock {
                    remaining_ms: c.main,
                    ..Clock::default()
                },
                overhead,
                hint,
            ),
            TimeControl::Fischer { increment, .. } => time::allocate(
                &Clock {
                    remaining_ms: c.main,
                    increment_ms: increment,
                    ..Clock::default()
                },
                overhead,
                hint,
            ),
            TimeControl::Canadian { period, stones, .. } => {
                let overtime = |ms: i64, count: u32| {
                    time::allocate(
                        &Clock {
                            remaining_ms: ms,
                            moves_to_go: Some(count.max(1)),
                            ..Clock::default()
                        },
                        overhead,
                        hint,
                    )
                };
                if c.overtime {
                    overtime(c.period, c.count)
                } else {
                    // In main time, at least what a move of the first period may take (the
                    // period starts fresh when main time runs out).
                    let main = time::allocate(
                        &Clock {
                            remaining_ms: c.main,
                            ..Clock::default()
                        },
                        overhead,
                        hint,
                    );
                    let ot = overtime(period, stones);
                    time::TimeBudget {
                        optimum_ms: main.optimum_ms.max(ot.optimum_ms),
                        maximum_ms: main.maximum_ms.max(ot.maximum_ms),
                    }
                }
            }
            TimeControl::Japanese { period, .. } => {
                let periods = if c.overtime { c.count } else { c.count.max(1) };
                let remaining = if c.overtime { 0 } else { c.main };
                let period_ms = if c.overtime {
                    c.period.min(period)
                } else {
                    period
                };
                time::allocate(
                    &Clock {
                        remaining_ms: remaining,
                        byoyomi: Some(ByoYomi { period_ms, periods }),
                        ..Clock::default()
                    },
                    overhead,
                    hint,
                )
            }
        }
    }

    // -----------------------------------------------------------------------------------------
    // Thinking

    /// The board with `side` to move and the komi raised by `shift` (points toward White;
    /// 0 leaves the real komi, the board untouched).
    fn position_for(&self, side: Side, shift: f32) -> Board {
        let mut b = self.record.board().clone();
        b.set_to_move(side);
        if shift != 0.0 {
            b.set_komi(b.komi() + shift);
        }
        b
    }

    /// Dynamic komi's shift now (see [`dynkomi`]): the points toward White the move search adds
    /// to the komi. 0 in an even game, once it has faded, and with `knob dynkomi 0`.
    pub fn komi_shift(&self) -> f32 {
        self.komi_shift_with(dynkomi::Params::from_knobs().as_ref())
    }

    /// [`komi_shift`](GoEngine::komi_shift) with the given settings (`None`: off).
    fn komi_shift_with(&self, params: Option<&dynkomi::Params>) -> f32 {
        params.map_or(0.0, |p| {
            self.dynkomi.shift(p, &dynkomi::Game::of(&self.record))
        })
    }

    /// The komi the move search plays for now: the real komi plus the shift.
    pub fn search_komi(&self) -> f32 {
        self.record.komi() + self.komi_shift()
    }

    /// Chooses a move for `side`. With `commit` it is played (`genmove`), else not
    /// (`reg_genmove`). With `cleanup` the engine does not pass while dead opponent stones are
    /// on the board (`kgs-genmove_cleanup`). `report` receives progress every `interval`.
    pub fn genmove(
        &mut self,
        side: Side,
        commit: bool,
        cleanup: bool,
        interval: Option<Duration>,
        report: &mut (dyn FnMut(&Board, &Snapshot<Move>) + Send),
    ) -> Decision {
        let request = MoveRequest {
            side,
            commit,
            cleanup,
            interval,
        };
        self.genmove_until(&request, &AtomicBool::new(false), report)
    }

    /// [`genmove`](GoEngine::genmove), cut short when `stop` is set: the move is then chosen
    /// from what the search found so far.
    pub fn genmove_until(
        &mut self,
        request: &MoveRequest,
        stop: &AtomicBool,
        report: &mut (dyn FnMut(&Board, &Snapshot<Move>) + Send),
    ) -> Decision {
        let MoveRequest {
            side,
            commit,
            cleanup,
            interval,
        } = *request;
        let started = Instant::now();
        self.prepare_search();
        // The move search plays for the dynamic komi (see `dynkomi`) and judges its root moves
        // at the real komi for what it reports and for the pass and resign rules: the root
        // player's real margin is its shifted margin plus this offset.
        let dynkomi = dynkomi::Params::from_knobs();
        let game = dynkomi::Game::of(&self.record);
        let shift = self.komi_shift_with(dynkomi.as_ref());
        let root = self.position_for(side, shift);
        self.fit_tree(root.komi(), true);
        let report_offset =
            (shift != 0.0).then_some(if side == Side::First { shift } else { -shift });
        let budget = self.budget(side);
        let mut root_filter = None;
        if cleanup {
            // Never search the pass while the opponent has dead stones (judged by a quick
            // look if no judgement is at hand).
            let j = self.judgement_of(&root);
            if !self
                .dead_stones_of(&root, &j.own, Some(side.flip()))
                .is_empty()
            {
                let mut f = vec![true; root.mailbox_len()];
                f[Move::PASS.0 as usize] = false;
                root_filter = Some(f);
            }
        }
        let skill = self.settings.strength.skill(root.size());
        // A weakened player searches its playout budget (whatever the clock allows, never
        // more), and to the end: the draw needs the whole visit distribution.
        let playouts = match (self.settings.max_playouts, skill) {
            (Some(p), Some(s)) => Some(p.min(s.playouts())),
            (p, s) => p.or(s.map(|s| s.playouts())),
        };
        let limits = PlayoutLimits {
            playouts,
            visits: None,
            time: Some(budget),
            early_stop: skill.is_none(),
            report_every: interval,
            root_filter,
            report_offset,
        };
        // Reports show the game as it is: the board with the real komi (the snapshots'
        // numbers are the real komi's already).
        let shown = self.position_for(side, 0.0);
        let snap = {
            let rb = &shown;
            self.mcts
                .search(&root, &limits, stop, &mut |s: &Snapshot<Move>| {
                    report(rb, s)
                })
        };
        let j = Judgement::from(&snap);
        let low = snap
            .moves
            .first()
            .is_some_and(|b| resign_winrate(b) < self.settings.resign_threshold && b.visits >= 200);
        let streak = if low {
            self.low_streak[side.index()] + 1
        } else {
            0
        };
        let mut decision = self.decide(&root, &snap, &j, cleanup, streak);
        if let (Some(s), Decision::Play(m)) = (skill, decision) {
            // Only a move the search itself would play is replaced (not a pass or a
            // resignation, whose rules stay the full engine's), by another move it looked at
            // seriously that fills none of our own eyes.
            if snap.best() == Some(m) {
                let own_eye = |mv: Move| mv.point().is_some_and(|p| root.is_eye(p, side));
                let drawn = s.pick(
                    &snap.moves,
                    |mv| !mv.is_pass() && !own_eye(mv),
                    &mut self.skill_rng,
                );
                if let Some(d) = drawn {
                    decision = Decision::Play(d);
                }
            }
        }
        self.ownership = Some((root.hash() ^ side.index() as u64, j));
        self.last_search = Some(SearchSummary {
            playouts: snap.playouts,
            elapsed: snap.elapsed,
            root_visits: snap.root_visits,
            winrate: snap.winrate,
            score: snap.score,
            nodes: self.mcts.tree_size(),
            pv: snap.moves.first().map(|m| m.pv.clone()).unwrap_or_default(),
            komi_shift: shift,
        });
        if commit {
            // The adaptive correction reads the search's own winrate, the shifted komi's: it
            // is what must stay informative.
            if let (Some(p), Some(best)) = (dynkomi.as_ref(), snap.moves.first()) {
                self.dynkomi
                    .after_search(p, &game, side, best.search_winrate, best.visits);
            }
            let m = match decision {
                Decision::Play(m) => m,
                _ => Move::PASS,
            };
            if decision != Decision::Resign {
                // The search chose among legal moves: this cannot fail.
                let _ = self.play(side, m);
            }
            self.low_streak[side.index()] = streak;
            self.charge(side, started.elapsed().as_millis() as i64);
        }
        decision
    }

    /// Pass, resign or the best move, from a finished search.
    fn decide(
        &self,
        root: &Board,
        snap: &Snapshot<Move>,
        j: &Judgement,
        cleanup: bool,
        low_streak: u32,
    ) -> Decision {
        let side = root.to_move();
        let Some(best) = snap.moves.first() else {
            return snap.prior_best.map_or(Decision::Pass, |m| {
                if m.is_pass() {
                    Decision::Pass
                } else {
                    Decision::Play(m)
                }
            });
        };
        if snap.root_visits < 64 {
            // Next to no search (a clock at its end): the prior knows more than a handful of
            // playouts.
            if let Some(m) = snap.prior_best.filter(|m| !m.is_pass()) {
                return Decision::Play(m);
            }
        }
        if self.settings.resign_threshold > 0.0
            && !cleanup
            && resign_winrate(best) < self.settings.resign_threshold
            && best.visits >= 200
            && low_streak >= RESIGN_STREAK
            && root.empty_count() < root.size() * root.size() * 3 / 4
        {
            return Decision::Resign;
        }
        let dead = self.dead_stones_of(root, &j.own, None);
        // The judged margin with the real komi, not the search's dynamic one.
        let margin = root.score_with_dead(&dead) + root.komi() - self.record.komi();
        let mine = if side == Side::First { margin } else { -margin };
        let opponent_dead = dead.iter().any(|&p| root.at(p) == stone_of(side.flip()));
        // Passing must not lose by the judged count, and the judgement must be sure: while a
        // fight is open, playing on costs nothing under area scoring and settles it. Unless
        // the search finds every move no better than passing (a fight where whoever plays
        // first loses, like a seki the playouts read both ways): then passing is the move.
        // The winrates are the real komi's (the search judges its root moves at it).
        let best_other = snap.moves.iter().find(|m| !m.mv.is_pass());
        let pass_stats = snap.moves.iter().find(|m| m.mv.is_pass());
        let pass_as_good = match (pass_stats, best_other) {
            (Some(p), Some(o)) => {
                p.visits >= 20 && p.winrate > 0.5 && p.winrate >= o.winrate - 0.02
            }
            (Some(p), None) => p.winrate > 0.5,
            _ => false,
        };
        let pass_safe = mine > 0.0 && !(cleanup && opponent_dead) && (j.settled() || pass_as_good);
        let opponent_passed = root.last_move().is_pass() && root.passes() > 0;
        if opponent_passed && pass_safe {
            return Decision::Pass;
        }
        let best_other = best_other.map(|m| m.mv);
        if best.mv.is_pass() {
            if pass_safe {
                return Decision::Pass;
            }
            return best_other.map_or(Decision::Pass, Decision::Play);
        }
        Decision::Play(best.mv)
    }

    /// Analyses the position with `side` to move until `stop` is set or `request.playouts`
    /// are done, reporting every `request.interval`; returns the final state of the search.
    pub fn analyze(
        &mut self,
        side: Side,
        request: &AnalysisRequest,
        stop: &AtomicBool,
        report: &mut (dyn FnMut(&Board, &Snapshot<Move>) + Send),
    ) -> Snapshot<Move> {
        self.prepare_search();
        // Analysis reports the real game: the real komi, and a tree searched at it.
        let root = self.position_for(side, 0.0);
        self.fit_tree(root.komi(), false);
        let mut root_filter = None;
        if !request.allow.is_empty() || !request.avoid.is_empty() {
            let mut f = vec![request.allow.is_empty(); root.mailbox_len()];
            for m in &request.allow {
                if let Some(x) = f.get_mut(m.0 as usize) {
                    *x = true;
                }
            }
            for m in &request.avoid {
                if let Some(x) = f.get_mut(m.0 as usize) {
                    *x = false;
                }
            }
            root_filter = Some(f);
        }
        let limits = PlayoutLimits {
            playouts: request.playouts,
            report_every: Some(request.interval.max(Duration::from_millis(10))),
            root_filter,
            ..PlayoutLimits::default()
        };
        let rb = &root;
        let snap = self
            .mcts
            .search(&root, &limits, stop, &mut |s: &Snapshot<Move>| {
                report(rb, s)
            });
        self.ownership = Some((root.hash() ^ side.index() as u64, Judgement::from(&snap)));
        snap
    }

    /// The prior knowledge of the position with `side` to move, before any search: every
    /// candidate move the tree would consider with its share of the prior, as the search
    /// reports it in [`MoveStats::prior`](crate::mcts::MoveStats). Legal moves the tree leaves
    /// out (filling an own true eye) are not listed.
    pub fn policy(&self, side: Side) -> Vec<(Move, f32)> {
        let mut root = self.record.board().clone();
        root.set_to_move(side);
        let mut priors = Vec::new();
        root.expand(&mut priors);
        let weights: Vec<f32> = priors.iter().map(|p| mcts::prior_weight(p.value)).collect();
        let total = weights.iter().sum::<f32>().max(1e-9);
        priors
            .iter()
            .zip(weights)
            .map(|(p, w)| (p.mv, w / total))
            .collect()
    }

    /// Searches the current position until `stop` (pondering on the opponent's time), at
    /// the komi of the move search it prepares: its tree is the next `genmove`'s.
    pub fn ponder(&mut self, stop: &AtomicBool) {
        self.prepare_search();
        let root = self.position_for(self.record.board().to_move(), self.komi_shift());
        if root.is_over() {
            return;
        }
        self.fit_tree(root.komi(), true);
        let limits = PlayoutLimits {
            // Do not let a forgotten ponder fill the arena forever: it stops at the cap.
            visits: Some(50_000_000),
            ..PlayoutLimits::default()
        };
        self.mcts.search(&root, &limits, stop, &mut |_| {});
    }

    // -----------------------------------------------------------------------------------------
    // Judging the end

    /// The playouts' judgement of `board`, from the last search of this position or from a
    /// short one now.
    fn judgement_of(&mut self, board: &Board) -> Judgement {
        let key = board.hash() ^ board.to_move().index() as u64;
        if let Some((k, j)) = &self.ownership {
            if *k == key && !j.own.is_empty() {
                return j.clone();
            }
        }
        let n = board.size() * board.size();
        let limits = PlayoutLimits {
            playouts: Some((n as u64 * 12).clamp(1000, 4000)),
            ..PlayoutLimits::default()
        };
        let stop = AtomicBool::new(false);
        self.prepare_search();
        // A move search's board (`kgs-genmove_cleanup`) may carry the dynamic komi; the
        // judgement of the real game (the final score) is searched at the real one. Which
        // stones are dead hardly depends on the komi, so a cached judgement serves either.
        let near = board.komi() != self.record.komi();
        self.fit_tree(board.komi(), near);
        let snap = self.mcts.search(board, &limits, &stop, &mut |_| {});
        let j = Judgement::from(&snap);
        self.ownership = Some((key, j.clone()));
        j
    }

    /// Dead stones of `board` (of `only` side when given): every stone of a group whose points
    /// its opponent owns in most playouts.
    fn dead_stones_of(&self, board: &Board, own: &[f32], only: Option<Side>) -> Vec<usize> {
        let n = board.size();
        let mut dead = Vec::new();
        if own.len() != n * n {
            return dead;
        }
        for p in board.board_points() {
            let c = board.at(p);
            if (c != BLACK && c != WHITE) || board.group_of(p) != p {
                continue;
            }
            let side = if c == BLACK {
                Side::First
            } else {
                Side::Second
            };
            if only.is_some_and(|s| s != side) {
                continue;
            }
            let sign = if c == BLACK { 1.0 } else { -1.0 };
            let stones: Vec<usize> = board.group_stones(p).collect();
            let mean: f32 = stones
                .iter()
                .map(|&s| {
                    let (x, y) = board.coords(s);
                    own[y * n + x] * sign
                })
                .sum::<f32>()
                / stones.len() as f32;
            if mean < 0.0 {
                dead.extend(stones);
            }
        }
        dead
    }

    /// Dead stones of the current position.
    pub fn dead_stones(&mut self) -> Vec<usize> {
        let b = self.record.board().clone();
        let j = self.judgement_of(&b);
        self.dead_stones_of(&b, &j.own, None)
    }

    /// Black's final margin by area, with dead stones judged by the playouts.
    pub fn final_score(&mut self) -> f32 {
        let dead = self.dead_stones();
        self.record.board().score_with_dead(&dead)
    }

    /// The groups (as point lists) with status `status`.
    pub fn final_status(&mut self, status: Status) -> Vec<Vec<usize>> {
        let b = self.record.board().clone();
        let j = self.judgement_of(&b);
        let own = &j.own;
        let dead = self.dead_stones_of(&b, own, None);
        let owners = b.owners_with_dead(&dead);
        let n = b.size();
        let mut out = Vec::new();
        for p in b.board_points() {
            let c = b.at(p);
            if (c != BLACK && c != WHITE) || b.group_of(p) != p {
                continue;
            }
            let stones: Vec<usize> = b.group_stones(p).collect();
            let s = if dead.contains(&p) {
                Status::Dead
            } else {
                // Seki: a living group with a liberty that is neutral both in the count and
                // in the playouts (neither side can fill it).
                let seki = stones.iter().any(|&s| {
                    b.neighbours(s).iter().any(|&q| {
                        b.at(q) == EMPTY && owners[q] == EMPTY && {
                            let (x, y) = b.coords(q);
                            own[y * n + x].abs() < 0.5
                        }
                    })
                });
                if seki {
                    Status::Seki
                } else {
                    Status::Alive
                }
            };
            if s == status {
                out.push(stones);
            }
        }
        out
    }
}

fn stone_of(side: Side) -> u8 {
    super::board::stone(side)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn quick() -> Settings {
        Settings {
            max_playouts: Some(3000),
            movetime_ms: 20_000,
            max_nodes: 200_000,
            ..Settings::default()
        }
    }

    fn setup(e: &mut GoEngine, size: usize, black: &[&str], white: &[&str]) {
        e.set_board_size(size);
        let b = e.board().clone();
        let mut rec = Record::new(size, e.record().komi());
        let mut stones = Vec::new();
        for v in black {
            stones.push(b.parse_vertex(v).unwrap());
        }
        // Setup through SGF keeps it simple.
        let pt = |v: &str| {
            let m = b.parse_vertex(v).unwrap().point().unwrap();
            let (x, y) = b.coords(m);
            format!(
                "[{}{}]",
                (b'a' + x as u8) as char,
                (b'a' + (size - 1 - y) as u8) as char
            )
        };
        let sgf = format!(
            "(;SZ[{size}]KM[{}]AB{}AW{})",
            rec.komi(),
            black.iter().map(|v| pt(v)).collect::<String>(),
            white.iter().map(|v| pt(v)).collect::<String>()
        );
        rec = Record::from_sgf(&sgf, None, None, 7.5).unwrap();
        e.set_record(rec);
        let _ = stones;
    }

    #[test]
    fn captures_a_big_group_in_atari() {
        let mut e = GoEngine::new(quick());
        e.set_komi(4.5);
        // 7x7: white B4-C4-D4 in atari at E4 between black's walls; White holds the F
        // column. Capturing keeps the game even; letting the stones out at E4 to join the
        // wall splits Black's area and loses (about 10% for Black by a long search). (On a
        // 5x5 board with no white wall the escaped group died as well, and either move won.)
        setup(
            &mut e,
            7,
            &["B5", "C5", "D5", "A4", "B3", "C3", "D3"],
            &["B4", "C4", "D4", "F1", "F2", "F3", "F4", "F5", "F6", "F7"],
        );
        let d = e.genmove(Side::First, true, false, None, &mut |_, _| {});
        assert_eq!(d, Decision::Play(e.board().parse_vertex("E4").unwrap()));
        // The stones are gone.
        let c4 = e.board().parse_vertex("C4").unwrap().point().unwrap();
        assert_eq!(e.board().at(c4), EMPTY);
    }

    #[test]
    fn two_threads_search_one_tree() {
        let mut e = GoEngine::new(Settings {
            threads: 2,
            ..quick()
        });
        e.apply_settings();
        e.set_komi(0.5);
        setup(
            &mut e,
            5,
            &["B4", "C4", "D4", "A3", "B2", "C2", "D2"],
            &["B3", "C3", "D3"],
        );
        let d = e.genmove(Side::First, false, false, None, &mut |_, _| {});
        assert!(matches!(d, Decision::Play(_)));
        // Black wins this (it may capture now or later): the threads agree it is won.
        assert!(e.last_search().unwrap().winrate > 0.9);
        // A plain search to a playout count: both threads' visits land in the one tree.
        let root = e.board().clone();
        e.mcts.clear();
        let snap = e.mcts.search(
            &root,
            &PlayoutLimits {
                playouts: Some(2000),
                ..PlayoutLimits::default()
            },
            &AtomicBool::new(false),
            &mut |_| {},
        );
        assert!(snap.playouts >= 2000);
        assert_eq!(e.mcts.root_visits(), snap.playouts);
        let children: u64 = snap.moves.iter().map(|m| m.visits as u64).sum();
        assert_eq!(
            children, snap.playouts,
            "every playout went through a child of the root"
        );
    }

    #[test]
    fn the_tree_is_reused_after_moves() {
        let mut e = GoEngine::new(quick());
        e.set_board_size(9);
        let d = e.genmove(Side::First, true, false, None, &mut |_, _| {});
        assert!(matches!(d, Decision::Play(_)));
        // The subtree under our move survives; the opponent's most likely reply keeps its
        // visits too.
        let kept = e.mcts.root_visits();
        assert!(kept > 0, "our move's subtree was dropped");
        let reply = {
            let stop = AtomicBool::new(false);
            let root = e.board().clone();
            let snap = e.mcts.search(
                &root,
                &PlayoutLimits {
                    playouts: Some(1),
                    ..PlayoutLimits::default()
                },
                &stop,
                &mut |_| {},
            );
            snap.best().unwrap()
        };
        e.play(Side::Second, reply).unwrap();
        assert!(e.mcts.root_visits() > 0, "the reply's subtree was dropped");
        // A move the tree never saw starts afresh.
        e.undo();
        assert_eq!(e.mcts.root_visits(), 0);
    }

    #[test]
    fn pondering_grows_the_tree_the_next_move_uses() {
        let mut e = GoEngine::new(quick());
        e.set_board_size(9);
        e.genmove(Side::First, true, false, None, &mut |_, _| {});
        let before = e.mcts.root_visits();
        // Ponder on White's time for a moment, from another thread, as the GTP session does.
        let stop = std::sync::Arc::new(AtomicBool::new(false));
        let flag = stop.clone();
        let handle = std::thread::spawn(move || {
            e.ponder(&flag);
            e
        });
        std::thread::sleep(Duration::from_millis(600));
        stop.store(true, std::sync::atomic::Ordering::Relaxed);
        let mut e = handle.join().unwrap();
        assert!(e.mcts.root_visits() > before, "pondering added nothing");
        // White's most likely reply keeps its subtree.
        let root = e.board().clone();
        let reply = e
            .mcts
            .search(
                &root,
                &PlayoutLimits {
                    playouts: Some(1),
                    ..PlayoutLimits::default()
                },
                &AtomicBool::new(false),
                &mut |_| {},
            )
            .best()
            .unwrap();
        e.play(Side::Second, reply).unwrap();
        assert!(e.mcts.root_visits() > 20, "{}", e.mcts.root_visits());
    }

    #[test]
    fn saves_its_own_group_in_atari() {
        let mut e = GoEngine::new(quick());
        // Black's three stones C5-E5 are in atari at F5; white to capture, black to move saves.
        setup(
            &mut e,
            9,
            &["C5", "D5", "E5", "G7", "G3"],
            &["B5", "C4", "C6", "D4", "D6", "E4", "E6", "A1"],
        );
        let d = e.genmove(Side::First, false, false, None, &mut |_, _| {});
        assert_eq!(d, Decision::Play(e.board().parse_vertex("F5").unwrap()));
    }

    #[test]
    fn passes_after_the_opponent_when_winning_and_plays_on_when_losing() {
        // 5x5, black owns the left three columns, white the right one with a wall; komi 0.5.
        let mut e = GoEngine::new(quick());
        e.set_komi(0.5);
        setup(
            &mut e,
            5,
            &["C1", "C2", "C3", "C4", "C5"],
            &["D1", "D2", "D3", "D4", "D5"],
        );
        e.play(Side::Second, Move::PASS).unwrap();
        // Black has 15 points against 10: passing wins.
        let d = e.genmove(Side::First, false, false, None, &mut |_, _| {});
        assert_eq!(d, Decision::Pass);
        // With komi 10.5 passing loses: black must not pass (and cannot win: it may resign).
        e.set_komi(10.5);
        e.settings.resign_threshold = 0.0;
        let d = e.genmove(Side::First, false, false, None, &mut |_, _| {});
        assert_ne!(d, Decision::Pass);
    }

    #[test]
    fn resigns_only_after_three_hopeless_searches_in_a_row() {
        // 5x5 with komi 30.5: black cannot win whatever it does.
        let mut e = GoEngine::new(quick());
        e.set_komi(30.5);
        setup(
            &mut e,
            5,
            &["C1", "C2", "C3", "C4", "C5"],
            &["D1", "D2", "D3", "D4", "D5"],
        );
        // Naming a move (reg_genmove) does not count toward the streak.
        for _ in 0..3 {
            let d = e.genmove(Side::First, false, false, None, &mut |_, _| {});
            assert_ne!(d, Decision::Resign);
        }
        for i in 0..3 {
            let d = e.genmove(Side::First, true, false, None, &mut |_, _| {});
            assert!(e.last_search().unwrap().winrate < 0.1);
            if i < 2 {
                assert!(matches!(d, Decision::Play(_)), "search {i}: {d:?}");
                e.play(Side::Second, Move::PASS).unwrap();
            } else {
                assert_eq!(d, Decision::Resign);
            }
        }
        // A new game starts the count again.
        e.clear_board();
        assert_eq!(e.low_streak, [0, 0]);
    }

    #[test]
    fn final_score_judges_dead_stones_and_seki() {
        let mut e = GoEngine::new(quick());
        // The shared seki case.
        let sgf = "(;FF[4]AB[ab][ba][bb][cb][dc][dd][de][df][dg][dh][di][ec][fc][ga][gb][gc][hc][ic]AW[ac][bc][cc][cd][ce][cf][cg][ch][ci][da][db][eb][fa][fb]GM[1]KM[7.5]PL[B]RU[Chinese]SZ[9])";
        e.set_record(Record::from_sgf(sgf, None, None, 7.5).unwrap());
        e.play(Side::First, Move::PASS).unwrap();
        e.play(Side::Second, Move::PASS).unwrap();
        assert_eq!(e.final_score(), 18.5);
        let seki = e.final_status(Status::Seki);
        assert_eq!(seki.len(), 2, "{seki:?}");
        assert!(e.final_status(Status::Dead).is_empty());
        // A dead white stone inside black's area is counted for black.
        let sgf = "(;SZ[5]KM[0.5]AB[ca][cb][cc][cd][ce][ac]AW[da][db][dc][dd][de])";
        e.set_record(Record::from_sgf(sgf, None, None, 7.5).unwrap());
        // Add a lone white stone at A1 (aa is A5; use B4 = "bb").
        let b4 = e.board().parse_vertex("B4").unwrap();
        e.play(Side::Second, b4).unwrap();
        let dead = e.final_status(Status::Dead);
        assert_eq!(dead.len(), 1);
        assert_eq!(dead[0], vec![b4.point().unwrap()]);
        // Black: 15 points, white 10: B+4.5.
        assert_eq!(e.final_score(), 4.5);
    }

    /// Dynamic komi's default settings (the knobs' defaults), given explicitly so no test
    /// depends on the process-wide knobs.
    const DYNKOMI: dynkomi::Params = dynkomi::Params {
        stone: 7.0,
        moves: 200.0,
        adaptive: true,
    };

    #[test]
    fn the_knobs_default_to_dynamic_komi_on() {
        assert_eq!(dynkomi::Params::from_knobs(), Some(DYNKOMI));
        // The knob exists by the name the README gives (set to its default: other tests run
        // in this process).
        assert!(super::super::knobs::set("dynkomi", 1));
        assert!(super::super::knobs::set("dynkomi_adapt", 1));
    }

    #[test]
    fn even_games_search_at_the_real_komi() {
        let mut e = GoEngine::new(quick());
        let shift = |e: &GoEngine| e.komi_shift_with(Some(&DYNKOMI));
        for size in [9, 13, 19] {
            e.set_board_size(size);
            assert_eq!(shift(&e), 0.0);
            assert_eq!(e.search_komi(), e.record().komi());
            e.play(Side::First, Move::at(e.board().point(2, 2)))
                .unwrap();
            assert_eq!(shift(&e), 0.0);
        }
        // Setup stones of both colours, or a single Black one, are no handicap.
        setup(&mut e, 9, &["C3", "G7"], &["E5"]);
        assert_eq!(shift(&e), 0.0);
        e.set_record(Record::from_sgf("(;SZ[9]KM[0.5]AB[cc]PL[W])", None, None, 7.5).unwrap());
        assert_eq!(shift(&e), 0.0);
        // An even game's move search is the tree's own: no judging at another komi, every
        // winrate reported is the one the search compared moves by.
        e.set_board_size(9);
        let mut reports = 0;
        let d = e.genmove(
            Side::First,
            true,
            false,
            Some(Duration::from_millis(1)),
            &mut |b, snap| {
                assert_eq!(b.komi(), 0.5);
                for m in &snap.moves {
                    assert_eq!(m.winrate.to_bits(), m.search_winrate.to_bits());
                }
                reports += 1;
            },
        );
        assert!(matches!(d, Decision::Play(_)));
        assert!(reports > 0);
        let s = e.last_search().unwrap();
        assert_eq!(s.komi_shift, 0.0);
        // Analysis after a genmove in an even game keeps the tree (same komi).
        let snap = e.analyze(
            Side::Second,
            &AnalysisRequest {
                playouts: Some(300),
                ..AnalysisRequest::default()
            },
            &AtomicBool::new(false),
            &mut |_, _| {},
        );
        assert!(snap.root_visits > snap.playouts, "the tree was not reused");
    }

    #[test]
    fn handicap_games_shift_the_komi_toward_white_and_the_shift_fades() {
        let mut e = GoEngine::new(quick());
        let shift = |e: &GoEngine| e.komi_shift_with(Some(&DYNKOMI));
        e.set_board_size(19);
        e.set_komi(0.5);
        e.fixed_handicap(4).unwrap();
        assert_eq!(shift(&e), 28.0);
        // Linear: half way to move 200, half the shift.
        // Passes from White (to move after the stones) and Black in turn.
        let pass_100 = |e: &mut GoEngine| {
            for i in 0..100 {
                let side = if i % 2 == 0 {
                    Side::Second
                } else {
                    Side::First
                };
                e.play(side, Move::PASS).unwrap();
            }
        };
        pass_100(&mut e);
        assert_eq!(shift(&e), 14.0);
        pass_100(&mut e);
        assert_eq!(shift(&e), 0.0);
        // Off: no shift.
        e.clear_board();
        e.fixed_handicap(4).unwrap();
        assert_eq!(e.komi_shift_with(None), 0.0);
        // Free handicap and an SGF handicap (with or without HA) count too.
        e.set_board_size(9);
        e.place_free_handicap(2).unwrap();
        assert_eq!(shift(&e), 7.0);
        for sgf in [
            "(;SZ[9]KM[0.5]HA[2]AB[cc][gg])",
            "(;SZ[9]KM[0.5]AB[cc][gg]PL[W])",
        ] {
            e.set_record(Record::from_sgf(sgf, None, None, 7.5).unwrap());
            assert_eq!(shift(&e), 7.0, "{sgf}");
        }
    }

    /// A 9x9 game with two handicap stones (a shift of 7 points at komi 0.5), White to move.
    fn handicap_9x9() -> GoEngine {
        let mut e = GoEngine::new(Settings {
            max_playouts: Some(2000),
            ..quick()
        });
        e.set_board_size(9);
        e.set_komi(0.5);
        e.fixed_handicap(2).unwrap();
        e
    }

    #[test]
    fn a_handicap_genmove_plays_a_legal_move_for_either_side_and_reports_the_real_komi() {
        for side in [Side::Second, Side::First] {
            let mut e = handicap_9x9();
            let mut shown = Vec::new();
            let d = e.genmove(
                side,
                true,
                false,
                Some(Duration::from_millis(1)),
                &mut |b, snap| shown.push((b.komi(), snap.moves.clone())),
            );
            let Decision::Play(m) = d else {
                panic!("{side:?}: {d:?}")
            };
            // Played, so legal (a commit that fails is dropped).
            assert_eq!(e.record().moves(), &[(side, m)]);
            let s = e.last_search().unwrap();
            assert_eq!(s.komi_shift, 7.0);
            // Reports show the real komi, and every winrate of the real komi against the
            // search's: the same playouts, judged with 7 points more for White. White's real
            // results can only be worse than its search's, Black's only better.
            assert!(!shown.is_empty());
            let mut differ = false;
            for (komi, moves) in &shown {
                assert_eq!(*komi, 0.5);
                for m in moves {
                    if side == Side::Second {
                        assert!(m.winrate <= m.search_winrate, "{m:?}");
                    } else {
                        assert!(m.winrate >= m.search_winrate, "{m:?}");
                    }
                    differ |= m.winrate != m.search_winrate;
                }
            }
            assert!(differ, "{side:?}: the real komi changed no result");
        }
    }

    #[test]
    fn analysis_in_a_handicap_game_ignores_the_move_search_tree_and_its_komi() {
        let mut e = handicap_9x9();
        e.genmove(Side::Second, true, false, None, &mut |_, _| {});
        // The tree kept from White's move was searched at the shifted komi: the analysis
        // starts afresh, at the real komi, and judges nothing at another one.
        let mut seen = 0;
        let snap = e.analyze(
            Side::First,
            &AnalysisRequest {
                interval: Duration::from_millis(1),
                playouts: Some(500),
                ..AnalysisRequest::default()
            },
            &AtomicBool::new(false),
            &mut |b, snap| {
                assert_eq!(b.komi(), 0.5);
                for m in &snap.moves {
                    assert_eq!(m.winrate.to_bits(), m.search_winrate.to_bits());
                }
                seen += 1;
            },
        );
        assert!(seen > 0);
        assert_eq!(
            snap.root_visits, snap.playouts,
            "a tree of another komi was reused"
        );
        for m in &snap.moves {
            assert_eq!(m.winrate.to_bits(), m.search_winrate.to_bits());
        }
    }

    #[test]
    fn the_final_score_is_the_real_komis_while_the_shift_is_on() {
        // 5x5, five Black handicap stones on the C column (a shift of 6 at the start); White
        // builds the D wall while Black passes. Black has 15 points, White 10.
        let mut e = GoEngine::new(quick());
        let b = Board::new(5);
        let v = |s: &str| b.parse_vertex(s).unwrap();
        let stones: Vec<(Side, Move)> = ["C1", "C2", "C3", "C4", "C5"]
            .iter()
            .map(|s| (Side::First, v(s)))
            .collect();
        e.set_record(Record::with_setup(5, 0.5, &stones, Side::Second).unwrap());
        assert_eq!(e.komi_shift_with(Some(&DYNKOMI)), 6.0);
        for p in ["D1", "D2", "D3", "D4", "D5"] {
            e.play(Side::Second, v(p)).unwrap();
            e.play(Side::First, Move::PASS).unwrap();
        }
        e.play(Side::Second, Move::PASS).unwrap();
        assert_eq!(e.komi_shift_with(Some(&DYNKOMI)), 1.0, "still on");
        assert_eq!(e.final_score(), 4.5);
    }

    #[test]
    fn reg_genmove_leaves_the_adaptive_correction_and_a_new_game_resets_it() {
        let mut e = handicap_9x9();
        e.genmove(Side::Second, false, false, None, &mut |_, _| {});
        assert_eq!(e.dynkomi, DynamicKomi::default());
        // White winning easily is given a point less (never more than the start, 7).
        e.dynkomi.after_search(
            &DYNKOMI,
            &dynkomi::Game::of(&e.record),
            Side::Second,
            0.9,
            1000,
        );
        assert_eq!(e.komi_shift_with(Some(&DYNKOMI)), 6.0);
        e.clear_board();
        assert_eq!(e.dynkomi, DynamicKomi::default());
    }

    #[test]
    fn the_resign_rule_reads_the_kinder_of_the_real_and_the_searched_komi() {
        let mut e = GoEngine::new(quick());
        setup(
            &mut e,
            5,
            &["C1", "C2", "C3", "C4", "C5"],
            &["D1", "D2", "D3", "D4", "D5"],
        );
        let root = e.board().clone();
        let m = root.parse_vertex("A1").unwrap();
        let snap = |winrate: f32, search_winrate: f32| Snapshot {
            moves: vec![MoveStats {
                mv: m,
                visits: 1000,
                winrate,
                search_winrate,
                lcb: winrate,
                prior: 0.1,
                score: 0.0,
                score_stdev: 1.0,
                pv: vec![m],
            }],
            root_visits: 1000,
            winrate,
            score: 0.0,
            playouts: 1000,
            elapsed: Duration::ZERO,
            ownership: Vec::new(),
            neutral: Vec::new(),
            prior_best: Some(m),
        };
        let j = Judgement::default();
        let decide = |w: f32, sw: f32| e.decide(&root, &snap(w, sw), &j, false, RESIGN_STREAK);
        // Lost at both komis: resign.
        assert_eq!(decide(0.02, 0.02), Decision::Resign);
        // The handicap side losing only at its search's komi (it must win by more there)
        // wins the real game: it plays on.
        assert_eq!(decide(0.6, 0.02), Decision::Play(m));
        // The side giving the handicap, behind at the real komi as the stones make it but not
        // at its search's: it plays on.
        assert_eq!(decide(0.02, 0.4), Decision::Play(m));
    }

    #[test]
    fn clocks_follow_time_left_and_charges() {
        let mut e = GoEngine::new(Settings::default());
        e.set_time_control(TimeControl::Canadian {
            main: 1000,
            period: 10_000,
            stones: 5,
        });
        e.charge(Side::First, 1500);
        let c = e.clock(Side::First);
        assert!(c.overtime);
        assert_eq!(c.period, 9500);
        assert_eq!(c.count, 4);
        e.time_left(Side::First, 3000, 2);
        let b = e.budget(Side::First);
        assert!(b.maximum_ms <= 3000 - 50, "{b:?}");
        assert!(b.optimum_ms >= 1000, "{b:?}");
        e.set_time_control(TimeControl::Japanese {
            main: 0,
            period: 5000,
            periods: 3,
        });
        let b = e.budget(Side::Second);
        assert!(b.maximum_ms < 5000 && b.optimum_ms >= 2500, "{b:?}");
        e.charge(Side::Second, 12_000);
        assert_eq!(e.clock(Side::Second).count, 1);
        e.set_time_control(TimeControl::Fischer {
            main: 10_000,
            increment: 1000,
        });
        e.charge(Side::First, 400);
        assert_eq!(e.clock(Side::First).main, 10_600);
    }
}
