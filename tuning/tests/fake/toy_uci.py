#!/usr/bin/env python3
"""A fake UCI engine for the toy game of tuning/tests/toy (race to 21).

The position is a counter; a move adds 1, 2 or 3 ("+1" .. "+3") or passes ("0"); reaching
exactly 21 wins. argv[1] picks the behaviour under test:
  good     plays the winning strategy (counter to 1 mod 4) or +1, instantly, with a score
  passer   always passes (two passers draw by the toy's repetition rule)
  illegal  answers "+7"
  crash    exits without answering on its third search
  hang     never answers a search and ignores stop
  garbage  answers a bare "bestmove" on its second search, after some junk lines
  none     answers "bestmove (none)"
  slow     sleeps argv[2] seconds before each answer
"""
import sys
import time

mode = sys.argv[1] if len(sys.argv) > 1 else "good"
counter = 0
searches = 0


def out(line):
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


for raw in sys.stdin:
    words = raw.split()
    if not words:
        continue
    cmd = words[0]
    if cmd == "uci":
        out("id name toy-" + mode)
        out("option name Hash type spin default 1 min 1 max 16")
        out("uciok")
    elif cmd == "isready":
        out("readyok")
    elif cmd == "position":
        if words[1] == "startpos":
            counter = 0
            rest = words[2:]
        else:
            counter = int(words[2])
            rest = words[5:]
        if rest and rest[0] == "moves":
            for m in rest[1:]:
                counter += int(m)
    elif cmd == "go":
        searches += 1
        if mode == "good":
            step = (21 - counter) % 4 or 1
            step = min(step, 21 - counter)
            out("info depth 1 score cp %d nodes 1" % (100 if (21 - counter) % 4 else -100))
            out("bestmove +%d" % step)
        elif mode == "passer":
            out("info depth 1 score cp 0")
            out("bestmove 0")
        elif mode == "illegal":
            out("bestmove +7")
        elif mode == "crash" and searches >= 3:
            sys.exit(3)
        elif mode == "crash":
            out("bestmove +1")
        elif mode == "hang":
            pass
        elif mode == "garbage" and searches >= 2:
            out("\x00\xff junk that is not UCI")
            out("bestmove")
        elif mode == "garbage":
            out("bestmove +1")
        elif mode == "none":
            out("bestmove (none)")
        elif mode == "slow":
            time.sleep(float(sys.argv[2]))
            out("bestmove +1")
    elif cmd == "stop":
        if mode == "slow":
            pass
    elif cmd == "quit":
        break
