#!/usr/bin/env python3
"""A GTP engine that disputes dead stones: GNU Go behind a proxy that answers
`final_status_list dead` with no stones at all (everything alive), so a referee that needs
both engines to agree must have the game played out."""
import subprocess
import sys

gnugo = subprocess.Popen(["/usr/games/gnugo", "--mode", "gtp"] + sys.argv[1:],
                         stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)


def ask(line):
    gnugo.stdin.write(line + "\n")
    gnugo.stdin.flush()
    out = []
    while True:
        l = gnugo.stdout.readline()
        if l == "":
            return None
        if l.strip() == "" and out:
            return out
        if l.strip() == "" and not out:
            continue
        out.append(l.rstrip("\n"))


for raw in sys.stdin:
    line = raw.strip()
    if not line:
        continue
    if line.startswith("final_status_list"):
        sys.stdout.write("= \n\n")
        sys.stdout.flush()
        continue
    resp = ask(line)
    if resp is None:
        break
    sys.stdout.write("\n".join(resp) + "\n\n")
    sys.stdout.flush()
    if line == "quit":
        break
