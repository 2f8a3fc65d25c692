"""tetrarch-tune match on xiangqi, end to end: Fairy-Stockfish in its UCI dialect (ranks
1-10, UCI_Variant=xiangqi) against Fairy-Stockfish in UCCI mode, refereed by Tetrarch's
xiangqi rules; the PGN is replayed by pyffish (Fairy-Stockfish's own rules), which checks every
move and each result."""
import os
import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
from check_xiangqi import check  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
TUNE = os.environ.get("TETRARCH_TUNE", str(ROOT / "target" / "ci" / "tetrarch-tune"))
FSF = "/usr/games/fairy-stockfish"


@pytest.mark.skipif(not os.path.exists(FSF), reason="needs /usr/games/fairy-stockfish")
def test_fairy_stockfish_uci_against_ucci(tmp_path):
    pgn = tmp_path / "xq.pgn"
    cmd = [TUNE, "match", "-game", "xiangqi", "-pgnout", str(pgn), "-ratinginterval", "0",
           "-engine", "cmd=" + FSF, "proto=uci", "name=fsf-uci",
           "-engine", "cmd=" + FSF, "proto=ucci", "name=fsf-ucci",
           "-each", "option.Threads=1", "nodes=4000", "-games", "2", "-repeat", "-maxmoves", "150"]
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=240)
    assert p.returncode == 0, p.stdout + p.stderr
    assert "2 of 2 games finished" in p.stdout, p.stdout
    games = check(str(pgn))
    assert len(games) == 2
    # Neither dialect's moves were misread: no game was lost to an illegal move.
    assert not any("illegal" in reason for _, reason, _ in games), games
