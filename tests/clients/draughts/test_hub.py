"""pydraughts drives tetrarch as a Hub engine (run with the pydraughts venv's python; see
tools/test.sh). Every move tetrarch answers must be legal in pydraughts' own rules."""

import os
import shutil

import pytest

draughts = pytest.importorskip("draughts")
from draughts.engine import HubEngine, Limit  # noqa: E402

TETRARCH = os.environ.get("TETRARCH") or shutil.which("tetrarch")


@pytest.fixture
def engine():
    if not TETRARCH:
        pytest.skip("set TETRARCH to the tetrarch binary")
    e = HubEngine([TETRARCH, "hub"])
    e.init()
    yield e
    e.quit()
    e.p.wait(timeout=10)


def legal_hub_moves(board):
    return {m.hub_move for m in board.legal_moves()}


def test_handshake_and_ping(engine):
    assert engine.id["name"] == "Tetrarch"
    assert "variant" in engine.options and "normal" in engine.variants
    engine.ping()


def test_auto_detects_hub_without_a_subcommand():
    if not TETRARCH:
        pytest.skip("set TETRARCH to the tetrarch binary")
    e = HubEngine([TETRARCH])
    e.init()
    assert e.id["name"] == "Tetrarch"
    board = draughts.Board(variant="standard")
    result = e.play(board, Limit(depth=3), ponder=False)
    assert result.move.hub_move in legal_hub_moves(board)
    e.quit()
    e.p.wait(timeout=10)


def test_plays_a_game_against_itself_with_every_limit(engine):
    board = draughts.Board(variant="standard")
    limits = [
        Limit(depth=4),
        Limit(nodes=3000),
        Limit(movetime=0.05),
        Limit(time=2.0, inc=0.05),
        Limit(time=1.5),
    ]
    plies = 0
    while not board.is_over() and plies < 60:
        limit = limits[plies % len(limits)]
        result = engine.play(board, limit, ponder=False)
        assert result.move.hub_move in legal_hub_moves(board), result.move.hub_move
        board.push(result.move)
        plies += 1
    assert plies == 60 or board.is_over()
    # The info pydraughts parsed from our info lines.
    assert "depth" in engine.info or plies > 0


def test_captures_and_scores_are_understood(engine):
    # White must capture: 32-28 19-23 leaves 28x19 as the only move.
    board = draughts.Board(variant="standard")
    for hub in ["32-28", "19-23"]:
        move = next(m for m in board.legal_moves() if m.hub_move == hub)
        board.push(move)
    result = engine.play(board, Limit(depth=5), ponder=False)
    assert result.move.hub_move == "28x19x23"
    # A won ending: four kings against one, scored as a win or a large plus.
    board = draughts.Board(variant="standard", fen="W:WK1,K2,K3,K4:BK50")
    result = engine.play(board, Limit(depth=8), ponder=False)
    assert result.move.hub_move in legal_hub_moves(board)
    score = engine.info.get("score")
    assert score is None or "win" in score or score.get("cp", 0) > 300, score


def test_ponder_waits_for_the_hit():
    if not TETRARCH:
        pytest.skip("set TETRARCH to the tetrarch binary")
    import threading
    import time

    e = HubEngine([TETRARCH, "hub"])
    e.init()
    board = draughts.Board(variant="standard")
    first = board.legal_moves()[0]
    board.push(first)

    def hit():
        time.sleep(0.3)
        e.ponderhit()

    t = threading.Thread(target=hit)
    t.start()
    started = time.time()
    best, _ = e.go(board._game.initial_hub_fen, moves=first.hub_move, my_time=1.0, ponder=True)
    t.join()
    assert time.time() - started >= 0.25
    assert best in legal_hub_moves(board)
    e.quit()
    e.p.wait(timeout=10)
