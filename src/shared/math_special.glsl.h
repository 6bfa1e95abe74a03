// math_special.glsl.h -- erf_inv and lgamma in double precision, and the double-double helpers of the special
// functions (shared/math_polygamma.glsl.h adds digamma and trigamma), in the same GLSL/C++ common subset as
// shared/math.glsl.h (whose RULES this file follows and whose helpers it uses: it is included right after it, by
// src/shared/math.hpp and src/vulkan/kernels/lib/math.glsl).
//
// Own algorithms (no fdlibm counterpart): series coefficients are Taylor coefficients computed with mpmath at
// 60 digits and rounded to double (a dd pair where the last Horner steps run in double-double):
//   lgamma(1 + t) = -gamma t + sum_{k>=2} (-1)^k zeta(k)/k t^k             (nxv_lgamma1_c, |t| <= 1/2)
//   lgamma(2 + t) = (1 - gamma) t + sum_{k>=2} (-1)^k (zeta(k) - 1)/k t^k   (nxv_lgamma2_c, |t| <= 1/2)
// Each function builds its result as a double-double and rounds it once; the bounds measured against long
// double oracles are stated at each function and checked by tests/shared/math_special_test.cpp.

#ifndef NXV_MATH_SPECIAL_GLSL_H
#define NXV_MATH_SPECIAL_GLSL_H

// ------------------------------ coefficient tables ------------------------------
const double nxv_lgamma1_c[57] = {
    -5.77215664901532866e-01lf, 8.22467033424113203e-01lf, -4.00685634386531431e-01lf,
    2.70580808427784536e-01lf, -2.07385551028673981e-01lf, 1.69557176997408188e-01lf,
    -1.44049896768846108e-01lf, 1.25509669524743045e-01lf, -1.11334265869564686e-01lf,
    1.00099457512781806e-01lf, -9.09540171458290414e-02lf, 8.33538405461090037e-02lf,
    -7.69325164113521948e-02lf, 7.14329462953613298e-02lf, -6.66687058824204648e-02lf,
    6.25009551412130382e-02lf, -5.88239786586845850e-02lf, 5.55557676274036141e-02lf,
    -5.26316793796166582e-02lf, 5.00000476981016934e-02lf, -4.76190703301422255e-02lf,
    4.54545562932046690e-02lf, -4.34782660530402612e-02lf, 4.16666691503412082e-02lf,
    -4.00000011921401374e-02lf, 3.84615390346751823e-02lf, -3.70370373129893238e-02lf,
    3.57142858473333547e-02lf, -3.44827586849193041e-02lf, 3.33333333643775834e-02lf,
    -3.22580645311504183e-02lf, 3.12500000072759715e-02lf, -3.03030303065580445e-02lf,
    2.94117647075943442e-02lf, -2.85714285722601102e-02lf, 2.77777777781819980e-02lf,
    -2.70270270272236733e-02lf, 2.63157894737799485e-02lf, -2.56410256410722834e-02lf,
    2.50000000000227367e-02lf, -2.43902439024501171e-02lf, 2.38095238095292240e-02lf,
    -2.32558139534910155e-02lf, 2.27272727272740185e-02lf, -2.22222222222228545e-02lf,
    2.17391304347829169e-02lf, -2.12765957446810032e-02lf, 2.08333333333334085e-02lf,
    -2.04081632653061590e-02lf, 2.00000000000000178e-02lf, -1.96078431372549121e-02lf,
    1.92307692307692353e-02lf, -1.88679245283018895e-02lf, 1.85185185185185210e-02lf,
    -1.81818181818181809e-02lf, 1.78571428571428562e-02lf, -1.75438596491228060e-02lf};

const double nxv_lgamma1_lo[4] = {
    4.94291515243064487e-18lf, 1.52033617519923808e-17lf, 2.25074704248750415e-18lf,
    1.18712801071384119e-17lf};

