//! The referee's view of a game's rules: text in, verdicts out.
//!
//! Scheme: the match runner is game-neutral. It holds a `Box<dyn Rules>` per game and asks it
//! only what a referee needs: the position's text, whose turn it is, whether a move text is
//! legal (and its canonical spelling), and the rule result. [`NotationRules`] implements it for
//! every game that implements the engine crate's `Notation` (chess, xiangqi, draughts), so each
//! move an engine sends is checked by the engine crate's own move generator and every result
//! (mate, stalemate, repetition, perpetual check, move-count rules) comes from its
//! `Position::outcome`. Go has its own board API and gets an adapter (`go_rules`) implementing
//! the Go hooks (two passes, then scoring with agreed dead stones).
//!
//! Trust: `parse_move` is documented to accept only legal moves; the referee checks the parsed
//! move against the generated legal moves as well, so a lax parser cannot let an illegal move
//! through.

use std::sync::Arc;

use tetrarch::game::{GenKind, MoveList, Notation, Outcome, Side, Verdict};
use tetrarch::games::{Game, WithGame};

/// The four games, as the engine crate names them.
pub use tetrarch::games::GameKind;

/// A game's rules as the referee uses them.
pub trait Rules: Send {
    fn kind(&self) -> GameKind;

    /// The position the game started from (after the opening's setup, before its moves).
    fn start_text(&self) -> String;

    /// Whether the game started from the game's standard initial position.
    fn starts_from_initial(&self) -> bool;

    /// The current position's text.
    fn text(&self) -> String;

    fn side_to_move(&self) -> Side;

    /// Checks a move text and plays it; returns the move's canonical text. `Err` names why the
    /// move is not legal here.
    fn play(&mut self, text: &str) -> Result<String, String>;

    /// The rule result of the current position, from the side to move's view.
    fn outcome(&self) -> Option<Outcome>;

    /// The canonical texts of all legal moves.
    fn legal_moves(&self) -> Vec<String>;

    /// The move in the notation of game records (SAN in chess, PDN in draughts), for a legal
    /// move of the current position given in any text the rules read.
    fn record_text(&self, text: &str) -> String {
        text.to_string()
    }

    /// Go: the game has stopped on two passes and waits to be scored.
    fn awaiting_score(&self) -> bool {
        false
    }

    /// Go: the engines disagreed on dead stones; play resumes (both passes are forgotten) so
    /// the game is played out.
    fn resume_play(&mut self) {}

    /// Go: Black's margin in points of the last scoring (area less komi), for records.
    fn score_margin(&self) -> Option<f64> {
        None
    }

    /// A result the referee may declare although the rules have not ended the game yet: the
    /// value of an endgame table (loaded with `-bitbases`), from the side to move's view.
    /// `None` by default and whenever no table holds the position.
    fn adjudicate(&self) -> Option<Verdict> {
        None
    }

    /// Go: scores the game, the listed stones (vertices) removed as dead; the result from the
    /// side to move's view.
    fn score_with_dead(&mut self, _dead: &[String]) -> Result<Outcome, String> {
        Err("this game is not scored".into())
    }
}

/// How a game writes a move in its records, given the position before it.
pub type RecordFn<P> = fn(&P, <P as tetrarch::game::Position>::Move) -> String;

/// A source of known results (an endgame table) for a game's positions.
pub type KnownFn<P> = Arc<dyn Fn(&P) -> Option<Verdict> + Send + Sync>;

/// The referee for any game implementing the engine crate's `Notation`.
pub struct NotationRules<P: Notation> {
    kind: GameKind,
    start: String,
    initial: bool,
    pos: P,
    record: Option<RecordFn<P>>,
    known: Option<KnownFn<P>>,
}

impl<P: Notation> NotationRules<P> {
    /// Rules for a game from `start` (position text), or from the initial position.
    pub fn new(kind: GameKind, start: Option<&str>) -> Result<NotationRules<P>, String> {
        let initial_text = P::start().to_text();
        let pos = match start {
            Some(text) => P::from_text(text).map_err(|e| format!("bad position '{text}': {e}"))?,
            None => P::start(),
        };
        let start = pos.to_text();
        Ok(NotationRules {
            kind,
            initial: start == initial_text,
            start,
            pos,
            record: None,
            known: None,
        })
    }

    /// Adjudicates with `known` (see [`Rules::adjudicate`]).
    pub fn with_known(mut self, known: KnownFn<P>) -> Self {
        self.known = Some(known);
        self
    }

    /// Writes records with `record` (the game's `Game::record_move`: SAN for chess, PDN for
    /// draughts) instead of the canonical text.
    pub fn with_record(mut self, record: RecordFn<P>) -> Self {
        self.record = Some(record);
        self
    }

    pub fn position(&self) -> &P {
        &self.pos
    }

