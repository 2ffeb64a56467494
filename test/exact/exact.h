/* Exact solutions used to verify hydro: Riemann problem (two stiffened gases), Noh, Sedov
 * (header-only, pure). */
#ifndef HYDRO_EXACT_H
#define HYDRO_EXACT_H

#include <math.h>

/* ---- exact Riemann solver for two stiffened gases (Toro, ch. 4, with p + p_inf in place of
 * p on each side: the pressure is continuous across the contact, p + p_inf is not): Newton
 * on the pressure function, then sampling at s = (x - x0) / t. A perfect gas has p_inf 0. No
 * vacuum: waves that would open one give a star pressure at the floor -min p_inf. ---- */
struct riemann_state {
    double rho, u, p;
};
struct riemann_gas {
    double gamma, p_inf;
};

/* Side k's velocity jump function at star pressure p and its derivative. */
static inline double riemann_f(double p, const struct riemann_state *k, const struct riemann_gas *q, double *df)
{
    double g = q->gamma, P = p + q->p_inf, Pk = k->p + q->p_inf, c = sqrt(g * Pk / k->rho);
    if (P > Pk) { /* shock */
        double A = 2.0 / ((g + 1.0) * k->rho), B = (g - 1.0) / (g + 1.0) * Pk;
        double s = sqrt(A / (P + B));
        *df = s * (1.0 - 0.5 * (P - Pk) / (B + P));
        return (P - Pk) * s;
    }
    double r = pow(P / Pk, (g - 1.0) / (2.0 * g)); /* rarefaction */
    *df = 1.0 / (k->rho * c) * pow(P / Pk, -(g + 1.0) / (2.0 * g));
    return 2.0 * c / (g - 1.0) * (r - 1.0);
}

/* Star-region pressure and velocity. */
static inline void riemann_star2(const struct riemann_state *l, const struct riemann_gas *ql,
                                 const struct riemann_state *r, const struct riemann_gas *qr, double *ps, double *us)
{
    double floor = -(ql->p_inf < qr->p_inf ? ql->p_inf : qr->p_inf); /* p + p_inf > 0 on both sides */
    double p;
    if (ql->gamma == qr->gamma && ql->p_inf == qr->p_inf) { /* the two-rarefaction guess */
        double g = ql->gamma, z = (g - 1.0) / (2.0 * g), Pl = l->p + ql->p_inf, Pr = r->p + qr->p_inf;
        double cl = sqrt(g * Pl / l->rho), cr = sqrt(g * Pr / r->rho);
        p = pow((cl + cr - 0.5 * (g - 1.0) * (r->u - l->u)) / (cl / pow(Pl, z) + cr / pow(Pr, z)), 1.0 / z) - ql->p_inf;
    } else { /* the primitive-variable guess */
        double cl = sqrt(ql->gamma * (l->p + ql->p_inf) / l->rho), cr = sqrt(qr->gamma * (r->p + qr->p_inf) / r->rho);
        p = 0.5 * (l->p + r->p) - 0.125 * (r->u - l->u) * (l->rho + r->rho) * (cl + cr);
    }
    double tiny = 1e-14 * (fabs(floor) > 1.0 ? fabs(floor) : 1.0);
    if (!(p >= floor + tiny)) /* NaN too: the two-rarefaction guess of waves that would open a vacuum */
        p = floor + tiny;
    for (int it = 0; it < 200; it++) {
        double dfl, dfr;
        double f = riemann_f(p, l, ql, &dfl) + riemann_f(p, r, qr, &dfr) + (r->u - l->u);
        double np = p - f / (dfl + dfr);
        if (np < floor + tiny)
            np = 0.5 * (p + floor); /* halve the distance to the floor rather than cross it */
        if (fabs(np - p) < 1e-15 * (fabs(np) + fabs(p) + fabs(floor))) {
            p = np;
            break;
        }
        p = np;
    }
    double dfl, dfr;
    *ps = p;
    *us = 0.5 * (l->u + r->u) + 0.5 * (riemann_f(p, r, qr, &dfr) - riemann_f(p, l, ql, &dfl));
}

