#!/usr/bin/env python3
"""Plays Tetrarch against GNU Go over GTP and reports the score.

Until the project's match runner drives Go, this is how Go strength is measured: colour-
alternating games between `tetrarch gtp ...` and `gnugo --mode gtp --level L --chinese-rules`,
fresh processes per game, GNU Go seeded with the game number. A game ends with two passes in a
row, a resignation, or a move cap; after two passes GNU Go's `final_score` (Chinese rules)
decides, and Tetrarch's own `final_score` is recorded next to it to check that the two agree.

Example (run it with nice; the machine is shared):
    nice -n 10 python3 tools/go_match.py --games 50 --size 9 \
        --tetrarch target/release/tetrarch --tetrarch-args "--movetime 1000"
"""
import argparse
import math
import os
import shlex
import subprocess
import sys
import time


class Gtp:
    def __init__(self, argv, name):
        self.name = name
        self.p = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=subprocess.DEVNULL, text=True, bufsize=1)

    def cmd(self, line):
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()
        lines = []
        while True:
            l = self.p.stdout.readline()
            if l == "":
                raise RuntimeError(f"{self.name} died on {line!r}")
            l = l.rstrip("\n")
            if l == "" and lines:
                break
            if l == "" and not lines:
                continue
            lines.append(l)
        head = lines[0]
        ok = head.startswith("=")
        text = "\n".join([head[1:].strip()] + lines[1:]).strip()
        if not ok:
            raise RuntimeError(f"{self.name}: {line!r} -> {text}")
        return text

    def close(self):
        try:
            self.cmd("quit")
        except Exception:
            pass
        try:
            self.p.wait(timeout=5)
        except Exception:
            self.p.kill()


def parse_score(s):
    s = s.strip()
    if s in ("0", "Draw"):
        return 0.0
    if s.startswith("B+"):
        return float(s[2:]) if s[2:] not in ("R", "Resign") else math.inf
    if s.startswith("W+"):
        return -float(s[2:]) if s[2:] not in ("R", "Resign") else -math.inf
    raise ValueError(s)


