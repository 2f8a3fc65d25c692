#!/usr/bin/env python3
"""A small xiangqi match runner: two engines, colour-swapped pairs, pyffish as the referee.

Usage (from the repository root):
  nice python3 tools/xiangqi-match.py --engine target/release/tetrarch \
      --opponent /usr/games/fairy-stockfish --games 110 --tc 10+0.1 --log out.log

Both engines speak UCI with UCI_Variant=xiangqi (moves with ranks 1..10, as pyffish writes
them); `--engine-protocol ucci` / `--opponent-protocol ucci` drive an engine over UCCI
instead (ranks 0..9, times in milliseconds after `setoption usemillisec true`), translating
moves both ways. Each opening (two plies from a fixed list of common first moves and replies,
in the order of OPENINGS) is played twice, once with each colour. Clocks are kept here from
the wall time each `go` takes; an engine whose clock runs out loses on time, an illegal move
or a crash loses. pyffish judges the end: no legal move (mate or stalemate, both losses),
repetition with perpetual check or chase and plain repetition (`is_optional_game_end`); the
60-move rule (120 plies without capture) draws; so do 400 plies. A game is adjudicated when
both engines agree for 8 plies in a row that one side is ahead by 1000 or more (a mate score
counts). The summary gives wins/draws/losses from the first engine's side, its score, and an
Elo difference with a 95% interval from the per-game variance.

`--movetime MS` gives both engines the same fixed time per move instead of a clock (`go
movetime`, or UCCI `go time` with the time as the whole clock and `movestogo 1`); a move that
takes more than MS plus the grace loses on time. `--grace MS` (default 0) is the lag an engine
may exceed its clock by before it flags: on a loaded machine scheduling delays are not the
engine's fault, and both sides get the same grace.
"""

import argparse
import math
import os
import subprocess
import sys
import threading
import time
import queue

import pyffish as sf

VARIANT = "xiangqi"

# Red first moves and Black replies (ranks 1..10): central cannon, left central cannon,
# pawn openings, elephant openings, horse openings, palace-corner cannons; against horses,
# same- and opposite-direction cannons, pawns and elephants. 11 x 5 = 55 openings.
RED_FIRST = ["h3e3", "b3e3", "c4c5", "g4g5", "g1e3", "c1e3", "b1c3", "h1g3", "h3f3", "b3d3",
             "h3d3"]
BLACK_REPLY = ["h10g8", "b10c8", "h8e8", "c7c6", "g10e8"]
OPENINGS = [f"{r} {b}" for r in RED_FIRST for b in BLACK_REPLY]


def to_ucci(move):
    """Ranks 1..10 to 0..9."""
    return convert(move, -1)


def from_ucci(move):
    return convert(move, +1)


def convert(move, delta):
    i = 1
    while move[i].isdigit():
        i += 1
    return f"{move[0]}{int(move[1:i]) + delta}{move[i]}{int(move[i + 1:]) + delta}"