/* One side's state at speed s, star pressure ps and velocity us; sign +1 on the left, -1 on the
 * right (the right side is the left one mirrored: u -> -u, s -> -s). */
static inline struct riemann_state riemann_side(const struct riemann_state *k, const struct riemann_gas *q, double ps,
                                                double us, double s, double sign)
{
    double g = q->gamma, pi = q->p_inf, P = ps + pi, Pk = k->p + pi, gm = (g - 1.0) / (g + 1.0);
    double u = sign * k->u, w = sign * s, ustar = sign * us, c = sqrt(g * Pk / k->rho);
    if (P > Pk) { /* shock moving away from the contact */
        double S = u - c * sqrt((g + 1.0) / (2.0 * g) * P / Pk + (g - 1.0) / (2.0 * g));
        if (w <= S)
            return *k;
        return (struct riemann_state){k->rho * (P / Pk + gm) / (gm * P / Pk + 1.0), us, ps};
    }
    double cs = c * pow(P / Pk, (g - 1.0) / (2.0 * g));
    if (w <= u - c)
        return *k;
    if (w >= ustar - cs)
        return (struct riemann_state){k->rho * pow(P / Pk, 1.0 / g), us, ps};
    double cf = 2.0 / (g + 1.0) * (c + 0.5 * (g - 1.0) * (u - w)); /* inside the fan */
    double rho = k->rho * pow(cf / c, 2.0 / (g - 1.0));
    return (struct riemann_state){rho, sign * 2.0 / (g + 1.0) * (c + 0.5 * (g - 1.0) * u + w),
                                  Pk * pow(cf / c, 2.0 * g / (g - 1.0)) - pi};
}

/* State at x - x0 = s t, each side its own gas. */
static inline struct riemann_state riemann_sample2(const struct riemann_state *l, const struct riemann_gas *ql,
                                                   const struct riemann_state *r, const struct riemann_gas *qr, double s)
{
    double ps, us;
    riemann_star2(l, ql, r, qr, &ps, &us);
    return s <= us ? riemann_side(l, ql, ps, us, s, 1.0) : riemann_side(r, qr, ps, us, s, -1.0);
}

/* The same perfect gas of ratio g on both sides. */
static inline void riemann_star(const struct riemann_state *l, const struct riemann_state *r, double g, double *ps,
                                double *us)
{
    struct riemann_gas q = {g, 0.0};
    riemann_star2(l, &q, r, &q, ps, us);
}
static inline struct riemann_state riemann_sample(const struct riemann_state *l, const struct riemann_state *r, double g,
                                                  double s)
{
    struct riemann_gas q = {g, 0.0};
    return riemann_sample2(l, &q, r, &q, s);
}

/* Saurel & Abgrall's (1999) water-air tube, SI units, as physics/cases.c and inputs/water_air.ini
 * set it up: water (stiffened gas) left of x0 = 0.7 m, air (perfect gas) beyond. */
struct water_air {
    struct riemann_state water, air;
    struct riemann_gas qwater, qair;
    double x0;
};
static inline struct water_air water_air_problem(void)
{
    return (struct water_air){{1000, 0, 1e9}, {50, 0, 1e5}, {4.4, 6e8}, {1.4, 0}, 0.7};
}

/* ---- Noh (gamma, unit inward speed, cold gas of density 1): shock at r = (gamma - 1) t / 2;
 * inside rho = ((gamma + 1)/(gamma - 1))^dim; outside rho = (1 + t / r)^(dim - 1). ---- */
static inline double noh_density(int dim, double gamma, double t, double r)
{
    double rs = 0.5 * (gamma - 1.0) * t;
    if (r < rs)
        return pow((gamma + 1.0) / (gamma - 1.0), dim);
    return pow(1.0 + t / r, dim - 1);
}

/* ---- Sedov point blast (strong shock into gas of density rho0 at rest): the shock radius is
 * R = (E t^2 / (alpha rho0))^(1/(nu+2)) with nu = 1, 2, 3 (planar, cylindrical, spherical).
 * alpha = sigma delta^2 int_0^1 G (V^2/2 + Z/(gamma(gamma-1))) xi^(nu+1) dxi, from the self-
 * similar solution u = delta r/t V, rho = rho0 G, c^2 = (delta r/t)^2 Z, delta = 2/(nu+2),
 * integrated here from the shock (xi = 1, strong-shock jump) inwards in ln xi with RK4. ---- */
