"""tetrarch-tune match driven end to end: real games refereed by Tetrarch's chess rules, the
PGN read back by python-chess, which checks every move, that no game ran past a rule result,
and that each result matches the final position. Engines: a random mover (python-chess, so
games reach mates, stalemates, dead positions and the 50-move rule quickly), the same random
mover misbehaving (illegal move, crash, hang), and Stockfish."""
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
from check_pgn import check  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
TUNE = os.environ.get("TETRARCH_TUNE", str(ROOT / "target" / "ci" / "tetrarch-tune"))
RANDOM = str(ROOT / "tuning" / "tests" / "fake" / "chess_random.py")
STOCKFISH = "/usr/games/stockfish"


def random_engine(name, seed, fault=None):
    args = ["-engine", "cmd=" + sys.executable, "arg=" + RANDOM, "arg=%d" % seed, "name=" + name]
    if fault:
        args.append("arg=" + fault)
    return args


def run(args, tmp_path, timeout=240):
    pgn = tmp_path / ("games%d.pgn" % len(list(tmp_path.iterdir())))
    cmd = [TUNE, "match", "-game", "chess", "-pgnout", str(pgn), "-ratinginterval", "0"] + args
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    assert p.returncode == 0, p.stdout + p.stderr
    return p.stdout, check(str(pgn))


def test_random_games_are_refereed_like_python_chess(tmp_path):
    out, games = run(
        random_engine("r1", 1) + random_engine("r2", 2) + ["-tc", "60+1", "-games", "20", "-concurrency", "2"],
        tmp_path,
    )
    assert len(games) == 20, out
    assert "20 of 20 games finished" in out
    # The runner's own overhead, for the record (a figure, not an assertion).
    print(re.search(r"Runner overhead:.*", out).group(0))


def test_illegal_move_crash_and_hang_lose_and_the_match_carries_on(tmp_path):
    out, games = run(
        random_engine("good", 3)
        + random_engine("illegal", 4, "illegal@9")
        + ["-tc", "60+1", "-games", "4"],
        tmp_path,
    )
    assert len(games) == 4
    assert sum("makes an illegal move: a1a1" in g[1] for g in games) == 4, out
    assert all(r == ("1-0" if i % 2 == 0 else "0-1") for i, (r, _, _) in enumerate(games)), out

    out, games = run(
        random_engine("good", 5)
        + random_engine("crash", 6, "crash@9")
        + ["-tc", "60+1", "-games", "4", "-recover"],
        tmp_path,
    )
    assert len(games) == 4, out
    assert sum("crashed" in g[1] for g in games) == 4, out

    out, games = run(
        random_engine("good", 7)
        + random_engine("hang", 8, "hang@9")
        + ["-tc", "st=0.3", "-games", "2", "-recover"],
        tmp_path,
    )
    assert len(games) == 2, out
    assert sum("loses on time" in g[1] for g in games) == 2, out


@pytest.mark.skipif(not os.path.exists(STOCKFISH), reason="needs /usr/games/stockfish")
def test_stockfish_against_stockfish(tmp_path):
    out, games = run(
        [
            "-engine", "cmd=" + STOCKFISH, "name=sf-a", "option.Hash=16",
            "-engine", "cmd=" + STOCKFISH, "name=sf-b", "option.Hash=16",
            "-each", "option.Threads=1", "-tc", "1+0.05", "-games", "2", "-repeat",
            "-draw", "movenumber=30", "movecount=6", "score=10",
            "-resign", "movecount=4", "score=800",
        ],
        tmp_path,
    )
    assert len(games) == 2, out
    assert "Ptnml(0-2)" in out
    assert re.search(r"Elo difference: -?[\d.]+|inf", out)