class Engine:
    def __init__(self, cmd, protocol, options, name):
        self.name = name
        self.protocol = protocol
        self.proc = subprocess.Popen(cmd.split(), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL, text=True, bufsize=1)
        self.lines = queue.Queue()
        threading.Thread(target=self._reader, daemon=True).start()
        if protocol == "uci":
            self.send("uci")
            self.wait_for("uciok", 30)
            self.setoption("UCI_Variant", "xiangqi")
        else:
            self.send("ucci")
            self.wait_for("ucciok", 30)
            self.send("setoption usemillisec true")
        for k, v in options.items():
            self.setoption(k, v)
        self.send("isready")
        self.wait_for("readyok", 60)

    def _reader(self):
        for line in self.proc.stdout:
            self.lines.put(line.strip())
        self.lines.put(None)

    def send(self, text):
        self.proc.stdin.write(text + "\n")
        self.proc.stdin.flush()

    def setoption(self, name, value):
        if self.protocol == "uci":
            self.send(f"setoption name {name} value {value}")
        else:
            self.send(f"setoption {name.lower().replace(' ', '')} {value}")

    def wait_for(self, prefix, timeout):
        end = time.time() + timeout
        while True:
            left = end - time.time()
            if left <= 0:
                raise RuntimeError(f"{self.name}: no '{prefix}' within {timeout}s")
            line = self.lines.get(timeout=left)
            if line is None:
                raise RuntimeError(f"{self.name}: exited")
            if line.startswith(prefix):
                return line

    def new_game(self):
        self.send("ucinewgame" if self.protocol == "uci" else "setoption newgame")
        self.send("isready")
        self.wait_for("readyok", 60)

    def play(self, fen, moves, red_ms, black_ms, inc_ms, red_to_move, movetime=None):
        """Returns (move in ranks 1..10 or None, score for the mover or None, seconds)."""
        if self.protocol == "uci":
            pos = f"position fen {fen}" + (" moves " + " ".join(moves) if moves else "")
            go = f"go wtime {red_ms} btime {black_ms} winc {inc_ms} binc {inc_ms}"
            if movetime:
                go = f"go movetime {movetime}"
        else:
            pos = f"position fen {fen}" + (
                " moves " + " ".join(to_ucci(m) for m in moves) if moves else "")
            mine, theirs = (red_ms, black_ms) if red_to_move else (black_ms, red_ms)
            go = f"go time {mine} increment {inc_ms} opptime {theirs} oppincrement {inc_ms}"
            if movetime:
                go = f"go time {movetime} movestogo 1"
        self.send(pos)
        start = time.time()
        self.send(go)
        score = None
        limit = (red_ms if red_to_move else black_ms) / 1000 + 30
        while True:
            left = start + limit - time.time()
            try:
                line = self.lines.get(timeout=max(left, 0.01))
            except queue.Empty:
                return None, score, time.time() - start
            if line is None:
                return None, score, time.time() - start
            words = line.split()
            if words and words[0] == "info" and "score" in words:
                i = words.index("score")
                try:
                    if words[i + 1] == "cp":
                        score = int(words[i + 2])
                    elif words[i + 1] == "mate":
                        m = int(words[i + 2])
                        score = 30000 - abs(m) if m > 0 else -30000 + abs(m)
                    else:
                        score = int(words[i + 1])
                except (ValueError, IndexError):
                    pass
            if words and words[0] in ("bestmove", "nobestmove"):
                elapsed = time.time() - start
                if words[0] == "nobestmove" or len(words) < 2 or words[1] == "(none)":
                    return None, score, elapsed
                move = words[1] if self.protocol == "uci" else from_ucci(words[1])
                return move, score, elapsed

    def quit(self):
        try:
            self.send("quit")
            self.proc.wait(timeout=5)
        except Exception:
            self.proc.kill()


def play_game(red, black, opening, base_ms, inc_ms, movetime, grace_ms, times):
    """Returns (result for red: 1, 0.5, 0, reason, moves); appends each move's ms to times."""
    fen = sf.start_fen(VARIANT)
    moves = opening.split()
    if movetime:
        base_ms, inc_ms = movetime, movetime
    clocks = [base_ms, base_ms]
    engines = [red, black]
    since_capture = 0
    agree = 0
    for m in moves:
        if m not in sf.legal_moves(VARIANT, fen, moves[:moves.index(m)]):
            raise ValueError(f"opening move {m} illegal in {opening}")
    while True:
        side = len(moves) % 2  # 0 red, 1 black
        legal = sf.legal_moves(VARIANT, fen, moves)
        if not legal:
            # No legal move loses (checkmate or stalemate).
            return (0.0 if side == 0 else 1.0), "no legal move", moves
        end, value = sf.is_optional_game_end(VARIANT, fen, moves)
        if end:
            if value == 0:
                return 0.5, "repetition", moves
            mover_wins = value > 0
            red_wins = mover_wins == (side == 0)
            return (1.0 if red_wins else 0.0), "perpetual (check or chase)", moves
        if since_capture >= 120:
            return 0.5, "60-move rule", moves
        if len(moves) >= 400:
            return 0.5, "400 plies", moves
        eng = engines[side]
        move, score, used = eng.play(fen, moves, clocks[0], clocks[1], inc_ms, side == 0,
                                     movetime)
        times.append(int(used * 1000))
        clocks[side] -= int(used * 1000)
        if move is None:
            return (0.0 if side == 0 else 1.0), f"{eng.name} gave no move", moves
        if clocks[side] < -grace_ms:
            return (0.0 if side == 0 else 1.0), f"{eng.name} lost on time", moves
        clocks[side] = max(clocks[side], 0) + inc_ms
        if movetime:
            clocks[side] = movetime
        if move not in legal:
            return (0.0 if side == 0 else 1.0), f"{eng.name} illegal move {move}", moves
        if sf.is_capture(VARIANT, fen, moves, move):
            since_capture = 0
        else:
            since_capture += 1
        moves.append(move)
        # Adjudication: both engines' last scores agree (converted to Red's view).
        if score is not None:
            red_view = score if side == 0 else -score
            eng.last_red_view = red_view
            other = engines[1 - side]
            o = getattr(other, "last_red_view", None)
            if o is not None and abs(red_view) >= 1000 and abs(o) >= 1000 and \
                    (red_view > 0) == (o > 0):
                agree += 1
            else:
                agree = 0
            if agree >= 8:
                return (1.0 if red_view > 0 else 0.0), "adjudicated", moves


