#!/usr/bin/env python3
"""Writes springs.golden: reference values for animc's spring easings.

An independent implementation of semantics.md section 6.4, written from the
note's formulas (not from Sources/Animations/Easing.swift) and evaluated with
mpmath at 50 digits.

The spring
----------
    x'' + 2 zeta w x' + w^2 (x - 1) = 0,   x(0) = 0,   x'(0) = v

* zeta < 1: x(t) = 1 - e^(-zeta w t) (cos(wd t) + ((zeta w - v)/wd) sin(wd t)),
            wd = w sqrt(1 - zeta^2)
* zeta = 1: x(t) = 1 - e^(-w t) (1 + (w - v) t)
* zeta > 1: x(t) = 1 - (A e^(r1 t) + B e^(r2 t)), r1,2 = -w (zeta -+ sqrt(zeta^2 - 1)),
            A = (-v - r2)/(r1 - r2), B = 1 - A

Settling time T, epsilon = 0.001, found here by methods other than animc's:
* zeta < 1: the closed form T = ln(sqrt(1 + ((zeta w - v)/wd)^2) / epsilon) / (zeta w);
* zeta = 1: e^(-w t)(1 + c t) = epsilon with c = |w - v|, solved with Lambert's W:
            for c > 0, put y = -(w t + w/c); then y e^y = -(epsilon w / c) e^(-w/c),
            and the largest root is on the lower branch: t = (-W_{-1}(...) - w/c) / w;
            for c = 0, t = ln(1/epsilon) / w;
* zeta > 1: |A| e^(r1 t) + |B| e^(r2 t) = epsilon (a sum of two decreasing terms,
            so one root), with mpmath.findroot (Anderson's method) started from a
            bracket, then checked by sign.

The easing is E(p) = x(p T) for p < 1 and E(1) = 1; animc clamps p < 0 to 0
and p > 1 to 1 (grammar.md).

Parameters from a spelling (semantics.md section 6.4's table) are computed in
IEEE doubles, as a program reading the spelling does, and then taken exactly:
    spring, smooth spring   zeta = 1,    w = 1, v = 0
    snappy spring           zeta = 0.85, w = 1, v = 0
    bouncy spring           zeta = 0.7,  w = 1, v = 0
    spring(bounce B)        zeta = 1 - B (B >= 0), 1/(1 + B) (B < 0), w = 1, v = 0
    spring(stiffness K, damping C, mass M, velocity V), defaults 100, 10, 1, 0:
                            zeta = C / (2 sqrt(K M)), w = sqrt(K / M), v = V

Golden file format
------------------
    SPELLING | ZETA | OMEGA | V | P | VALUE
ZETA, OMEGA, V are the spring's parameters (shortest decimals of the doubles);
P is a progress with VALUE = E(P), or the letter T with VALUE the settling time
in seconds. VALUE has 17 significant digits. '#' starts a comment line.

Run:  python3 make_spring_golden.py   (rewrites springs.golden next to it)
"""

import math
import os

import mpmath
from mpmath import mpf

mpmath.mp.dps = 50
EPSILON = mpf("0.001")


def parameters(spelling):
    """(zeta, w, v) as doubles, from the spelling table of section 6.4."""
    presets = {"spring": 1.0, "smooth spring": 1.0, "snappy spring": 0.85, "bouncy spring": 0.7}
    if spelling in presets:
        return presets[spelling], 1.0, 0.0
    assert spelling.startswith("spring(") and spelling.endswith(")")
    given = {}
    for part in spelling[len("spring("):-1].split(","):
        name, value = part.split()
        given[name] = float(value)
    if "bounce" in given:
        b = given["bounce"]
        return (1 - b if b >= 0 else 1 / (1 + b)), 1.0, 0.0
    k = given.get("stiffness", 100.0)
    c = given.get("damping", 10.0)
    m = given.get("mass", 1.0)
    v = given.get("velocity", 0.0)
    return c / (2 * math.sqrt(k * m)), math.sqrt(k / m), v


