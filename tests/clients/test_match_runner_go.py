"""tetrarch-tune match on Go, end to end: GNU Go against GNU Go over GTP on 9x9, refereed by
Tetrarch's Go rules (two passes, dead stones agreed by both engines, area scoring, komi 7.5);
the SGF is replayed by sgfmill and every game scored on points is counted again there with the
recorded dead stones lifted, and by a separate GNU Go (Chinese rules) wherever it judges the
same stones dead (see check_sgf.py)."""
import os
import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
from check_sgf import check  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
TUNE = os.environ.get("TETRARCH_TUNE", str(ROOT / "target" / "ci" / "tetrarch-tune"))
GNUGO = "/usr/games/gnugo"


@pytest.mark.skipif(not os.path.exists(GNUGO), reason="needs /usr/games/gnugo")
def test_gnugo_against_gnugo_scored_twice(tmp_path):
    sgf = tmp_path / "go.sgf"
    gnugo = lambda seed, level: ["-engine", "cmd=" + GNUGO, "arg=--mode", "arg=gtp", "arg=--seed",
                                 "arg=%d" % seed, "arg=--level", "arg=%d" % level, "name=gnugo-%d" % level]
    cmd = [TUNE, "match", "-game", "go", "size=9", "komi=7.5", "-sgfout", str(sgf), "-ratinginterval", "0",
           "-tc", "byoyomi=5+1x3", "-games", "2", "-repeat"] + gnugo(1, 1) + gnugo(2, 2)
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stdout + p.stderr
    assert "2 of 2 games finished" in p.stdout, p.stdout
    games = check(str(sgf))
    assert len(games) == 2
    assert all(re.startswith(("B+", "W+", "0")) for re, _ in games), games


@pytest.mark.skipif(not os.path.exists(GNUGO), reason="needs /usr/games/gnugo")
def test_disputed_dead_stones_are_played_out(tmp_path):
    """One engine calls every stone alive: the engines disagree, the game resumes with cleanup
    moves (kgs-genmove_cleanup), they disagree again, and it is scored as it stands."""
    sgf = tmp_path / "disputed.sgf"
    fake = str(ROOT / "tuning" / "tests" / "fake" / "gtp_disputer.py")
    cmd = [TUNE, "match", "-game", "go", "size=9", "-sgfout", str(sgf), "-ratinginterval", "0", "-tc", "inf",
           "-games", "2", "-debug",
           "-engine", "cmd=" + sys.executable, "arg=" + fake, "arg=--level", "arg=1", "name=disputer",
           "-engine", "cmd=" + GNUGO, "arg=--mode", "arg=gtp", "arg=--level", "arg=1", "name=gnugo"]
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stdout + p.stderr[-2000:]
    assert "kgs-genmove_cleanup" in p.stderr
    games = check(str(sgf))
    assert len(games) == 2
    # The disputer never calls a stone dead, so every game scored on points is scored with all
    # stones on the board.
    text = sgf.read_text()
    assert text.count(" points (no dead stones)") == text.count(" points"), text