const double nxv_lgamma2_c[30] = {
    4.22784335098467134e-01lf, 3.22467033424113203e-01lf, -6.73523010531981020e-02lf,
    2.05808084277845464e-02lf, -7.38555102867398568e-03lf, 2.89051033074152336e-03lf,
    -1.19275391170326102e-03lf, 5.09669524743042450e-04lf, -2.23154758453579386e-04lf,
    9.94575127818085310e-05lf, -4.49262367381331420e-05lf, 2.05072127756706911e-05lf,
    -9.43948827526839672e-06lf, 4.37486678990748817e-06lf, -2.03921575380136619e-06lf,
    9.55141213040741935e-07lf, -4.49246919876456619e-07lf, 2.12071848055546646e-07lf,
    -1.00432248239680991e-07lf, 4.76981016936398040e-08lf, -2.27110946089431635e-08lf,
    1.08386592148969546e-08lf, -5.18347504197004664e-09lf, 2.48367454380247848e-09lf,
    -1.19214014058609115e-09lf, 5.73136724167886225e-10lf, -2.75952288512423336e-10lf,
    1.33047643742444888e-10lf, -6.42296456383809960e-11lf, 3.10442477473222756e-11lf};

const double nxv_lgamma2_lo[4] = {
    4.94291515243064487e-18lf, 1.52033617519923808e-17lf, 6.87667631175898986e-18lf,
    1.46293925127756951e-18lf};

// ------------------------------ double-double helpers ------------------------------
NXV_FUNC nxv_dd_t nxv_dd_add(nxv_dd_t a, nxv_dd_t b) {
    nxv_dd_t s = nxv_two_sum(a.hi, b.hi);
    NXV_PRECISE double lo = s.lo + (a.lo + b.lo);
    return nxv_fast_two_sum(s.hi, lo);
}
NXV_FUNC nxv_dd_t nxv_dd_neg(nxv_dd_t a) { return nxv_dd(-a.hi, -a.lo); }
NXV_FUNC nxv_dd_t nxv_dd_mul_d(nxv_dd_t a, double b) {
    nxv_dd_t p = nxv_two_prod(a.hi, b);
    NXV_PRECISE double lo = p.lo + a.lo * b;
    return nxv_fast_two_sum(p.hi, lo);
}
NXV_FUNC nxv_dd_t nxv_dd_mul(nxv_dd_t a, nxv_dd_t b) {
    nxv_dd_t p = nxv_two_prod(a.hi, b.hi);
    NXV_PRECISE double lo = p.lo + (a.hi * b.lo + a.lo * b.hi);
    return nxv_fast_two_sum(p.hi, lo);
}
// 1/b as hi + lo (|b| in [2^-900, 2^900], where the product in nxv_two_prod cannot overflow)
NXV_FUNC nxv_dd_t nxv_dd_recip(double b) {
    NXV_PRECISE double q = 1.0lf / b;
    nxv_dd_t p = nxv_two_prod(q, b);
    NXV_PRECISE double r = ((1.0lf - p.hi) - p.lo) / b;
    return nxv_dd(q, r);
}
// log(x) as hi + lo for a normal x: nxv_log corrected by the residual x / exp(l) - 1, exp(l) from nxv_exp_dd
// (relative error ~2^-58), so the sum is within ~2^-58 max(1, |log x|). Past |log x| > 700 (nxv_exp_dd's
// domain) the plain log.
NXV_FUNC nxv_dd_t nxv_log_dd(double x) {
    NXV_PRECISE double l = nxv_log(x);
    if (l > 700.0lf || l < -700.0lf) return nxv_dd(l, 0.0lf);
    nxv_dd_t e = nxv_exp_dd(l);
    NXV_PRECISE double r = ((x - e.hi) - e.lo) / e.hi;
    return nxv_fast_two_sum(l, r);
}
// a / b as hi + lo (b.hi != 0)
NXV_FUNC nxv_dd_t nxv_dd_div_dd(nxv_dd_t a, nxv_dd_t b) {
    NXV_PRECISE double q1 = a.hi / b.hi;
    nxv_dd_t r = nxv_dd_add(a, nxv_dd_neg(nxv_dd_mul_d(b, q1)));
    NXV_PRECISE double q2 = r.hi / b.hi;
    return nxv_fast_two_sum(q1, q2);
}

// sin(pi a) and cos(pi a) for 0 <= a <= 1/4 as hi + lo: their Taylor series in z = a^2 (to z^10 and z^11, whose
// next terms are below 2^-70 of the sum), the last three Horner steps in double-double. Used by the reflection
// formulas, whose error the plain nxv_sin of a rounded pi x (~1 ulp) would dominate.
const double nxv_sinpi_c[11] = {
    3.14159265358979312e+00lf, -5.16771278004997026e+00lf, 2.55016403987734552e+00lf, -5.99264529320792105e-01lf,
    8.21458866111282326e-02lf, -7.37043094571435044e-03lf, 4.66302805767612554e-04lf, -2.19153534478302173e-05lf,
    7.95205400147551261e-07lf, -2.29484289972698730e-08lf, 5.39266466260812895e-10lf};
