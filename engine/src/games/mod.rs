//! The four games. Each module holds one game's board, move generation, make/unmake, hashing,
//! notation, evaluation and rule results (behind `Position::rule_outcome`), and nothing else.
//!
//! Scheme: what the rest of the program needs to know about a game, beyond the `game` traits
//! its position implements, is stated here once. [`GameKind`] names the four games and is the
//! one place a game's name is read (`parse`) or written (`name`), with the facts every game
//! has, Go included: its sides, its points, the protocol it is played over and how its records
//! and books write it. [`Game`] is the descriptor of an alpha-beta game (chess, xiangqi,
//! draughts): its position and evaluator types, the search parameters it plays with, its
//! estimate of the moves left for the clock, its bench positions, its perft and how its
//! records write a move; [`GameKind::with_game`] is the one place a game's name turns into
//! those types. Go, played by MCTS and not by the alpha-beta search, has no [`Game`] impl:
//! its own bot facade (`go::bot`) stands where the search would. A new game is its module
//! here, one line in [`GameKind`] (and its arms), a [`Game`] impl, and the adapter of its
//! protocol.

pub mod chess;
pub mod draughts;
pub mod go;
pub mod xiangqi;

use crate::game::{Notation, Position};
use crate::linear::LinearEval;
use crate::search::Params;

/// The four games.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameKind {
    Chess,
    Xiangqi,
    Go,
    Draughts,
}

impl GameKind {
    /// Every game, in the order the help texts list them.
    pub const ALL: [GameKind; 4] = [
        GameKind::Chess,
        GameKind::Xiangqi,
        GameKind::Go,
        GameKind::Draughts,
    ];

    /// The game named `text` (its name or a common alias, any case).
    pub fn parse(text: &str) -> Result<GameKind, String> {
        match text.to_ascii_lowercase().as_str() {
            "chess" | "standard" => Ok(GameKind::Chess),
            "xiangqi" | "chinese-chess" => Ok(GameKind::Xiangqi),
            "go" | "weiqi" | "baduk" => Ok(GameKind::Go),
            "draughts" | "international" | "checkers" => Ok(GameKind::Draughts),
            _ => Err(format!(
                "unknown game '{text}' (chess, xiangqi, go or draughts)"
            )),
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            GameKind::Chess => "chess",
            GameKind::Xiangqi => "xiangqi",
            GameKind::Go => "go",
            GameKind::Draughts => "draughts",
        }
    }

    /// The game's Elo table for strength settings (`crate::strength`).
    pub fn elo_table(self) -> crate::strength::EloTable {
        match self {
            GameKind::Chess => chess::strength::ELO,
            GameKind::Xiangqi => xiangqi::strength::ELO,
            GameKind::Go => go::strength::ELO,
            GameKind::Draughts => draughts::strength::ELO,
        }
    }

    /// Points for a win in the game's rule book; a draw is half of it: chess 1 / 0.5 / 0,
    /// the others 2 / 1 / 0.
    pub fn win_points(self) -> f64 {
        match self {
            GameKind::Chess => 1.0,
            _ => 2.0,
        }
    }

    /// The protocol the game is usually played over (the match runner's default), by its
    /// command-line name.
    pub fn protocol(self) -> &'static str {
        match self {
            GameKind::Chess => "uci",
            GameKind::Xiangqi => "ucci",
            GameKind::Go => "gtp",
            GameKind::Draughts => "hub",
        }
    }

    /// The rule that draws a game after too many moves without progress, as a result line
    /// names it ("Draw by ..."). Go has none; its games end by passes.
    pub fn move_rule(self) -> &'static str {
        match self {
            GameKind::Chess => "fifty moves rule",
            GameKind::Xiangqi => "the 60-move rule",
            GameKind::Go | GameKind::Draughts => "the 25-move rule",
        }
    }

    /// The `Variant` tag of the game's PGN records; `None` for chess (PGN's own game) and for
    /// the games recorded in formats of their own (Go in SGF, draughts in PDN). A variant's
    /// record always states its start (`FEN`), since a reader would assume chess's.
    pub fn pgn_variant(self) -> Option<&'static str> {
        match self {
            GameKind::Xiangqi => Some("xiangqi"),
            _ => None,
        }
    }

    /// Whether the game's position text ends in halfmove and fullmove counters after four
    /// fields, FEN-style, which an EPD line may leave out; otherwise an EPD line's first word
    /// is the whole position (draughts) or the game has no position text (Go).
    pub fn fen_counters(self) -> bool {
        matches!(self, GameKind::Chess | GameKind::Xiangqi)
    }

    /// Names of the two sides, first mover first.
    pub fn side_names(self) -> [&'static str; 2] {
        match self {
            GameKind::Chess | GameKind::Draughts => ["White", "Black"],
            GameKind::Xiangqi => ["Red", "Black"],
            GameKind::Go => ["Black", "White"],
        }
    }
}

/// A computation generic over the alpha-beta games, run for one by [`GameKind::with_game`]:
/// the one place a game's name turns into its types.
pub trait WithGame {
    type Output;
    fn run<G: Game>(self) -> Self::Output;
}

impl GameKind {
    /// Runs `f` for this game; `None` for Go, which the alpha-beta search does not play.
    pub fn with_game<F: WithGame>(self, f: F) -> Option<F::Output> {
        match self {
            GameKind::Chess => Some(f.run::<Chess>()),
            GameKind::Xiangqi => Some(f.run::<Xiangqi>()),
            GameKind::Draughts => Some(f.run::<Draughts>()),
            GameKind::Go => None,
        }
    }
}

