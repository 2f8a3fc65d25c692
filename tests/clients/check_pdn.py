"""Checks a tetrarch-tune PDN with pydraughts (run it with the pydraughts venv's python): every
move legal, no game played on past a threefold repetition or the 25-move rule, and each result
consistent with the final position (a decided game's loser is to move and has no legal move)."""
import re
import sys

from draughts import Board

START = "W:W31,32,33,34,35,36,37,38,39,40,41,42,43,44,45,46,47,48,49,50:B1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20"
WHITE = 2  # pydraughts' colour codes: white 2, black 1


def games(text):
    for block in re.split(r"\n(?=\[Event )", text.strip()):
        tags = dict(re.findall(r'^\[(\w+) "([^"]*)"\]', block, re.M))
        body = re.sub(r"^\[.*$", "", block, flags=re.M)
        comments = re.findall(r"\{([^}]*)\}", body)
        body = re.sub(r"\{[^}]*\}", " ", body)
        results = ("2-0", "0-2", "1-1", "0-0", "1-0", "0-1", "*")
        moves = [t for t in body.split() if re.fullmatch(r"\d+([-x]\d+)+", t) and t not in results]
        yield tags, moves, (comments[-1] if comments else "")


def find(board, text):
    """The legal move a PDN move names: by start and end, and by the whole path if given."""
    nums = [int(n) for n in re.split("[-x]", text)]
    cands = []
    for m in board.legal_moves():
        steps = m.steps_move
        if steps[0] != nums[0] or steps[-1] != nums[-1]:
            continue
        if len(nums) > 2 and steps != nums:
            continue
        cands.append(m)
    # Paths that take the same pieces are one move (FMJD); pydraughts lists each path.
    distinct = {frozenset(m.captures or []) for m in cands}
    assert len(distinct) == 1, "move %s: %d matching legal moves" % (text, len(distinct))
    return cands[0]


def check(path):
    out = []
    with open(path) as f:
        text = f.read()
    for n, (tags, moves, reason) in enumerate(games(text), start=1):
        board = Board(variant="standard", fen=tags.get("FEN", START))
        seen = {}
        king_plies = 0
        for i, text in enumerate(moves):
            seen[board.fen] = seen.get(board.fen, 0) + 1
            assert seen[board.fen] < 3, "game %d went on after a threefold repetition (ply %d)" % (n, i)
            assert king_plies < 50, "game %d went on past the 25-move rule (ply %d)" % (n, i)
            before = re.split("[:,]", board.fen)
            move = find(board, text)
            king_move = ("K%d" % move.steps_move[0]) in before
            board.push(move)
            king_plies = king_plies + 1 if (king_move and not move.captures) else 0
        result = tags["Result"]
        if tags.get("Termination", "normal") != "normal":
            # Lost by an infraction (illegal move, crash, time): the game was still going.
            assert board.legal_moves(), "game %d: %s, but the game had already ended" % (n, reason)
        elif result in ("2-0", "0-2"):
            assert not board.legal_moves(), "game %d: %s but the side to move has moves (%s)" % (n, result, reason)
            assert result == ("0-2" if board.turn == WHITE else "2-0"), "game %d: wrong winner" % n
        elif result == "1-1":
            assert board.legal_moves(), "game %d: drawn with no legal moves" % n
            repeated = seen.get(board.fen, 0) + 1 >= 3
            assert repeated or king_plies >= 50 or "16/5" in reason or "adjudication" in reason or "limit" in reason, (
                "game %d: draw (%s) not supported by the position" % (n, reason))
        out.append((result, reason, len(moves)))
    return out


if __name__ == "__main__":
    for r in check(sys.argv[1]):
        print(*r)
