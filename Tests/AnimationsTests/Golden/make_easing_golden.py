#!/usr/bin/env python3
"""Writes easings.golden: reference values for every easing family in animc.

This is an independent implementation, written from the published
definitions (not from Sources/Animations/Easing.swift), evaluated in
high-precision arithmetic with mpmath wherever the definition is a formula.

Sources
-------
* The talk's curves (Brandon Kase, "Algebraic Animations"), as restated in
  grammar.md:
      ease-in(c)(p)     = 1 - (1 - p)^(1/c)          default c = 2
      ease-out(c)(p)    = 1 - (1 - p)^c              default c = 2
      ease-in-out(c)(p) = g(p) / (g(p) + g(1 - p)),  g(x) = exp(-c/x) for x > 0,
                                                     0 otherwise; default c = 1
* CSS Easing Functions Level 1, https://www.w3.org/TR/css-easing-1/
  (editor's draft https://drafts.csswg.org/css-easing-1/):
    - section 2.2 "Cubic Bezier easing functions": the keywords
      ease = (0.25, 0.1, 0.25, 1), ease-in = (0.42, 0, 1, 1),
      ease-out = (0, 0, 0.58, 1), ease-in-out = (0.42, 0, 0.58, 1);
      section 2.2.1 (#cubic-bezier-algo): y for the given x on the curve with
      P0 = (0, 0), P3 = (1, 1); outside [0, 1] the curve is continued by a
      straight line along its end tangent, as browsers draw it (Chromium's
      gfx::CubicBezier::InitGradients, which Gecko's ComputedTimingFunction
      matches; the spec's text differs when P1 is straight above or below P0,
      csswg-drafts issue 4046): below 0 with slope y1/x1 if x1 > 0, else
      y2/x2 if y1 = 0 and x2 > 0, else 1 if y1 = y2 = 0, else 0; above 1 with
      slope (y2 - 1)/(x2 - 1) if x2 < 1, else (y1 - 1)/(x1 - 1) if y2 = 1 and
      x1 < 1, else 1 if y1 = y2 = 1, else 0.
    - section 2.3 "Step easing functions" and 2.3.1 (#step-easing-algo):
      step = floor(p * steps); +1 for jump-start/jump-both (start = jump-start,
      end = jump-end); the before flag is unset here, so no decrement;
      if p >= 0 and step < 0 then step = 0; jumps = steps (jump-start,
      jump-end), steps - 1 (jump-none), steps + 1 (jump-both); if p <= 1 and
      step > jumps then step = jumps; the output is step / jumps.
      step-start = steps(1, start), step-end = steps(1, end).
* Robert Penner's curves as published on https://easings.net (source:
  github.com/ai/easings.net, src/easings.yml): constants
  back c1 = 1.70158, c2 = c1 * 1.525, c3 = c1 + 1;
  elastic c4 = 2*pi/3, c5 = 2*pi/4.5; bounce n1 = 7.5625, d1 = 2.75.

Golden file format (also written at the top of easings.golden)
--------------------------------------------------------------
    SPELLING | P | VALUE
SPELLING is the easing as written in an .anim file, P the input progress (the
shortest decimal that reads back as the intended IEEE double), VALUE the
expected output with 17 significant digits. Lines starting with '#' are
comments; blank lines are ignored.

Floating-point note for steps(): the spec is written over the reals, but an
input such as 1/3 is not a double. Browsers compute floor(p * steps) in double
arithmetic, and so does this script, so the top of the step is taken at
p = 1/3 (where 3 * fl(1/3) rounds to exactly 1). Where the double product and
the exact product of the double input disagree, a comment line says so.

Run:  python3 make_easing_golden.py   (rewrites easings.golden next to it)
"""

import math
import os
import random
from fractions import Fraction

import mpmath
from mpmath import mpf

mpmath.mp.dps = 50


# --- the talk's curves -----------------------------------------------------

