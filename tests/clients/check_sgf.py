"""Checks a tetrarch-tune SGF file: sgfmill replays every game (each move on an empty point,
captures applied), and GNU Go scores each game that ended on points, independently of the
runner (area scoring with its own dead-stone judgement, --chinese-rules): the winner and
margin must match the record's RE."""
import os
import re
import subprocess
import sys
import tempfile

from sgfmill import boards, sgf

GNUGO = "/usr/games/gnugo"


def gnugo_score(game_text):
    with tempfile.NamedTemporaryFile("w", suffix=".sgf", delete=False) as f:
        f.write(game_text)
        path = f.name
    try:
        p = subprocess.run(
            [GNUGO, "--mode", "gtp", "--chinese-rules"],
            input="loadsgf %s\nfinal_score\nquit\n" % path,
            capture_output=True, text=True, timeout=120,
        )
    finally:
        os.unlink(path)
    scores = re.findall(r"^= ([BW]\+[\d.]+|0)$", p.stdout, re.M)
    assert scores, p.stdout
    return scores[-1]


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
        re_ = game.get_root().get("RE")
        if re.fullmatch(r"[BW]\+[\d.]+", re_):
            assert gnugo_score(chunk) == re_, "game %d: RE %s, GNU Go scores %s" % (n, re_, gnugo_score(chunk))
        out.append((re_, len(game.get_main_sequence()) - 1))
    return out


if __name__ == "__main__":
    for r in check(sys.argv[1]):
        print(*r)
