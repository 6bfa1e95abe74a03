// math_special.glsl.h -- erf_inv and lgamma in double precision, and the double-double helpers of the special
// functions (shared/math_polygamma.glsl.h adds digamma and trigamma), in the same GLSL/C++ common subset as
// shared/math.glsl.h (whose RULES this file follows and whose helpers it uses: it is included right after it, by
// src/shared/math.hpp and src/vulkan/kernels/lib/math.glsl).
//
// Own algorithms (no fdlibm counterpart): series coefficients are Taylor coefficients computed with mpmath at
// 60 digits and rounded to double (a dd pair where the last Horner steps run in double-double):
//   lgamma(1 + t) = -gamma t + sum_{k>=2} (-1)^k zeta(k)/k t^k             (nxv_lgamma1_c, |t| <= 1/2)
//   lgamma(2 + t) = (1 - gamma) t + sum_{k>=2} (-1)^k (zeta(k) - 1)/k t^k   (nxv_lgamma2_c, |t| <= 1/2)
// and lgamma's zeros in (-17.5, -2) (nxv_lgamma_zero) come from scripts/lgamma_tables.py (mpmath, 80 digits).
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

const double nxv_lgamma1_lo[8] = {
    4.94291515243064487e-18lf, 1.52033617519923808e-17lf, 2.25074704248750415e-18lf, 1.18712801071384119e-17lf,
    -4.09976732862181262e-18lf, 2.23938513301672378e-18lf, -9.62314008523255486e-18lf, -2.52146853846723048e-18lf};

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

// The zeros of lgamma on (-17.5, -2), one in each [-(i+5)/2, -(i+4)/2): t0 = x0 + n (n the integer nearest x0) as
// hi + mid + lo (three doubles, so that x - x0 stays exact to ~2^-60 of itself at the doubles nearest the zero),
// and the series (atanh(s) - s - s^3/3) / s^5 = sum_j s^(2j)/(2j+5) of nxv_log1p_dd; both from
// scripts/lgamma_tables.py.
const double nxv_lgamma_zero[93] = {
    -4.57024738220800641e-01lf, 1.84355404157445614e-17lf, -1.36226631217260046e-33lf,
    2.52317353272587419e-01lf, -2.04688991691324986e-17lf, 2.41273146147792135e-34lf,
    -1.43580888349980063e-01lf, 3.86280640171415184e-18lf, 3.08998380577634257e-34lf,
    4.47057151414020706e-02lf, 8.22397794258205323e-19lf, 4.57953711599992378e-35lf,
    -3.93618397405368775e-02lf, 3.27313792258916360e-18lf, -1.29468211265633039e-34lf,
    8.45535943995227683e-03lf, 8.23175195735003594e-19lf, -1.38661846812122281e-36lf,
    -8.21816832259352099e-03lf, -5.58266591595640544e-19lf, 1.44624488974700623e-35lf,
    1.39251991912437063e-03lf, -7.09044123064653098e-20lf, 5.34858082400899922e-36lf,
    -1.38529445315509724e-03lf, -2.62957318114460768e-20lf, 3.56547431666823602e-37lf,
    1.98492109362302102e-04lf, 6.26390997849217480e-21lf, -1.88630567973602928e-37lf,
    -1.98333407324751619e-04lf, 1.18205734015609627e-20lf, 6.39521842277465135e-37lf,
    2.48029041793358453e-05lf, 3.15397713595963002e-22lf, 4.31376610458873505e-39lf,
    -2.48002706819596987e-05lf, 1.00839742511640853e-21lf, 7.20375379228265307e-38lf,
    2.75574902253180571e-06lf, -6.50030040865472450e-23lf, 5.85375478299914070e-39lf,
    -2.75571482265034630e-06lf, -5.62445987143207935e-23lf, 3.48262922199388532e-39lf,
    2.75573370833531633e-07lf, 1.45026584349557127e-23lf, -5.36257871405063377e-40lf,
    -2.75573013646600225e-07lf, -2.44725267834035625e-23lf, 1.39064556988864825e-39lf,
    2.50521099184762257e-08lf, -6.80739486418979278e-25lf, 1.98423185484334619e-41lf,
    -2.50521068524075456e-08lf, 1.29248686208538025e-24lf, 8.03536423808754026e-41lf,
    2.08767570979608105e-09lf, -8.65883921588498151e-26lf, -2.59113507798877724e-42lf,
    -2.08767568777753899e-09lf, -4.84968487723617194e-26lf, 4.75154991965242970e-43lf,
    1.60590438435343546e-10lf, 6.46514193649746709e-27lf, -4.05819125823689641e-43lf,
    -1.60590438301088746e-10lf, 7.04644998319607448e-27lf, 3.75309808557990803e-43lf,
    1.14707455980816107e-11lf, -7.83034021800123615e-28lf, -1.26049656945013273e-44lf,
    -1.14707455973778399e-11lf, 4.19405611610536625e-28lf, 4.45080977199135099e-44lf,
    7.64716373183584606e-13lf, -3.80351849151877454e-29lf, 5.92376186432879022e-46lf,
    -7.64716373180378776e-13lf, 4.88615418764144715e-29lf, -2.02054402194469810e-45lf,
    4.77947733238802581e-14lf, -9.31992333122912875e-31lf, 6.61926348673880201e-47lf,
    -4.77947733238674470e-14lf, -1.81183343321665101e-30lf, -1.71178551626191450e-46lf,
    2.81145725434554348e-15lf, -8.71318044026646873e-32lf, 4.38087360683390494e-48lf,
    -2.81145725434549812e-15lf, -2.28782064100054776e-32lf, -1.26967375118661134e-48lf};

