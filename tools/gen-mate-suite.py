#!/usr/bin/env python3
"""Writes testdata/chess_mates.epd: chess positions with a forced mate in 1 to 5 moves.

How the positions are found:
1. Source games: Stockfish plays both sides at a small node budget, and with some probability
   each move is replaced by a random legal move (or by a random capture), so that the games
   are full of blunders and end in mating attacks. Each game starts from the initial position
   or from a few random plies, so openings vary.
2. Scan: each game is searched to a shallow depth from its last position backwards, while
   the positions still have a forced mate for one side (a game that ends in mate passes
   through a mate in 1, 2, ... before it); a `score mate N` with 1 <= N <= 5 for the side to
   move makes a position a candidate. A mate in 6 to 9 is followed along the scan's principal
   variation until five moves are left, and that position is scanned instead.
3. Verify: each candidate is searched again from a clear hash with `go depth 30`; it is kept
   only when that search reports `score mate N` with the same N as the scan, and (for N >= 3)
   when no first move leads to a position where a shallow search finds a shorter mate (a
   fixed-depth search sometimes reports a longer mate than the shortest). That N is written
   as the EPD `dm` operation, the first move of the principal variation as `bm` (SAN; other
   first moves may mate as fast), and a `c0` comment tags what kind of first move it is:
   quiet, check, capture, sacrifice (the moved piece lands where a cheaper enemy piece or a
   pawn attacks it), promotion, underpromotion.
4. Recheck (`--recheck`, on the merged file): Stockfish's fixed-depth search sometimes
   reports a longer mate than the shortest. A second engine searches each record; where it
   reports a shorter mate and Stockfish, searching the position after that engine's first
   move, confirms it, the record is dropped.

At most one position of each length (and `--per-game` in all) comes from one game. Positions are
deduplicated by board, side, castling and en-passant fields, and at most
`--per-length` positions are kept for each mate length, at most a third of them tagged
"capture" only, so that quiet first moves and sacrifices are well represented. Everything is
seeded (`--seed`); Stockfish's searches at fixed depth are deterministic with one thread, so
the same seed and the same Stockfish build write the same file.

Usage (the suite is two runs: all lengths, then more mates in 5, which blunder games rarely
pass through, with deeper rescans where the shallow scan loses the chain; both runs were
stopped by time, which `--max-games` reproduces; one more record, mate5-030, was dropped by
hand for a mate in 3 that Stockfish confirms):
    python3 tools/gen-mate-suite.py --stockfish /usr/games/stockfish \
        --per-length 70 --seed 1 --max-games 258 > all.epd
    python3 tools/gen-mate-suite.py --stockfish /usr/games/stockfish \
        --per-length 70 --seed 2 --lengths 5 --deep-scans 3 --id-prefix s2- \
        --max-games 82 > five.epd
    (cat all.epd; grep -v '^#' five.epd) | awk '$1 ~ /^#/ || !seen[$1 $2 $3 $4]++' \
        > merged.epd
    python3 tools/gen-mate-suite.py --stockfish /usr/games/stockfish \
        --recheck merged.epd --recheck-engine target/release/tetrarch \
        > testdata/chess_mates.epd
Progress goes to stderr. Records are written as they are verified (lengths mixed), so an
interrupted run leaves a usable file.
"""

import argparse
import random
import sys
import time

import chess
import chess.engine

PIECE_VALUE = {
    chess.PAWN: 1,
    chess.KNIGHT: 3,
    chess.BISHOP: 3,
    chess.ROOK: 5,
    chess.QUEEN: 9,
    chess.KING: 100,
}


def open_engine(path):
    engine = chess.engine.SimpleEngine.popen_uci(path)
    engine.configure({"Threads": 1, "Hash": 16})
    return engine


def mate_of(info):
    """The mate distance in moves for the side to move, or None."""
    score = info.get("score")
    if score is None:
        return None
    m = score.relative.mate()
    return m if m is not None and m > 0 else None