def test_opening_books_in_pgn_and_epd(tmp_path):
    book = tmp_path / "book.pgn"
    book.write_text(
        '[Event "ruy"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 *\n\n'
        '[Event "qgd"]\n\n1. d4 {main} d5 2. c4 e6 (2... c6) 3. Nc3 Nf6 *\n'
    )
    out, games = run(
        random_engine("r1", 11) + random_engine("r2", 12)
        + ["-tc", "60+1", "-games", "4", "-repeat", "-openings", "file=%s" % book, "order=sequential", "plies=6",
           "-maxmoves", "30"],
        tmp_path,
    )
    assert len(games) == 4, out
    pgns = sorted(tmp_path.glob("games*.pgn"))
    import chess.pgn

    with open(pgns[-1]) as f:
        firsts = []
        while (g := chess.pgn.read_game(f)) is not None:
            nodes = list(g.mainline())
            firsts.append(" ".join(n.san() for n in nodes[:6]))
            assert all(n.comment == "book" for n in nodes[:6])
            assert nodes[6].comment != "book"
    assert firsts == ["e4 e5 Nf3 Nc6 Bb5 a6"] * 2 + ["d4 d5 c4 e6 Nc3 Nf6"] * 2

    epd = tmp_path / "book.epd"
    fens = [
        "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq -",
        "rnbqkb1r/pppppppp/5n2/8/2PP4/8/PP2PPPP/RNBQKBNR b KQkq - 0 2",
    ]
    epd.write_text("%s bm Bb5; id \"a\";\n%s\n" % tuple(fens))
    out, games = run(
        random_engine("r1", 13) + random_engine("r2", 14)
        + ["-tc", "60+1", "-games", "4", "-repeat", "-openings", "file=%s" % epd, "-maxmoves", "30"],
        tmp_path,
    )
    assert len(games) == 4, out
    with open(sorted(tmp_path.glob("games*.pgn"), key=lambda p: p.stat().st_mtime)[-1]) as f:
        starts = []
        while (g := chess.pgn.read_game(f)) is not None:
            starts.append(g.headers["FEN"])
    assert starts == [fens[0] + " 0 1"] * 2 + [fens[1]] * 2


def test_progress_line_and_rating_interval(tmp_path):
    pgn = tmp_path / "p.pgn"
    cmd = [TUNE, "match", "-game", "chess", "-pgnout", str(pgn), "-ratinginterval", "2", "-tc", "60+1",
           "-games", "4", "-repeat", "-sprt", "elo0=0", "elo1=10"] + random_engine("r1", 21) + random_engine("r2", 22)
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    assert p.returncode == 0, p.stdout + p.stderr
    lines = [l for l in p.stderr.splitlines() if l.startswith("[")]
    # Not a terminal: one progress line per interval, with games, score, Elo and LLR.
    assert [l.split("]")[0] for l in lines] == ["[2/4", "[4/4"], p.stderr
    assert all(re.search(r"r1 vs r2: \d+-\d+-\d+ \([\d.]+%\).*Elo .*LLR -?[\d.]+ \[-2\.94, 2\.94\]", l) for l in lines), p.stderr
    # The score after the first interval, and the score and standings at the end.
    assert p.stdout.count("Score of r1 vs r2") == 2, p.stdout
    assert p.stdout.count("Rank Name") == 1, p.stdout
    assert "SPRT (logistic, elo0 0, elo1 10, pentanomial): llr" in p.stdout


TETRARCH = os.environ.get("TETRARCH", str(ROOT / "target" / "ci" / "tetrarch"))


@pytest.mark.skipif(not os.path.exists(STOCKFISH), reason="needs /usr/games/stockfish")
def test_tetrarch_against_itself_and_against_stockfish(tmp_path):
    base = ["-each", "option.Hash=16", "option.Threads=1", "-tc", "1+0.02", "-timemargin", "100",
            "-games", "2", "-repeat"]
    out, games = run(["-engine", "cmd=" + TETRARCH, "name=tetrarch-a",
                      "-engine", "cmd=" + TETRARCH, "name=tetrarch-b"] + base, tmp_path)
    assert len(games) == 2, out
    # Two sound engines: no game ends by a rules infraction.
    assert not any(w in r for _, r, _ in games for w in ("illegal", "crash", "malformed", "stalls")), out
    out, games = run(["-engine", "cmd=" + TETRARCH, "name=tetrarch",
                      "-engine", "cmd=" + STOCKFISH, "name=stockfish"] + base, tmp_path)
    assert len(games) == 2, out
    assert not any(w in r for _, r, _ in games for w in ("illegal", "crash", "malformed", "stalls")), out
    assert re.search(r"Score of tetrarch vs stockfish: \d+ - \d+ - \d+", out), out
