// math_polygamma.glsl.h -- digamma and trigamma (polygamma(0, x) and polygamma(1, x)) in double precision, in
// the GLSL/C++ common subset of shared/math.glsl.h (its RULES apply), with the double-double helpers of
// shared/math_special.glsl.h, which is included before this file (src/shared/math.hpp,
// src/vulkan/kernels/lib/math.glsl).
//
// Own algorithms: the recurrences and asymptotic series of both functions (Bernoulli numbers), reflection for
// x < 0, and near digamma's positive root x0 = 1.4616... its Taylor series there, whose coefficients psi^(k)(x0)/k!
// were computed with mpmath at 60 digits and rounded to double (the first four as hi + lo). Each result is built
// as a double-double and rounded once; the measured bounds are stated at each function and checked by
// tests/shared/math_special_test.cpp.

#ifndef NXV_MATH_POLYGAMMA_GLSL_H
#define NXV_MATH_POLYGAMMA_GLSL_H

const double nxv_digamma_root_c[42] = {
    9.67672245447621204e-01lf, -4.42763168983592081e-01lf, 2.58499760955651026e-01lf,
    -1.63942705442406522e-01lf, 1.07824050691262371e-01lf, -7.21995612564547140e-02lf,
    4.88042881641431101e-02lf, -3.31611264748473619e-02lf, 2.25976482322181038e-02lf,
    -1.54247659049489595e-02lf, 1.05387916166121750e-02lf, -7.20453438635686866e-03lf,
    4.92678139572985327e-03lf, -3.36980165543932821e-03lf, 2.30512632673492797e-03lf,
    -1.57693677143019720e-03lf, 1.07882520191629667e-03lf, -7.38070938996005150e-04lf,
    5.04953265834601987e-04lf, -3.45468025106307692e-04lf, 2.36356015640270530e-04lf,
    -1.61706220919748030e-04lf, 1.10633727687474103e-04lf, -7.56917958219506607e-05lf,
    5.17857579522208093e-05lf, -3.54300709476596036e-05lf, 2.42400661186013184e-05lf,
    -1.65842422718541346e-05lf, 1.13463845846638497e-05lf, -7.76281766846209433e-06lf,
    5.31106092088986356e-06lf, -3.63365078980104556e-06lf, 2.48602273312953779e-06lf,
    -1.70085388543326074e-06lf, 1.16366753635488430e-06lf, -7.96142543124196994e-07lf,
    5.44694193066944566e-07lf, -3.72661612834382273e-07lf, 2.54962655202155422e-07lf,
    -1.74436951177277454e-07lf, 1.19343948298302435e-07lf, -8.16511518948840879e-08lf};

const double nxv_digamma_root_lo[4] = {
    -3.38787430303894277e-17lf, -2.46859682588087983e-17lf, -1.50046082237734985e-17lf,
    -5.29489812256363448e-18lf};


// ----------------------------------- digamma -----------------------------------
// digamma(x0 + th + tl) for |th| <= 0.54 (x in [1, 2)) as hi + lo; the series starts at t^1, so it is exact in
// relative terms at the root.
NXV_FUNC nxv_dd_t nxv_digamma_root_dd(double th, double tl) {
    nxv_dd_t t = nxv_two_sum(th, tl);
    NXV_PRECISE double acc = nxv_digamma_root_c[41];
    for (int k = 40; k >= 4; k--) acc = acc * t.hi + nxv_digamma_root_c[k];
    nxv_dd_t s = nxv_dd(acc, 0.0lf);
    for (int k = 3; k >= 0; k--)
        s = nxv_dd_add(nxv_dd_mul_d(s, t.hi), nxv_dd(nxv_digamma_root_c[k], nxv_digamma_root_lo[k]));
    return nxv_dd_mul(s, t);
}

