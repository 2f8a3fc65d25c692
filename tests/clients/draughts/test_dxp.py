"""pydraughts' DXP client (the initiator) plays tetrarch's DXP follower on loopback: game
request, moves both ways, a takeback, and the game end. Run with the pydraughts venv's python
(see tools/test.sh); under another python it skips itself."""

import os
import random
import re
import shutil
import signal
import subprocess
import tempfile
import time

import pytest

draughts = pytest.importorskip("draughts")
from draughts.engine import DXPEngine  # noqa: E402

TETRARCH = os.environ.get("TETRARCH") or shutil.which("tetrarch")


def same_move(board, move):
    """The move of `board` equal to `move` (from another board object)."""
    for m in board.legal_moves():
        if m.hub_move == move.hub_move:
            return m
    raise AssertionError(f"{move.hub_move} is not legal in {board.fen}")


def test_pydraughts_initiator_plays_tetrarch_follower():
    if not TETRARCH:
        pytest.skip("set TETRARCH to the tetrarch binary")
    # pydraughts waits in busy loops without timeouts: a watchdog turns a hang into a failure.
    def timeout(*_):
        raise TimeoutError("the DXP exchange hung")

    signal.signal(signal.SIGALRM, timeout)
    signal.alarm(120)
    log = tempfile.TemporaryFile(mode="w+")
    # Port 0: the follower takes a free port and names it, so no other program can take it
    # between our choosing it and the follower binding it.
    follower = subprocess.Popen(
        [TETRARCH, "dxp", "--listen", "0", "--depth", "4", "--hash", "4", "--verbose"],
        stdout=subprocess.PIPE,
        stderr=log,
        text=True,
    )
    try:
        deadline = time.time() + 10
        port = None
        while port is None:  # wait until it listens (a probe would use up its one connection)
            log.seek(0)
            found = re.search(r"dxp: listening on 127\.0\.0\.1:(\d+)", log.read())
            if found:
                port = int(found.group(1))
                break
            assert time.time() < deadline, "the follower never listened"
            time.sleep(0.05)
        engine = DXPEngine(None, {"engine-opened": True, "ip": "127.0.0.1", "port": port,
                                  "initial-time": 120})
        rng = random.Random(5)
        board = draughts.Board(variant="standard")
        # White to move: tetrarch is White and moves first.
        for _ in range(8):
            result = engine.play(board)
            assert result.move is not None, "no move from tetrarch"
            board.push(same_move(board, result.move))
            if board.is_over():
                break
            board.push(rng.choice(board.legal_moves()))
            if board.is_over():
                break
        # Take back to move 2 with White to move: tetrarch moves again from there.
        accepted, new_board, result = engine.takeback(2, draughts.WHITE)
        assert accepted
        assert len(new_board.move_stack) == 2
        assert result.move is not None
        same_move(new_board, result.move)
        engine.quit()
        out, _ = follower.communicate(timeout=30)
        log.seek(0)
        assert follower.returncode == 0, log.read()[-2000:]
        assert "game=1" in out and "result=" in out, out
    finally:
        signal.alarm(0)
        if follower.poll() is None:
            follower.kill()