const double nxv_atanh_c[11] = {
    2.00000000000000011e-01lf, 1.42857142857142849e-01lf, 1.11111111111111105e-01lf, 9.09090909090909116e-02lf,
    7.69230769230769273e-02lf, 6.66666666666666657e-02lf, 5.88235294117647051e-02lf, 5.26315789473684181e-02lf,
    4.76190476190476164e-02lf, 4.34782608695652162e-02lf, 4.00000000000000008e-02lf};

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
// log(1 + v) as hi + lo for v > -1 with 1 + v normal, within ~2^-60 of its size, also for tiny v (where
// nxv_log_dd is only absolutely exact): 1 + v = 2^k w with w in [sqrt(1/2), sqrt(2)) (k = 0 keeps u = w - 1 = v
// itself), log w = 2 atanh(s), s = u / (2 + u), |s| < 0.172: s + s^3/3 in double-double, the rest of the series
// (nxv_atanh_c, s^2 < 0.0295: to s^25) in double.
NXV_FUNC nxv_dd_t nxv_log1p_dd(nxv_dd_t v) {
    const double ln2_hi = 6.93147180559945286e-01lf;
    const double ln2_lo = 2.31904681384629956e-17lf;
    const double third_hi = 3.33333333333333315e-01lf;
    const double third_lo = 1.85037170770859413e-17lf;
    nxv_dd_t u = v;
    int k = 0;
    if (v.hi < -0.29289321881345248lf || v.hi >= 0.41421356237309503lf) { /* outside sqrt(1/2) - 1, sqrt(2) - 1 */
        nxv_dd_t w = nxv_dd_add(nxv_dd(1.0lf, 0.0lf), v);
        int hw = nxv_hi(w.hi);
        k = ((hw + 0x00095f62) >> 20) - 1023; /* the mantissa at or above sqrt(2) (0x6a09e...) rounds k up */
        NXV_PRECISE double sc = nxv_mkd(uint((1023 - k) << 20), 0u); /* 2^-k */
        NXV_PRECISE double wh = w.hi * sc;
        NXV_PRECISE double wl = w.lo * sc;
        NXV_PRECISE double uh = wh - 1.0lf; /* exact: wh in [0.70, 1.42) */
        u = nxv_fast_two_sum(uh, wl);
    }
    nxv_dd_t s = nxv_dd_div_dd(u, nxv_dd_add(nxv_dd(2.0lf, 0.0lf), u));
    nxv_dd_t s2 = nxv_dd_mul(s, s);
    nxv_dd_t s3 = nxv_dd_mul(nxv_dd_mul(s2, s), nxv_dd(third_hi, third_lo));
    NXV_PRECISE double z = s2.hi;
    NXV_PRECISE double p = nxv_atanh_c[10];
    for (int j = 9; j >= 0; j--) p = p * z + nxv_atanh_c[j];
    NXV_PRECISE double sz = s3.hi * z;
    NXV_PRECISE double tail = 3.0lf * (sz * p);
    nxv_dd_t r = nxv_dd_add(nxv_dd_add(s, s3), nxv_dd(tail, 0.0lf));
    NXV_PRECISE double rh = 2.0lf * r.hi;
    NXV_PRECISE double rl = 2.0lf * r.lo;
    r = nxv_dd(rh, rl);
    if (k != 0) {
        NXV_PRECISE double kf = double(k);
        nxv_dd_t kl = nxv_two_prod(kf, ln2_hi);
        NXV_PRECISE double kll = kf * ln2_lo;
        r = nxv_dd_add(nxv_dd_add(kl, nxv_dd(kll, 0.0lf)), r);
    }
    return r;
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

// (lgamma(1 + t) - lgamma(1 + t0)) / (t - t0) as hi + lo for |t|, |t0| <= 1/2: the series at 1 (nxv_lgamma1_c)
// divided by t - t0 synthetically, sum_j b_j t^(j-1) with b_j = c_j + t0 b_(j+1); both recurrences in double down
// to j = 9, the last eight steps in double-double (a coefficient's rounding there would count times
// (t^j - t0^j) / (t - t0), up to j 2^(1-j)).
NXV_FUNC nxv_dd_t nxv_lgamma1_slope(double t, nxv_dd_t t0) {
    NXV_PRECISE double b = nxv_lgamma1_c[56];
    NXV_PRECISE double acc = b;
    for (int k = 55; k >= 8; k--) {
        b = nxv_lgamma1_c[k] + t0.hi * b;
        acc = acc * t + b;
    }
    nxv_dd_t bd = nxv_dd(b, 0.0lf);
    nxv_dd_t ad = nxv_dd(acc, 0.0lf);
    for (int k = 7; k >= 0; k--) {
        bd = nxv_dd_add(nxv_dd(nxv_lgamma1_c[k], nxv_lgamma1_lo[k]), nxv_dd_mul(bd, t0));
        ad = nxv_dd_add(nxv_dd_mul_d(ad, t), bd);
    }
    return ad;
}

// lgamma(x) as hi + lo for -17.5 < x < -2 (not an integer), relative to the zero x0 of its half-integer interval
// (nxv_lgamma_zero), so that the error stays relative where the reflection's terms cancel. With x = t - n
// (|t| <= 1/2, exact), t0 = x0 + n (on the same side of the pole -n as t) and d = t - t0 (exact to ~2^-106 of
// t0 and of d: t - t0.hi is exact near the zero),
//   lgamma(x) = lgamma(1 + t) - log|t| - sum_{k=1}^n log(k - t)  (Gamma(1 + t) = Gamma(x) prod_{k=0}^n (x + k)),
// which is 0 at t0, so
//   lgamma(x) = d slope(t, t0) - log1p(d / t0) - log1p(D / Q),  Q = prod_k (k - t0),  D = prod_k (k - t) - Q,
// every term proportional to d; D by D_k = (k - t) D_(k-1) - d Q_(k-1) (k - t exact), whose two terms have the
// sign of -d (no cancellation).
NXV_FUNC nxv_dd_t nxv_lgamma_zeros_dd(double x) {
    NXV_PRECISE double mx = -2.0lf * x;
    int i = int(floor(mx)) - 4;
    int n = (i + 5) / 2;
    NXV_PRECISE double nf = double(n);
    NXV_PRECISE double t = x + nf;
    NXV_PRECISE double th = nxv_lgamma_zero[3 * i];
    NXV_PRECISE double tm = nxv_lgamma_zero[3 * i + 1];
    NXV_PRECISE double tl = nxv_lgamma_zero[3 * i + 2];
    nxv_dd_t t0 = nxv_dd(th, tm);
    nxv_dd_t d = nxv_dd_add(nxv_two_sum(t, -th), nxv_dd(-tm, -tl));
    nxv_dd_t g = nxv_dd_mul(nxv_lgamma1_slope(t, t0), d);
    nxv_dd_t q = nxv_dd(1.0lf, 0.0lf);
    nxv_dd_t dq = nxv_dd(0.0lf, 0.0lf);
    for (int k = 1; k <= n; k++) {
        NXV_PRECISE double kf = double(k);
        NXV_PRECISE double a = kf - t;
        nxv_dd_t b = nxv_dd_add(nxv_two_sum(kf, -th), nxv_dd(-tm, 0.0lf));
        dq = nxv_dd_add(nxv_dd_mul_d(dq, a), nxv_dd_neg(nxv_dd_mul(d, q)));
        q = nxv_dd_mul(q, b);
    }
    nxv_dd_t num = d; /* log1p(d / t0), then log1p(D / Q): one inlined nxv_log1p_dd (0.1 s less on lavapipe) */
    nxv_dd_t den = t0;
    nxv_dd_t l = nxv_dd(0.0lf, 0.0lf);
    for (int j = 0; j < 2; j++) {
        l = nxv_dd_add(l, nxv_log1p_dd(nxv_dd_div_dd(num, den)));
        num = dq;
        den = q;
    }
    return nxv_dd_add(g, nxv_dd_neg(l));
}

// lgamma(x) = log|Gamma(x)| (as Nx, JAX and C's lgamma): +inf at 0, the negative integers and +-inf; NaN for NaN.
// Positive x: nxv_lgamma_pos_dd rounded once (measured, NxvMathSpecial.Lgamma: within 0.82 ulp of the long
// double lgammal, and 1 ulp of glibc but where glibc's own error, up to 1.7 ulp above x = 8, is the larger);
// below 2^-60, -log(x) (the next term, gamma x, is below 2^-65 of it); from 2^58, x (log x - 1) in dd.
// Negative x in (-17.5, -2), where lgamma has its zeros (two per unit interval) and the reflection's terms cancel:
// nxv_lgamma_zeros_dd, relative to the zero of the half-integer interval. Elsewhere the reflection
// lgamma(x) = log(pi) - log|sin(pi x)| - log|x| - lgamma(|x|), every term exact to ~2^-58 of its size (sin(pi x)
// from nxv_sin_pi_dd), whose absolute error is also relative there: |lgamma| > 0.8 on (-2, 0), and below -17.5
// the zeros lie within 1/18! (1/20 ulp) of the poles, so |lgamma| > 3 at every double. Measured (ibid., and on
// the device by VulkanMathUlp): within 0.52 ulp of lgammal in (-17.5, -2), the doubles next to every zero
// included, and 0.67 ulp for the other x < 0 (at -1.437).
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
    if (x > -17.5lf && x < -2.0lf) {
        nxv_dd_t z = nxv_lgamma_zeros_dd(x);
        res = z.hi + z.lo;
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
