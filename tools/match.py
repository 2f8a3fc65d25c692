#!/usr/bin/env python3
"""A small UCI match runner on python-chess: colour-swapped pairs from varied openings.

Usage (from the repository root):
  python3 tools/match.py --engine target/release/tetrarch \
      --opponent /usr/games/stockfish --opponent-option UCI_LimitStrength=true \
      --opponent-option UCI_Elo=2000 --games 100 --tc 5+0.05 --pgn out.pgn

Each opening is played twice, once with each colour. Clocks are kept here, from the wall time
each `go` takes (python-chess's `play`), so an engine that overruns its clock loses on time.
Games end by the rules (mate, stalemate, threefold, fifty moves, insufficient material) or by
adjudication: a draw after 200 plies. The summary gives wins/draws/losses from the first
engine's side and an Elo difference with a 95% interval from the trinomial variance.
"""

import argparse
import math
import random
import sys
import time

import chess
import chess.engine
import chess.pgn

# Short opening lines in SAN (our own choice of common first moves), each 4 to 8 plies.
OPENINGS = [
    "e4 e5 Nf3 Nc6 Bb5 a6", "e4 e5 Nf3 Nc6 Bc4 Bc5", "e4 e5 Nf3 Nf6", "e4 e5 Nf3 Nc6 d4 exd4",
    "e4 c5 Nf3 d6 d4 cxd4 Nxd4 Nf6", "e4 c5 Nf3 Nc6 d4 cxd4", "e4 c5 Nc3 Nc6 g3 g6",
    "e4 c5 c3 Nf6 e5 Nd5", "e4 e6 d4 d5 Nc3 Bb4", "e4 e6 d4 d5 e5 c5", "e4 c6 d4 d5 e5 Bf5",
    "e4 c6 d4 d5 Nc3 dxe4", "e4 d5 exd5 Qxd5 Nc3 Qa5", "e4 d6 d4 Nf6 Nc3 g6",
    "e4 g6 d4 Bg7 Nc3 d6", "e4 Nf6 e5 Nd5 d4 d6", "d4 d5 c4 e6 Nc3 Nf6", "d4 d5 c4 c6 Nf3 Nf6",
    "d4 d5 c4 dxc4 Nf3 Nf6", "d4 Nf6 c4 e6 Nc3 Bb4", "d4 Nf6 c4 g6 Nc3 Bg7 e4 d6",
    "d4 Nf6 c4 g6 Nc3 d5", "d4 Nf6 c4 e6 Nf3 b6", "d4 Nf6 c4 c5 d5 e6", "d4 Nf6 Bg5 e6 e4 h6",
    "d4 f5 g3 Nf6 Bg2 g6", "d4 d5 Nf3 Nf6 Bf4 e6", "c4 e5 Nc3 Nf6 Nf3 Nc6", "c4 c5 Nf3 Nf6 g3 g6",
    "c4 Nf6 Nc3 e6 e4 d5", "Nf3 d5 g3 Nf6 Bg2 e6", "Nf3 Nf6 c4 b6 g3 Bb7", "e4 e5 f4 exf4 Nf3 g5",
    "e4 e5 Nc3 Nf6 f4 d5", "d4 e6 c4 Bb4 Bd2 Qe7", "e4 b6 d4 Bb7 Bd3 e6", "b3 e5 Bb2 Nc6 e3 d5",
    "g3 d5 Bg2 Nf6 d3 e5", "e4 e5 Nf3 d6 d4 Nf6", "d4 Nf6 Nf3 g6 g3 Bg7",
]


def parse_tc(text):
    base, _, inc = text.partition("+")
    return float(base), float(inc or 0)


def open_engine(cmd, options):
    eng = chess.engine.SimpleEngine.popen_uci(cmd.split(), timeout=30)
    if options:
        eng.configure(options)
    return eng


def parse_options(pairs):
    out = {}
    for p in pairs or []:
        k, _, v = p.partition("=")
        if v.lower() in ("true", "false"):
            out[k] = v.lower() == "true"
        else:
            try:
                out[k] = int(v)
            except ValueError:
                out[k] = v
    return out


