#!/usr/bin/env python3
"""A fake DXP follower for international draughts (run it with the pydraughts venv's python):
listens on 127.0.0.1:argv[1], accepts game requests and plays random legal moves (seeded by
argv[2], the game count and the position), one game after another, until the runner closes the
connection."""
import random
import socket
import sys

from draughts import Board, Move

port = int(sys.argv[1])
seed = sys.argv[2] if len(sys.argv) > 2 else "0"
srv = socket.socket()
srv.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
srv.bind(("127.0.0.1", port))
srv.listen(1)
conn, _ = srv.accept()
buf = b""
board = None
games = 0
ended = False
START = "W:W31,32,33,34,35,36,37,38,39,40,41,42,43,44,45,46,47,48,49,50:B1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20"


def send(msg):
    conn.sendall(msg.encode() + b"\0")


def fen_of(colour, squares):
    white = [("K" if c == "W" else "") + str(i + 1) for i, c in enumerate(squares) if c in "wW"]
    black = [("K" if c == "Z" else "") + str(i + 1) for i, c in enumerate(squares) if c in "zZ"]
    return "%s:W%s:B%s" % ("W" if colour == "W" else "B", ",".join(white), ",".join(black))


def play():
    moves = board.legal_moves()
    if not moves:
        global ended
        ended = True
        send("E10")  # I lose
        return
    rng = random.Random("%s %d %s" % (seed, games, board.fen))
    m = rng.choice(sorted(moves, key=lambda m: m.hub_move))
    steps = m.steps_move
    caps = sorted(m.captures or [])
    send("M0000%02d%02d%02d%s" % (steps[0], steps[-1], len(caps), "".join("%02d" % c for c in caps)))
    board.push(m)


def mine_to_move():
    return (board.turn == 2) == (my_colour == "W")


while True:
    data = conn.recv(4096)
    if not data:
        break
    buf += data
    while b"\0" in buf:
        raw, buf = buf.split(b"\0", 1)
        msg = raw.decode()
        if msg.startswith("R"):
            games += 1
            ended = False
            my_colour = msg[35]
            fen = START if msg[42] == "A" else fen_of(msg[43], msg[44:94])
            board = Board(variant="standard", fen=fen)
            send("A" + ("random-dxp-" + seed).ljust(32) + "0")
            if mine_to_move():
                play()
        elif msg.startswith("M"):
            frm, to, n = int(msg[5:7]), int(msg[7:9]), int(msg[9:11])
            caps = sorted(int(msg[11 + 2 * k: 13 + 2 * k]) for k in range(n))
            hub = "%d-%d" % (frm, to) if n == 0 else "x".join(str(x) for x in [frm, to] + caps)
            board.push(Move(board, hub_move=hub))
            play()
        elif msg.startswith("E"):
            # Answer a GAMEEND we did not start; ours is answered, not echoed.
            if not ended:
                send("E00")
            ended = False
        elif msg.startswith("B"):
            send("K1")
