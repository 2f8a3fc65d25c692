//! The game record: the current board, the setup and the moves that led to it, so a game can
//! be undone, printed as SGF, or read from SGF; and handicap placement.
//!
//! Scheme: setup stones (handicap, SGF `AB`/`AW`) form the initial position, which is the
//! first entry of the superko history; moves are replayed from it on `undo`. Every change is
//! validated in full first, so a refused command leaves the record untouched.

use super::board::{Board, Illegal, Move, DEFAULT_KOMI, MAX_SIZE, MIN_SIZE};
use super::sgf;
use crate::game::Side;

/// A game of Go from its setup to now.
#[derive(Clone, Debug)]
pub struct Record {
    board: Board,
    initial: Board,
    setup: Vec<(Side, Move)>,
    handicap: usize,
    moves: Vec<(Side, Move)>,
}

/// Why a handicap cannot be placed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HandicapError {
    /// Stones are on the board already.
    BoardNotEmpty,
    /// Not a number of stones the board takes.
    InvalidCount,
    /// A vertex is a pass, repeated, or off the board.
    BadVertexList,
}

impl std::fmt::Display for HandicapError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            HandicapError::BoardNotEmpty => "board not empty",
            HandicapError::InvalidCount => "invalid number of stones",
            HandicapError::BadVertexList => "bad vertex list",
        })
    }
}

impl Default for Record {
    fn default() -> Self {
        Record::new(super::board::DEFAULT_SIZE, DEFAULT_KOMI)
    }
}

impl Record {
    pub fn new(size: usize, komi: f32) -> Record {
        let mut board = Board::new(size);
        board.set_komi(komi);
        Record {
            initial: board.clone(),
            board,
            setup: Vec::new(),
            handicap: 0,
            moves: Vec::new(),
        }
    }

    #[inline]
    pub fn board(&self) -> &Board {
        &self.board
    }

    pub fn size(&self) -> usize {
        self.board.size()
    }

    pub fn komi(&self) -> f32 {
        self.board.komi()
    }

    pub fn moves(&self) -> &[(Side, Move)] {
        &self.moves
    }

    pub fn handicap(&self) -> usize {
        self.handicap
    }

    /// The setup stones (handicap, SGF `AB`/`AW`), in the order they were placed.
    pub fn setup(&self) -> &[(Side, Move)] {
        &self.setup
    }

    /// The side to play first from the setup.
    pub fn initial_to_move(&self) -> Side {
        self.initial.to_move()
    }

    /// Empties the board, keeping size and komi.
    pub fn clear(&mut self) {
        *self = Record::new(self.size(), self.komi());
    }

    pub fn set_komi(&mut self, komi: f32) {
        self.board.set_komi(komi);
        self.initial.set_komi(komi);
    }

    /// Plays a move of `side` (either colour may move at any time in GTP).
    pub fn play(&mut self, side: Side, m: Move) -> Result<(), Illegal> {
        self.board.check_as(m, side)?;
        self.board.set_to_move(side);
        self.board.play(m);
        self.board.commit_history();
        self.moves.push((side, m));
        Ok(())
    }

    /// Takes back the last move; false when there is none.
    pub fn undo(&mut self) -> bool {
        if self.moves.pop().is_none() {
            return false;
        }
        let mut board = self.initial.clone();
        for &(side, m) in &self.moves {
            board.set_to_move(side);
            board.play(m);
            board.commit_history();
        }
        if let Some(&(side, _)) = self.moves.last() {
            board.set_to_move(side.flip());
        }
        self.board = board;
        true
    }

    /// Whether the board has no stones and no move was played.
    pub fn is_pristine(&self) -> bool {
        self.moves.is_empty() && self.board.is_empty()
    }

    /// The GTP fixed handicap placement of `n` stones (2..=9 where the board has star points).
    pub fn fixed_handicap_points(
        size: usize,
        n: usize,
    ) -> Result<Vec<(usize, usize)>, HandicapError> {
        let max = if size >= 9 && size % 2 == 1 {
            9
        } else if size >= 7 {
            4
        } else {
            0
        };
        if n < 2 || n > max {
            return Err(HandicapError::InvalidCount);
        }
        let e = if size >= 12 { 3 } else { 2 };
        let (lo, hi, mid) = (e, size - 1 - e, size / 2);
        // Corners first (lower-left, upper-right, then upper-left, lower-right), then the
        // centre for odd counts, then the sides.
        let mut pts = vec![(lo, lo), (hi, hi)];
        if n >= 3 {
            pts.push((lo, hi));
        }
        if n >= 4 {
            pts.push((hi, lo));
        }
        if n >= 6 {
            pts.push((lo, mid));
            pts.push((hi, mid));
        }
        if n >= 8 {
            pts.push((mid, lo));
            pts.push((mid, hi));
        }
        if n % 2 == 1 && n >= 5 {
            pts.push((mid, mid));
        }
        Ok(pts)
    }