def talk_in(c):
    c = mpf(c)
    def f(p):
        return 1 - (1 - mpf(p)) ** (1 / c)
    return f


def talk_out(c):
    c = mpf(c)
    def f(p):
        return 1 - (1 - mpf(p)) ** c
    return f


def talk_in_out(c):
    c = mpf(c)
    def g(x):
        return mpmath.exp(-c / x) if x > 0 else mpf(0)
    def f(p):
        p = mpf(p)
        a, b = g(p), g(1 - p)
        return a / (a + b)
    return f


# --- CSS cubic-bezier() -----------------------------------------------------

def css_cubic_bezier(x1, y1, x2, y2):
    # Control points as the doubles the program reads, converted exactly.
    x1, y1, x2, y2 = (mpf(v) for v in (x1, y1, x2, y2))

    def bernstein(a, b, t):
        # cubic Bezier coordinate with end points 0 and 1 and controls a, b
        s = 1 - t
        return 3 * s * s * t * a + 3 * s * t * t * b + t ** 3

    def f(p):
        x = mpf(p)
        if x < 0:
            if x1 > 0:
                return (y1 / x1) * x
            if y1 == 0 and x2 > 0:
                return (y2 / x2) * x
            if y1 == 0 and y2 == 0:
                return x
            return mpf(0)
        if x > 1:
            if x2 < 1:
                return 1 + (y2 - 1) / (x2 - 1) * (x - 1)
            if y2 == 1 and x1 < 1:
                return 1 + (y1 - 1) / (x1 - 1) * (x - 1)
            if y2 == 1 and y1 == 1:
                return x
            return mpf(1)
        # x(t) is non-decreasing on [0, 1] when x1, x2 are in [0, 1]:
        # bisect for the parameter t with x(t) = x.
        lo, hi = mpf(0), mpf(1)
        for _ in range(200):
            mid = (lo + hi) / 2
            if bernstein(x1, x2, mid) < x:
                lo = mid
            else:
                hi = mid
        t = (lo + hi) / 2
        return bernstein(y1, y2, t)
    return f


CSS_KEYWORDS = {
    "ease": (0.25, 0.1, 0.25, 1),
    "css-ease-in": (0.42, 0, 1, 1),
    "css-ease-out": (0, 0, 0.58, 1),
    "css-ease-in-out": (0.42, 0, 0.58, 1),
}


# --- CSS steps() ------------------------------------------------------------

def css_steps(n, position="jump-end"):
    position = {"start": "jump-start", "end": "jump-end"}.get(position, position)
    jumps = {"jump-start": n, "jump-end": n, "jump-none": n - 1, "jump-both": n + 1}[position]

    def step_of(product, p):
        step = math.floor(product)
        if position in ("jump-start", "jump-both"):
            step += 1
        # (before flag unset: no decrement)
        if p >= 0 and step < 0:
            step = 0
        if p <= 1 and step > jumps:
            step = jumps
        return step

    def f(p):
        return Fraction(step_of(p * n, p), jumps)   # p * n: IEEE double, as browsers do

    def f_exact(p):
        return Fraction(step_of(Fraction(p) * n, p), jumps)

    f.exact = f_exact
    return f


# --- easings.net ------------------------------------------------------------

C1 = mpf("1.70158")
C2 = C1 * mpf("1.525")
C3 = C1 + 1
C4 = 2 * mpmath.pi / 3
C5 = 2 * mpmath.pi / mpf("4.5")
N1 = mpf("7.5625")
D1 = mpf("2.75")


def bounce_out(x):
    if x < 1 / D1:
        return N1 * x * x
    if x < 2 / D1:
        x = x - mpf("1.5") / D1
        return N1 * x * x + mpf("0.75")
    if x < mpf("2.5") / D1:
        x = x - mpf("2.25") / D1
        return N1 * x * x + mpf("0.9375")
    x = x - mpf("2.625") / D1
    return N1 * x * x + mpf("0.984375")