const double nxv_sinpi_lo[3] = {1.22464679914735321e-16lf, 2.26656228257894474e-16lf, -7.93100634532655596e-17lf};
const double nxv_cospi_c[12] = {
    1.00000000000000000e+00lf, -4.93480220054467900e+00lf, 4.05871212641676848e+00lf, -1.33526276885458950e+00lf,
    2.35330630358893206e-01lf, -2.58068913900140612e-02lf, 1.92957430940392314e-03lf, -1.04638104924845705e-04lf,
    4.30306958703294729e-06lf, -1.38789524622137714e-07lf, 3.60473079746250112e-09lf, -7.70070713060135385e-11lf};
const double nxv_cospi_lo[3] = {0.0lf, -3.13264775436985568e-16lf, -2.66020008242986455e-16lf};
NXV_FUNC nxv_dd_t nxv_sinpi_poly(double a) {
    nxv_dd_t z = nxv_two_prod(a, a);
    NXV_PRECISE double acc = nxv_sinpi_c[10];
    for (int k = 9; k >= 3; k--) acc = acc * z.hi + nxv_sinpi_c[k];
    nxv_dd_t s = nxv_dd(acc, 0.0lf);
    for (int k = 2; k >= 0; k--) s = nxv_dd_add(nxv_dd_mul(s, z), nxv_dd(nxv_sinpi_c[k], nxv_sinpi_lo[k]));
    return nxv_dd_mul_d(s, a);
}
NXV_FUNC nxv_dd_t nxv_cospi_poly(double a) {
    nxv_dd_t z = nxv_two_prod(a, a);
    NXV_PRECISE double acc = nxv_cospi_c[11];
    for (int k = 10; k >= 3; k--) acc = acc * z.hi + nxv_cospi_c[k];
    nxv_dd_t s = nxv_dd(acc, 0.0lf);
    for (int k = 2; k >= 0; k--) s = nxv_dd_add(nxv_dd_mul(s, z), nxv_dd(nxv_cospi_c[k], nxv_cospi_lo[k]));
    return s;
}
// sin(pi r) and cos(pi r) for |r| <= 1/2 (r = x - roundEven(x), exact), through sin(pi a) = cos(pi (1/2 - a))
// above a = 1/4 (1/2 - a exact).
NXV_FUNC nxv_dd_t nxv_sin_pi_dd(double r) {
    NXV_PRECISE double a = nxv_fabs(r);
    NXV_PRECISE double b = 0.5lf - a;
    nxv_dd_t v;
    if (a <= 0.25lf)
        v = nxv_sinpi_poly(a);
    else
        v = nxv_cospi_poly(b);
    if (r < 0.0lf) v = nxv_dd_neg(v);
    return v;
}
NXV_FUNC nxv_dd_t nxv_cos_pi_dd(double r) {
    NXV_PRECISE double a = nxv_fabs(r);
    NXV_PRECISE double b = 0.5lf - a;
    if (a <= 0.25lf) return nxv_cospi_poly(a);
    return nxv_sinpi_poly(b);
}

