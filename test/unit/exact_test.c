/* Unit tests of the exact solutions the verification relies on (test/exact/exact.h). */
#include <math.h>

#include "cases.h"
#include "exact/exact.h"
#include "tap.h"

/* Toro's tests 2 to 5 (table 4.2: the 123 problem, the strong blast waves, colliding shocks). */
static void toro_tests(struct tap *t)
{
    static const struct {
        struct riemann_state l, r;
        double ps, us;
    } cases[] = {
        {{1, -2, 0.4}, {1, 2, 0.4}, 0.00189, 0.0},
        {{1, 0, 1000}, {1, 0, 0.01}, 460.894, 19.5975},
        {{1, 0, 0.01}, {1, 0, 100}, 46.0950, -6.19633},
        {{5.99924, 19.5975, 460.894}, {5.99242, -6.19633, 46.0950}, 1691.64, 8.68975},
    };
    int bad = 0;
    for (int i = 0; i < 4; i++) {
        double ps, us;
        riemann_star(&cases[i].l, &cases[i].r, 1.4, &ps, &us);
        bad += fabs(ps - cases[i].ps) > 1e-5 * (cases[i].ps > 1 ? cases[i].ps : 1) || fabs(us - cases[i].us) > 1e-4;
    }
    tap_ok(t, bad == 0, "Toro's tests 2-5: star pressures and velocities to the table's digits (%d off)", bad);
}

static double stiff_energy(const struct riemann_gas *q, const struct riemann_state *s)
{
    return (s->p + q->gamma * q->p_inf) / ((q->gamma - 1.0) * s->rho);
}

/* Water (stiffened gas) against air (Saurel & Abgrall 1999): the jump conditions across each
 * wave, checked on the sampled solution itself. */
static void water_air(struct tap *t)
{
    const struct water_air wa = water_air_problem();
    const struct riemann_state w = wa.water, a = wa.air;
    const struct riemann_gas qw = wa.qwater, qa = wa.qair;
    double ps, us;
    riemann_star2(&w, &qw, &a, &qa, &ps, &us);
    double dl, dr;
    double res = riemann_f(ps, &w, &qw, &dl) + riemann_f(ps, &a, &qa, &dr);
    tap_ok(t, ps > a.p && ps < w.p && us > 0 && fabs(res) < 1e-9 * us,
           "water-air: a rarefaction into the water and a shock into the air, p* = %.6g Pa, u* = %.6g m/s", ps, us);
    /* the contact: pressure and velocity continuous, density not */
    struct riemann_state cl = riemann_sample2(&w, &qw, &a, &qa, us - 1e-9), cr = riemann_sample2(&w, &qw, &a, &qa, us + 1e-9);
    tap_ok(t, cl.p == cr.p && cl.u == cr.u && cl.rho > 2 * cr.rho,
           "water-air contact: p and u continuous, rho %.6g (water) against %.6g (air)", cl.rho, cr.rho);
    /* the rarefaction: (p + p_inf) / rho^gamma and u + 2 c / (gamma - 1) stay what they are in the water */
    double worst = 0;
    for (int i = 0; i <= 20; i++) {
        double cw = sqrt(qw.gamma * (w.p + qw.p_inf) / w.rho), s = -cw + i * (us + cw) / 20.0 * 0.999;
        struct riemann_state x = riemann_sample2(&w, &qw, &a, &qa, s);
        double c = sqrt(qw.gamma * (x.p + qw.p_inf) / x.rho);
        double ent = (x.p + qw.p_inf) / pow(x.rho, qw.gamma) / ((w.p + qw.p_inf) / pow(w.rho, qw.gamma)) - 1;
        double inv = (x.u + 2 * c / (qw.gamma - 1) - 2 * cw / (qw.gamma - 1)) / cw;
        worst = fmax(worst, fmax(fabs(ent), fabs(inv)));
    }
    tap_ok(t, worst < 1e-12, "water rarefaction: isentropic, Riemann invariant constant (worst relative %.2g)", worst);
    /* the air shock: mass, momentum and energy fluxes equal on both sides in the shock's frame */
    struct riemann_state b = riemann_sample2(&w, &qw, &a, &qa, us * (1 + 1e-9));
    double S = (b.rho * b.u - a.rho * a.u) / (b.rho - a.rho); /* from the mass jump */
    struct riemann_state ahead = riemann_sample2(&w, &qw, &a, &qa, S * (1 + 1e-9));
    struct riemann_state behind = riemann_sample2(&w, &qw, &a, &qa, S * (1 - 1e-9));
    double m1 = a.rho * (a.u - S), mom = (b.p + b.rho * (b.u - S) * (b.u - S)) / (a.p + a.rho * (a.u - S) * (a.u - S)) - 1;
    double h1 = stiff_energy(&qa, &a) + a.p / a.rho + 0.5 * (a.u - S) * (a.u - S);
    double h2 = stiff_energy(&qa, &b) + b.p / b.rho + 0.5 * (b.u - S) * (b.u - S);
    tap_ok(t, ahead.rho == a.rho && behind.rho == b.rho && m1 < 0 && fabs(mom) < 1e-12 && fabs(h2 / h1 - 1) < 1e-12,
           "air shock at %.6g m/s: momentum (%.2g) and enthalpy (%.2g) jumps vanish", S, mom, h2 / h1 - 1);
    /* mirrored (air on the left, moving water on the right): the mirrored solution */
    struct riemann_state wm = wa.water, am = wa.air;
    double worst_m = 0;
    for (int i = -20; i <= 20; i++) {
        double s = i * 100.0 + 0.5;
        struct riemann_state x = riemann_sample2(&w, &qw, &a, &qa, s), y = riemann_sample2(&am, &qa, &wm, &qw, -s);
        worst_m = fmax(worst_m, fabs(x.rho - y.rho) / x.rho + fabs(x.p - y.p) / x.p + fabs(x.u + y.u) / 1e3);
    }
    tap_ok(t, worst_m < 1e-9, "the mirrored problem gives the mirrored solution (worst %.2g)", worst_m);
}