def power_in_out(n):
    return lambda x: 2 ** (n - 1) * x ** n if x < mpf("0.5") else 1 - (-2 * x + 2) ** n / 2


PENNER = {
    ("quad", "in"): lambda x: x * x,
    ("quad", "out"): lambda x: 1 - (1 - x) * (1 - x),
    ("quad", "in-out"): power_in_out(2),
    ("cubic", "in"): lambda x: x ** 3,
    ("cubic", "out"): lambda x: 1 - (1 - x) ** 3,
    ("cubic", "in-out"): power_in_out(3),
    ("quart", "in"): lambda x: x ** 4,
    ("quart", "out"): lambda x: 1 - (1 - x) ** 4,
    ("quart", "in-out"): power_in_out(4),
    ("quint", "in"): lambda x: x ** 5,
    ("quint", "out"): lambda x: 1 - (1 - x) ** 5,
    ("quint", "in-out"): power_in_out(5),
    ("sine", "in"): lambda x: 1 - mpmath.cos(x * mpmath.pi / 2),
    ("sine", "out"): lambda x: mpmath.sin(x * mpmath.pi / 2),
    ("sine", "in-out"): lambda x: -(mpmath.cos(mpmath.pi * x) - 1) / 2,
    ("expo", "in"): lambda x: mpf(0) if x == 0 else mpf(2) ** (10 * x - 10),
    ("expo", "out"): lambda x: mpf(1) if x == 1 else 1 - mpf(2) ** (-10 * x),
    ("expo", "in-out"): lambda x: (
        mpf(0) if x == 0 else mpf(1) if x == 1
        else mpf(2) ** (20 * x - 10) / 2 if x < mpf("0.5")
        else (2 - mpf(2) ** (-20 * x + 10)) / 2),
    ("circ", "in"): lambda x: 1 - mpmath.sqrt(1 - x ** 2),
    ("circ", "out"): lambda x: mpmath.sqrt(1 - (x - 1) ** 2),
    ("circ", "in-out"): lambda x: (
        (1 - mpmath.sqrt(1 - (2 * x) ** 2)) / 2 if x < mpf("0.5")
        else (mpmath.sqrt(1 - (-2 * x + 2) ** 2) + 1) / 2),
    ("back", "in"): lambda x: C3 * x ** 3 - C1 * x ** 2,
    ("back", "out"): lambda x: 1 + C3 * (x - 1) ** 3 + C1 * (x - 1) ** 2,
    ("back", "in-out"): lambda x: (
        ((2 * x) ** 2 * ((C2 + 1) * 2 * x - C2)) / 2 if x < mpf("0.5")
        else ((2 * x - 2) ** 2 * ((C2 + 1) * (x * 2 - 2) + C2) + 2) / 2),
    ("elastic", "in"): lambda x: (
        mpf(0) if x == 0 else mpf(1) if x == 1
        else -mpf(2) ** (10 * x - 10) * mpmath.sin((x * 10 - mpf("10.75")) * C4)),
    ("elastic", "out"): lambda x: (
        mpf(0) if x == 0 else mpf(1) if x == 1
        else mpf(2) ** (-10 * x) * mpmath.sin((x * 10 - mpf("0.75")) * C4) + 1),
    ("elastic", "in-out"): lambda x: (
        mpf(0) if x == 0 else mpf(1) if x == 1
        else -(mpf(2) ** (20 * x - 10) * mpmath.sin((20 * x - mpf("11.125")) * C5)) / 2 if x < mpf("0.5")
        else (mpf(2) ** (-20 * x + 10) * mpmath.sin((20 * x - mpf("11.125")) * C5)) / 2 + 1),
    ("bounce", "in"): lambda x: 1 - bounce_out(1 - x),
    ("bounce", "out"): bounce_out,
    ("bounce", "in-out"): lambda x: (
        (1 - bounce_out(1 - 2 * x)) / 2 if x < mpf("0.5")
        else (1 + bounce_out(2 * x - 1)) / 2),
}

