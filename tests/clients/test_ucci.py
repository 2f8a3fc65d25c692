"""Python drives `tetrarch` over UCCI and over UCI with UCI_Variant=xiangqi; pyffish (Fairy-
Stockfish's rules) checks that every move and every principal variation is legal.

The binary comes from the TETRARCH environment variable (tools/test.sh sets it).
"""

import os
import queue
import random
import subprocess
import threading
import time

import pyffish as sf
import pytest

TETRARCH = os.environ.get("TETRARCH", "target/ci/tetrarch")
VARIANT = "xiangqi"
START = sf.start_fen(VARIANT)


def to_ucci(move):
    """pyffish writes ranks 1..10; UCCI counts 0..9."""
    return shift(move, -1)


def from_ucci(move):
    return shift(move, +1)


def shift(move, delta):
    i = 1
    while move[i].isdigit():
        i += 1
    return f"{move[0]}{int(move[1:i]) + delta}{move[i]}{int(move[i + 1:]) + delta}"


class Client:
    """A line client over the engine's stdin and stdout."""

    def __init__(self):
        self.proc = subprocess.Popen([TETRARCH], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL, text=True, bufsize=1)
        self.lines = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for line in self.proc.stdout:
            self.lines.put(line.rstrip("\n"))
        self.lines.put(None)

    def send(self, text):
        self.proc.stdin.write(text + "\n")
        self.proc.stdin.flush()

    def until(self, pred, timeout=60):
        got = []
        end = time.time() + timeout
        while True:
            line = self.lines.get(timeout=max(end - time.time(), 0.01))
            assert line is not None, f"engine exited after {got}"
            got.append(line)
            if pred(line):
                return got

    def close(self):
        if self.proc.poll() is None:
            self.send("quit")
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()


@pytest.fixture
def ucci():
    c = Client()
    c.send("ucci")
    lines = c.until(lambda l: l == "ucciok")
    assert lines[0].startswith("id name Tetrarch")
    yield c
    c.close()


@pytest.fixture
def uci_xq():
    c = Client()
    c.send("uci")
    lines = c.until(lambda l: l == "uciok")
    assert "option name UCI_Variant type combo default chess var chess var xiangqi" in lines
    c.send("setoption name UCI_Variant value xiangqi")
    c.send("isready")
    c.until(lambda l: l == "readyok")
    yield c
    c.close()


def check_pv(moves, pv):
    """Every PV move (ranks 1..10) is legal after the game moves."""
    line = list(moves)
    for m in pv:
        assert m in sf.legal_moves(VARIANT, START, line), (moves, pv, m)
        line.append(m)


def game_over(moves):
    if not sf.legal_moves(VARIANT, START, moves):
        return True
    end, _ = sf.is_optional_game_end(VARIANT, START, moves)
    return end


def test_ucci_handshake_options_and_quit():
    c = Client()
    c.send("ucci")
    lines = c.until(lambda l: l == "ucciok")
    assert "option usemillisec type check default false" in lines
    assert all(l.startswith(("id ", "option ")) for l in lines[:-1])
    c.send("isready")
    assert c.until(lambda l: l == "readyok") == ["readyok"]
    c.send("quit")
    assert c.until(lambda l: l == "bye") == ["bye"]
    assert c.proc.wait(timeout=10) == 0


def test_ucci_self_play_every_move_legal(ucci):
    ucci.send("setoption usemillisec true")
    moves = []
    for _ in range(50):
        if game_over(moves):
            break
        pos = "position startpos" + (" moves " + " ".join(map(to_ucci, moves)) if moves else "")
        ucci.send(pos)
        ucci.send("go time 3000 increment 50")
        lines = ucci.until(lambda l: l.startswith("bestmove") or l == "nobestmove")
        for l in lines:
            w = l.split()
            if w[:1] == ["info"] and "pv" in w:
                assert "cp" not in w, l
                check_pv(moves, [from_ucci(m) for m in w[w.index("pv") + 1:]])
        words = lines[-1].split()
        assert words[0] == "bestmove", lines
        move = from_ucci(words[1])
        assert move in sf.legal_moves(VARIANT, START, moves), (moves, move)
        if "ponder" in words:
            reply = from_ucci(words[words.index("ponder") + 1])
            assert reply in sf.legal_moves(VARIANT, START, moves + [move])
        moves.append(move)
    assert len(moves) >= 20