int main(void)
{
    struct tap t = {0};
    toro_tests(&t);
    water_air(&t);
    struct riemann_state l = {1.0, 0.0, 1.0}, r = {0.125, 0.0, 0.1};
    double ps, us;
    riemann_star(&l, &r, 1.4, &ps, &us);
    /* Sod's star state (Toro, table 4.3 test 1 shifted to Sod's data): p* 0.30313, u* 0.92745 */
    tap_ok(&t, fabs(ps - 0.30313) < 1e-5 && fabs(us - 0.92745) < 1e-5, "Sod star state p* = %.5f, u* = %.5f", ps, us);
    struct riemann_state a = riemann_sample(&l, &r, 1.4, 0.5), b = riemann_sample(&l, &r, 1.4, 1.5);
    tap_ok(&t, fabs(a.rho - 0.42632) < 1e-5 && fabs(b.rho - 0.26557) < 1e-5,
           "Sod star densities %.5f left of the contact, %.5f right of it", a.rho, b.rho);
    struct riemann_state far_l = riemann_sample(&l, &r, 1.4, -5), far_r = riemann_sample(&l, &r, 1.4, 5);
    tap_ok(&t, far_l.rho == 1.0 && far_r.rho == 0.125, "undisturbed states outside the waves");
    tap_ok(&t, fabs(noh_density(2, 5.0 / 3.0, 0.6, 0.1) - 16) < 1e-12 &&
               fabs(noh_density(3, 5.0 / 3.0, 0.6, 0.1) - 64) < 1e-12 &&
               fabs(noh_density(2, 5.0 / 3.0, 0.6, 0.3) - 3) < 1e-12,
           "Noh: 16 (2D) and 64 (3D) behind the shock at 0.2, 1 + t/r ahead of it");
    double a2 = sedov_alpha_exact(2, 1.4), a3 = sedov_alpha_exact(3, 1.4);
    tap_ok(&t, fabs(a2 - sedov_alpha(2, 1.4)) < 2e-3 && fabs(a3 - sedov_alpha(3, 1.4)) < 2e-3,
           "Sedov alpha from the self-similar solution: %.4f (cylindrical), %.4f (spherical), as the cases use", a2, a3);
    double a1 = sedov_alpha_exact(1, 1.4);
    tap_ok(&t, fabs(a1 - 2 * 0.5385) < 4e-3, "Sedov alpha, planar (both sides of the plane): %.4f = 2 x 0.5385 (Kamm & Timmes, one side)", a1);
    return tap_done(&t);
}
