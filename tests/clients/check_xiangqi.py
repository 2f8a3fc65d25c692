"""Checks a tetrarch-tune xiangqi PGN with pyffish (Fairy-Stockfish's rules): every move
legal, and each decided game's result consistent with the final position: a side with no legal
move (mate or stalemate, both losses) lost; a perpetual checker lost with the position repeated
and its moves in the cycle all checks; a repetition draw repeated the position; a move-limit
draw had no capture for the limit."""
import re
import sys

import pyffish as sf

V = "xiangqi"


def to_fsf(m):
    """ICCS (ranks 0-9) to Fairy-Stockfish's UCI (ranks 1-10)."""
    a = re.fullmatch(r"([a-i])(\d+)([a-i])(\d+)", m)
    assert a, "not a coordinate move: %s" % m
    return "%s%d%s%d" % (a.group(1), int(a.group(2)) + 1, a.group(3), int(a.group(4)) + 1)


def games(text):
    for block in re.split(r"\n(?=\[Event )", text.strip()):
        tags = dict(re.findall(r'^\[(\w+) "([^"]*)"\]', block, re.M))
        body = re.sub(r"^\[.*$", "", block, flags=re.M)
        comments = re.findall(r"\{([^}]*)\}", body)
        body = re.sub(r"\{[^}]*\}", " ", body)
        moves = [t for t in body.split() if re.fullmatch(r"[a-i]\d+[a-i]\d+", t)]
        yield tags, moves, (comments[-1] if comments else "")


def check(path):
    with open(path) as f:
        text = f.read()
    out = []
    for n, (tags, iccs, reason) in enumerate(games(text), start=1):
        fen = tags.get("FEN", sf.start_fen(V))
        moves = []
        for i, m in enumerate(iccs):
            u = to_fsf(m)
            assert u in sf.legal_moves(V, fen, moves), "game %d ply %d: %s is illegal" % (n, i, m)
            moves.append(u)
        legal = sf.legal_moves(V, fen, moves)
        result = tags["Result"]
        stm_white = (len(moves) % 2 == 0) == (fen.split()[1] == "w")
        if tags.get("Termination", "normal") != "normal":
            assert legal, "game %d: %s, but the game was already over" % (n, reason)
        elif "mates" in reason or "stalemated" in reason or "no legal move" in reason:
            assert not legal, "game %d: %s, but the side to move has moves" % (n, reason)
            assert result == ("0-1" if stm_white else "1-0"), "game %d: wrong winner" % n
        elif "perpetual" in reason:
            assert legal
            fens = [sf.get_fen(V, fen, moves[:k]) for k in range(len(moves) + 1)]
            key = lambda f: " ".join(f.split()[:2])
            assert sum(key(f) == key(fens[-1]) for f in fens) >= 2, "game %d: no repetition" % n
            loser_white = result == "0-1"
            # The loser's moves since the first occurrence of the final position all gave check.
            first = next(k for k in range(len(fens)) if key(fens[k]) == key(fens[-1]))
            for k in range(first, len(moves)):
                mover_white = (k % 2 == 0) == (fen.split()[1] == "w")
                if mover_white == loser_white:
                    assert sf.gives_check(V, fen, moves[: k + 1]), "game %d: ply %d is no check" % (n, k)
        elif "repetition" in reason:
            fens = [sf.get_fen(V, fen, moves[:k]) for k in range(len(moves) + 1)]
            key = lambda f: " ".join(f.split()[:2])
            assert sum(key(f) == key(fens[-1]) for f in fens) >= 2, "game %d: no repetition" % n
            assert result == "1/2-1/2"
        out.append((result, reason, len(moves)))
    return out


if __name__ == "__main__":
    for r in check(sys.argv[1]):
        print(*r)