// ----------------------------------- erf_inv -----------------------------------
// The Newton correction d (the next iterate is y - d) for erf(y) = ax at y >= 0. Below 1.25 the step on
// erf(y) - ax, whose residual is accurate to a small fraction of ulp(ax): below 0.84375 erf(y) = y + y s
// (nxv_erf_small) with y s exact as hi + lo and y - ax exact (Sterbenz: ax/y is in [0.9, 1.13]); up to 1.25
// erf(y) = erx + P/Q with erx - ax exact. Beyond, the step on log(erfc(y)) = log(1 - ax) (1 - ax exact): erfc
// falls like exp(-y^2), where the plain step from below advances by only ~1/(2y); in log space it converges
// quadratically from either side, and log(erfc(y) / (1 - ax)) is exact to an ulp of its (small) value.
NXV_FUNC double nxv_erf_inv_step(double y, double ax) {
    const double erx = 8.45062911510467529297e-01lf; /* 0x3FEB0AC1, 0x60000000 */
    const double sqrtpi_2 = 8.86226925452758052e-01lf;
    NXV_PRECISE double yy = y * y;
    NXV_PRECISE double ey = nxv_exp(yy);
    NXV_PRECISE double d;
    if (y < 0.84375lf) {
        NXV_PRECISE double s = nxv_erf_small(y);
        nxv_dd_t p = nxv_two_prod(y, s);
        NXV_PRECISE double r = ((y - ax) + p.hi) + p.lo;
        d = (r * sqrtpi_2) * ey;
    } else if (y < 1.25lf) {
        NXV_PRECISE double pq = nxv_erf_mid(y);
        NXV_PRECISE double r = (erx - ax) + pq;
        d = (r * sqrtpi_2) * ey;
    } else {
        NXV_PRECISE double c = 1.0lf - ax;
        NXV_PRECISE double e = nxv_erfc(y);
        NXV_PRECISE double q = e / c;
        NXV_PRECISE double g = nxv_log(q);
        d = -((g * e) * sqrtpi_2) * ey;
    }
    return d;
}

// erf_inv(x): erf(erf_inv(x)) = x on [-1, 1]; +-inf at +-1, NaN outside and for NaN. Below 2^-28 the first term
// sqrt(pi)/2 x of its series (the next is 2^-56 smaller). Otherwise a first guess from M. Giles' single-precision
// approximation ("Approximating the erfinv function", GPU Computing Gems, 2011; relative error ~1e-6 inside its
// range, 12% at 1 - 2^-53, where w = 36 is far past it) and four Newton steps (nxv_erf_inv_step; quadratic, the
// error e becomes ~y e^2: the worst guess needs all four, the others two). Error (measured,
// NxvMathSpecial.ErfInv): within 1 ulp of the long double value (0.98 seen); the f32 entry point rounds it once.
NXV_FUNC double nxv_erf_inv(double x) {
    const double sqrtpi_2 = 8.86226925452758052e-01lf;
    if (nxv_isnan(x)) return nxv_quiet(x);
    NXV_PRECISE double ax = nxv_fabs(x);
    if (ax > 1.0lf) return nxv_nan();
    if (ax == 1.0lf) return nxv_copysign(nxv_inf(), x);
    NXV_PRECISE double res;
    if ((nxv_hi(x) & 0x7fffffff) < 0x3e300000) { /* |x| < 2^-28 */
        res = x * sqrtpi_2;
        return res;
    }
    NXV_PRECISE double w;
    if (ax < 0.5lf) {
        NXV_PRECISE double m = -(ax * ax);
        w = -nxv_log1p(m);
    } else {
        NXV_PRECISE double m = (1.0lf - ax) * (1.0lf + ax);
        w = -nxv_log(m);
    }
    NXV_PRECISE double p;
    if (w < 5.0lf) {
        NXV_PRECISE double v = w - 2.5lf;
        p = 2.81022636e-08lf;
        p = 3.43273939e-07lf + p * v;
        p = -3.5233877e-06lf + p * v;
        p = -4.39150654e-06lf + p * v;
        p = 0.00021858087lf + p * v;
        p = -0.00125372503lf + p * v;
        p = -0.00417768164lf + p * v;
        p = 0.246640727lf + p * v;
        p = 1.50140941lf + p * v;
    } else {
        NXV_PRECISE double v = sqrt(w) - 3.0lf;
        p = -0.000200214257lf;
        p = 0.000100950558lf + p * v;
        p = 0.00134934322lf + p * v;
        p = -0.00367342844lf + p * v;
        p = 0.00573950773lf + p * v;
        p = -0.0076224613lf + p * v;
        p = 0.00943887047lf + p * v;
        p = 1.00167406lf + p * v;
        p = 2.83297682lf + p * v;
    }
    NXV_PRECISE double y = p * ax;
    for (int i = 0; i < 4; i++) {
        NXV_PRECISE double d = nxv_erf_inv_step(y, ax);
        y = y - d;
    }
    return nxv_copysign(y, x);
}