class Spring:
    def __init__(self, zeta, w, v):
        self.zeta, self.w, self.v = mpf(zeta), mpf(w), mpf(v)
        z, w, v = self.zeta, self.w, self.v
        if z < 1:
            self.wd = w * mpmath.sqrt(1 - z * z)
        elif z > 1:
            root = mpmath.sqrt(z * z - 1)
            self.r1 = -w * (z - root)
            self.r2 = -w * (z + root)
            self.A = (-v - self.r2) / (self.r1 - self.r2)
            self.B = 1 - self.A
        self.T = self.settling_time()

    def x(self, t):
        z, w, v = self.zeta, self.w, self.v
        t = mpf(t)
        if z < 1:
            return 1 - mpmath.exp(-z * w * t) * (mpmath.cos(self.wd * t) + (z * w - v) / self.wd * mpmath.sin(self.wd * t))
        if z == 1:
            return 1 - mpmath.exp(-w * t) * (1 + (w - v) * t)
        return 1 - (self.A * mpmath.exp(self.r1 * t) + self.B * mpmath.exp(self.r2 * t))

    def envelope(self, t):
        z, w, v = self.zeta, self.w, self.v
        t = mpf(t)
        if z < 1:
            return mpmath.exp(-z * w * t) * mpmath.sqrt(1 + ((z * w - v) / self.wd) ** 2)
        if z == 1:
            return mpmath.exp(-w * t) * (1 + abs(w - v) * t)
        return abs(self.A) * mpmath.exp(self.r1 * t) + abs(self.B) * mpmath.exp(self.r2 * t)

    def settling_time(self):
        z, w, v = self.zeta, self.w, self.v
        if z < 1:
            return mpmath.log(mpmath.sqrt(1 + ((z * w - v) / self.wd) ** 2) / EPSILON) / (z * w)
        if z == 1:
            c = abs(w - v)
            if c == 0:
                return mpmath.log(1 / EPSILON) / w
            arg = -(EPSILON * w / c) * mpmath.exp(-w / c)
            y = mpmath.lambertw(arg, -1).real
            return (-y - w / c) / w
        # zeta > 1: bracket the one root, then Anderson's method.
        lo, hi = mpf(0), mpf(1)
        while self.envelope(hi) > EPSILON:
            lo, hi = hi, hi * 2
        t = mpmath.findroot(lambda t: self.envelope(t) - EPSILON, (lo, hi), solver="anderson")
        assert lo <= t <= hi
        return t

    def easing(self, p):
        p = mpf(p)
        if p <= 0:
            return mpf(0)
        if p >= 1:
            return mpf(1)
        return self.x(p * self.T)


SPELLINGS = [
    # the named springs
    "spring", "smooth spring", "snappy spring", "bouncy spring",
    # bounce: under-damped, critical, over-damped
    "spring(bounce 0.3)", "spring(bounce 0.5)", "spring(bounce 0.9)", "spring(bounce 0)",
    "spring(bounce -0.5)", "spring(bounce -0.9)",
    # physical: under-damped, critical, over-damped, with mass, with velocity
    "spring(stiffness 200, damping 10)", "spring(stiffness 200, damping 12)",
    "spring(stiffness 100, damping 20)", "spring(stiffness 100, damping 30)",
    "spring(stiffness 50, damping 5, mass 0.5)", "spring(velocity 5)",
    "spring(stiffness 100, damping 20, velocity -30)", "spring(stiffness 100, damping 20, velocity 10)",
    "spring(stiffness 1, damping 2, velocity 10)", "spring(stiffness 1, damping 4, velocity 3)",
    "spring(stiffness 1, damping 4, velocity -3)", "spring(stiffness 300, damping 1, mass 2)",
]

POINTS = [0.0, 0.01, 0.05, 0.1, 0.2, 0.25, 0.3, 0.4, 0.5, 0.6, 0.7, 0.75, 0.8, 0.9, 0.95, 0.99, 0.999,
          1 - 2 ** -52, 1.0, -0.5, 1.5]


def main():
    lines = [
        "# springs.golden: expected settling times and values of animc's springs.",
        "# Generated by make_spring_golden.py (an independent implementation of",
        "# semantics.md section 6.4 in mpmath, 50 digits); do not edit by hand.",
        "#",
        "# Format:  SPELLING | ZETA | OMEGA | V | P | VALUE",
        "#   P is a progress and VALUE = E(P), or P is T and VALUE the settling time in seconds.",
    ]
    for spelling in SPELLINGS:
        zeta, w, v = parameters(spelling)
        spring = Spring(zeta, w, v)
        head = "%s | %r | %r | %r" % (spelling, zeta, w, v)
        lines.append("")
        lines.append("%s | T | %s" % (head, mpmath.nstr(spring.T, 17, min_fixed=-30, max_fixed=30)))
        for p in POINTS:
            lines.append("%s | %r | %.17g" % (head, p, float(spring.easing(p))))
    here = os.path.dirname(os.path.abspath(__file__))
    with open(os.path.join(here, "springs.golden"), "w") as out:
        out.write("\n".join(lines) + "\n")
    print("wrote %d springs" % len(SPELLINGS))


if __name__ == "__main__":
    main()