// digamma(x) for 10 <= x < 2^52: log x - 1/(2x) - sum_{k=1}^{9} B_2k / (2k x^2k), log and 1/(2x) in
// double-double (the next term is < 2^-62 of the result at x = 10).
NXV_FUNC nxv_dd_t nxv_digamma_big_dd(double x) {
    nxv_dd_t l = nxv_log_dd(x);
    nxv_dd_t q = nxv_dd_recip(x);
    NXV_PRECISE double z2 = q.hi * q.hi;
    NXV_PRECISE double s = 3.05395433027011975e+00lf;
    s = -4.43259803921568607e-01lf + z2 * s;
    s = 8.33333333333333287e-02lf + z2 * s;
    s = -2.10927960927960942e-02lf + z2 * s;
    s = 7.57575757575757597e-03lf + z2 * s;
    s = -4.16666666666666661e-03lf + z2 * s;
    s = 3.96825396825396803e-03lf + z2 * s;
    s = -8.33333333333333322e-03lf + z2 * s;
    s = 8.33333333333333287e-02lf + z2 * s;
    s = s * z2;
    NXV_PRECISE double hh = -0.5lf * q.hi;
    NXV_PRECISE double hl = -0.5lf * q.lo;
    nxv_dd_t r = nxv_dd_add(l, nxv_dd(hh, hl));
    return nxv_dd_add(r, nxv_dd(-s, 0.0lf));
}

// digamma(x) for -2^-8 < x < 10, |x| >= 2^-896, as hi + lo: below 1, digamma(x + 1) - 1/x (x + 1 - x0 kept
// exact as hi + lo); from 2 down to [1, 2) by digamma(x) = digamma(x - 1) + 1/(x - 1), each x - k exact and
// each 1/(x - k) as hi + lo.
NXV_FUNC nxv_dd_t nxv_digamma_pos_dd(double x) {
    const double x0_hi = 1.46163214496836225e+00lf;
    const double x0_lo = 9.54999542996569743e-17lf;
    if (x < 1.0lf) {
        NXV_PRECISE double one_minus_x0 = 1.0lf - x0_hi; /* exact */
        nxv_dd_t t = nxv_two_sum(x, one_minus_x0);
        NXV_PRECISE double tl = t.lo - x0_lo;
        return nxv_dd_add(nxv_digamma_root_dd(t.hi, tl), nxv_dd_neg(nxv_dd_recip(x)));
    }
    NXV_PRECISE double z = x;
    nxv_dd_t acc = nxv_dd(0.0lf, 0.0lf);
    while (z >= 2.0lf) {
        z = z - 1.0lf;
        acc = nxv_dd_add(acc, nxv_dd_recip(z));
    }
    NXV_PRECISE double th = z - x0_hi;
    NXV_PRECISE double tl = -x0_lo;
    return nxv_dd_add(nxv_digamma_root_dd(th, tl), acc);
}

// digamma(x) for -2^-8 < x < 2^52, |x| >= 2^-896, as hi + lo.
NXV_FUNC nxv_dd_t nxv_digamma_dd(double x) {
    if (x >= 10.0lf) return nxv_digamma_big_dd(x);
    return nxv_digamma_pos_dd(x);
}

// digamma(x) = Gamma'(x) / Gamma(x). NaN at its poles 0 and the negative integers (as JAX; scipy gives -+inf at
// +-0), at -inf and for NaN; +inf at +inf. Positive x (and -2^-8 < x < 0, by digamma(x + 1) - 1/x): the
// double-double sums above rounded once, within 1 ulp of the long double value (measured,
// NxvMathSpecial.Digamma: 0.62); from 2^52, log x - 1/(2x); below 2^-896, -1/x. Negative x: the reflection
// digamma(1 - x) - pi cot(pi x) in double-double (1 - x as hi + lo, cot from nxv_sin_pi_dd/nxv_cos_pi_dd); its
// error is absolute, within 2 ulp of the larger of the two terms (1.56 seen); near the negative roots the
// relative error is unbounded, as in every reflection-based digamma (scipy's, Boost's).
NXV_FUNC double nxv_digamma(double x) {
    const double pi_hi = 3.14159265358979312e+00lf;
    const double pi_lo = 1.22464679914735321e-16lf;
    if (nxv_isnan(x)) return nxv_quiet(x);
    if (x == nxv_inf()) return x;
    if (x <= 0.0lf && floor(x) == x) return nxv_nan(); /* also -inf and every x <= -2^52 */
    NXV_PRECISE double res;
    NXV_PRECISE double ax = nxv_fabs(x);
    if (x > 0.0lf || ax < 3.90625e-03lf) { /* x > -2^-8: digamma(x + 1) - 1/x, as for small positive x */
        if (ax < 1.8928834978668395e-270lf) { /* 2^-896: -1/x - gamma rounds to -1/x (nxv_dd_recip's limit) */
            NXV_PRECISE double q = 1.0lf / x;
            res = -q;
            return res;
        }
        if (x >= 4.503599627370496e+15lf) { /* 2^52 */
            nxv_dd_t l = nxv_log_dd(x);
            NXV_PRECISE double h = 0.5lf / x;
            res = l.hi + (l.lo - h);
            return res;
        }
        nxv_dd_t g = nxv_digamma_dd(x);
        res = g.hi + g.lo;
        return res;
    }
    nxv_dd_t w = nxv_two_sum(1.0lf, -x);
    nxv_dd_t g = nxv_digamma_dd(w.hi);
    NXV_PRECISE double iw = 1.0lf / w.hi;
    NXV_PRECISE double corr = w.lo * (iw + 0.5lf * iw * iw); /* w.lo digamma'(w.hi), digamma' ~ 1/w + 1/(2 w^2) */
    NXV_PRECISE double r = x - roundEven(x);
    nxv_dd_t cot = nxv_dd_div_dd(nxv_dd_mul(nxv_dd(pi_hi, pi_lo), nxv_cos_pi_dd(r)), nxv_sin_pi_dd(r));
    g = nxv_dd_add(g, nxv_dd(corr, 0.0lf));
    g = nxv_dd_add(g, nxv_dd_neg(cot));
    res = g.hi + g.lo;
    return res;
}