PENNER_CURVES = ["quad", "cubic", "quart", "quint", "sine", "expo", "circ", "back", "elastic", "bounce"]
PENNER_MODES = ["in", "out", "in-out"]
# Curves whose published formula is defined for every real input; the others
# (circ: a square root, bounce: piecewise on [0, 1]) are only sampled on [0, 1].
PENNER_ON_REALS = {"quad", "cubic", "quart", "quint", "sine", "expo", "back", "elastic"}


def penner(curve, mode):
    formula = PENNER[(curve, mode)]
    return lambda p: formula(mpf(p))


# --- sample points ----------------------------------------------------------

GRID = [k / 10 for k in range(11)]            # 0, 0.1, ..., 1 as doubles
EXTRA = [0.25, 0.75, 1 / 3, 2 / 3, 0.05, 0.95, 0.499, 0.501]
OUTSIDE = [-0.5, -0.25, -0.01, 1.01, 1.25, 1.5]


def points(extra=(), outside=False):
    ps = GRID + EXTRA + list(extra) + (OUTSIDE if outside else [])
    seen, out = set(), []
    for p in ps:
        if p not in seen:
            seen.add(p)
            out.append(p)
    return out


def fmt_value(v):
    if isinstance(v, Fraction):
        v = v.numerator / v.denominator if v.denominator != 0 else float("nan")
        return "%.17g" % v
    return "%.17g" % float(v)


def fmt_number(x):
    # The spelling the Swift side prints: integers without ".0".
    if x == int(x):
        return str(int(x))
    return repr(float(x))


def bezier_spelling(x1, y1, x2, y2):
    return "cubic-bezier(%s)" % ", ".join(fmt_number(v) for v in (x1, y1, x2, y2))


