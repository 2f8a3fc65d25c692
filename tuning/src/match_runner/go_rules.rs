//! The Go referee: the engine crate's Go game record behind the runner's `Rules`.
//!
//! Scheme: Go is not a `Notation` game, so it gets its own adapter over
//! `tetrarch::games::go::Record`, which checks every move under the full rules (suicide and
//! positional superko) and keeps the history. The game stops after two passes in a row
//! ([`Rules::awaiting_score`]); the game loop then asks both engines for their dead stones and,
//! if they agree, scores the board by area with those stones removed
//! ([`Rules::score_with_dead`]); if they disagree, play resumes ([`Rules::resume_play`]) with
//! cleanup moves, and after the next two passes the board is scored with the stones both then
//! call dead, or as it stands if they still disagree. Moves are GTP vertices (`D4`, `pass`).

use tetrarch::game::{Outcome, Reason, Side, Verdict};
use tetrarch::games::go::Record;

use super::rules::{GameKind, Rules};

pub struct GoRules {
    record: Record,
    /// Passes in a row since the start or the last resumption.
    passes: u32,
    margin: Option<f64>,
}

impl GoRules {
    pub fn new(size: u32, komi: f64) -> Result<GoRules, String> {
        if !(2..=25).contains(&size) {
            return Err(format!("bad Go board size {size} (2 to 25)"));
        }
        Ok(GoRules {
            record: Record::new(size as usize, komi as f32),
            passes: 0,
            margin: None,
        })
    }
}

impl Rules for GoRules {
    fn kind(&self) -> GameKind {
        GameKind::Go
    }

    fn start_text(&self) -> String {
        String::new()
    }

    fn starts_from_initial(&self) -> bool {
        true
    }

    fn text(&self) -> String {
        // Drivers of GTP engines need only the moves; the record keeps no position text.
        String::new()
    }

    fn side_to_move(&self) -> Side {
        self.record.board().to_move()
    }

    fn play(&mut self, text: &str) -> Result<String, String> {
        let board = self.record.board();
        let m = board
            .parse_vertex(text)
            .ok_or_else(|| format!("'{text}' is not a vertex of this board"))?;
        let side = board.to_move();
        let canonical = board.vertex(m);
        self.record
            .play(side, m)
            .map_err(|e| format!("'{text}' is illegal: {e}"))?;
        self.passes = if m.is_pass() { self.passes + 1 } else { 0 };
        Ok(canonical)
    }

    fn outcome(&self) -> Option<Outcome> {
        None
    }

    fn legal_moves(&self) -> Vec<String> {
        let board = self.record.board();
        let mut v: Vec<String> = board
            .board_points()
            .map(tetrarch::games::go::Move::at)
            .filter(|&m| board.is_legal(m))
            .map(|m| board.vertex(m))
            .collect();
        v.push("pass".into());
        v
    }

    fn record_text(&self, text: &str) -> String {
        let board = self.record.board();
        match board.parse_vertex(text) {
            Some(m) => board.vertex(m),
            None => text.to_string(),
        }
    }

    fn awaiting_score(&self) -> bool {
        self.passes >= 2
    }

    fn resume_play(&mut self) {
        self.passes = 0;
    }

    fn score_margin(&self) -> Option<f64> {
        self.margin
    }

    fn score_with_dead(&mut self, dead: &[String]) -> Result<Outcome, String> {
        let board = self.record.board();
        let mut points = Vec::with_capacity(dead.len());
        for v in dead {
            match board.parse_vertex(v).and_then(|m| m.point()) {
                Some(p) => points.push(p),
                None => return Err(format!("dead stone list names '{v}', not a point")),
            }
        }
        let margin = board.score_with_dead(&points) as f64;
        self.margin = Some(margin);
        let black = if margin > 0.0 {
            Verdict::Win
        } else if margin < 0.0 {
            Verdict::Loss
        } else {
            Verdict::Draw
        };
        let verdict = match board.to_move() {
            Side::First => black,
            Side::Second => black.flip(),
        };
        Ok(Outcome::new(verdict, Reason::Score))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moves_passes_and_scores() {
        let mut g = GoRules::new(9, 7.5).unwrap();
        assert_eq!(g.play("e5").unwrap(), "E5");
        assert!(g.play("E5").unwrap_err().contains("illegal"), "occupied");
        assert!(g.play("Z9").is_err());
        assert!(!g.awaiting_score());
        g.play("pass").unwrap();
        g.play("pass").unwrap();
        assert!(g.awaiting_score());
        // One black stone owns the board: 81 - 0 - 7.5.
        let o = g.score_with_dead(&[]).unwrap();
        assert_eq!(g.score_margin(), Some(73.5));
        // White is to move (Black's stone, then a pass each); the verdict is White's: lost.
        assert_eq!(g.side_to_move(), Side::Second);
        assert_eq!(o, Outcome::new(Verdict::Loss, Reason::Score));
        // With the stone dead, the empty board is White's by komi.
        let o = g.score_with_dead(&["E5".to_string()]).unwrap();
        assert_eq!(g.score_margin(), Some(-7.5));
        assert_eq!(o.verdict, Verdict::Win);
        assert!(g.score_with_dead(&["K5".to_string()]).is_err());
        g.resume_play();
        assert!(!g.awaiting_score());
    }

    #[test]
    fn suicide_is_refused() {
        let mut g = GoRules::new(9, 7.5).unwrap();
        for m in ["B1", "pass", "A2", "pass"] {
            g.play(m).unwrap();
        }
        // White to play A1 would have no liberty and capture nothing.
        g.play("pass").unwrap();
        assert!(g.play("A1").unwrap_err().contains("illegal"));
        assert!(!g.legal_moves().contains(&"A1".to_string()));
    }
}