// ----------------------------------- lgamma -----------------------------------
// sum_k c_k t^k (k from 1) as hi + lo: Horner in double down to t^5, the last four steps in double-double.
NXV_FUNC nxv_dd_t nxv_lgamma1_series(double t) {
    NXV_PRECISE double acc = nxv_lgamma1_c[56];
    for (int k = 55; k >= 4; k--) acc = acc * t + nxv_lgamma1_c[k];
    nxv_dd_t s = nxv_dd(acc, 0.0lf);
    for (int k = 3; k >= 0; k--) s = nxv_dd_add(nxv_dd_mul_d(s, t), nxv_dd(nxv_lgamma1_c[k], nxv_lgamma1_lo[k]));
    return nxv_dd_mul_d(s, t);
}
NXV_FUNC nxv_dd_t nxv_lgamma2_series(double t) {
    NXV_PRECISE double acc = nxv_lgamma2_c[29];
    for (int k = 28; k >= 4; k--) acc = acc * t + nxv_lgamma2_c[k];
    nxv_dd_t s = nxv_dd(acc, 0.0lf);
    for (int k = 3; k >= 0; k--) s = nxv_dd_add(nxv_dd_mul_d(s, t), nxv_dd(nxv_lgamma2_c[k], nxv_lgamma2_lo[k]));
    return nxv_dd_mul_d(s, t);
}

// lgamma(x) as hi + lo for 2^-60 <= x < 2^58:
//   x < 1/2        lgamma(1 + x) - log(x), the series at 1 at t = x
//   [1/2, 3/2)     the series at 1, t = x - 1 (exact), which carries the zero at 1 in its factor t
//   [3/2, 5/2)     the series at 2, t = x - 2 (exact)
//   [5/2, 8)       lgamma(z) + log((x - 1)(x - 2)...z), z = x - n in [3/2, 5/2); each factor x - k is exact and
//                  their product is kept as hi + lo
//   [8, 2^58)      Stirling: (x - 1/2) log x - x + log(2 pi)/2 + sum_{k=1}^{11} B_2k / (2k (2k - 1) x^(2k-1)),
//                  the first terms in double-double (the series' next term is < 2^-61 of the result at x = 8)
NXV_FUNC nxv_dd_t nxv_lgamma_pos_dd(double x) {
    const double hl2pi_hi = 9.18938533204672781e-01lf;
    const double hl2pi_lo = -3.87829415806724145e-17lf;
    if (x < 0.5lf) return nxv_dd_add(nxv_lgamma1_series(x), nxv_dd_neg(nxv_log_dd(x)));
    if (x < 1.5lf) {
        NXV_PRECISE double t = x - 1.0lf;
        return nxv_lgamma1_series(t);
    }
    if (x < 8.0lf) {
        NXV_PRECISE double z = x;
        nxv_dd_t prod = nxv_dd(1.0lf, 0.0lf);
        while (z >= 2.5lf) {
            z = z - 1.0lf;
            prod = nxv_dd_mul_d(prod, z);
        }
        NXV_PRECISE double t = z - 2.0lf;
        nxv_dd_t s = nxv_lgamma2_series(t);
        if (x < 2.5lf) return s;
        nxv_dd_t l = nxv_log_dd(prod.hi);
        NXV_PRECISE double ll = l.lo + prod.lo / prod.hi;
        return nxv_dd_add(s, nxv_dd(l.hi, ll));
    }
    nxv_dd_t l = nxv_log_dd(x);
    nxv_dd_t xm = nxv_two_sum(x, -0.5lf);
    nxv_dd_t m = nxv_dd_add(nxv_dd_mul(l, xm), nxv_dd(-x, 0.0lf));
    m = nxv_dd_add(m, nxv_dd(hl2pi_hi, hl2pi_lo));
    NXV_PRECISE double z = 1.0lf / x;
    NXV_PRECISE double z2 = z * z;
    NXV_PRECISE double s = -1.56848284626002027e+02lf;
    s = 1.34028640441683926e+01lf + z2 * s;
    s = -1.39243221690590113e+00lf + z2 * s;
    s = 1.79644372368830574e-01lf + z2 * s;
    s = -2.95506535947712423e-02lf + z2 * s;
    s = 6.41025641025641003e-03lf + z2 * s;
    s = -1.91752691752691763e-03lf + z2 * s;
    s = 8.41750841750841714e-04lf + z2 * s;
    s = -5.95238095238095292e-04lf + z2 * s;
    s = 7.93650793650793650e-04lf + z2 * s;
    s = -2.77777777777777788e-03lf + z2 * s;
    s = 8.33333333333333287e-02lf + z2 * s;
    s = s * z;
    return nxv_dd_add(m, nxv_dd(s, 0.0lf));
}

