#!/usr/bin/env python3
"""A fake Hub engine: logs every line it receives to argv[1] and answers each `go think`
with the next move of argv[2:] (after an info line)."""
import sys

log = open(sys.argv[1], "w")
answers = sys.argv[2:]


def out(line):
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


for raw in sys.stdin:
    line = raw.strip()
    log.write(line + "\n")
    log.flush()
    cmd = line.split(" ")[0]
    if cmd == "hub":
        out('id name=FakeHub version=1.0 author="Nobody Here"')
        out("param name=threads value=1 type=int min=1 max=4")
        out("wait")
    elif cmd == "init":
        out("some free text")
        out("ready")
    elif cmd == "ping":
        out("pong")
    elif cmd == "go":
        out('info depth=3 score=0.25 nodes=100 pv="a b"')
        out("done move=%s" % (answers.pop(0) if answers else "1-6"))
    elif cmd == "quit":
        break