    fn legal(&self) -> MoveList<P::Move> {
        let mut all = MoveList::new();
        self.pos.generate(GenKind::All, &mut all);
        all.retain(|m| self.pos.is_legal(*m));
        all
    }
}

impl<P: Notation> Rules for NotationRules<P> {
    fn kind(&self) -> GameKind {
        self.kind
    }

    fn start_text(&self) -> String {
        self.start.clone()
    }

    fn starts_from_initial(&self) -> bool {
        self.initial
    }

    fn text(&self) -> String {
        self.pos.to_text()
    }

    fn side_to_move(&self) -> Side {
        self.pos.side_to_move()
    }

    fn play(&mut self, text: &str) -> Result<String, String> {
        let m = self.pos.parse_move(text.trim()).map_err(|e| e.0)?;
        if !self.legal().contains(&m) {
            return Err(format!("'{text}' is not a legal move here"));
        }
        let canonical = self.pos.move_text(m);
        self.pos.make(m);
        Ok(canonical)
    }

    fn outcome(&self) -> Option<Outcome> {
        self.pos.outcome()
    }

    fn adjudicate(&self) -> Option<Verdict> {
        self.known.as_ref().and_then(|k| k(&self.pos))
    }

    fn legal_moves(&self) -> Vec<String> {
        self.legal()
            .iter()
            .map(|&m| self.pos.move_text(m))
            .collect()
    }

    fn record_text(&self, text: &str) -> String {
        match (self.record, self.pos.parse_move(text.trim())) {
            (Some(f), Ok(m)) => f(&self.pos, m),
            (None, Ok(m)) => self.pos.move_text(m),
            _ => text.to_string(),
        }
    }
}

/// The referee for a game, from a start position (or the initial one); Go takes the board
/// size and komi.
pub fn new_rules(
    kind: GameKind,
    start: Option<&str>,
    board_size: u32,
    komi: f64,
) -> Result<Box<dyn Rules>, String> {
    /// The referee of an alpha-beta game: its position type, records in its own notation.
    struct Referee<'a>(Option<&'a str>);
    impl WithGame for Referee<'_> {
        type Output = Result<Box<dyn Rules>, String>;
        fn run<G: Game>(self) -> Self::Output {
            Ok(Box::new(
                NotationRules::<G::Position>::new(G::KIND, self.0)?.with_record(G::record_move),
            ))
        }
    }
    if let Some(rules) = kind.with_game(Referee(start)) {
        return rules;
    }
    // Go, the one game the alpha-beta search does not play, has rules of its own.
    if start.is_some_and(|s| !s.trim().is_empty()) {
        return Err("Go openings are move lists (SGF), not positions".into());
    }
    Ok(Box::new(super::go_rules::GoRules::new(board_size, komi)?))
}

/// The draughts referee adjudicating with endgame tables: a position the tables hold ends
/// the game with the tables' result (a game-theoretic one: the rule draws are not in it).
pub fn draughts_with_tables(
    start: Option<&str>,
    tables: Arc<tetrarch::games::draughts::bitbase::Bitbases>,
) -> Result<Box<dyn Rules>, String> {
    use tetrarch::games::draughts::{self, bitbase::Wdl};
    let known: KnownFn<draughts::Board> = Arc::new(move |b| {
        tables.probe(b).map(|w| match w {
            Wdl::Win => Verdict::Win,
            Wdl::Draw => Verdict::Draw,
            Wdl::Loss => Verdict::Loss,
        })
    });
    Ok(Box::new(
        NotationRules::<draughts::Board>::new(GameKind::Draughts, start)?
            .with_record(<tetrarch::games::Draughts as Game>::record_move)
            .with_known(known),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use tetrarch::games::draughts::bitbase::{generate, order, Bitbases};

    #[test]
    fn the_draughts_referee_adjudicates_with_tables() {
        let mut db = Bitbases::new();
        for c in order(2) {
            for t in generate(c, &db, 1, &|_| {}) {
                db.insert(t);
            }
        }
        let db = Arc::new(db);
        // Kings in the two single corners: whoever moves must step into the capture.
        let r = draughts_with_tables(Some("W:WK5:BK46"), db.clone()).unwrap();
        assert_eq!(r.outcome(), None);
        assert_eq!(r.adjudicate(), Some(Verdict::Loss));
        let r = draughts_with_tables(Some("B:WK1:BK50"), db.clone()).unwrap();
        assert_eq!(r.adjudicate(), Some(Verdict::Draw));
        // Beyond the tables, and without them, nothing is adjudicated.
        let r = draughts_with_tables(None, db).unwrap();
        assert_eq!(r.adjudicate(), None);
        let plain = new_rules(GameKind::Draughts, Some("W:WK5:BK46"), 19, 7.5).unwrap();
        assert_eq!(plain.adjudicate(), None);
    }
}