// lgamma(x) = log|Gamma(x)| (as Nx, JAX and C's lgamma): +inf at 0, the negative integers and +-inf; NaN for NaN.
// Positive x: nxv_lgamma_pos_dd rounded once (measured, NxvMathSpecial.Lgamma: within 0.79 ulp of the long
// double lgammal, and 1 ulp of glibc but where glibc's own error, up to 1.7 ulp above x = 8, is the larger);
// below 2^-60, -log(x) (the next term, gamma x, is below 2^-65 of it); from 2^58, x (log x - 1) in dd.
// Negative x: the reflection lgamma(x) = log(pi) - log|sin(pi x)| - log|x| - lgamma(|x|), every term exact to
// ~2^-58 of its size (sin(pi x) from nxv_sin_pi_dd); the error is absolute: within 0.64 ulp of max(|lgamma(x)|,
// 1) (ibid.). Near the zeros of lgamma in (-28, -2), where glibc's lgamma_neg.c stays exact in relative terms,
// ours is not (2.6e3 ulp seen at -2.7477, the second zero).
NXV_FUNC double nxv_lgamma(double x) {
    const double logpi_hi = 1.14472988584940016e+00lf;
    const double logpi_lo = 1.02659511627078264e-17lf;
    if (nxv_isnan(x)) return nxv_quiet(x);
    NXV_PRECISE double ax = nxv_fabs(x);
    if (ax == nxv_inf()) return nxv_inf();
    if (x <= 0.0lf && floor(x) == x) return nxv_inf(); /* also every x <= -2^52 */
    NXV_PRECISE double res;
    if (ax < 8.67361737988403547e-19lf) { /* 2^-60 */
        NXV_PRECISE double l = nxv_log(ax);
        res = -l;
        return res;
    }
    if (x > 0.0lf) {
        if (x >= 2.8823037615171174e+17lf) { /* 2^58: x (log x - 1), in double-double at x 2^-64 */
            const double ln2_hi = 6.93147180559945286e-01lf;
            const double ln2_lo = 2.31904681384629956e-17lf;
            NXV_PRECISE double xs = x * 5.421010862427522e-20lf; /* 2^-64, exact */
            NXV_PRECISE double k_hi = 64.0lf * ln2_hi;
            NXV_PRECISE double k_lo = 64.0lf * ln2_lo;
            nxv_dd_t l = nxv_dd_add(nxv_log_dd(xs), nxv_dd(k_hi, k_lo));
            NXV_PRECISE double lm = l.hi - 1.0lf; /* exact: l.hi > 40 */
            nxv_dd_t p = nxv_two_prod(xs, lm);
            NXV_PRECISE double lo = p.lo + xs * l.lo;
            NXV_PRECISE double ps = p.hi + lo;
            res = ps * 1.8446744073709552e+19lf; /* 2^64: exact, or the overflow to +inf past x ~ 2.55e305 */
            return res;
        }
        nxv_dd_t g = nxv_lgamma_pos_dd(x);
        res = g.hi + g.lo;
        return res;
    }
    NXV_PRECISE double r = x - roundEven(x);
    nxv_dd_t s = nxv_sin_pi_dd(r);
    if (s.hi < 0.0lf) s = nxv_dd_neg(s);
    nxv_dd_t ls = nxv_log_dd(s.hi);
    NXV_PRECISE double lsl = ls.lo + s.lo / s.hi;
    nxv_dd_t acc = nxv_dd_add(nxv_dd(logpi_hi, logpi_lo), nxv_dd(-ls.hi, -lsl));
    acc = nxv_dd_add(acc, nxv_dd_neg(nxv_log_dd(ax)));
    acc = nxv_dd_add(acc, nxv_dd_neg(nxv_lgamma_pos_dd(ax)));
    res = acc.hi + acc.lo;
    return res;
}

NXV_FUNC float nxv_erf_invf(float x) { return float(nxv_erf_inv(double(x))); }
NXV_FUNC float nxv_lgammaf(float x) { return float(nxv_lgamma(double(x))); }

#endif
