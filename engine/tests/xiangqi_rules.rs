//! Xiangqi rule results: perpetual check, perpetual chase, plain repetition, stalemate,
//! checkmate and the natural move limit, as `rule_outcome`, `no_move_outcome` and `outcome`
//! report them (see the `rules` and `chase` module docs for the exact rule).

use tetrarch::game::{Notation, Outcome, Position, Reason};
use tetrarch::games::xiangqi::Board;

fn board(fen: &str) -> Board {
    Board::from_text(fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn play(b: &mut Board, moves: &str) {
    for text in moves.split_whitespace() {
        let m = b
            .parse_move(text)
            .unwrap_or_else(|e| panic!("{text}: {e}\n{}", b.to_text()));
        b.make(m);
    }
}

const LOSS_CHECK: Option<Outcome> = Some(Outcome::loss(Reason::PerpetualCheck));
const WIN_CHECK: Option<Outcome> = Some(Outcome::win(Reason::PerpetualCheck));
const LOSS_CHASE: Option<Outcome> = Some(Outcome::loss(Reason::PerpetualChase));
const DRAW: Option<Outcome> = Some(Outcome::draw(Reason::Repetition));

/// Red's chariot checks from a9 and a8 in turn while Black's general steps between f9 and f8.
const CHECKER: &str = "5k3/R8/9/9/9/9/9/9/9/3K5 w - - 0 1";
const CHECK_CYCLE: &str = "a8a9 f9f8 a9a8 f8f9";

#[test]
fn one_sided_perpetual_check_loses_for_the_checker() {
    let mut b = board(CHECKER);
    play(&mut b, CHECK_CYCLE);
    // Back at the start with Red, the checker, to move.
    assert_eq!(
        b.rule_outcome(4),
        LOSS_CHECK,
        "inside the search: first recurrence"
    );
    assert_eq!(b.rule_outcome(8), LOSS_CHECK);
    assert_eq!(
        b.rule_outcome(3),
        None,
        "the earlier occurrence is before the root"
    );
    assert_eq!(
        b.rule_outcome(0),
        None,
        "a referee waits for the third occurrence"
    );
    assert_eq!(b.outcome(), None);
    // One more check: now Black is to move and Red's checks repeat the position after a8a9.
    play(&mut b, "a8a9");
    assert!(b.in_check());
    assert_eq!(b.rule_outcome(5), WIN_CHECK);
    assert_eq!(b.rule_outcome(0), None);
    // Round again: the third occurrence ends the game for a referee.
    play(&mut b, "f9f8 a9a8 f8f9");
    assert_eq!(b.rule_outcome(0), LOSS_CHECK);
    assert_eq!(b.outcome(), LOSS_CHECK);
}

/// Found by searching random positions for a cycle of checks only: each side's move parries
/// the check and gives one (cannons losing and regaining screens, a chariot's file opening).
const MUTUAL: &str = "9/3k1c3/9/3r5/9/9/5C3/9/3R5/5K3 w - - 0 1";
const MUTUAL_CYCLE: &str = "f3d3 d6f6 d3f3 f6d6";

#[test]
fn mutual_perpetual_check_draws() {
    let mut b = board(MUTUAL);
    assert!(b.in_check());
    let mut checks = 0;
    for text in MUTUAL_CYCLE.split_whitespace() {
        let m = b.parse_move(text).unwrap();
        b.make(m);
        checks += b.in_check() as usize;
    }
    assert_eq!(checks, 4, "every move of the cycle checks");
    assert_eq!(b.rule_outcome(4), DRAW);
    play(&mut b, MUTUAL_CYCLE);
    assert_eq!(b.rule_outcome(0), DRAW);
}

#[test]
fn plain_repetition_draws() {
    let mut b = board("4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 1");
    let cycle = "d0d1 e9e8 d1d0 e8e9";
    play(&mut b, cycle);
    assert_eq!(b.rule_outcome(4), DRAW);
    assert_eq!(b.rule_outcome(2), None);
    assert_eq!(b.rule_outcome(0), None);
    play(&mut b, cycle);
    assert_eq!(b.rule_outcome(0), DRAW);
    assert_eq!(b.outcome(), DRAW);
}

#[test]
fn a_capture_ends_the_repetition_window() {
    // The same kind of cycle, but a capture happened inside it: no repetition can reach back.
    let mut b = board("4k4/9/9/9/9/9/9/9/r8/R2K5 w - - 0 1");
    play(&mut b, "a0a1 e9e8 d0d1 e8e9");
    // After the capture the position cannot repeat an earlier one.
    assert_eq!(b.halfmove_clock(), 3);
    assert_eq!(b.rule_outcome(10), None);
}

/// Red's chariot attacks Black's unprotected horse with every move; the horse only runs.
const CHASER: &str = "4k4/9/6n2/9/9/9/8R/9/9/3K5 w - - 0 1";
const CHASE_CYCLE: &str = "i3g3 g7i8 g3i3 i8g7";

#[test]
fn one_sided_perpetual_chase_loses_for_the_chaser() {
    let mut b = board(CHASER);
    play(&mut b, CHASE_CYCLE);
    assert_eq!(b.rule_outcome(4), LOSS_CHASE);
    assert_eq!(b.rule_outcome(0), None);
    play(&mut b, "i3g3");
    assert_eq!(
        b.rule_outcome(5),
        Some(Outcome::win(Reason::PerpetualChase))
    );
    play(&mut b, "g7i8 g3i3 i8g7");
    assert_eq!(b.rule_outcome(0), LOSS_CHASE);
}

#[test]
fn alternating_check_and_chase_loses() {
    // Red's chariot checks from a8, then attacks the unprotected horse on d5 from a5, while
    // Black's general steps between f8 and f9: every red move checks or chases.
    let mut b = board("9/5k3/9/9/R2n5/9/9/9/9/3K5 w - - 0 1");
    play(&mut b, "a5a8 f8f9 a8a5 f9f8");
    assert_eq!(b.rule_outcome(4), LOSS_CHASE);
}

#[test]
fn mutual_chase_draws() {
    // As above, but the fleeing horse attacks an unprotected red piece on each square: a
    // crossed soldier on h6 from i8, a cannon on e6 from g7.
    let mut b = board("4k4/9/6n2/4C2P1/9/9/8R/9/9/3K5 w - - 0 1");
    play(&mut b, CHASE_CYCLE);
    assert_eq!(b.rule_outcome(4), DRAW);
}

#[test]
fn attacking_a_protected_piece_is_no_chase() {
    // Black's other horse (h9) guards g7 and its chariot (i9) guards i8. When the horse
    // leaves i8 the chariots face each other: an offer to exchange, not a chase.
    let mut b = board("4k2nr/9/6n2/9/9/9/8R/9/9/3K5 w - - 0 1");
    play(&mut b, CHASE_CYCLE);
    assert_eq!(b.rule_outcome(4), DRAW);
}

#[test]
fn a_chariot_attacked_by_a_cannon_is_chased_even_if_protected() {
    // Red's cannon switches between i7 and i9, attacking Black's chariot over the elephant on
    // e7 or g9; the chariot, protected on d7 and d9 by the advisor on e8, runs between them.
    let mut b = board("3r2b2/4ak3/4b3C/9/9/9/9/9/9/4K4 w - - 0 1");
    play(&mut b, "i7i9 d9d7 i9i7 d7d9");
    assert_eq!(b.rule_outcome(4), LOSS_CHASE);
}

#[test]
fn null_moves_break_repetitions() {
    let mut b = board("4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 1");
    b.make_null();
    play(&mut b, "e9e8");
    b.make_null();
    play(&mut b, "e8e9");
    // Same placement and side as at the start, but a null move lies in between.
    assert_eq!(b.key(), board("4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 1").key());
    assert_eq!(b.rule_outcome(10), None);
}

#[test]
fn stalemate_loses() {
    let b = board("5k3/3R5/9/9/9/9/9/4R4/9/C2K5 b - - 0 1");
    assert!(!b.in_check());
    assert!(!b.has_legal_move());
    assert_eq!(b.no_move_outcome(), Outcome::loss(Reason::Stalemate));
    assert_eq!(b.outcome(), Some(Outcome::loss(Reason::Stalemate)));
}

#[test]
fn checkmate_loses() {
    let b = board("5k3/9/9/9/9/9/4R4/5R3/9/3K5 b - - 0 1");
    assert!(b.in_check());
    assert_eq!(b.outcome(), Some(Outcome::loss(Reason::Checkmate)));
}

#[test]
fn sixty_move_limit() {
    let mut b = board("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 118 80");
    play(&mut b, "h2e2");
    assert_eq!(b.rule_outcome(0), None);
    play(&mut b, "h9g7");
    assert_eq!(b.halfmove_clock(), 120);
    assert_eq!(b.rule_outcome(0), Some(Outcome::draw(Reason::MoveLimit)));
    assert_eq!(b.rule_outcome(7), Some(Outcome::draw(Reason::MoveLimit)));
    // The limit is a setting: competitions may lower it, and 0 turns it off.
    b.set_move_limit(0);
    assert_eq!(b.rule_outcome(0), None);
    b.set_move_limit(200);
    assert_eq!(b.rule_outcome(0), None);
    b.set_move_limit(100);
    assert_eq!(b.rule_outcome(0), Some(Outcome::draw(Reason::MoveLimit)));
    // A capture resets the count.
    b.set_move_limit(120);
    play(&mut b, "e2e6");
    assert_eq!(b.halfmove_clock(), 0);
    assert_eq!(b.rule_outcome(0), None);
}

#[test]
fn mate_at_the_move_limit_is_still_mate() {
    let b = board("5k3/9/9/9/9/9/4R4/5R3/9/3K5 b - - 130 90");
    assert_eq!(b.rule_outcome(0), None);
    assert_eq!(b.outcome(), Some(Outcome::loss(Reason::Checkmate)));
}