def play_game(args, game):
    tetrarch_black = game % 2 == 0
    t = Gtp([args.tetrarch, "gtp"] + shlex.split(args.tetrarch_args), "tetrarch")
    g = Gtp([args.gnugo, "--mode", "gtp", "--level", str(args.gnugo_level), "--chinese-rules",
             "--komi", str(args.komi), "--seed", str(game + 1 + args.seed)], "gnugo")
    # The opponent: GNU Go itself, or another engine with GNU Go as the referee.
    o = Gtp(shlex.split(args.opponent), "gnugo") if args.opponent else g
    players = {"b": t if tetrarch_black else o, "w": o if tetrarch_black else t}
    for e in {t, g, o}:
        e.cmd(f"boardsize {args.size}")
        e.cmd("clear_board")
        e.cmd(f"komi {args.komi}")
    # Fixed playouts and one thread make a search deterministic: vary the seed per game.
    t.cmd(f"tetrarch-set seed {1000 + game}")
    if o is not g and "tetrarch" in args.opponent:
        o.cmd(f"tetrarch-set seed {5000 + game}")
    for c in args.setup:
        t.cmd(c)
    for c in args.opponent_setup:
        o.cmd(c)
    colour = "b"
    passes = 0
    moves = 0
    result = None
    times = {"tetrarch": 0.0, "gnugo": 0.0}
    counts = {"tetrarch": 0, "gnugo": 0}
    try:
        while moves < args.max_moves:
            mover = players[colour]
            other = players["w" if colour == "b" else "b"]
            start = time.time()
            mv = mover.cmd(f"genmove {colour}")
            times[mover.name] += time.time() - start
            counts[mover.name] += 1
            moves += 1
            if mv.lower() == "resign":
                result = ("W+R" if colour == "b" else "B+R")
                break
            other.cmd(f"play {colour} {mv}")
            if o is not g:
                g.cmd(f"play {colour} {mv}")
            passes = passes + 1 if mv.lower() == "pass" else 0
            if passes >= 2:
                break
            colour = "w" if colour == "b" else "b"
        gnugo_score = t_score = None
        if result is None:
            gnugo_score = g.cmd("final_score")
            t_score = t.cmd("final_score")
            result = gnugo_score
        sgf = None
        if args.sgf_dir:
            sgf = t.cmd("printsgf")
    finally:
        t.close()
        g.close()
        if o is not g:
            o.close()
    s = parse_score(result)
    tetrarch_won = (s > 0) == tetrarch_black if s != 0 else None
    if args.sgf_dir and sgf:
        os.makedirs(args.sgf_dir, exist_ok=True)
        names = ("Tetrarch", "GNU Go") if tetrarch_black else ("GNU Go", "Tetrarch")
        with open(os.path.join(args.sgf_dir, f"game{game:03d}.sgf"), "w") as f:
            f.write(f"(;RE[{result}]PB[{names[0]}]PW[{names[1]}]" + sgf[2:] + "\n")
    return {
        "game": game, "tetrarch_black": tetrarch_black, "result": result, "won": tetrarch_won,
        "moves": moves, "gnugo_score": gnugo_score, "tetrarch_score": t_score, "times": times,
        "counts": counts,
    }


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=50)
    ap.add_argument("--size", type=int, default=9)
    ap.add_argument("--komi", type=float, default=7.5)
    ap.add_argument("--tetrarch", default="target/release/tetrarch")
    ap.add_argument("--tetrarch-args", default="")
    ap.add_argument("--gnugo", default="/usr/games/gnugo")
    ap.add_argument("--gnugo-level", type=int, default=10)
    ap.add_argument("--opponent", default="",
                    help="a GTP command line to play instead of GNU Go (GNU Go then only referees)")
    ap.add_argument("--setup", action="append", default=[],
                    help="a GTP command sent to Tetrarch before each game (repeatable)")
    ap.add_argument("--opponent-setup", action="append", default=[],
                    help="a GTP command sent to the opponent before each game (repeatable)")
    ap.add_argument("--seed", type=int, default=0, help="added to GNU Go's per-game seed")
    ap.add_argument("--first-game", type=int, default=0)
    ap.add_argument("--max-moves", type=int, default=0, help="0: 4 x board points")
    ap.add_argument("--sgf-dir", default="")
    args = ap.parse_args()
    if args.max_moves == 0:
        args.max_moves = 4 * args.size * args.size
    wins = losses = draws = 0
    disagreements = 0
    t_time = g_time = 0.0
    t_moves = g_moves = 0
    for game in range(args.first_game, args.first_game + args.games):
        r = play_game(args, game)
        if r["won"] is None:
            draws += 1
        elif r["won"]:
            wins += 1
        else:
            losses += 1
        agree = ""
        if r["gnugo_score"] is not None:
            same = r["gnugo_score"] == r["tetrarch_score"]
            disagreements += not same
            agree = f" (tetrarch says {r['tetrarch_score']}{'' if same else ' DIFFERENT'})"
        t_time += r["times"]["tetrarch"]
        g_time += r["times"]["gnugo"]
        t_moves += r["counts"]["tetrarch"]
        g_moves += r["counts"]["gnugo"]
        n = wins + losses + draws
        print(f"game {r['game']:3d} tetrarch {'B' if r['tetrarch_black'] else 'W'} "
              f"{r['result']:>7} {'win' if r['won'] else 'draw' if r['won'] is None else 'loss'} "
              f"in {r['moves']} moves{agree}   [{wins}-{losses}-{draws}]", flush=True)
    n = wins + losses + draws
    p = (wins + 0.5 * draws) / n
    se = math.sqrt(max(p * (1 - p), 1e-9) / n)
    print(f"tetrarch {wins} wins, {losses} losses, {draws} draws of {n}: "
          f"{100 * p:.1f}% +- {196 * se:.1f} (95%)")
    print(f"score disagreements after two passes: {disagreements}")
    print(f"mean seconds per move: tetrarch {t_time / max(t_moves, 1):.2f}, "
          f"gnugo {g_time / max(g_moves, 1):.2f}")


if __name__ == "__main__":
    main()
