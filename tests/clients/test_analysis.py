"""KataGo analysis engine protocol: `tetrarch analysis` driven as KaTrain drives `katago analysis`.

The binary comes from the environment variable TETRARCH (tools/test.sh sets it). A reader thread
collects the responses by id, as KaTrain's engine wrapper does, and Python's own json module
reads every line, so the output is checked by a parser other than Tetrarch's. The queries are
written with json.dumps (ASCII only: the unicode id travels as \\u escapes, surrogate pairs
included) and the id must come back as the same text.
"""
import json
import os
import queue
import subprocess
import threading
import time

TETRARCH = os.environ.get("TETRARCH", "target/ci/tetrarch")


class Analysis:
    def __init__(self, *args):
        self.p = subprocess.Popen([TETRARCH, "analysis", *args], stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                  text=True, encoding="utf-8", bufsize=1)
        self.lines = queue.Queue()
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self):
        for line in self.p.stdout:
            self.lines.put(json.loads(line))
        self.lines.put(None)

    def send(self, query):
        self.p.stdin.write(json.dumps(query) + "\n")
        self.p.stdin.flush()

    def until(self, done, timeout=20):
        got = []
        deadline = time.time() + timeout
        while True:
            r = self.lines.get(timeout=max(0.01, deadline - time.time()))
            assert r is not None, f"the engine exited; got {got}"
            got.append(r)
            if done(r):
                return got

    def close(self):
        self.p.stdin.close()
        rest = []
        while True:
            r = self.lines.get(timeout=20)
            if r is None:
                break
            rest.append(r)
        assert self.p.wait(timeout=20) == 0
        return rest


GAME = [["B", "E5"], ["W", "C4"], ["B", "G4"], ["W", "F6"], ["B", "pass"], ["W", "D7"]]


def test_a_whole_game_is_analysed_turn_by_turn():
    e = Analysis("--max-visits", "30", "--seed", "5")
    e.send({"id": "version", "action": "query_version"})
    assert e.until(lambda r: True)[0]["version"]
    ident = "partie-\u00e9\u4e2d\U0001F600"
    e.send({"id": ident, "rules": "chinese", "komi": 7.5, "boardXSize": 9, "boardYSize": 9,
            "moves": GAME, "analyzeTurns": list(range(len(GAME) + 1)), "includeOwnership": True,
            "includePolicy": True, "overrideSettings": {"reportAnalysisWinratesAs": "BLACK"}})
    finals = {}
    while len(finals) < len(GAME) + 1:
        for r in e.until(lambda r: r.get("isDuringSearch") is False):
            if r.get("isDuringSearch") is False:
                assert r["id"] == ident
                assert r["turnNumber"] not in finals, "one final response per turn"
                finals[r["turnNumber"]] = r
    for turn, r in finals.items():
        root = r["rootInfo"]
        assert root["currentPlayer"] == "BW"[turn % 2]
        assert root["visits"] == 30
        assert 0 <= root["winrate"] <= 1
        assert len(r["ownership"]) == 81
        assert all(-1 <= v <= 1 for v in r["ownership"])
        assert len(r["policy"]) == 82
        assert abs(sum(p for p in r["policy"] if p >= 0) - 1) < 1e-3
        assert sum(m["visits"] for m in r["moveInfos"]) == 30
        assert [m["order"] for m in r["moveInfos"]] == list(range(len(r["moveInfos"])))
        for m in r["moveInfos"]:
            assert m["pv"][0] == m["move"]
    # Stones already played are illegal in the policy: E5 is row 5 from the top, column E.
    assert finals[1]["policy"][4 * 9 + 4] == -1
    assert finals[0]["policy"][4 * 9 + 4] != -1
    assert e.close() == []


def test_terminate_and_errors_keep_the_engine_serving():
    e = Analysis("--max-visits", "20")
    e.send({"id": "long", "rules": "chinese", "boardXSize": 13, "boardYSize": 13, "moves": [],
            "maxVisits": 10**9, "reportDuringSearchEvery": 0.05})
    e.until(lambda r: r.get("isDuringSearch") is True)
    e.send({"id": "t", "action": "terminate", "terminateId": "long"})
    got = e.until(lambda r: r.get("id") == "long" and r.get("isDuringSearch") is False, 5)
    assert any(r.get("id") == "t" and r.get("action") == "terminate" for r in got)
    assert 0 < got[-1]["rootInfo"]["visits"] < 10**9
    e.p.stdin.write("{not json\n")
    e.send({"id": "x", "rules": "chinese", "boardXSize": 9, "boardYSize": 9,
            "moves": [["B", "E5"], ["W", "E5"]]})
    e.send({"id": "y", "rules": "go-by-feel", "boardXSize": 9, "boardYSize": 9, "moves": []})
    e.send({"id": "ok", "rules": "tromp-taylor", "boardXSize": 9, "boardYSize": 9, "moves": [],
            "typo": 1})
    got = e.until(lambda r: r.get("id") == "ok" and r.get("isDuringSearch") is False)
    assert "error" in got[0] and "field" not in got[0]
    assert got[1] == {"error": "Illegal move 1: E5 (point occupied)", "field": "moves", "id": "x"}
    assert got[2]["field"] == "rules" and got[2]["id"] == "y" and "error" in got[2]
    warnings = sorted(r["field"] for r in got if "warning" in r)
    assert warnings == ["rules", "typo"], got
    assert got[-1]["rootInfo"]["visits"] == 20
    assert e.close() == []