def main():
    entries = []   # (spelling, [(p, value)], [comment lines])

    def add(spelling, f, pts, exact=None):
        rows, notes = [], []
        for p in pts:
            value = f(p)
            rows.append((p, value))
            if exact is not None:
                e = exact(p)
                if e != value:
                    notes.append(
                        "# note: %s at %r: the double product p*steps gives %s; the exact product of the "
                        "double input would give %s" % (spelling, p, fmt_value(value), fmt_value(e)))
        entries.append((spelling, rows, notes))

    # linear
    add("linear", lambda p: mpf(p), points(outside=True))

    # the talk's curves
    for spelling, f in [
        ("ease-in", talk_in(2)), ("ease-in(3)", talk_in(3)), ("ease-in(0.5)", talk_in(0.5)),
        ("ease-out", talk_out(2)), ("ease-out(1.5)", talk_out(1.5)), ("ease-out(3)", talk_out(3)),
        ("ease-out(0.5)", talk_out(0.5)),
    ]:
        add(spelling, f, points())
    for spelling, f in [
        ("ease-in-out", talk_in_out(1)), ("ease-in-out(3)", talk_in_out(3)),
        ("ease-in-out(0.25)", talk_in_out(0.25)), ("ease-in-out(400)", talk_in_out(400)),
    ]:
        add(spelling, f, points(extra=[0.4, 0.45, 0.01, 0.99], outside=True))

    # CSS cubic-bezier: keywords, hand-picked curves, and a seeded random set
    beziers = [
        (0.1, 0.7, 1, 0.1), (0.25, 0.1, 0.25, 1), (0.3, 0, 0.7, 1), (0.5, -0.5, 0.5, 1.5),
        (0.2, 1.4, 0.8, 1), (0.68, -0.6, 0.32, 1.6), (0, 0, 1, 1), (1, 0, 0, 1), (0, 1, 1, 0),
        (0, 0.5, 0.5, 1), (0.5, 0, 1, 0.5), (0, 0, 0, 0), (1, 1, 1, 1), (0, 1.5, 1, -0.5),
        (0.34, 1.56, 0.64, 1), (1, -1, 0, 2), (0.01, 0, 0.99, 1), (0.42, 0, 0.58, 1),
    ]
    for name, (x1, y1, x2, y2) in CSS_KEYWORDS.items():
        add(name, css_cubic_bezier(x1, y1, x2, y2), points(outside=True))
    rng = random.Random(20240611)
    for _ in range(24):
        x1, x2 = round(rng.uniform(0, 1), 2), round(rng.uniform(0, 1), 2)
        y1, y2 = round(rng.uniform(-1, 2), 2), round(rng.uniform(-1, 2), 2)
        beziers.append((x1, y1, x2, y2))
    for params in beziers:
        spelling = bezier_spelling(*params)
        # ...plus points where the curve can be steepest: next to the ends (a flat
        # end of x(t) when x1 = 0 or x2 = 1) and next to the middle (where x(t)
        # is flat for cubic-bezier(1, y1, 0, y2)).
        extra = [0.123, 0.877, 0.001, 0.999, 1e-14, 5e-15, 1e-10, 1 - 1e-15, 1 - 1e-10,
                 0.5000000000000001, 0.4999999999999999, 0.5 + 1e-13]
        add(spelling, css_cubic_bezier(*params), points(extra=extra, outside=True))

    # CSS steps
    step_cases = [
        ("steps(4)", 4, "jump-end"), ("steps(4, jump-start)", 4, "jump-start"),
        ("steps(4, jump-none)", 4, "jump-none"), ("steps(4, jump-both)", 4, "jump-both"),
        ("steps(4, end)", 4, "end"), ("steps(3, start)", 3, "start"),
        ("steps(3, jump-none)", 3, "jump-none"), ("steps(2, jump-none)", 2, "jump-none"),
        ("steps(5, jump-both)", 5, "jump-both"), ("steps(10)", 10, "jump-end"),
        ("step-start", 1, "start"), ("step-end", 1, "end"),
        ("steps(1, jump-both)", 1, "jump-both"),
    ]
    for spelling, n, position in step_cases:
        jumps_at = [k / n for k in range(n + 1)]
        near = []
        for j in jumps_at:
            near += [j - 1e-9, j + 1e-9]
        f = css_steps(n, position)
        add(spelling, f, points(extra=jumps_at + near + [-1.0, 2.0], outside=True), exact=f.exact)

    # Penner
    for curve in PENNER_CURVES:
        for mode in PENNER_MODES:
            spelling = "ease-%s-%s" % (mode, curve)
            add(spelling, penner(curve, mode), points(outside=curve in PENNER_ON_REALS))

    here = os.path.dirname(os.path.abspath(__file__))
    header = [
        "# easings.golden: expected values of every animc easing family.",
        "# Generated by make_easing_golden.py (an independent implementation from the",
        "# published definitions: the talk's formulas, CSS Easing Functions Level 1,",
        "# easings.net); do not edit by hand.",
        "#",
        "# Format: one sample per line,  SPELLING | P | VALUE",
        "#   SPELLING  the easing as written in an .anim file",
        "#   P         the input progress (shortest decimal of the IEEE double)",
        "#   VALUE     the expected output, 17 significant digits",
        "# Lines starting with '#' are comments; blank lines are ignored.",
    ]
    lines = header[:]
    for spelling, rows, notes in entries:
        lines.append("")
        lines.extend(notes)
        for p, value in rows:
            lines.append("%s | %r | %s" % (spelling, p, fmt_value(value)))
    with open(os.path.join(here, "easings.golden"), "w") as out:
        out.write("\n".join(lines) + "\n")
    print("wrote %d samples of %d easings" % (sum(len(r) for _, r, _ in entries), len(entries)))


if __name__ == "__main__":
    main()