// ----------------------------------- trigamma -----------------------------------
// 1/(h + l)^2 as hi + lo for |l| <= ulp(h) and 2^-500 <= h <= 2^500.
NXV_FUNC nxv_dd_t nxv_inv_square_dd(double h, double l) {
    nxv_dd_t q = nxv_dd_recip(h);
    nxv_dd_t q2 = nxv_two_prod(q.hi, q.hi);
    NXV_PRECISE double c = q2.lo + (2.0lf * q.hi * q.lo - 2.0lf * q2.hi * (l / h));
    return nxv_fast_two_sum(q2.hi, c);
}

// trigamma(x) for 10 <= x < 2^900: 1/x + 1/(2x^2) + sum_{k=1}^{10} B_2k / x^(2k+1), the first two terms in
// double-double (the next is < 2^-60 of the result at x = 10).
NXV_FUNC nxv_dd_t nxv_trigamma_big_dd(double x) {
    nxv_dd_t q = nxv_dd_recip(x);
    NXV_PRECISE double z2 = q.hi * q.hi;
    NXV_PRECISE double s = -5.29124242424242425e+02lf;
    s = 5.49711779448621556e+01lf + z2 * s;
    s = -7.09215686274509771e+00lf + z2 * s;
    s = 1.16666666666666674e+00lf + z2 * s;
    s = -2.53113553113553102e-01lf + z2 * s;
    s = 7.57575757575757597e-02lf + z2 * s;
    s = -3.33333333333333329e-02lf + z2 * s;
    s = 2.38095238095238082e-02lf + z2 * s;
    s = -3.33333333333333329e-02lf + z2 * s;
    s = 1.66666666666666657e-01lf + z2 * s;
    s = s * z2 * q.hi;
    nxv_dd_t h = nxv_two_prod(q.hi, q.hi);
    NXV_PRECISE double hh = 0.5lf * h.hi;
    NXV_PRECISE double hl = 0.5lf * h.lo + q.hi * q.lo;
    nxv_dd_t r = nxv_dd_add(q, nxv_dd(hh, hl));
    return nxv_dd_add(r, nxv_dd(s, 0.0lf));
}

