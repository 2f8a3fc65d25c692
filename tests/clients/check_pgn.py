"""Checks a tetrarch-tune PGN with python-chess: every move legal, no game played past a
rule result, and each game's result and termination consistent with its final position."""
import sys

import chess
import chess.pgn


def rule_end(board):
    """The rule result python-chess sees here, as the referee should: None or a result."""
    if board.is_checkmate():
        return "0-1" if board.turn == chess.WHITE else "1-0"
    if board.is_stalemate() or board.is_insufficient_material():
        return "1/2-1/2"
    if board.halfmove_clock >= 100 or board.is_repetition(3):
        return "1/2-1/2"
    return None


def check(path):
    games = []
    with open(path) as f:
        while True:
            g = chess.pgn.read_game(f)
            if g is None:
                break
            if g.errors:
                raise AssertionError("PGN errors: %r" % g.errors)
            board = g.board()
            for i, move in enumerate(g.mainline_moves()):
                assert rule_end(board) is None, "game %d went on after a rule result at ply %d" % (len(games) + 1, i)
                assert move in board.legal_moves, "illegal %s" % move
                board.push(move)
            result = g.headers["Result"]
            final = g.end().comment
            end = rule_end(board)
            if g.headers.get("Termination") == "normal":
                assert end == result, "game %d: result %s but the board says %s (%s)" % (len(games) + 1, result, end, final)
            else:
                assert end is None, "game %d: ended by %s although the board ended it" % (len(games) + 1, final)
            games.append((result, final, len(board.move_stack)))
    return games


if __name__ == "__main__":
    for r in check(sys.argv[1]):
        print(*r)