def elo(score):
    score = min(max(score, 1e-6), 1 - 1e-6)
    return -400 * math.log10(1 / score - 1)


def summary(results):
    n = len(results)
    if n == 0:
        return "no games"
    w = sum(1 for r in results if r == 1.0)
    d = sum(1 for r in results if r == 0.5)
    l = n - w - d
    s = sum(results) / n
    var = sum((r - s) ** 2 for r in results) / max(n - 1, 1)
    se = math.sqrt(var / n)
    lo, hi = elo(s - 1.96 * se), elo(s + 1.96 * se)
    return (f"games {n}: +{w} ={d} -{l}, score {100 * s:.1f}%, "
            f"Elo {elo(s):+.0f} (95% {lo:+.0f} .. {hi:+.0f})")


def parse_options(pairs):
    out = {}
    for p in pairs or []:
        k, _, v = p.partition("=")
        out[k] = v
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--engine", required=True)
    ap.add_argument("--engine-protocol", choices=["uci", "ucci"], default="uci")
    ap.add_argument("--engine-option", action="append")
    ap.add_argument("--opponent", default="/usr/games/fairy-stockfish")
    ap.add_argument("--opponent-protocol", choices=["uci", "ucci"], default="uci")
    ap.add_argument("--opponent-option", action="append")
    ap.add_argument("--games", type=int, default=110)
    ap.add_argument("--tc", default="10+0.1", help="base+increment in seconds")
    ap.add_argument("--movetime", type=int, help="fixed milliseconds per move instead of --tc")
    ap.add_argument("--grace", type=int, default=0, help="ms an engine may overrun its clock")
    ap.add_argument("--start", type=int, default=0, help="first opening index")
    ap.add_argument("--log", help="append one line per game here")
    args = ap.parse_args()

    base, _, inc = args.tc.partition("+")
    base_ms, inc_ms = int(float(base) * 1000), int(float(inc or 0) * 1000)
    common = {"Threads": "1", "Hash": "16"}
    eng_opts = {**common, **parse_options(args.engine_option)}
    opp_opts = {**common, **parse_options(args.opponent_option)}
    if args.engine_protocol == "ucci":
        eng_opts = {"hashsize": eng_opts.pop("Hash"), "threads": eng_opts.pop("Threads"),
                    **eng_opts}
    if args.opponent_protocol == "ucci":
        opp_opts = {"hashsize": opp_opts.pop("Hash"), "threads": opp_opts.pop("Threads"),
                    **opp_opts}
    a = Engine(args.engine, args.engine_protocol, eng_opts, "engine")
    b = Engine(args.opponent, args.opponent_protocol, opp_opts, "opponent")
    log = open(args.log, "a") if args.log else None
    results = []
    reasons = {}
    try:
        for g in range(args.games):
            opening = OPENINGS[(args.start + g // 2) % len(OPENINGS)]
            engine_red = g % 2 == 0
            red, black = (a, b) if engine_red else (b, a)
            for e in (a, b):
                e.new_game()
                e.last_red_view = None
            times = []
            r, reason, moves = play_game(red, black, opening, base_ms, inc_ms, args.movetime,
                                         args.grace, times)
            mine = r if engine_red else 1 - r
            results.append(mine)
            key = f"{reason} -> {mine}"
            reasons[key] = reasons.get(key, 0) + 1
            line = (f"game {g + 1} opening '{opening}' engine {'red' if engine_red else 'black'}"
                    f" result {mine} ({reason}, {len(moves)} plies) | {summary(results)}")
            print(line, flush=True)
            if log:
                log.write(line + "\n" + "moves " + " ".join(moves) + "\n")
                log.write("ms " + " ".join(map(str, times)) + "\n")
                log.flush()
            if "gave no move" in reason or "illegal" in reason:
                # A crashed engine: start it again for the next game.
                for e, cmd, proto, opts, name in ((a, args.engine, args.engine_protocol,
                                                   eng_opts, "engine"),
                                                  (b, args.opponent, args.opponent_protocol,
                                                   opp_opts, "opponent")):
                    if e.proc.poll() is not None:
                        new = Engine(cmd, proto, opts, name)
                        if name == "engine":
                            a = new
                        else:
                            b = new
    finally:
        a.quit()
        b.quit()
    print(summary(results))
    for k in sorted(reasons):
        print(f"  {reasons[k]:4d}  {k}")


if __name__ == "__main__":
    main()
