#!/usr/bin/env python3
"""A fake DXP follower: listens on 127.0.0.1:argv[1], logs every message it receives to
argv[2], accepts a game request, answers each MOVE with the next of argv[3:] (already in DXP
form), and acknowledges GAMEEND."""
import socket
import sys

port = int(sys.argv[1])
log = open(sys.argv[2], "w")
answers = sys.argv[3:]
srv = socket.socket()
srv.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
srv.bind(("127.0.0.1", port))
srv.listen(1)
conn, _ = srv.accept()
buf = b""


def send(msg):
    conn.sendall(msg.encode() + b"\0")


while True:
    data = conn.recv(1024)
    if not data:
        break
    buf += data
    while b"\0" in buf:
        msg, buf = buf.split(b"\0", 1)
        msg = msg.decode()
        log.write(msg + "\n")
        log.flush()
        if msg.startswith("R"):
            send("A" + "FakeDXP".ljust(32) + "0")
            # Follower plays White in the initial position: move first.
            if msg[35] == "W":
                send(answers.pop(0))
        elif msg.startswith("M"):
            send(answers.pop(0))
        elif msg.startswith("E"):
            send("E00")
            conn.close()
            sys.exit(0)
