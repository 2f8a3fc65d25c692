"""GTP: Tetrarch plays a whole 9x9 game against GNU Go, and both score the final position.

The binary comes from the environment variable TETRARCH (tools/test.sh sets it). Tetrarch runs
at a fast fixed setting (a few hundred playouts per move, no resignation) so the game takes
well under two minutes; GNU Go plays at a low level with Chinese rules and the same komi.
After two passes in a row, Tetrarch's `final_score` (dead stones judged from its playouts) must
equal GNU Go's own `final_score`. Every move of each side must be accepted by the other, and
the SGF Tetrarch prints must replay (sgfmill) to the final position GNU Go reports.
"""
import os
import shutil
import subprocess

import pytest
from sgfmill import boards, sgf

TETRARCH = os.environ.get("TETRARCH", "target/ci/tetrarch")
GNUGO = shutil.which("gnugo") or "/usr/games/gnugo"
KOMI = 7.5


class Engine:
    def __init__(self, argv):
        self.p = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=subprocess.DEVNULL, text=True, bufsize=1)

    def send(self, line):
        """Sends a command; returns (ok, text) of the response."""
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()
        lines = []
        while True:
            l = self.p.stdout.readline()
            assert l != "", f"engine exited on {line!r}"
            l = l.rstrip("\n")
            if l == "":
                if lines:
                    break
                continue
            lines.append(l)
        head = lines[0]
        assert head[0] in "=?", f"bad response to {line!r}: {lines!r}"
        return head[0] == "=", "\n".join([head[1:].lstrip("0123456789").strip()] + lines[1:]).strip()

    def ok(self, line):
        good, text = self.send(line)
        assert good, f"{line!r} failed: {text}"
        return text

    def close(self):
        try:
            self.p.stdin.write("quit\n")
            self.p.stdin.flush()
            self.p.wait(timeout=10)
        except Exception:
            self.p.kill()


@pytest.fixture
def engines():
    if not os.path.exists(GNUGO):
        pytest.skip("GNU Go is not installed")
    t = Engine([TETRARCH, "gtp", "--playouts", "600", "--resign", "0", "--seed", "7"])
    g = Engine([GNUGO, "--mode", "gtp", "--chinese-rules", "--komi", str(KOMI), "--level", "3",
                "--seed", "7"])
    yield t, g
    t.close()
    g.close()


def test_first_line_detection_with_an_id():
    p = subprocess.run([TETRARCH], input="5 protocol_version\n6 name\nquit\n", capture_output=True,
                       text=True, timeout=30)
    assert p.stdout == "=5 2\n\n=6 Tetrarch\n\n= \n\n"


def test_whole_game_against_gnugo_scores_alike(engines):
    t, g = engines
    for e in (t, g):
        e.ok("boardsize 9")
        e.ok("clear_board")
        e.ok(f"komi {KOMI}")
    players = {"b": t, "w": g}
    moves = []
    colour = "b"
    passes = 0
    while passes < 2:
        assert len(moves) < 250, "the game does not end"
        mover, other = players[colour], players["w" if colour == "b" else "b"]
        mv = mover.ok(f"genmove {colour}").lower()
        assert mv != "resign", f"{colour} resigned; resignation is off for Tetrarch and GNU Go"
        other.ok(f"play {colour} {mv}")
        moves.append((colour, mv))
        passes = passes + 1 if mv == "pass" else 0
        colour = "w" if colour == "b" else "b"
    assert len(moves) > 20, "the game ended too soon to mean anything"

    ours = t.ok("final_score")
    theirs = g.ok("final_score")
    print(f"{len(moves)} moves, tetrarch {ours}, GNU Go {theirs}")
    assert ours == theirs, f"tetrarch scores {ours}, GNU Go {theirs}; moves {moves}"

    # The record Tetrarch prints replays to the position GNU Go holds.
    game = sgf.Sgf_game.from_string(t.ok("printsgf"))
    board = boards.Board(9)
    replayed = 0
    for node in game.get_main_sequence()[1:]:
        c, m = node.get_move()
        if m is not None:
            board.play(m[0], m[1], c)
        replayed += 1
    assert replayed == len(moves)
    for colour, name in (("b", "black"), ("w", "white")):
        gnugo_stones = set(g.ok(f"list_stones {name}").split())
        ours = {"ABCDEFGHJ"[col] + str(row + 1) for row, col in
                ((r, c) for r in range(9) for c in range(9)) if board.get(row, col) == colour}
        assert ours == gnugo_stones, f"{name} stones differ"