def tags_of(board, move):
    """Words for what kind of first move `move` is."""
    tags = []
    if move.promotion is not None:
        tags.append("promotion" if move.promotion == chess.QUEEN else "underpromotion")
    is_capture = board.is_capture(move)
    gives_check = board.gives_check(move)
    moved = board.piece_type_at(move.from_square)
    captured = board.piece_type_at(move.to_square) if is_capture else None
    if board.is_en_passant(move):
        captured = chess.PAWN
    after = board.copy()
    after.push(move)
    # A sacrifice: the moved piece is worth more than what it took and an enemy piece that is
    # worth less (or any enemy piece, when nothing defends it) can take it.
    attackers = after.attackers(after.turn, move.to_square)
    defenders = after.attackers(not after.turn, move.to_square)
    gain = PIECE_VALUE[captured] if captured else 0
    lands = PIECE_VALUE[move.promotion or moved]
    if attackers and lands > gain and moved != chess.KING:
        cheapest = min(PIECE_VALUE[after.piece_type_at(s)] for s in attackers)
        if cheapest < lands or not defenders:
            tags.append("sacrifice")
    if gives_check:
        tags.append("check")
    if is_capture:
        tags.append("capture")
    if not is_capture and not gives_check and move.promotion is None:
        tags.append("quiet")
    return tags


def shorter_mate(engine, board, n, depth):
    """Whether some first move mates faster than in `n`: Stockfish's fixed-depth search
    sometimes reports a longer mate than the shortest one. Each reply position is searched
    to `depth`; a mate against the side to move there in k < n - 1 moves is a shorter mate."""
    for move in board.legal_moves:
        board.push(move)
        try:
            if board.is_checkmate():
                return n > 1
            info = engine.analyse(board, chess.engine.Limit(depth=depth))
            score = info.get("score")
            m = score.relative.mate() if score is not None else None
            if m is not None and m < 0 and -m < n - 1:
                return True
        finally:
            board.pop()
    return False


def epd_key(board):
    return " ".join(board.fen().split()[:4])


def source_game(engine, rng, nodes, blunder):
    """The positions of one blunder-filled game, as FENs."""
    board = chess.Board()
    for _ in range(rng.choice([0, 0, 2, 4, 6])):
        moves = list(board.legal_moves)
        if not moves:
            break
        board.push(rng.choice(moves))
    fens = []
    while not board.is_game_over(claim_draw=True) and board.ply() < 220:
        fens.append(board.fen())
        moves = list(board.legal_moves)
        r = rng.random()
        if r < blunder:
            move = rng.choice(moves)
        elif r < blunder * 1.5 and any(board.is_capture(m) for m in moves):
            move = rng.choice([m for m in moves if board.is_capture(m)])
        else:
            move = engine.play(board, chess.engine.Limit(nodes=nodes)).move
        board.push(move)
    return fens