    /// Places the fixed handicap of `n` stones; White moves next.
    pub fn fixed_handicap(&mut self, n: usize) -> Result<Vec<Move>, HandicapError> {
        if !self.is_pristine() {
            return Err(HandicapError::BoardNotEmpty);
        }
        let pts = Self::fixed_handicap_points(self.size(), n)?;
        let moves: Vec<Move> = pts
            .iter()
            .map(|&(x, y)| Move::at(self.board.point(x, y)))
            .collect();
        self.set_handicap(&moves)?;
        Ok(moves)
    }

    /// Places handicap stones on the given points; White moves next.
    pub fn set_handicap(&mut self, stones: &[Move]) -> Result<(), HandicapError> {
        if !self.is_pristine() {
            return Err(HandicapError::BoardNotEmpty);
        }
        let area = self.size() * self.size();
        if stones.len() < 2 || stones.len() >= area {
            return Err(HandicapError::BadVertexList);
        }
        let mut board = self.board.clone();
        for (i, m) in stones.iter().enumerate() {
            let Some(p) = m.point() else {
                return Err(HandicapError::BadVertexList);
            };
            if stones[..i].contains(m) {
                return Err(HandicapError::BadVertexList);
            }
            board
                .setup_stone(p, Side::First)
                .map_err(|_| HandicapError::BadVertexList)?;
        }
        board.reset_history();
        board.set_to_move(Side::Second);
        self.board = board;
        self.initial = self.board.clone();
        self.setup = stones.iter().map(|&m| (Side::First, m)).collect();
        self.handicap = stones.len();
        Ok(())
    }

    /// A game that starts from setup stones of either colour, with `to_move` to play first
    /// (SGF `AB`/`AW` and `PL`, a problem, a position without its moves). Only Black stones,
    /// two or more, count as a handicap. The error names the first stone that cannot be
    /// placed (a pass, off the board, on another stone, or without a liberty) by its index.
    pub fn with_setup(
        size: usize,
        komi: f32,
        stones: &[(Side, Move)],
        to_move: Side,
    ) -> Result<Record, (usize, Illegal)> {
        let mut rec = Record::new(size, komi);
        let mut board = rec.board.clone();
        for (i, &(side, m)) in stones.iter().enumerate() {
            let p = m.point().ok_or((i, Illegal::OffBoard))?;
            board.setup_stone(p, side).map_err(|e| (i, e))?;
        }
        board.reset_history();
        board.set_to_move(to_move);
        rec.board = board;
        rec.initial = rec.board.clone();
        rec.setup = stones.to_vec();
        if stones.len() >= 2 && stones.iter().all(|&(s, _)| s == Side::First) {
            rec.handicap = stones.len();
        }
        Ok(rec)
    }

    /// Writes the game as SGF (one line).
    pub fn to_sgf(&self) -> String {
        let b = &self.board;
        let mut s = format!(
            "(;GM[1]FF[4]CA[UTF-8]AP[Tetrarch:{}]RU[Chinese]SZ[{}]KM[{}]",
            env!("CARGO_PKG_VERSION"),
            b.size(),
            self.komi()
        );
        if self.handicap > 0 {
            s.push_str(&format!("HA[{}]", self.handicap));
        }
        for side in Side::BOTH {
            let pts: Vec<String> = self
                .setup
                .iter()
                .filter(|(s, _)| *s == side)
                .map(|&(_, m)| format!("[{}]", self.sgf_point(m)))
                .collect();
            if !pts.is_empty() {
                s.push_str(if side == Side::First { "AB" } else { "AW" });
                s.push_str(&pts.concat());
            }
        }
        if self.moves.is_empty() && !self.setup.is_empty() {
            s.push_str(&format!(
                "PL[{}]",
                if b.to_move() == Side::First { "B" } else { "W" }
            ));
        }
        for &(side, m) in &self.moves {
            s.push_str(&format!(
                ";{}[{}]",
                if side == Side::First { "B" } else { "W" },
                self.sgf_point(m)
            ));
        }
        s.push(')');
        s
    }

