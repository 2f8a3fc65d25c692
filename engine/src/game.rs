//! The seam between the rules of a game and the searches that play it.
//!
//! Scheme: every game that alpha-beta plays (chess, xiangqi, international draughts) provides a
//! position type implementing [`Position`] (and [`Notation`] for text), plus an [`Evaluator`].
//! The search in `crate::search` is generic over these traits and monomorphised per game, so no
//! call crosses a `dyn` boundary per node, and capabilities that differ by game are associated
//! constants the compiler folds away. Go is played by Monte-Carlo tree search over the smaller
//! [`MctsState`] trait instead; alpha-beta is never forced onto it.
//!
//! Nothing here names a game. What each game does behind the trait:
//!
//! - **Chess**: legal generation (pins and checks handled in the generator), make/unmake with an
//!   undo record, checks, null move sound unless only pawns remain; outcomes are checkmate,
//!   stalemate (a draw), threefold repetition, the 50-move rule and dead positions. The squares
//!   the opponent attacks bucket quiet history ([`Position::threat_bucket`]); capture history
//!   tells captures apart by the kind captured ([`Position::noisy_index`]).
//! - **Xiangqi**: stalemate is a *loss* for the side that cannot move; a side that gives
//!   perpetual check (the position repeating while it checks every time) loses, a repetition
//!   with no violation is a draw; the natural move limit draws. All of it is answered by
//!   [`Position::rule_outcome`] and [`Position::no_move_outcome`]; the search never special-cases it.
//! - **International draughts**: captures are compulsory and the majority capture must be taken,
//!   so when a capture exists [`GenKind::Quiet`] yields nothing and [`GenKind::Noisy`] yields
//!   exactly the legal captures; a move is identified by its start, end and captured set (two
//!   paths with the same three are one move); passing is unsound, so `NULL_MOVE_OK` is false.
//!   Positions are small and copy-make is used (`Undo` may be a copy of the position).
//! - **Go**: [`MctsState`]: copy (allocation-free `clone_from`), legal moves (suicide and
//!   positional superko excluded), candidate moves with prior knowledge, play, a playout that
//!   reports its moves (for AMAF) and its result and margin, and the final owner of each point.
//!
//! Scores are plain `i32` in centipawn-like units from the side to move's view; mate and rule
//! results are encoded by `crate::score`.

use std::fmt;

use arrayvec::ArrayVec;

/// Capacity of a move list. Chess has at most 218 legal moves, xiangqi about 120; a draughts
/// generator deduplicates captures by (from, to, captured set), which keeps real positions far
/// below this. A generator must never push past it (`ArrayVec::push` would panic).
pub const MAX_MOVES: usize = 256;

/// A fixed-capacity move list on the stack: generation never allocates.
pub type MoveList<M> = ArrayVec<M, MAX_MOVES>;

/// The side to move. `First` moves first in the initial position of every game: White in chess
/// and draughts, Red in xiangqi, Black in Go.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash, PartialOrd, Ord)]
pub enum Side {
    First = 0,
    Second = 1,
}

impl Side {
    pub const BOTH: [Side; 2] = [Side::First, Side::Second];

    #[inline]
    pub fn flip(self) -> Side {
        match self {
            Side::First => Side::Second,
            Side::Second => Side::First,
        }
    }

    /// 0 for `First`, 1 for `Second`: for indexing per-side tables.
    #[inline]
    pub fn index(self) -> usize {
        self as usize
    }
}

/// Which moves a generator is asked for. `Noisy` are the moves quiescence search follows:
/// captures and promotions in chess, captures in xiangqi, the compulsory captures in draughts.
/// `Quiet` is everything else; `All` is their union (in one pass where that is cheaper).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum GenKind {
    All,
    Noisy,
    Quiet,
}

/// The result of a finished game, from the view of the side to move.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Verdict {
    Win,
    Draw,
    Loss,
}

impl Verdict {
    /// The same result from the other side's view.
    pub fn flip(self) -> Verdict {
        match self {
            Verdict::Win => Verdict::Loss,
            Verdict::Draw => Verdict::Draw,
            Verdict::Loss => Verdict::Win,
        }
    }
}