// trigamma(x) for -1 < x < 10, |x| >= 2^-500: the sum of 1/(x + k)^2 up to x + n >= 10, then the series there, with
// x + k carried as hi + lo so that every term is exact to ~2^-100 (all terms are positive: no cancellation).
NXV_FUNC nxv_dd_t nxv_trigamma_pos_dd(double x) {
    NXV_PRECISE double zh = x;
    NXV_PRECISE double zl = 0.0lf;
    nxv_dd_t acc = nxv_dd(0.0lf, 0.0lf);
    while (zh < 10.0lf) {
        acc = nxv_dd_add(acc, nxv_inv_square_dd(zh, zl));
        nxv_dd_t s = nxv_two_sum(zh, 1.0lf);
        NXV_PRECISE double l = s.lo + zl;
        nxv_dd_t z = nxv_fast_two_sum(s.hi, l);
        zh = z.hi;
        zl = z.lo;
    }
    nxv_dd_t b = nxv_trigamma_big_dd(zh);
    NXV_PRECISE double iz = 1.0lf / zh;
    NXV_PRECISE double corr = -zl * (iz * iz) * (1.0lf + iz); /* zl trigamma'(zh), trigamma' ~ -1/z^2 - 1/z^3 */
    return nxv_dd_add(acc, nxv_dd_add(b, nxv_dd(corr, 0.0lf)));
}

NXV_FUNC nxv_dd_t nxv_trigamma_dd(double x) {
    if (x >= 10.0lf) return nxv_trigamma_big_dd(x);
    return nxv_trigamma_pos_dd(x);
}

// trigamma(x) = digamma'(x) = sum_{k>=0} 1/(x + k)^2 (polygamma(1, x)). +inf at its poles 0 and the negative
// integers (the limit from both sides, as scipy and JAX), NaN at -inf and for NaN, +0 at +inf. Positive x: the
// double-double sums rounded once, within 1 ulp of the long double value (measured, NxvMathSpecial.Trigamma:
// 0.51); from 2^900 1/x, below 2^-500 1/x^2 (scaled by 2^100 to stay in nxv_inv_square_dd's range). Above -1
// the same sum (all its terms are positive). Below -1 the reflection pi^2 / sin^2(pi x) - trigamma(1 - x) in
// double-double (the first term is at least pi^2, the second at most pi^2/6: no cancellation), within 1 ulp
// too (0.50).
NXV_FUNC double nxv_trigamma(double x) {
    const double pi2_hi = 9.86960440108935799e+00lf;
    const double pi2_lo = 6.26529550873971137e-16lf;
    if (nxv_isnan(x)) return nxv_quiet(x);
    if (x == nxv_inf()) return 0.0lf;
    if (x == -nxv_inf()) return nxv_nan();
    if (x <= 0.0lf && floor(x) == x) return nxv_inf();
    NXV_PRECISE double res;
    NXV_PRECISE double ax = nxv_fabs(x);
    if (x > -1.0lf) { /* above -1 the sum of 1/(x + k)^2 directly: every term is positive */
        if (ax < 3.0549363634996047e-151lf) { /* 2^-500 */
            if (ax < 7.458340731200207e-155lf) return nxv_inf(); /* 2^-512: 1/x^2 > 2^1024 */
            NXV_PRECISE double xs = ax * 1.2676506002282294e+30lf; /* 2^100, exact */
            nxv_dd_t d = nxv_inv_square_dd(xs, 0.0lf);
            res = (d.hi + d.lo) * 1.6069380442589903e+60lf; /* 2^200 */
            return res;
        }
        if (x >= 8.452712498170644e+270lf) { /* 2^900 */
            res = 1.0lf / x;
            return res;
        }
        nxv_dd_t g = nxv_trigamma_dd(x);
        res = g.hi + g.lo;
        return res;
    }
    NXV_PRECISE double r = x - roundEven(x);
    nxv_dd_t s = nxv_sin_pi_dd(r);
    nxv_dd_t a = nxv_dd_div_dd(nxv_dd(pi2_hi, pi2_lo), nxv_dd_mul(s, s));
    nxv_dd_t w = nxv_two_sum(1.0lf, -x);
    nxv_dd_t b = nxv_trigamma_dd(w.hi);
    NXV_PRECISE double iw = 1.0lf / w.hi;
    NXV_PRECISE double corr = w.lo * (iw * iw) * (1.0lf + iw);
    nxv_dd_t g = nxv_dd_add(a, nxv_dd_neg(b));
    g = nxv_dd_add(g, nxv_dd(corr, 0.0lf));
    res = g.hi + g.lo;
    return res;
}

NXV_FUNC float nxv_digammaf(float x) { return float(nxv_digamma(double(x))); }
NXV_FUNC float nxv_trigammaf(float x) { return float(nxv_trigamma(double(x))); }

#endif
