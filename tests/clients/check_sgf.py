"""Checks a tetrarch-tune SGF file: sgfmill replays every game (each move on an empty point,
captures applied), and each game that ended on points is counted again, independently of the
runner's Go code: the stones the record names as dead (the root comment's "dead stones: ...",
which both engines agreed on) are lifted and sgfmill's area count less komi must give the
record's winner and margin. GNU Go (--chinese-rules) then scores the game with its own
life-and-death judgement; wherever GNU Go calls the same stones dead, its final_score must
match RE as well. Where its judgement differs (a weak engine pair can agree on a wrong dead
list, or leave a dead stone after cleanup), the count is not GNU Go's to check: the record
follows the engines' agreement, and the mismatch is reported rather than failed."""
import os
import re
import subprocess
import sys
import tempfile

from sgfmill import boards, sgf

GNUGO = "/usr/games/gnugo"


def gnugo_judgement(game_text):
    """GNU Go's dead stones (as a set of GTP vertices) and its final score."""
    with tempfile.NamedTemporaryFile("w", suffix=".sgf", delete=False) as f:
        f.write(game_text)
        path = f.name
    try:
        p = subprocess.run(
            [GNUGO, "--mode", "gtp", "--chinese-rules"],
            input="loadsgf %s\nfinal_status_list dead\nfinal_score\nquit\n" % path,
            capture_output=True, text=True, timeout=120,
        )
    finally:
        os.unlink(path)
    answers = re.findall(r"^= ?(.*?)$", p.stdout, re.M)
    assert len(answers) >= 3, p.stdout
    dead = set(answers[1].upper().split())
    return dead, answers[2].strip()


def vertex(row, col):
    return "ABCDEFGHJKLMNOPQRST"[col] + str(row + 1)


def count(board, size, dead, komi):
    """Black's area less White's, with `dead` lifted, less komi, as an SGF result."""
    lifted = [(r, c) for r in range(size) for c in range(size)
              if board.get(r, c) is not None and vertex(r, c) in dead]
    missing = set(dead) - {vertex(r, c) for r, c in lifted}
    assert not missing, "dead stones %s are not on the board" % sorted(missing)
    board.apply_setup([], [], lifted)
    margin = board.area_score() - komi
    if margin == 0:
        return "0"
    return "%s+%s" % ("B" if margin > 0 else "W", ("%g" % abs(margin)))


def check(path):
    text = open(path).read()
    out = []
    for n, chunk in enumerate(re.findall(r"\(;GM\[1\].*?\)\n", text, re.S), start=1):
        game = sgf.Sgf_game.from_string(chunk)
        size = game.get_size()
        board = boards.Board(size)
        for node in game.get_main_sequence()[1:]:
            colour, move = node.get_move()
            if move is None:
                continue
            row, col = move
            assert board.get(row, col) is None, "game %d: %s on an occupied point" % (n, move)
            board.play(row, col, colour)
        root = game.get_root()
        re_ = root.get("RE")
        if re.fullmatch(r"[BW]\+[\d.]+|0", re_) and "points" in root.get("C"):
            listed = re.search(r"dead stones: ([A-Z0-9 ]+)\)", root.get("C"))
            assert listed or "no dead stones" in root.get("C"), "game %d: C[%s]" % (n, root.get("C"))
            dead = set(listed.group(1).split()) if listed else set()
            ours = count(board, size, dead, game.get_komi())
            assert ours == re_, "game %d: RE %s, the board counts %s" % (n, re_, ours)
            gnugo_dead, gnugo = gnugo_judgement(chunk)
            if gnugo_dead == dead:
                assert gnugo == re_, "game %d: RE %s, GNU Go scores %s" % (n, re_, gnugo)
            else:
                print("game %d: GNU Go judges %s dead, the engines agreed on %s; GNU Go scores %s"
                      % (n, sorted(gnugo_dead), sorted(dead), gnugo), file=sys.stderr)
        out.append((re_, len(game.get_main_sequence()) - 1))
    return out


if __name__ == "__main__":
    for r in check(sys.argv[1]):
        print(*r)