/// Why a game ended; protocols and the match referee report it, the search only needs the
/// [`Verdict`].
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Reason {
    /// In check with no legal move.
    Checkmate,
    /// Not in check with no legal move (a draw in chess, a loss in xiangqi).
    Stalemate,
    /// No legal move where the game has no checks (draughts: blocked).
    NoLegalMove,
    /// No pieces left (draughts).
    NoPieces,
    /// The position repeated the number of times the rules count, with no side at fault.
    Repetition,
    /// The position repeated while one side checked every time (xiangqi: the checker loses).
    PerpetualCheck,
    /// The position repeated while one side chased an unprotected piece every time (xiangqi).
    PerpetualChase,
    /// A move-count rule: chess 50 moves, xiangqi 60 moves, draughts 25 king moves.
    MoveLimit,
    /// Draughts' 16-move and 5-move rules against a lone king.
    EndgameRule,
    /// Neither side can ever win (chess dead positions).
    DeadPosition,
    /// Counted at the end of the game (Go area scoring).
    Score,
}

/// A rule result: who won, from the side to move's view, and why.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Outcome {
    pub verdict: Verdict,
    pub reason: Reason,
}

impl Outcome {
    pub const fn new(verdict: Verdict, reason: Reason) -> Outcome {
        Outcome { verdict, reason }
    }
    pub const fn draw(reason: Reason) -> Outcome {
        Outcome::new(Verdict::Draw, reason)
    }
    pub const fn loss(reason: Reason) -> Outcome {
        Outcome::new(Verdict::Loss, reason)
    }
    pub const fn win(reason: Reason) -> Outcome {
        Outcome::new(Verdict::Win, reason)
    }
}

/// An error in position or move text: a malformed FEN, an illegal or unknown move. The message
/// names the problem in words a user can act on; protocols wrap it in their own error form.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct TextError(pub String);

impl TextError {
    pub fn new(message: impl Into<String>) -> TextError {
        TextError(message.into())
    }
}

impl fmt::Display for TextError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for TextError {}

/// How many structure keys a position offers for correction history
/// ([`Position::structure_keys`]).
pub const STRUCTURE_KEYS: usize = 3;

