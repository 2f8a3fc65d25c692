//! An instant UCI chess engine for measuring the match runner's own overhead: it answers each
//! `go` at once with a pseudo-random legal move (seeded by its first argument and the game and
//! ply numbers), doing its work (replaying the `position` line) after `go` arrives, so the time
//! around it that the runner measures is the runner's.
//!
//! `cargo build --release -p tetrarch-tuning --example instant_uci`, then
//! `tetrarch-tune match -engine cmd=target/release/examples/instant_uci arg=1 -engine ... arg=2`.

use std::io::{BufRead, Write};

use tetrarch::game::{GenKind, MoveList, Notation, Position};
use tetrarch::games::chess::Board;

fn main() {
    let seed: u64 = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(1);
    let stdin = std::io::stdin();
    let mut out = std::io::stdout();
    let mut position = String::from("position startpos");
    let mut games = 0u64;
    for line in stdin.lock().lines() {
        let Ok(line) = line else { break };
        let mut words = line.split_whitespace();
        match words.next() {
            Some("uci") => {
                let _ = writeln!(out, "id name instant-{seed}\nuciok");
            }
            Some("isready") => {
                let _ = writeln!(out, "readyok");
            }
            Some("ucinewgame") => games += 1,
            Some("position") => position = line.clone(),
            Some("go") => {
                let reply = choose(&position, seed, games);
                let _ = writeln!(out, "bestmove {reply}");
            }
            Some("quit") => break,
            _ => {}
        }
        let _ = out.flush();
    }
}

fn choose(position: &str, seed: u64, games: u64) -> String {
    let words: Vec<&str> = position.split_whitespace().collect();
    let (mut board, rest) = match words.get(1) {
        Some(&"fen") if words.len() >= 8 => match Board::from_text(&words[2..8].join(" ")) {
            Ok(b) => (b, &words[8..]),
            Err(_) => return "(none)".into(),
        },
        _ => (Board::start(), &words[2.min(words.len())..]),
    };
    let mut ply = 0u64;
    if rest.first() == Some(&"moves") {
        for m in &rest[1..] {
            match board.parse_move(m) {
                Ok(mv) => {
                    board.make(mv);
                    ply += 1;
                }
                Err(_) => return "(none)".into(),
            }
        }
    }
    let mut moves = MoveList::new();
    board.generate(GenKind::All, &mut moves);
    moves.retain(|m| board.is_legal(*m));
    if moves.is_empty() {
        return "(none)".into();
    }
    // A small hash of seed, game and ply picks the move.
    let mut x = seed
        .wrapping_mul(0x9E37_79B9_7F4A_7C15)
        .wrapping_add(games.wrapping_mul(0xBF58_476D_1CE4_E5B9))
        .wrapping_add(ply.wrapping_mul(0x94D0_49BB_1331_11EB));
    x ^= x >> 31;
    board.move_text(moves[(x % moves.len() as u64) as usize])
}