def test_uci_xiangqi_self_play_every_move_legal(uci_xq):
    moves = []
    clock = [4000, 4000]
    for _ in range(50):
        if game_over(moves):
            break
        pos = "position startpos" + (" moves " + " ".join(moves) if moves else "")
        uci_xq.send(pos)
        t = time.time()
        uci_xq.send(f"go wtime {clock[0]} btime {clock[1]} winc 50 binc 50")
        lines = uci_xq.until(lambda l: l.startswith("bestmove"))
        side = len(moves) % 2
        clock[side] += 50 - int((time.time() - t) * 1000)
        assert clock[side] > 0, "flagged"
        for l in lines:
            w = l.split()
            if w[:1] == ["info"] and "pv" in w:
                assert w[w.index("score") + 1] in ("cp", "mate"), l
                check_pv(moves, w[w.index("pv") + 1:])
        move = lines[-1].split()[1]
        assert move in sf.legal_moves(VARIANT, START, moves), (moves, move)
        moves.append(move)
    assert len(moves) >= 20


def random_positions(n, seed):
    rng = random.Random(seed)
    out = []
    while len(out) < n:
        moves = []
        for _ in range(rng.randrange(6, 60)):
            legal = sf.legal_moves(VARIANT, START, moves)
            if not legal:
                break
            moves.append(rng.choice(legal))
        if sf.legal_moves(VARIANT, START, moves):
            out.append(moves)
    return out


def test_random_positions_by_fen_over_both_protocols(ucci, uci_xq):
    for moves in random_positions(12, 7):
        fen = sf.get_fen(VARIANT, START, moves)
        legal = sf.legal_moves(VARIANT, fen, [])
        uci_xq.send(f"position fen {fen}")
        uci_xq.send("go depth 5")
        move = uci_xq.until(lambda l: l.startswith("bestmove"))[-1].split()[1]
        assert move in legal, (fen, move)
        ucci.send(f"position fen {fen}")
        ucci.send("go depth 5")
        move = from_ucci(ucci.until(lambda l: l.startswith("bestmove"))[-1].split()[1])
        assert move in legal, (fen, move)


def test_bad_input_is_answered_and_the_engine_keeps_running(ucci, uci_xq):
    bad = [
        "position fen rnbakabnr/9/1c5c1/p1p1p1p1p/4B4/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
        "position fen rnba1abnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
        "position fen rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/K8/RNBA1ABNR w - - 0 1",
        "position fen rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/R8/RNBAKABNR w - - 0 1",
        "position fen 9/9/9",
    ]
    for line in bad + ["position startpos moves h2e2 h2e2", "frobnicate"]:
        ucci.send(line)
        assert ucci.until(lambda l: True)[0].startswith("info message error: "), line
    for line in bad + ["position startpos moves h3e3 h3e3", "frobnicate"]:
        uci_xq.send(line)
        assert uci_xq.until(lambda l: True)[0].startswith("info string error: "), line
    # Garbage bytes on the wire: an error line, and the session goes on.
    ucci.proc.stdin.flush()
    ucci.proc.stdin.buffer.write(b"\xff\xfe junk\n")
    ucci.proc.stdin.buffer.flush()
    assert ucci.until(lambda l: True)[0].startswith("info message error: ")
    ucci.send("isready")
    assert ucci.until(lambda l: l == "readyok")[-1] == "readyok"
    uci_xq.send("isready")
    assert uci_xq.until(lambda l: l == "readyok")[-1] == "readyok"
    # The last good position stands: the start, Red to move.
    ucci.send("go depth 3")
    move = from_ucci(ucci.until(lambda l: l.startswith("bestmove"))[-1].split()[1])
    assert move in sf.legal_moves(VARIANT, START, [])


def test_early_eof_ends_the_session_quietly():
    c = Client()
    c.send("ucci")
    c.send("position startpos")
    c.send("go infinite")
    time.sleep(0.2)
    c.proc.stdin.close()
    # The running search reports its move and the process exits.
    lines = c.until(lambda l: l.startswith("bestmove"))
    assert lines[-1].split()[1] == to_ucci(from_ucci(lines[-1].split()[1]))
    assert c.proc.wait(timeout=10) == 0
