/* Exact solutions used to verify hydro: Riemann problem (Sod), Noh, Sedov (header-only, pure). */
#ifndef HYDRO_EXACT_H
#define HYDRO_EXACT_H

#include <math.h>

/* ---- exact Riemann solver for the perfect gas (Toro, ch. 4): two-rarefaction guess,
 * Newton on the pressure function, then sampling at s = (x - x0) / t. ---- */
struct riemann_state {
    double rho, u, p;
};

static inline double riemann_f(double p, const struct riemann_state *k, double g, double *df)
{
    double c = sqrt(g * k->p / k->rho);
    if (p > k->p) { /* shock */
        double A = 2.0 / ((g + 1.0) * k->rho), B = (g - 1.0) / (g + 1.0) * k->p;
        double s = sqrt(A / (p + B));
        *df = s * (1.0 - 0.5 * (p - k->p) / (B + p));
        return (p - k->p) * s;
    }
    double r = pow(p / k->p, (g - 1.0) / (2.0 * g)); /* rarefaction */
    *df = 1.0 / (k->rho * c) * pow(p / k->p, -(g + 1.0) / (2.0 * g));
    return 2.0 * c / (g - 1.0) * (r - 1.0);
}

/* Star-region pressure and velocity. */
static inline void riemann_star(const struct riemann_state *l, const struct riemann_state *r, double g, double *ps,
                         double *us)
{
    double cl = sqrt(g * l->p / l->rho), cr = sqrt(g * r->p / r->rho), z = (g - 1.0) / (2.0 * g);
    double p = pow((cl + cr - 0.5 * (g - 1.0) * (r->u - l->u)) / (cl / pow(l->p, z) + cr / pow(r->p, z)), 1.0 / z);
    for (int it = 0; it < 100; it++) {
        double dfl, dfr;
        double f = riemann_f(p, l, g, &dfl) + riemann_f(p, r, g, &dfr) + (r->u - l->u);
        double np = p - f / (dfl + dfr);
        if (np < 1e-14)
            np = 1e-14;
        if (fabs(np - p) < 1e-15 * (np + p)) {
            p = np;
            break;
        }
        p = np;
    }
    double dfl, dfr;
    *ps = p;
    *us = 0.5 * (l->u + r->u) + 0.5 * (riemann_f(p, r, g, &dfr) - riemann_f(p, l, g, &dfl));
}

/* State at x - x0 = s t. */
static inline struct riemann_state riemann_sample(const struct riemann_state *l, const struct riemann_state *r, double g,
                                           double s)
{
    double ps, us;
    riemann_star(l, r, g, &ps, &us);
    double gm = (g - 1.0) / (g + 1.0);
    if (s <= us) { /* left of the contact */
        double cl = sqrt(g * l->p / l->rho);
        if (ps > l->p) {
            double sl = l->u - cl * sqrt((g + 1.0) / (2.0 * g) * ps / l->p + (g - 1.0) / (2.0 * g));
            if (s <= sl)
                return *l;
            return (struct riemann_state){l->rho * (ps / l->p + gm) / (gm * ps / l->p + 1.0), us, ps};
        }
        double csl = cl * pow(ps / l->p, (g - 1.0) / (2.0 * g));
        if (s <= l->u - cl)
            return *l;
        if (s >= us - csl)
            return (struct riemann_state){l->rho * pow(ps / l->p, 1.0 / g), us, ps};
        double c = 2.0 / (g + 1.0) * (cl + 0.5 * (g - 1.0) * (l->u - s));
        double rho = l->rho * pow(c / cl, 2.0 / (g - 1.0));
        return (struct riemann_state){rho, 2.0 / (g + 1.0) * (cl + 0.5 * (g - 1.0) * l->u + s), l->p * pow(c / cl, 2.0 * g / (g - 1.0))};
    }
    double cr = sqrt(g * r->p / r->rho);
    if (ps > r->p) {
        double sr = r->u + cr * sqrt((g + 1.0) / (2.0 * g) * ps / r->p + (g - 1.0) / (2.0 * g));
        if (s >= sr)
            return *r;
        return (struct riemann_state){r->rho * (ps / r->p + gm) / (gm * ps / r->p + 1.0), us, ps};
    }
    double csr = cr * pow(ps / r->p, (g - 1.0) / (2.0 * g));
    if (s >= r->u + cr)
        return *r;
    if (s <= us + csr)
        return (struct riemann_state){r->rho * pow(ps / r->p, 1.0 / g), us, ps};
    double c = 2.0 / (g + 1.0) * (cr - 0.5 * (g - 1.0) * (r->u - s));
    double rho = r->rho * pow(c / cr, 2.0 / (g - 1.0));
    return (struct riemann_state){rho, 2.0 / (g + 1.0) * (-cr + 0.5 * (g - 1.0) * r->u + s), r->p * pow(c / cr, 2.0 * g / (g - 1.0))};
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
