#!/usr/bin/env python3
"""Independent reference for tetrarch-tune's statistics (no scipy).

Reads lines "tri W D L elo0 elo1" or "penta LL LD WL DD WD WW elo0 elo1" on stdin and prints,
per line: elo, error (95%), llr. The MLE is found here by Newton's method on the Lagrange
multiplier (the Rust code bisects), the normal quantile by inverting math.erf with bisection
(the Rust code has its own erf and a constant), so a shared mistake would have to be made twice
in two different ways.
"""
import math
import sys


def phi(z):
    return 0.5 * (1.0 + math.erf(z / math.sqrt(2.0)))


def z975():
    lo, hi = 0.0, 10.0
    for _ in range(200):
        mid = (lo + hi) / 2
        if phi(mid) < 0.975:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


def elo(s):
    return -400.0 * math.log10(1.0 / s - 1.0)


def elo_err(a, counts):
    n = sum(counts)
    mu = sum(x * c for x, c in zip(a, counts)) / n
    var = sum(c * (x - mu) ** 2 for x, c in zip(a, counts)) / n
    se = math.sqrt(var / n)
    z = z975()
    return elo(mu), (elo(mu + z * se) - elo(mu - z * se)) / 2


def mle(a, phat, s):
    # Newton on g(theta) = sum phat (a - s) / (1 + theta (a - s)), from theta = 0, with
    # step halving to stay where every 1 + theta (a - s) > 0.
    theta = 0.0
    for _ in range(100):
        g = sum(p * (x - s) / (1 + theta * (x - s)) for x, p in zip(a, phat))
        dg = -sum(p * (x - s) ** 2 / (1 + theta * (x - s)) ** 2 for x, p in zip(a, phat))
        step = -g / dg
        while any(1 + (theta + step) * (x - s) <= 0 for x in a):
            step /= 2
        theta += step
        if abs(step) < 1e-15:
            break
    return [p / (1 + theta * (x - s)) for x, p in zip(a, phat)]


def llr(a, counts, elo0, elo1):
    reg = [c if c > 0 else 1e-3 for c in counts]
    total = sum(reg)
    phat = [c / total for c in reg]
    s0 = 1 / (1 + 10 ** (-elo0 / 400))
    s1 = 1 / (1 + 10 ** (-elo1 / 400))
    p0 = mle(a, phat, s0)
    p1 = mle(a, phat, s1)
    return total * sum(p * (math.log(q1) - math.log(q0)) for p, q0, q1 in zip(phat, p0, p1))


for line in sys.stdin:
    f = line.split()
    if not f:
        continue
    if f[0] == "tri":
        w, d, l = map(int, f[1:4])
        e0, e1 = map(float, f[4:6])
        a, counts = [0.0, 0.5, 1.0], [l, d, w]
    else:
        ll, ld, wl, dd, wd, ww = map(int, f[1:7])
        e0, e1 = map(float, f[7:9])
        a, counts = [0.0, 0.25, 0.5, 0.75, 1.0], [ll, ld, wl + dd, wd, ww]
    e, err = elo_err(a, counts)
    print(f"{e:.12f} {err:.12f} {llr(a, counts, e0, e1):.12f}")