    fn sgf_point(&self, m: Move) -> String {
        match m.point() {
            None => String::new(),
            Some(p) => {
                let (x, y) = self.board.coords(p);
                let row = self.size() - 1 - y;
                format!("{}{}", (b'a' + x as u8) as char, (b'a' + row as u8) as char)
            }
        }
    }

    /// Reads a game from SGF text, up to but not including move number `until` (1-based) or
    /// the first move at vertex `until_vertex`, whichever the caller gives. `default_komi` is
    /// used when the file has none.
    pub fn from_sgf(
        text: &str,
        until: Option<usize>,
        until_vertex: Option<&str>,
        default_komi: f32,
    ) -> Result<Record, String> {
        let nodes = sgf::parse_main_line(text)?;
        let root = &nodes[0];
        if let Some(gm) = root.first("GM") {
            if gm.trim() != "1" {
                return Err(format!("not a Go game (GM[{gm}])"));
            }
        }
        let size = match root.first("SZ") {
            None => 19,
            Some(v) => v
                .trim()
                .parse::<usize>()
                .ok()
                .filter(|s| (MIN_SIZE..=MAX_SIZE).contains(s))
                .ok_or_else(|| format!("unsupported board size SZ[{v}]"))?,
        };
        let komi = match root.first("KM") {
            None => default_komi,
            Some(v) if v.trim().is_empty() => default_komi,
            Some(v) => v
                .trim()
                .parse::<f32>()
                .ok()
                .filter(|k| k.is_finite() && k.abs() < 1000.0)
                .ok_or_else(|| format!("bad komi KM[{v}]"))?,
        };
        let mut rec = Record::new(size, komi);
        let stop_vertex = match until_vertex {
            None => None,
            Some(v) => Some(
                rec.board
                    .parse_vertex(v)
                    .filter(|m| !m.is_pass())
                    .ok_or_else(|| format!("bad vertex {v}"))?,
            ),
        };
        let point = |rec: &Record, v: &str| -> Result<Move, String> {
            let v = v.trim();
            if v.is_empty() || (v == "tt" && size <= 19) {
                return Ok(Move::PASS);
            }
            let b = v.as_bytes();
            if b.len() != 2 || !b[0].is_ascii_lowercase() || !b[1].is_ascii_lowercase() {
                return Err(format!("bad point [{v}]"));
            }
            let (x, row) = ((b[0] - b'a') as usize, (b[1] - b'a') as usize);
            if x >= size || row >= size {
                return Err(format!("point [{v}] off the board"));
            }
            Ok(Move::at(rec.board.point(x, size - 1 - row)))
        };
        // Point lists may be compressed ("aa:cc" is a rectangle).
        let points = |rec: &Record, values: &[String]| -> Result<Vec<Move>, String> {
            let mut out = Vec::new();
            for v in values {
                if let Some((a, b)) = v.split_once(':') {
                    let (pa, pb) = (point(rec, a)?, point(rec, b)?);
                    let (Some(pa), Some(pb)) = (pa.point(), pb.point()) else {
                        return Err(format!("bad rectangle [{v}]"));
                    };
                    let ((x1, y1), (x2, y2)) = (rec.board.coords(pa), rec.board.coords(pb));
                    for y in y1.min(y2)..=y1.max(y2) {
                        for x in x1.min(x2)..=x1.max(x2) {
                            out.push(Move::at(rec.board.point(x, y)));
                        }
                    }
                } else {
                    let m = point(rec, v)?;
                    if m.is_pass() {
                        return Err("pass in a setup list".into());
                    }
                    out.push(m);
                }
            }
            Ok(out)
        };

        let mut played = 0usize;
        let mut to_move_hint = None;
        for (i, node) in nodes.iter().enumerate() {
            // Setup properties.
            let ab = node.get("AB").map(|v| points(&rec, v)).transpose()?;
            let aw = node.get("AW").map(|v| points(&rec, v)).transpose()?;
            if node.get("AE").is_some() {
                return Err("AE (clearing points) is not supported".into());
            }
            if ab.is_some() || aw.is_some() {
                let mut board = rec.board.clone();
                for (side, list) in [(Side::First, &ab), (Side::Second, &aw)] {
                    for &m in list.iter().flatten() {
                        board
                            .setup_stone(m.point().unwrap(), side)
                            .map_err(|e| format!("setup stone {}: {e}", board.vertex(m)))?;
                        rec.setup.push((side, m));
                    }
                }
                if rec.moves.is_empty() {
                    board.reset_history();
                } else {
                    board.play(Move::PASS);
                    board.set_to_move(board.to_move().flip());
                    board.reset_history();
                }
                rec.board = board;
                if rec.moves.is_empty() {
                    rec.initial = rec.board.clone();
                } else {
                    return Err("setup stones after the first move are not supported".into());
                }
            }
            if i == 0 {
                if let Some(ha) = node.first("HA") {
                    rec.handicap = ha.trim().parse().unwrap_or(0);
                }
            }
            if let Some(pl) = node.first("PL") {
                to_move_hint = match pl.trim() {
                    "B" | "b" => Some(Side::First),
                    "W" | "w" => Some(Side::Second),
                    _ => return Err(format!("bad PL[{pl}]")),
                };
                if rec.moves.is_empty() {
                    rec.board.set_to_move(to_move_hint.unwrap());
                    rec.initial.set_to_move(to_move_hint.unwrap());
                }
            }
            for (id, side) in [("B", Side::First), ("W", Side::Second)] {
                let Some(v) = node.first(id) else { continue };
                let m = point(&rec, v)?;
                if until.is_some_and(|u| played + 1 >= u) || stop_vertex == Some(m) {
                    return Ok(rec.finish(Some(side)));
                }
                rec.play(side, m)
                    .map_err(|e| format!("illegal move {} {}: {e}", id, rec.board.vertex(m)))?;
                played += 1;
            }
        }
        if rec.moves.is_empty() && rec.handicap >= 2 && to_move_hint.is_none() {
            rec.board.set_to_move(Side::Second);
            rec.initial.set_to_move(Side::Second);
        }
        Ok(rec.finish(None))
    }