/// A position of a game played by alpha-beta search.
///
/// The position carries its own game history (the keys, and whatever else its repetition rules
/// need), pushed by [`make`](Position::make) and popped by [`unmake`](Position::unmake), so that
/// [`rule_outcome`](Position::rule_outcome) sees repetitions that reach back before the search
/// root as well as those inside the search.
pub trait Position: Clone + Send + Sync + 'static {
    /// A move: small and `Copy`; the table stores it through [`pack`](Position::pack).
    type Move: Copy + Eq + Send + Sync + fmt::Debug + 'static;
    /// What [`unmake`](Position::unmake) needs to restore the position. Copy-make games may use
    /// a copy of the position itself.
    type Undo;

    /// Whether passing is a sound pruning device in this game. False in draughts, where captures
    /// are compulsory and zugzwang is the rule rather than the exception; the search then never
    /// calls [`make_null`](Position::make_null).
    const NULL_MOVE_OK: bool;
    /// Whether the game has checks (chess, xiangqi). Without them the search skips check
    /// extensions and evasion logic.
    const HAS_CHECKS: bool;
    /// Size of the index space of [`move_index`](Position::move_index), for history tables.
    const MOVE_INDEX_SPACE: usize;
    /// Whether quiescence search should also try quiet moves that give check, at its first
    /// ply (xiangqi, where mates come through checks that capture nothing). Off by default:
    /// the compiler then drops that code from the other games' searches.
    const QUIESCENCE_CHECKS: bool = false;
    /// Whether the search scores the opponent's last quiet move by how far it moved the static
    /// evaluation for its side, and corrects static evaluations by the last two moves played
    /// (see `search::worker`). On by default; draughts, whose forced captures make the
    /// evaluation swing by whole pieces between quiet moves, measured it a loss.
    const MOVE_FEEDBACK: bool = true;

    fn side_to_move(&self) -> Side;

    /// Zobrist key of everything that decides the legal moves and rule results from here on:
    /// pieces, side to move, and rule state (castling rights; an en-passant file only when a
    /// capture there is possible).
    fn key(&self) -> u64;

    /// Appends moves of the given kind to `out`. A game may generate legal moves only (then
    /// [`is_legal`](Position::is_legal) is always true) or pseudo-legal moves that the caller
    /// filters with `is_legal`. `Noisy` and `Quiet` partition `All`.
    fn generate(&self, kind: GenKind, out: &mut MoveList<Self::Move>);

    /// Whether `m`, taken from the transposition table, a killer slot or a countermove table
    /// (so possibly from another position), is one that [`generate`](Position::generate) with
    /// `All` could have produced here. Must be cheap and must never panic on any value.
    fn is_pseudo_legal(&self, m: Self::Move) -> bool;

    /// Whether a pseudo-legal move is legal (leaves no king capturable).
    fn is_legal(&self, m: Self::Move) -> bool;

    /// Whether the move belongs to the `Noisy` kind.
    fn is_noisy(&self, m: Self::Move) -> bool;

    /// Whether the side to move is in check. Always false where the game has no checks.
    fn in_check(&self) -> bool {
        false
    }

    /// What [`gives_check`](Position::gives_check) needs to know about this position: a search
    /// asks about many moves of one node, so a game computes the position's check geometry
    /// once ([`check_info`](Position::check_info)) and answers each move from it. `()` in
    /// games without checks.
    type CheckInfo: Copy + Default;

    /// The check geometry of this position for [`gives_check`](Position::gives_check).
    #[inline]
    fn check_info(&self) -> Self::CheckInfo {
        Self::CheckInfo::default()
    }

    /// Whether the legal move `m` would put the opponent in check, told before it is made,
    /// given this position's [`check_info`](Position::check_info): after `make(m)`,
    /// [`in_check`](Position::in_check) answers the same. The search uses it to keep checks
    /// out of its prunings, which run before the move is made. Games with checks answer
    /// exactly and cheaply (chess: direct, discovered, promotion, en-passant and castling
    /// checks; xiangqi: direct and discovered checks, cannon screens made or taken away). It
    /// may also be asked about a pseudo-legal move not yet tested for legality (the cheaper
    /// test first): the answer then does not matter, but it must not panic. Default: never,
    /// as in games without checks.
    #[inline]
    fn gives_check(&self, _info: &Self::CheckInfo, _m: Self::Move) -> bool {
        false
    }

    /// Number of threat buckets of quiet history ([`threat_bucket`](Position::threat_bucket)'s
    /// range): the search keeps a separate butterfly history entry per move and bucket, so a
    /// move learns apart when it flees an attack, walks into one, both or neither. 1, the
    /// default, keeps one entry per move (as in a game that supplies no threats).
    const THREAT_BUCKETS: usize = 1;

    /// What [`threat_bucket`](Position::threat_bucket) needs to know about this position,
    /// computed once per search node that reads quiet history, as
    /// [`check_info`](Position::check_info) is (chess: every square the side not to move
    /// attacks, and those its pawns, minors and rooks attack, for
    /// [`quiet_order_bonus`](Position::quiet_order_bonus)). `()` in games that supply no
    /// threats.
    type ThreatInfo: Copy + Default;

    /// The threats of this position for [`threat_bucket`](Position::threat_bucket).
    #[inline]
    fn threat_info(&self) -> Self::ThreatInfo {
        Self::ThreatInfo::default()
    }

    /// The threat bucket of the quiet move `m`, below
    /// [`THREAT_BUCKETS`](Position::THREAT_BUCKETS), given this position's
    /// [`threat_info`](Position::threat_info): the quiet (butterfly) history is indexed by it
    /// as well as by [`move_index`](Position::move_index). Chess: 2 if the opponent attacks
    /// the move's origin, plus 1 if it attacks its target. Asked only about pseudo-legal quiet
    /// moves; must not panic. Default: 0.
    #[inline]
    fn threat_bucket(&self, _info: &Self::ThreatInfo, _m: Self::Move) -> usize {
        0
    }

    /// A static term added to the quiet move `m`'s history score when quiet moves are
    /// ordered, given this position's [`threat_info`](Position::threat_info) (chess: a piece
    /// fleeing or walking into an attack by a lesser piece). Asked only about pseudo-legal
    /// quiet moves; must not panic. Default: 0.
    #[inline]
    fn quiet_order_bonus(&self, _info: &Self::ThreatInfo, _m: Self::Move) -> i32 {
        0
    }

    /// Plays a legal move.
    fn make(&mut self, m: Self::Move) -> Self::Undo;

    /// Takes back the move `m` that produced `undo`.
    fn unmake(&mut self, m: Self::Move, undo: Self::Undo);

    /// Whether the side to move must play a noisy move: draughts when a capture exists, since
    /// capturing is compulsory. Quiescence then may not stand pat on the static evaluation; it
    /// searches the noisy moves as it searches evasions in check. Default: never.
    #[inline]
    fn noisy_forced(&self) -> bool {
        false
    }

    /// Whether the side to move has no noisy move but the opponent would have one if it were
    /// to move: draughts when a piece can be captured next turn. At the horizon, quiescence
    /// then searches one ply of quiet moves instead of standing pat, so that a shot just
    /// beyond the horizon is seen. Default: never (chess and xiangqi stand pat).
    #[inline]
    fn quiet_threat(&self) -> bool {
        false
    }

    /// Whether a null move is sound here: the game allows it, the side to move is not in check,
    /// and the position is not one where zugzwang is likely (chess: only king and pawns left).
    fn null_move_sound(&self) -> bool {
        Self::NULL_MOVE_OK && !self.in_check()
    }

    /// Passes the turn. Only called when [`null_move_sound`](Position::null_move_sound) holds; a
    /// game without a sound null move still implements it (as a plain side flip) so that no
    /// caller can reach a panic.
    fn make_null(&mut self) -> Self::Undo;

    fn unmake_null(&mut self, undo: Self::Undo);

    /// Every rule result that can be told without generating moves: repetition (with the game
    /// history), perpetual check and chase, move-count rules, dead positions, no pieces left.
    /// `ply` is the number of plies played since the search root, so a game can count a
    /// repetition inside the search tree at its first recurrence while one reaching back into
    /// the game history needs the rule's full count. Called at every node, so it must be cheap.
    fn rule_outcome(&self, ply: usize) -> Option<Outcome>;

    /// The result when the side to move has no legal move: checkmate is a loss everywhere;
    /// stalemate is a draw in chess and a loss in xiangqi; having no move loses in draughts.
    fn no_move_outcome(&self) -> Outcome;

    /// Every rule result of this position as a finished game, or `None` while play goes on.
    /// For referees and protocols; the search uses the two cheaper parts directly.
    fn outcome(&self) -> Option<Outcome> {
        if let Some(outcome) = self.rule_outcome(0) {
            return Some(outcome);
        }
        if self.has_legal_move() {
            None
        } else {
            Some(self.no_move_outcome())
        }
    }

    /// Whether any legal move exists.
    fn has_legal_move(&self) -> bool {
        let mut moves = MoveList::new();
        self.generate(GenKind::All, &mut moves);
        moves.iter().any(|&m| self.is_legal(m))
    }

    /// Keys of slow-changing parts of the position (chess: the pawns, and each side's other
    /// pieces), under each of which the search learns how far its static evaluation tends to
    /// be off (correction history); the corrections of all keys are added up. `None`, the
    /// default for every slot, leaves static evaluations uncorrected.
    #[inline]
    fn structure_keys(&self) -> [Option<u64>; STRUCTURE_KEYS] {
        [None; STRUCTURE_KEYS]
    }

    /// A dense index of the move below [`MOVE_INDEX_SPACE`](Position::MOVE_INDEX_SPACE) for
    /// history and countermove tables (for example piece and target square).
    fn move_index(&self, m: Self::Move) -> usize;

    /// Size of the index space of [`noisy_index`](Position::noisy_index), for capture history.
    /// Default: [`MOVE_INDEX_SPACE`](Position::MOVE_INDEX_SPACE).
    const NOISY_INDEX_SPACE: usize = Self::MOVE_INDEX_SPACE;

    /// A dense index of the noisy move `m` below
    /// [`NOISY_INDEX_SPACE`](Position::NOISY_INDEX_SPACE), under which capture history learns
    /// it: it may tell apart what [`move_index`](Position::move_index) does not (chess: the
    /// kind captured, as in Stockfish's capture history by piece, target and captured kind).
    /// Asked only about pseudo-legal noisy moves, before they are made; must not panic.
    /// Default: [`move_index`](Position::move_index).
    #[inline]
    fn noisy_index(&self, m: Self::Move) -> usize {
        self.move_index(m)
    }

    /// The expected material gain of a noisy move (victim value, less a fraction of the
    /// attacker's for ordering): used for MVV/LVA ordering and delta pruning. Zero for quiet moves.
    fn noisy_value(&self, _m: Self::Move) -> i32 {
        0
    }

    /// Static exchange evaluation: whether playing `m` wins at least `threshold` once all
    /// exchanges on its target square are played out. Games without a cheap exchange model
    /// answer true, which turns SEE pruning off for them.
    fn see_ge(&self, _m: Self::Move, _threshold: i32) -> bool {
        true
    }

    /// A packing of the move into 32 bits for the transposition table. Where a move does not
    /// fit (draughts captures), a hash of its identity is acceptable; [`unpack`](Position::unpack)
    /// then matches it against the generated moves.
    fn pack(m: Self::Move) -> u32;

    /// The move packed as `bits` if it is pseudo-legal in this position, else `None`. Never
    /// panics on any value (table entries may come from other positions, or be torn).
    fn unpack(&self, bits: u32) -> Option<Self::Move>;
}