static inline void sedov_rhs(int nu, double g, double V, double G, double Z, double *dV, double *dlnG, double *dZ)
{
    (void)G;
    double d = 2.0 / (nu + 2.0);
    /* rows: mass, momentum, entropy; unknowns a = dlnG, b = dV, c = dZ */
    double A[3][3] = {{V - 1.0, 1.0, 0.0},
                      {d * Z / g, d * (V - 1.0), d / g},
                      {(1.0 - g) * (V - 1.0), 0.0, (V - 1.0) / Z}};
    double r[3] = {-nu * V, -(d * V * V - V + 2.0 * d * Z / g), 2.0 / d - 2.0 * V};
    double det = A[0][0] * (A[1][1] * A[2][2] - A[1][2] * A[2][1]) - A[0][1] * (A[1][0] * A[2][2] - A[1][2] * A[2][0]) +
                 A[0][2] * (A[1][0] * A[2][1] - A[1][1] * A[2][0]);
    double x[3];
    for (int i = 0; i < 3; i++) {
        double M[3][3];
        for (int a = 0; a < 3; a++)
            for (int b = 0; b < 3; b++)
                M[a][b] = b == i ? r[a] : A[a][b];
        x[i] = (M[0][0] * (M[1][1] * M[2][2] - M[1][2] * M[2][1]) - M[0][1] * (M[1][0] * M[2][2] - M[1][2] * M[2][0]) +
                M[0][2] * (M[1][0] * M[2][1] - M[1][1] * M[2][0])) /
               det;
    }
    *dlnG = x[0];
    *dV = x[1];
    *dZ = x[2];
}

static inline double sedov_alpha_exact(int nu, double g)
{
    const double PI = 3.14159265358979323846;
    double d = 2.0 / (nu + 2.0), sigma = nu == 1 ? 2.0 : nu == 2 ? 2.0 * PI : 4.0 * PI;
    double V = 2.0 / (g + 1.0), lnG = log((g + 1.0) / (g - 1.0)), Z = 2.0 * g * (g - 1.0) / ((g + 1.0) * (g + 1.0));
    const int n = 200000;
    const double lmin = log(1e-6), h = lmin / n; /* from ln xi = 0 down to ln 1e-6 */
    double integral = 0, prev = exp(lnG) * (V * V / 2 + Z / (g * (g - 1.0))) * 1.0;
    for (int i = 0; i < n; i++) {
        double k[4][3], s[3] = {V, lnG, Z};
        for (int st = 0; st < 4; st++) {
            double f = st == 0 ? 0 : st == 3 ? 1.0 : 0.5;
            double v = s[0] + (st ? f * h * k[st - 1][0] : 0), lg = s[1] + (st ? f * h * k[st - 1][1] : 0),
                   z = s[2] + (st ? f * h * k[st - 1][2] : 0);
            sedov_rhs(nu, g, v, exp(lg), z, &k[st][0], &k[st][1], &k[st][2]);
        }
        V += h / 6 * (k[0][0] + 2 * k[1][0] + 2 * k[2][0] + k[3][0]);
        lnG += h / 6 * (k[0][1] + 2 * k[1][1] + 2 * k[2][1] + k[3][1]);
        Z += h / 6 * (k[0][2] + 2 * k[1][2] + 2 * k[2][2] + k[3][2]);
        double xi0 = exp(i * h), xi1 = exp((i + 1) * h);
        double cur = exp(lnG) * (V * V / 2 + Z / (g * (g - 1.0)));
        /* trapezoid in xi of f(xi) xi^(nu+1) */
        integral += 0.5 * (prev * pow(xi0, nu + 1) + cur * pow(xi1, nu + 1)) * (xi0 - xi1);
        prev = cur;
    }
    return sigma * d * d * integral;
}

#endif