def recheck(args):
    """Writes the records of `args.recheck` except those with a shorter mate than their `dm`.
    A second engine (`--recheck-engine`, any UCI engine, searching `--recheck-nodes` nodes)
    proposes a first move; a record is dropped when that engine reports a shorter mate and
    Stockfish, searching the position after that move to depth 25, confirms it."""
    sf = open_engine(args.stockfish)
    other = chess.engine.SimpleEngine.popen_uci(args.recheck_engine)
    dropped = 0
    try:
        for line in open(args.recheck):
            if line.startswith("#") or not line.strip():
                print(line.rstrip("\n"))
                continue
            fields = line.split()
            board = chess.Board(" ".join(fields[:4]) + " 0 1")
            n = int(line.split("dm ")[1].split(";")[0])
            info = other.analyse(
                board, chess.engine.Limit(nodes=args.recheck_nodes), game=object()
            )
            k = mate_of(info)
            if k is not None and k < n and info.get("pv"):
                board.push(info["pv"][0])
                if board.is_checkmate():
                    confirmed = True
                else:
                    ver = sf.analyse(board, chess.engine.Limit(depth=25), game=object())
                    m = ver["score"].relative.mate()
                    confirmed = m is not None and m < 0 and -m + 1 < n
                if confirmed:
                    dropped += 1
                    print(f"dropped (mate in {k}): {line.strip()}", file=sys.stderr, flush=True)
                    continue
            print(line.rstrip("\n"), flush=True)
    finally:
        sf.quit()
        other.quit()
    print(f"{dropped} dropped", file=sys.stderr)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--stockfish", default="stockfish")
    ap.add_argument("--per-length", type=int, default=70)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--scan-depth", type=int, default=10)
    ap.add_argument("--verify-depth", type=int, default=30)
    ap.add_argument("--play-nodes", type=int, default=3000)
    ap.add_argument("--blunder", type=float, default=0.12)
    ap.add_argument("--max-games", type=int, default=5000)
    ap.add_argument("--per-game", type=int, default=5)
    ap.add_argument("--lengths", type=int, nargs="+", default=[1, 2, 3, 4, 5])
    ap.add_argument("--deep-scans", type=int, default=0, help="deeper rescans per game")
    ap.add_argument("--deep-depth", type=int, default=18)
    ap.add_argument("--id-prefix", default="")
    ap.add_argument(
        "--recheck",
        metavar="EPD",
        help="instead of generating: drop the records of EPD that have a shorter mate",
    )
    ap.add_argument("--recheck-engine", default="tetrarch")
    ap.add_argument("--recheck-nodes", type=int, default=2_000_000)
    args = ap.parse_args()
    if args.recheck:
        recheck(args)
        return

    rng = random.Random(args.seed)
    player = open_engine(args.stockfish)
    scanner = open_engine(args.stockfish)
    verifier = open_engine(args.stockfish)
    kept = {n: [] for n in args.lengths}
    seen = set()
    start = time.time()
    games = 0

    # The header first and each record as soon as it is verified, so that an interrupted run
    # leaves a usable file (records are in the order found, lengths mixed).
    print(
        "# Chess mates in 1 to 5 for the side to move, made by tools/gen-mate-suite.py "
        f"(seed {args.seed}, scan depth {args.scan_depth}, verified with Stockfish go depth "
        f"{args.verify_depth}). dm = mate distance in moves; bm = Stockfish's first move.",
        flush=True,
    )

    def full():
        return all(len(v) >= args.per_length for v in kept.values())

    try:
        while not full() and games < args.max_games:
            games += 1
            fens = source_game(player, rng, args.play_nodes, args.blunder)
            # One game's mating attack gives a mate in 5, 4, ... along one line: keep at most
            # one position of each length from a game, for variety.
            from_game = set()
            # Backwards from the end: a game that ends in mate passes through a mate in 1,
            # 2, ... before it; the scan stops at the first position without a forced mate
            # for either side (two in a row, so one missed scan does not end it).
            misses = 0
            deep_left = args.deep_scans
            for fen in reversed(fens[8:]):
                if len(from_game) >= args.per_game or misses >= 2:
                    break
                board = chess.Board(fen)
                key = epd_key(board)
                if key in seen:
                    continue
                seen.add(key)
                info = scanner.analyse(board, chess.engine.Limit(depth=args.scan_depth))
                score = info.get("score")
                if (score is None or score.relative.mate() is None) and deep_left > 0:
                    # Where the shallow scan loses the chain, a deeper one often finds a mate
                    # in 6 or more, which the line below turns into a mate in 5.
                    deep_left -= 1
                    info = scanner.analyse(board, chess.engine.Limit(depth=args.deep_depth))
                    score = info.get("score")
                if score is None or score.relative.mate() is None:
                    misses += 1
                    continue
                misses = 0
                n = mate_of(info)
                pv = info.get("pv") or []
                if n is not None and 5 < n <= 9 and len(pv) >= 2 * (n - 5):
                    # A longer mate: follow the scan's line (both sides' best moves) until
                    # five moves are left.
                    for mv in pv[: 2 * (n - 5)]:
                        board.push(mv)
                    board = chess.Board(board.fen())
                    key = epd_key(board)
                    if key in seen:
                        continue
                    seen.add(key)
                    info = scanner.analyse(board, chess.engine.Limit(depth=args.scan_depth))
                    n = mate_of(info)
                    pv = info.get("pv") or []
                if (
                    n is None
                    or n not in kept
                    or n in from_game
                    or len(kept[n]) >= args.per_length
                ):
                    continue
                if not pv:
                    continue
                tags = tags_of(board, pv[0])
                captures_only = tags == ["capture"]
                if captures_only and sum(
                    1 for _, t in kept[n] if t == ["capture"]
                ) >= args.per_length // 3:
                    continue
                # A fresh game for the verifier: python-chess then sends `ucinewgame`, which
                # clears Stockfish's hash, so each verdict depends on the position alone.
                ver = verifier.analyse(
                    board, chess.engine.Limit(depth=args.verify_depth), game=object()
                )
                if mate_of(ver) != n or not ver.get("pv"):
                    continue
                if n >= 3 and shorter_mate(scanner, board, n, args.scan_depth):
                    continue
                best = ver["pv"][0]
                tags = tags_of(board, best)
                rec = (
                    f'{key} bm {board.san(best)}; dm {n}; '
                    f'id "{args.id_prefix}mate{n}-{len(kept[n]) + 1:03d}"; c0 "{" ".join(tags)}";'
                )
                kept[n].append((rec, tags))
                print(rec, flush=True)
                from_game.add(n)
            print(
                f"games {games} kept "
                + " ".join(f"m{n}={len(v)}" for n, v in kept.items())
                + f" {time.time() - start:.0f}s",
                file=sys.stderr,
                flush=True,
            )
    finally:
        player.quit()
        scanner.quit()
        verifier.quit()


if __name__ == "__main__":
    main()