/// Position and move text: FEN (or the game's equivalent) and the move notation the protocols
/// speak. Parsing accepts every form the game's protocols send; formatting writes the
/// position's configured default form.
pub trait Notation: Position {
    /// The initial position of a game.
    fn start() -> Self;

    /// Reads a position. A malformed text is an error naming the problem; never a panic.
    fn from_text(text: &str) -> Result<Self, TextError>;

    /// Writes the position in the form `from_text` reads.
    fn to_text(&self) -> String;

    /// Reads a move and checks that it is legal here.
    fn parse_move(&self, text: &str) -> Result<Self::Move, TextError>;

    /// Writes a legal move of this position.
    fn move_text(&self, m: Self::Move) -> String;
}

/// A static evaluation, separate from the rules so tuning can swap weights without touching
/// them. One evaluator lives in each search thread (`Clone`), so it may keep caches such as a
/// pawn-structure table behind `&mut self`.
pub trait Evaluator<P: Position>: Clone + Send + 'static {
    /// The value of the position for the side to move, in centipawn-like units, well inside
    /// the mate range of `crate::score`.
    fn evaluate(&mut self, pos: &P) -> i32;

    /// An exact score known without search (an endgame table), or `None` to search on. The
    /// search asks at every node but the root, right after the rule results, and returns the
    /// answer as the node's value, in quiescence too. A known win or loss should be scored
    /// with `crate::score::known_result` (above every evaluation, below every mate), a draw as
    /// `crate::score::DRAW`. The default knows nothing, and the compiler drops the call.
    #[inline(always)]
    fn probe(&mut self, _pos: &P) -> Option<i32> {
        None
    }

    /// Told just before the search plays `m` in `pos`: an evaluator that follows the line
    /// (NNUE's accumulator stack) records the move here. The default does nothing, and the
    /// compiler drops the call for evaluators that keep it.
    #[inline(always)]
    fn on_make(&mut self, _pos: &P, _m: P::Move) {}

    /// Told just before the search passes the turn in `pos` (null move).
    #[inline(always)]
    fn on_make_null(&mut self, _pos: &P) {}

    /// Told when the search takes back the last move or null move it reported.
    #[inline(always)]
    fn on_unmake(&mut self) {}
}

