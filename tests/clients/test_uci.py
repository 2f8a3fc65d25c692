"""python-chess drives `tetrarch` over UCI, as GUIs and lichess-bot do.

The binary comes from the TETRARCH environment variable (tools/test.sh sets it).
"""

import logging
import os
import subprocess
import time

import chess
import chess.engine
import pytest

TETRARCH = os.environ.get("TETRARCH", "target/ci/tetrarch")


@pytest.fixture
def engine():
    eng = chess.engine.SimpleEngine.popen_uci([TETRARCH], timeout=20)
    yield eng
    eng.quit()


def warnings_of(caplog):
    return [r for r in caplog.records if r.levelno >= logging.WARNING and r.name.startswith("chess")]


def test_handshake_without_warnings(caplog):
    caplog.set_level(logging.DEBUG, logger="chess.engine")
    eng = chess.engine.SimpleEngine.popen_uci([TETRARCH], timeout=20)
    try:
        assert eng.id["name"].startswith("Tetrarch")
        for name in ["Hash", "Threads", "MultiPV", "Ponder", "Move Overhead", "Clear Hash",
                     "UCI_Chess960", "UCI_LimitStrength", "UCI_Elo", "Skill Level",
                     "UCI_ShowWDL", "SyzygyPath", "SyzygyProbeDepth", "SyzygyProbeLimit"]:
            assert name in eng.options, name
        assert eng.options["UCI_ShowWDL"].default is False
        eng.configure({"Threads": 2, "Hash": 32, "SyzygyPath": ""})
        eng.ping()
        result = eng.play(chess.Board(), chess.engine.Limit(depth=6))
        assert result.move in chess.Board().legal_moves
    finally:
        eng.quit()
    assert warnings_of(caplog) == []


def test_analysis_with_three_lines(engine):
    board = chess.Board("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3")
    infos = engine.analyse(board, chess.engine.Limit(depth=9), multipv=3)
    assert len(infos) == 3
    firsts = [info["pv"][0] for info in infos]
    assert len(set(firsts)) == 3
    scores = [info["score"].relative.score(mate_score=100000) for info in infos]
    assert scores == sorted(scores, reverse=True)
    for info in infos:
        assert info["depth"] >= 8
        b = board.copy()
        for m in info["pv"]:
            assert m in b.legal_moves
            b.push(m)


def test_timed_game_never_flags(engine):
    # Engine against itself on a tight clock: 3 s + 30 ms per side. The clock here is wall
    # time around python-chess's call, so it includes the client's own latency; the engine
    # is told about it the way GUIs do, with Move Overhead.
    engine.configure({"Move Overhead": 100})
    board = chess.Board()
    clock = {chess.WHITE: 3.0, chess.BLACK: 3.0}
    inc = 0.03
    for _ in range(60):
        if board.is_game_over(claim_draw=True):
            break
        limit = chess.engine.Limit(white_clock=clock[chess.WHITE], black_clock=clock[chess.BLACK],
                                   white_inc=inc, black_inc=inc)
        start = time.perf_counter()
        result = engine.play(board, limit)
        used = time.perf_counter() - start
        clock[board.turn] -= used
        assert clock[board.turn] > 0, f"flagged at ply {board.ply()}"
        clock[board.turn] += inc
        assert result.move in board.legal_moves
        board.push(result.move)


def test_ponder_then_ponderhit(engine, caplog):
    caplog.set_level(logging.DEBUG, logger="chess.engine")
    board = chess.Board()
    game = object()
    limit = chess.engine.Limit(white_clock=10, black_clock=10, white_inc=0.1, black_inc=0.1)
    hits = 0
    for _ in range(6):
        result = engine.play(board, limit, ponder=True, game=game)
        assert result.move in board.legal_moves
        board.push(result.move)
        if result.ponder is None:
            break
        # The opponent plays the predicted move, so the next play may be a ponderhit.
        assert result.ponder in board.legal_moves
        board.push(result.ponder)
    sent = [r.getMessage() for r in caplog.records if "ponderhit" in r.getMessage()]
    hits = len(sent)
    assert hits >= 1, "python-chess never sent ponderhit"
    assert warnings_of(caplog) == []


def test_stop_during_infinite_analysis(engine):
    board = chess.Board()
    with engine.analysis(board) as analysis:
        time.sleep(0.3)
        analysis.stop()
        start = time.perf_counter()
        best = analysis.wait()
        assert time.perf_counter() - start < 2.0
    assert best.move in board.legal_moves


@pytest.mark.parametrize("fen,mate", [
    ("6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1", 1),
    ("k7/8/2K5/8/8/8/8/7R w - - 0 1", 2),
    ("r2qkb1r/pp2nppp/3p4/2pNN1B1/2BnP3/3P4/PPP2PPP/R2bK2R w KQkq - 1 10", 2),
    ("r5rk/5p1p/5R2/4B3/8/8/7P/7K w - - 0 1", 3),
    ("r1b1kb1r/pppp1ppp/5q2/4n3/3KP3/2N3PN/PPP4P/R1BQ1B1R b kq - 0 1", 3),
])
def test_mates_are_found_and_reported_as_mate(engine, fen, mate):
    board = chess.Board(fen)
    info = engine.analyse(board, chess.engine.Limit(depth=12))
    assert info["score"].relative == chess.engine.Mate(mate)
    b = board.copy()
    for m in info["pv"][: 2 * mate - 1]:
        b.push(m)
    assert b.is_checkmate()


@pytest.mark.parametrize("fen", [
    "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3",  # mated
    "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1",  # stalemate
])
def test_no_legal_move_gives_bestmove_none(engine, fen):
    result = engine.play(chess.Board(fen), chess.engine.Limit(depth=5))
    assert result.move is None


def test_malformed_lines_are_survived():
    proc = subprocess.Popen([TETRARCH], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    lines = [
        "uci",
        "isready",
        "position fen not a fen at all",
        "position startpos moves e2e4 e7e9",
        "setoption name Hash value -5",
        "setoption name Bogus value 1",
        "go depth banana",
        "\x00\x01 nonsense",
        "position startpos moves e2e4",
        "go depth 6",
        "isready",
    ]
    out, _ = proc.communicate("\n".join(lines) + "\n", timeout=30)
    assert proc.returncode == 0
    got = out.splitlines()
    assert "uciok" in got
    errors = [l for l in got if l.startswith("info string error:")]
    assert len(errors) >= 6
    bestmoves = [l for l in got if l.startswith("bestmove")]
    assert len(bestmoves) >= 1
    # The last search ran on the position after 1.e4 (the malformed ones changed nothing).
    board = chess.Board()
    board.push_uci("e2e4")
    assert chess.Move.from_uci(bestmoves[-1].split()[1]) in board.legal_moves
    assert got[-1] == "readyok" or "readyok" in got