    fn finish(mut self, next: Option<Side>) -> Record {
        if let Some(side) = next {
            self.board.set_to_move(side);
        }
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fixed_handicap_matches_gtp_placement() {
        let names = |size: usize, n: usize| -> Vec<String> {
            let b = Board::new(size);
            let mut v: Vec<String> = Record::fixed_handicap_points(size, n)
                .unwrap()
                .iter()
                .map(|&(x, y)| b.point_name(b.point(x, y)))
                .collect();
            v.sort();
            v
        };
        let sorted = |s: &str| {
            let mut v: Vec<String> = s.split(' ').map(String::from).collect();
            v.sort();
            v
        };
        // GNU Go 3.8's answers.
        assert_eq!(names(19, 2), sorted("D4 Q16"));
        assert_eq!(names(19, 3), sorted("D16 Q16 D4"));
        assert_eq!(names(19, 5), sorted("D16 Q16 K10 D4 Q4"));
        assert_eq!(names(19, 6), sorted("D16 Q16 D10 Q10 D4 Q4"));
        assert_eq!(names(19, 7), sorted("D16 Q16 D10 K10 Q10 D4 Q4"));
        assert_eq!(names(19, 8), sorted("D16 K16 Q16 D10 Q10 D4 K4 Q4"));
        assert_eq!(names(19, 9), sorted("D16 K16 Q16 D10 K10 Q10 D4 K4 Q4"));
        assert_eq!(names(9, 9), sorted("C7 E7 G7 C5 E5 G5 C3 E3 G3"));
        assert_eq!(names(13, 5), sorted("D10 K10 G7 D4 K4"));
        assert_eq!(names(7, 4), sorted("C5 E5 C3 E3"));
        assert_eq!(names(12, 4), sorted("D9 J9 D4 J4"));
        for (size, n) in [(7, 5), (8, 5), (10, 6), (6, 2), (19, 1), (19, 10), (9, 0)] {
            assert_eq!(
                Record::fixed_handicap_points(size, n),
                Err(HandicapError::InvalidCount),
                "{size} {n}"
            );
        }
    }

    #[test]
    fn handicap_needs_an_empty_board_and_gives_white_the_move() {
        let mut r = Record::new(9, 0.5);
        let stones = r.fixed_handicap(4).unwrap();
        assert_eq!(stones.len(), 4);
        assert_eq!(r.board().to_move(), Side::Second);
        assert_eq!(r.fixed_handicap(2), Err(HandicapError::BoardNotEmpty));
        let mut r = Record::new(9, 0.5);
        let a = r.board().parse_vertex("C3").unwrap();
        assert_eq!(r.set_handicap(&[a, a]), Err(HandicapError::BadVertexList));
        assert_eq!(
            r.set_handicap(&[a, Move::PASS]),
            Err(HandicapError::BadVertexList)
        );
        assert_eq!(r.set_handicap(&[a]), Err(HandicapError::BadVertexList));
        assert!(r.is_pristine());
    }

    #[test]
    fn undo_restores_the_position_and_history() {
        let mut r = Record::new(9, 7.5);
        let before = r.board().hash();
        let m = r.board().parse_vertex("E5").unwrap();
        r.play(Side::First, m).unwrap();
        r.play(Side::Second, Move::PASS).unwrap();
        assert!(r.undo());
        assert!(r.undo());
        assert!(!r.undo());
        assert_eq!(r.board().hash(), before);
        assert_eq!(r.board().to_move(), Side::First);
        assert_eq!(r.board().history_len(), 1);
        // Consecutive moves of one colour are accepted.
        r.play(Side::First, m).unwrap();
        let n = r.board().parse_vertex("D4").unwrap();
        r.play(Side::First, n).unwrap();
        assert_eq!(r.board().to_move(), Side::Second);
        assert_eq!(r.play(Side::Second, m), Err(Illegal::Occupied));
    }

    #[test]
    fn sgf_round_trip() {
        let mut r = Record::new(9, 6.5);
        r.fixed_handicap(2).unwrap();
        for v in ["E5", "D5", "pass", "F5"] {
            let m = r.board().parse_vertex(v).unwrap();
            let side = r.board().to_move();
            r.play(side, m).unwrap();
        }
        let text = r.to_sgf();
        let back = Record::from_sgf(&text, None, None, 7.5).unwrap();
        assert_eq!(back.board().hash(), r.board().hash());
        assert_eq!(back.moves(), r.moves());
        assert_eq!(back.komi(), 6.5);
        assert_eq!(back.board().to_move(), r.board().to_move());
        // Up to move 3: two moves played, the third (a pass by White) is next.
        let part = Record::from_sgf(&text, Some(3), None, 7.5).unwrap();
        assert_eq!(part.moves().len(), 2);
        assert_eq!(part.board().to_move(), Side::Second);
        // Up to the first move at D5.
        let part = Record::from_sgf(&text, None, Some("D5"), 7.5).unwrap();
        assert_eq!(part.moves().len(), 1);
    }

    #[test]
    fn bad_sgf_is_refused() {
        for bad in [
            "(;GM[1]SZ[9];B[ee];W[ee])",
            "(;GM[1]SZ[30])",
            "(;GM[2])",
            "(;SZ[9]KM[abc])",
            "(;SZ[9];B[zz])",
            "(;SZ[9];B[e])",
            "(;SZ[9]AB[aa][aa])",
            "(;SZ[9];B[aa]",
        ] {
            assert!(Record::from_sgf(bad, None, None, 7.5).is_err(), "{bad}");
        }
    }

    #[test]
    fn setup_stones_of_both_colours_start_a_game_without_history() {
        let b = Board::new(9);
        let v = |t: &str| b.parse_vertex(t).unwrap();
        let stones = [
            (Side::First, v("D4")),
            (Side::Second, v("E4")),
            (Side::First, v("E5")),
        ];
        let mut rec = Record::with_setup(9, 6.5, &stones, Side::Second).unwrap();
        assert_eq!(rec.board().to_move(), Side::Second);
        assert_eq!(rec.handicap(), 0);
        assert_eq!(rec.komi(), 6.5);
        assert!(rec.moves().is_empty());
        rec.play(Side::Second, v("F5")).unwrap();
        assert!(rec.undo());
        assert_eq!(
            rec.board().to_move(),
            Side::Second,
            "undo goes back to the setup"
        );
        assert!(
            rec.to_sgf().contains("AB[df][ee]AW[ef]PL[W]"),
            "{}",
            rec.to_sgf()
        );
        // Black stones only are a handicap.
        let h = Record::with_setup(9, 0.5, &stones[..1], Side::Second).unwrap();
        assert_eq!(h.handicap(), 0, "one stone is no handicap");
        let two = [(Side::First, v("C3")), (Side::First, v("G7"))];
        assert_eq!(
            Record::with_setup(9, 0.5, &two, Side::Second)
                .unwrap()
                .handicap(),
            2
        );
        // The first bad stone is named.
        let bad = [(Side::First, v("C3")), (Side::Second, v("C3"))];
        assert_eq!(
            Record::with_setup(9, 7.5, &bad, Side::First).unwrap_err(),
            (1, Illegal::Occupied)
        );
        let pass = [(Side::First, Move::PASS)];
        assert_eq!(
            Record::with_setup(9, 7.5, &pass, Side::First).unwrap_err(),
            (0, Illegal::OffBoard)
        );
    }
}