/// Prior knowledge about one move, given as equivalent experience: the search starts the move's
/// statistics as if `visits` playouts through it had averaged `value` (for the side playing it).
/// `visits` 0 means no knowledge.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Prior<M> {
    pub mv: M,
    pub visits: f32,
    pub value: f32,
}

/// How one playout ended, from the view of the side to move where it started.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PlayoutEnd {
    /// 1.0 win, 0.0 loss, 0.5 draw.
    pub value: f32,
    /// The final margin in the game's own units (Go: points, komi included); 0 where the game
    /// has no score.
    pub score: f32,
}

/// A game state searched by Monte-Carlo tree search (Go). Copy-make: the search copies the
/// root state into a scratch state for every simulation (with [`Clone::clone_from`], which an
/// implementation should make cheap and allocation-free), plays the tree moves on it with
/// [`play`](MctsState::play) and finishes with [`playout`](MctsState::playout).
///
/// Moves are stored in the tree and in the all-moves-as-first (AMAF) tables by a dense index
/// ([`move_index`](MctsState::move_index)), so the tree stays free of the game's types.
pub trait MctsState: Clone + Send + Sync + 'static {
    type Move: Copy + Eq + Send + Sync + fmt::Debug + 'static;

    fn to_move(&self) -> Side;

    /// A key of the whole state (position, side to move, rule state such as a ko ban), so a
    /// search can tell whether a tree it kept still belongs to the state it is given.
    fn key(&self) -> u64;

    /// Whether the game has ended (Go: two passes in a row). The search does not expand such a
    /// state; it evaluates it with [`playout`](MctsState::playout), which must then judge the
    /// final position (Go: playing on settles which stones are dead).
    fn is_over(&self) -> bool {
        false
    }

    /// Appends every legal move, pass included (Go: suicide and positional superko excluded).
    fn legal_moves(&self, out: &mut Vec<Self::Move>);

    /// The moves the tree considers here, with prior knowledge. A game may leave out legal
    /// moves that are never right (Go: filling one's own true eye), but never all of them.
    /// The default is every legal move with no prior.
    fn expand(&self, out: &mut Vec<Prior<Self::Move>>) {
        let mut moves = Vec::new();
        self.legal_moves(&mut moves);
        out.extend(moves.into_iter().map(|mv| Prior {
            mv,
            visits: 0.0,
            value: 0.5,
        }));
    }

    /// Visits at which a node's priors are worth recomputing with [`refine`](MctsState::refine)
    /// (0: never). Knowledge too costly for every new node (Go's learned move priors) is
    /// spent only on the nodes the search keeps coming back to.
    fn refine_visits(&self) -> u32 {
        0
    }

    /// The priors of a busy node, replacing [`expand`](MctsState::expand)'s: for the same moves
    /// (in any order; a move `expand` left out is ignored).
    fn refine(&self, out: &mut Vec<Prior<Self::Move>>) {
        self.expand(out);
    }

    /// Plays a legal move.
    fn play(&mut self, m: Self::Move);

    /// Size of the dense move index space of this state (constant for one game).
    fn move_index_space(&self) -> usize;

    /// The dense index of a move, below [`move_index_space`](MctsState::move_index_space).
    fn move_index(&self, m: Self::Move) -> usize;

    /// The move with a dense index (the inverse of [`move_index`](MctsState::move_index)).
    fn index_move(&self, index: usize) -> Self::Move;

    /// Whether a move played later in a simulation may stand for the same move played now
    /// (AMAF). Go answers false for a pass.
    fn amaf_eligible(&self, _m: Self::Move) -> bool {
        true
    }

    /// Plays the game out with a randomised policy, leaving the final state in `self`.
    /// Appends `(side, move index)` of every AMAF-eligible move it plays to `trace`.
    fn playout(
        &mut self,
        rng: &mut rand::rngs::SmallRng,
        trace: &mut Vec<(Side, u32)>,
    ) -> PlayoutEnd;

    /// Number of cells whose final owner a playout reports (Go: the board points); 0 when the
    /// game has no such notion.
    fn cells(&self) -> usize {
        0
    }

    /// After [`playout`](MctsState::playout): who owns `cell` in the final state (Go: a stone,
    /// or an empty point surrounded by one colour), `None` for neither.
    fn cell_owner(&self, _cell: usize) -> Option<Side> {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn side_flips_and_indexes() {
        assert_eq!(Side::First.flip(), Side::Second);
        assert_eq!(Side::Second.flip(), Side::First);
        assert_eq!(Side::First.index(), 0);
        assert_eq!(Side::Second.index(), 1);
    }

    #[test]
    fn verdict_flips() {
        assert_eq!(Verdict::Win.flip(), Verdict::Loss);
        assert_eq!(Verdict::Loss.flip(), Verdict::Win);
        assert_eq!(Verdict::Draw.flip(), Verdict::Draw);
    }
}
