/* Exact solutions used to verify hydro: Riemann problem (Sod), Noh, Sedov (header-only, pure). */
#ifndef HYDRO_EXACT_H
#define HYDRO_EXACT_H

#include <math.h>

/* ---- exact Riemann solver for the perfect gas (Toro, ch. 4): two-rarefaction guess,
 * Newton on the pressure function, then sampling at s = (x - x0) / t. ---- */
struct riemann_state {
    double rho, u, p;
};

static double riemann_f(double p, const struct riemann_state *k, double g, double *df)
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
static void riemann_star(const struct riemann_state *l, const struct riemann_state *r, double g, double *ps,
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
static struct riemann_state riemann_sample(const struct riemann_state *l, const struct riemann_state *r, double g,
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
static double noh_density(int dim, double gamma, double t, double r)
{
    double rs = 0.5 * (gamma - 1.0) * t;
    if (r < rs)
        return pow((gamma + 1.0) / (gamma - 1.0), dim);
    return pow(1.0 + t / r, dim - 1);
}

#endif