/// The descriptor of a game the alpha-beta search plays.
pub trait Game {
    const KIND: GameKind;
    type Position: Notation;
    type Eval: LinearEval<Self::Position> + Default;

    /// The moves the side to move is expected still to make, before a position is known.
    const MOVES_LEFT: u32 = 40;

    /// The search parameters the game plays with.
    fn search_params() -> Params {
        Params::DEFAULT
    }

    /// The moves the side to move is expected still to make from `pos`, for the clock.
    fn moves_left(_pos: &Self::Position) -> u32 {
        Self::MOVES_LEFT
    }

    /// The positions of `tetrarch bench`, in the game's position text; their total node count
    /// at [`Game::BENCH_DEPTH`] is the game's signature.
    const BENCH_POSITIONS: &'static [&'static str];
    /// The depth `tetrarch bench` searches each position to.
    const BENCH_DEPTH: u32;

    /// Leaf count of the legal move tree to `depth` (the generic perft unless the game has a
    /// faster one with the same counts).
    fn perft(pos: &mut Self::Position, depth: u32) -> u64 {
        crate::perft::perft(pos, depth)
    }

    /// Perft per root move, as `(move text, count)`.
    fn divide(pos: &mut Self::Position, depth: u32) -> Vec<(String, u64)> {
        crate::perft::divide(pos, depth)
    }

    /// A legal move `m` of `pos` as the game's records write it (its move text unless the
    /// record format has a notation of its own).
    fn record_move(pos: &Self::Position, m: <Self::Position as Position>::Move) -> String {
        pos.move_text(m)
    }
}

/// Chess: [`chess::Board`] and [`chess::eval::ChessEval`]; its own perft (the last ply counted
/// by popcount) and SAN records.
pub struct Chess;

impl Game for Chess {
    const KIND: GameKind = GameKind::Chess;
    type Position = chess::Board;
    type Eval = chess::eval::ChessEval;
    const BENCH_POSITIONS: &'static [&'static str] = chess::bench::POSITIONS;
    const BENCH_DEPTH: u32 = chess::bench::DEPTH;

    fn perft(pos: &mut chess::Board, depth: u32) -> u64 {
        pos.perft(depth)
    }

    fn divide(pos: &mut chess::Board, depth: u32) -> Vec<(String, u64)> {
        pos.divide(depth)
    }

    fn record_move(pos: &chess::Board, m: chess::Move) -> String {
        chess::san::san(pos, m)
    }
}

/// Xiangqi: games run longer than chess games, so more moves are left at any point.
pub struct Xiangqi;

impl Game for Xiangqi {
    const KIND: GameKind = GameKind::Xiangqi;
    type Position = xiangqi::Board;
    type Eval = xiangqi::XiangqiEval;
    const MOVES_LEFT: u32 = 45;
    const BENCH_POSITIONS: &'static [&'static str] = xiangqi::bench::POSITIONS;
    const BENCH_DEPTH: u32 = xiangqi::bench::DEPTH;
}

/// International draughts: its own search parameters ([`draughts::SEARCH_PARAMS`]).
pub struct Draughts;

impl Game for Draughts {
    const KIND: GameKind = GameKind::Draughts;
    type Position = draughts::Board;
    type Eval = draughts::Eval;
    const MOVES_LEFT: u32 = 30;
    const BENCH_POSITIONS: &'static [&'static str] = draughts::bench::POSITIONS;
    const BENCH_DEPTH: u32 = draughts::bench::DEPTH;

    fn search_params() -> Params {
        draughts::SEARCH_PARAMS
    }

    /// The bulk-counting perft (last ply counted, not made): the generic perft's counts.
    fn perft(pos: &mut draughts::Board, depth: u32) -> u64 {
        draughts::perft_distinct(pos, depth)
    }

    fn divide(pos: &mut draughts::Board, depth: u32) -> Vec<(String, u64)> {
        draughts::divide_distinct(pos, depth)
    }

    /// Draughts games run long; fewer moves remain as men come off (Scan: 30 down to 10).
    fn moves_left(pos: &draughts::Board) -> u32 {
        let men = pos.occupied().count_ones().min(40);
        10 + 20 * men / 40
    }

    /// PDN: `32-28`, `28x19`, and the full path where the short form is ambiguous (the
    /// canonical text then lists the captured squares, Hub's form).
    fn record_move(pos: &draughts::Board, m: draughts::Move) -> String {
        let short = pos.short_move_text(m);
        if short.matches('x').count() > 1 {
            pos.path_move_text(m)
        } else {
            short
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_estimates_follow_the_material() {
        for kind in GameKind::ALL {
            assert_eq!(GameKind::parse(kind.name()), Ok(kind));
            assert_eq!(GameKind::parse(&kind.name().to_uppercase()), Ok(kind));
        }
        assert_eq!(GameKind::parse("weiqi"), Ok(GameKind::Go));
        assert!(GameKind::parse("shogi").is_err());
        assert_eq!(Chess::KIND.name(), "chess");
        assert_eq!(Xiangqi::moves_left(&xiangqi::Board::start()), 45);
        assert_eq!(Draughts::moves_left(&draughts::Board::start()), 30);
        let few = draughts::Board::from_text("W:W31,32:B3,16").unwrap();
        assert_eq!(Draughts::moves_left(&few), 10 + 20 * 4 / 40);
        assert_eq!(Draughts::search_params().fp_depth, 0);
        struct Name;
        impl WithGame for Name {
            type Output = &'static str;
            fn run<G: Game>(self) -> &'static str {
                G::KIND.name()
            }
        }
        assert_eq!(GameKind::Draughts.with_game(Name), Some("draughts"));
        assert_eq!(GameKind::Go.with_game(Name), None);
    }
}