def play_game(white, black, opening, tc, max_plies=200):
    base, inc = tc
    board = chess.Board()
    for san in opening.split():
        board.push_san(san)
    clocks = {chess.WHITE: base, chess.BLACK: base}
    engines = {chess.WHITE: white, chess.BLACK: black}
    game_id = object()
    result, reason = None, None
    while result is None:
        outcome = board.outcome(claim_draw=True)
        if outcome is not None:
            result, reason = outcome.result(), outcome.termination.name.lower()
            break
        if board.ply() >= max_plies:
            result, reason = "1/2-1/2", "adjudicated"
            break
        side = board.turn
        limit = chess.engine.Limit(white_clock=max(clocks[chess.WHITE], 0.001),
                                   black_clock=max(clocks[chess.BLACK], 0.001),
                                   white_inc=inc, black_inc=inc)
        start = time.perf_counter()
        try:
            played = engines[side].play(board, limit, game=game_id)
        except chess.engine.EngineError as e:
            result = "0-1" if side == chess.WHITE else "1-0"
            reason = f"engine error: {e}"
            break
        clocks[side] -= time.perf_counter() - start
        if clocks[side] < 0:
            result = "0-1" if side == chess.WHITE else "1-0"
            reason = "time forfeit"
            break
        clocks[side] += inc
        if played.move is None or played.move not in board.legal_moves:
            result = "0-1" if side == chess.WHITE else "1-0"
            reason = f"illegal move {played.move}"
            break
        board.push(played.move)
    return board, result, reason


def elo(wins, draws, losses):
    n = wins + draws + losses
    if n == 0:
        return 0.0, float("inf")
    score = (wins + 0.5 * draws) / n
    var = (wins * (1 - score) ** 2 + draws * (0.5 - score) ** 2 + losses * score ** 2) / n
    se = math.sqrt(var / n)

    def to_elo(s):
        s = min(max(s, 1e-6), 1 - 1e-6)
        return -400 * math.log10(1 / s - 1)

    lo, hi = to_elo(score - 1.96 * se), to_elo(score + 1.96 * se)
    return to_elo(score), (hi - lo) / 2


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--engine", required=True)
    ap.add_argument("--option", action="append", help="NAME=VALUE for the first engine")
    ap.add_argument("--opponent", required=True)
    ap.add_argument("--opponent-option", action="append", help="NAME=VALUE for the opponent")
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--tc", default="5+0.05")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--pgn")
    args = ap.parse_args()

    tc = parse_tc(args.tc)
    rng = random.Random(args.seed)
    openings = OPENINGS[:]
    rng.shuffle(openings)
    a = open_engine(args.engine, parse_options(args.option))
    b = open_engine(args.opponent, parse_options(args.opponent_option))
    w = d = l = 0
    pgn = open(args.pgn, "a") if args.pgn else None
    try:
        for g in range(args.games):
            opening = openings[(g // 2) % len(openings)]
            a_white = g % 2 == 0
            white, black = (a, b) if a_white else (b, a)
            board, result, reason = play_game(white, black, opening, tc)
            a_score = {"1-0": 1.0, "0-1": 0.0}.get(result, 0.5)
            if not a_white:
                a_score = 1.0 - a_score
            if a_score == 1.0:
                w += 1
            elif a_score == 0.0:
                l += 1
            else:
                d += 1
            e, err = elo(w, d, l)
            print(f"game {g + 1}: {result} ({reason}) tetrarch {'white' if a_white else 'black'}"
                  f" | +{w} ={d} -{l}  elo {e:+.0f} +/- {err:.0f}", flush=True)
            if pgn:
                game = chess.pgn.Game.from_board(board)
                game.headers["White"] = "tetrarch" if a_white else "opponent"
                game.headers["Black"] = "opponent" if a_white else "tetrarch"
                game.headers["Result"] = result
                game.headers["Termination"] = reason
                print(game, file=pgn, end="\n\n", flush=True)
    finally:
        a.quit()
        b.quit()
        if pgn:
            pgn.close()
    e, err = elo(w, d, l)
    print(f"final: +{w} ={d} -{l} of {w + d + l}: elo {e:+.1f} +/- {err:.1f} (95%)")


if __name__ == "__main__":
    sys.exit(main())
