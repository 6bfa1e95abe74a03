#!/usr/bin/env python3
"""Prints the constant tables of lgamma's negative-axis path in src/shared/math_special.glsl.h.

    python3 scripts/lgamma_tables.py   # Debian's python3-mpmath (1.3.0 when written); paste the output there

nxv_lgamma_zero: for i = 0..ZEROS-1 the zero x0 of lgamma in [-(i+5)/2, -(i+4)/2) (one per half-integer
interval: |Gamma| falls below 1 in every (-n-1, -n) from n = 2, and lgamma has no zero above -2), stored as
t0 = x0 + n (n the integer nearest x0) in three doubles hi + mid + lo: the distance of a double x to the zero must
be known to ~2^-60 of itself even for the doubles closest to it, which can lie within 2^-20 ulp of it, and a
double-double t0 is only exact to ~2^-55 ulp.
nxv_lgamma1_lo: the low parts of the first 8 coefficients of the series at 1 (nxv_lgamma1_c, whose high parts
this checks), c_k = (-1)^k zeta(k)/k (c_1 = -gamma), used where the slope of that series runs in double-double.
nxv_atanh_c: 1/(2j+5), the series (atanh(s) - s - s^3/3) / s^5 = sum_j s^(2j)/(2j+5), used by nxv_log1p_dd.
"""
import pathlib
import re

import mpmath as mp

mp.mp.dps = 80
ZEROS = 31  # the zeros above -17.5: below, no double comes near one (tests/shared/math_special_test.cpp)
ATANH_TERMS = 11  # |s| <= 0.172 in nxv_log1p_dd: the first term left out, s^25/27, is below 2^-65 s
ROOT = pathlib.Path(__file__).resolve().parent.parent


def lgamma_abs(x):
    return mp.log(abs(mp.gamma(x)))


def zero(i):
    """t0 = x0 + n for the zero x0 in [-(i+5)/2, -(i+4)/2): bisection on the sign, in t near the pole."""
    n = (i + 5) // 2
    side = -1 if i % 2 == 0 else 1  # t < 0 for even i
    near, far = side * mp.mpf(10) ** -70, side * mp.mpf(0.5)  # lgamma > 0 near the pole, < 0 at t = +-1/2
    assert lgamma_abs(-n + near) > 0 > lgamma_abs(-n + far)
    for _ in range(600):
        mid = mp.sqrt(near * far) * side if abs(far / near) > 4 else (near + far) / 2
        if lgamma_abs(-n + mid) > 0:
            near = mid
        else:
            far = mid
    return (near + far) / 2


def split(v, parts):
    out = []
    for _ in range(parts):
        out.append(float(v))
        v -= mp.mpf(out[-1])
    return out


def fmt(x):
    return f"{x:.17e}lf"


def table(name, values, per_line):
    lines = [f"const double {name}[{len(values)}] = {{"]
    for k in range(0, len(values), per_line):
        lines.append("    " + ", ".join(fmt(v) for v in values[k : k + per_line]) + ",")
    lines[-1] = lines[-1][:-1] + "};"
    return "\n".join(lines)


def check_series_at_1():
    """The high parts in math_special.glsl.h are the coefficients this computes (so the low parts pair with them)."""
    text = (ROOT / "src" / "shared" / "math_special.glsl.h").read_text()
    body = re.search(r"nxv_lgamma1_c\[\d+\] = \{(.*?)\};", text, re.S).group(1)
    stored = [float(s) for s in re.findall(r"[-+0-9.e]+(?=lf)", body)]
    for k, hi in enumerate(stored, start=1):
        c = -mp.euler if k == 1 else (-1) ** k * mp.zeta(k) / k
        assert hi == float(c), (k, hi, float(c))


def main():
    zeros = []
    for i in range(ZEROS):
        zeros += split(zero(i), 3)
    check_series_at_1()
    lo = []
    for k in range(1, 9):
        c = -mp.euler if k == 1 else (-1) ** k * mp.zeta(k) / k
        lo.append(split(c, 2)[1])
    atanh = [1 / mp.mpf(2 * j + 5) for j in range(ATANH_TERMS)]
    print(table("nxv_lgamma_zero", zeros, 3))
    print(table("nxv_lgamma1_lo", lo, 4))
    print(table("nxv_atanh_c", [float(a) for a in atanh], 4))


if __name__ == "__main__":
    main()
