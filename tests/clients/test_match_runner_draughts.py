"""tetrarch-tune match on international draughts, end to end: games refereed by Tetrarch's
draughts rules between random movers speaking Hub and DXP (pydraughts inside), the PDN read
back and replayed by pydraughts (every move legal, no game past a rule result, results
consistent with the final position), and a Hub engine that plays an illegal move losing."""
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
TUNE = os.environ.get("TETRARCH_TUNE", str(ROOT / "target" / "ci" / "tetrarch-tune"))
FAKE = ROOT / "tuning" / "tests" / "fake"
VENV = os.environ.get(
    "TETRARCH_DRAUGHTS_VENV",
    os.path.join(os.environ.get("XDG_DATA_HOME", os.path.expanduser("~/.local/share")), "tetrarch-peers", "venv"),
)
PY = os.path.join(VENV, "bin", "python")


def run(args, pdn, timeout=240):
    cmd = [TUNE, "match", "-game", "draughts", "-pdnout", str(pdn), "-ratinginterval", "0"] + args
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    assert p.returncode == 0, p.stdout + p.stderr
    return p.stdout


def replay(pdn):
    p = subprocess.run([PY, str(Path(__file__).parent / "check_pdn.py"), str(pdn)], capture_output=True, text=True)
    assert p.returncode == 0, p.stdout + p.stderr
    return [line.split(" ", 1) for line in p.stdout.splitlines()]


def hub(name, seed):
    return ["-engine", "cmd=" + PY, "arg=%s" % (FAKE / "draughts_random_hub.py"), "arg=%d" % seed, "name=" + name]


def test_hub_and_dxp_random_games_replay_in_pydraughts(tmp_path):
    pdn = tmp_path / "hub.pdn"
    out = run(hub("h1", 1) + hub("h2", 2) + ["-tc", "60+1", "-games", "4", "-concurrency", "2"], pdn)
    assert "4 of 4 games finished" in out, out
    assert len(replay(pdn)) == 4

    pdn = tmp_path / "dxp.pdn"
    port = 27600 + os.getpid() % 1000
    dxp = ["-engine", "cmd=" + PY, "arg=%s" % (FAKE / "draughts_random_dxp.py"), "arg={port}", "arg=3",
           "proto=dxp", "port=%d" % port, "name=dxp"]
    out = run(hub("hub", 4) + dxp + ["-tc", "60+1", "-games", "2"], pdn)
    assert "2 of 2 games finished" in out, out
    assert len(replay(pdn)) == 2


def test_an_illegal_hub_move_loses(tmp_path):
    pdn = tmp_path / "bad.pdn"
    log = tmp_path / "fake.log"
    bad = ["-engine", "cmd=" + sys.executable, "arg=%s" % (FAKE / "hub_fake.py"), "arg=%s" % log, "name=bad"]
    out = run(hub("good", 5) + bad + ["-tc", "10+0.1", "-games", "2"], pdn)
    games = replay(pdn)
    assert len(games) == 2
    assert all("makes an illegal move: 1-6" in reason for _, reason in games), out
