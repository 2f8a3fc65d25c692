#!/usr/bin/env python3
"""Writes 2-move Go openings as an SGF collection, one game tree per opening, for
`tetrarch-tune match -openings file=F format=sgf`: Black's and White's first stones both on
the third to fifth lines (counted from the nearer edge, so on 9x9 the 5x5 centre block), one
opening per class of the board's 8 symmetries.

    python3 tools/gen-go-openings.py 9 > tools/openings/go-9x9.sgf
    python3 tools/gen-go-openings.py 19 > tools/openings/go-19x19.sgf
"""
import sys


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 9
    lines = [i for i in range(n) if 2 <= min(i, n - 1 - i) <= 4]
    points = [(r, c) for r in lines for c in lines]

    def images(p):
        r, c = p
        out = []
        for a, b in ((r, c), (c, r)):
            out += [(a, b), (n - 1 - a, b), (a, n - 1 - b), (n - 1 - a, n - 1 - b)]
        return out

    seen = set()
    for b in points:
        for w in points:
            if b == w:
                continue
            # The same symmetry applied to both stones: the smallest image names the class.
            key = min(zip(images(b), images(w)))
            if key in seen:
                continue
            seen.add(key)
            sgf = lambda p: chr(97 + p[1]) + chr(97 + p[0])
            print("(;GM[1]FF[4]SZ[%d];B[%s];W[%s])" % (n, sgf(b), sgf(w)))


if __name__ == "__main__":
    main()
