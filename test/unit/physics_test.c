/* Unit tests of the physics kernels: corner vectors and volumes, EOS, energy update, limiters,
 * characteristic lengths and the time-step controls. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cost.h"
#include "eos.h"
#include "geometry.h"
#include "materials.h"
#include "remap.h"
#include "tap.h"
#include "timestep.h"

static struct tap t;

static double rnd(unsigned *s)
{
    *s = *s * 1103515245u + 12345u;
    return ((*s >> 8) & 0xffff) / 65536.0;
}

static void test_geometry(void)
{
    unsigned seed = 7;
    for (int dim = 2; dim <= 3; dim++) {
        const struct element *el = element_of_dim(dim);
        double unit[8][3] = {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}, {0, 0, 1}, {1, 0, 1}, {1, 1, 1}, {0, 1, 1}};
        int sum_ok = 1, vol_ok = 1, euler_ok = 1, fd_ok = 1;
        double worst_vol = 0, worst_fd = 0;
        for (int trial = 0; trial < 200; trial++) {
            /* a random affine map x -> A x + b with det A > 0 */
            double A[3][3], b[3], x[8][3], C[8][3];
            do {
                for (int i = 0; i < 3; i++) {
                    for (int j = 0; j < 3; j++)
                        A[i][j] = (i == j ? 1.0 : 0.0) + 0.6 * (rnd(&seed) - 0.5);
                    b[i] = 100.0 * (rnd(&seed) - 0.5);
                }
                if (dim == 2) {
                    A[2][0] = A[2][1] = A[0][2] = A[1][2] = 0;
                    A[2][2] = 1;
                    b[2] = 0;
                }
            } while (A[0][0] * (A[1][1] * A[2][2] - A[1][2] * A[2][1]) - A[0][1] * (A[1][0] * A[2][2] - A[1][2] * A[2][0]) +
                         A[0][2] * (A[1][0] * A[2][1] - A[1][1] * A[2][0]) <
                     0.2);
            double det = A[0][0] * (A[1][1] * A[2][2] - A[1][2] * A[2][1]) - A[0][1] * (A[1][0] * A[2][2] - A[1][2] * A[2][0]) +
                         A[0][2] * (A[1][0] * A[2][1] - A[1][1] * A[2][0]);
            for (int k = 0; k < el->nnodes; k++)
                for (int i = 0; i < 3; i++)
                    x[k][i] = b[i] + A[i][0] * unit[k][0] + A[i][1] * unit[k][1] + A[i][2] * unit[k][2];
            double V = geom_corners(el, (const double(*)[3])x, C);
            double s[3] = {0, 0, 0}, xc = 0;
            for (int k = 0; k < el->nnodes; k++)
                for (int i = 0; i < 3; i++) {
                    s[i] += C[k][i];
                    xc += (x[k][i] - x[0][i]) * C[k][i];
                }
            sum_ok &= fabs(s[0]) + fabs(s[1]) + fabs(s[2]) < 1e-12;
            double err = fabs(V - det) / det;
            worst_vol = err > worst_vol ? err : worst_vol;
            vol_ok &= err < 1e-12;
            euler_ok &= fabs(xc / dim - V) < 1e-12 * V;
            /* distort (non-affine) and compare C with finite differences of the volume */
            for (int k = 0; k < el->nnodes; k++)
                for (int i = 0; i < dim; i++)
                    x[k][i] += 0.15 * (rnd(&seed) - 0.5);
            geom_corners(el, (const double(*)[3])x, C);
            for (int k = 0; k < el->nnodes; k++)
                for (int i = 0; i < dim; i++) {
                    double h = 1e-6, save = x[k][i];
                    x[k][i] = save + h;
                    double vp = geom_volume(el, (const double(*)[3])x);
                    x[k][i] = save - h;
                    double vm = geom_volume(el, (const double(*)[3])x);
                    x[k][i] = save;
                    double e = fabs((vp - vm) / (2 * h) - C[k][i]);
                    worst_fd = e > worst_fd ? e : worst_fd;
                    fd_ok &= e < 1e-7;
                }
        }
        tap_ok(&t, sum_ok, "%dD: corner vectors sum to zero (200 affine cells far from the origin)", dim);
        tap_ok(&t, vol_ok, "%dD: volume exact for affine cells (worst relative error %.2e)", dim, worst_vol);
        tap_ok(&t, euler_ok, "%dD: V = sum x . C / dim", dim);
        tap_ok(&t, fd_ok, "%dD: corner vectors are the volume's gradient on distorted cells (worst %.2e)", dim, worst_fd);
        double L = geom_length(el, (const double(*)[3])unit, 1.0, LENGTH_FACES);
        tap_ok(&t, fabs(L - 1) < 1e-15 && fabs(geom_length(el, (const double(*)[3])unit, 8.0, LENGTH_VOLUME) -
                                                (dim == 2 ? sqrt(8.0) : 2.0)) < 1e-15,
               "%dD: characteristic lengths of the unit cell", dim);
    }
}

static void test_eos(void)
{
    struct eos pg = {.kind = EOS_PERFECT, .gamma = 1.4, .p_inf = 0, .newton_tol = 1e-14, .newton_max = 50};
    struct eos sg = {.kind = EOS_STIFFENED, .gamma = 4.4, .p_inf = 6e8, .newton_tol = 1e-14, .newton_max = 50};
    int rt = 1;
    for (int i = 1; i <= 50; i++) {
        double rho = 0.1 * i, p = 0.37 * i * i;
        rt &= fabs(eos_pressure(&pg, rho, eos_energy(&pg, rho, p)) - p) <= 1e-14 * p;
        double ps = 1e5 * i;
        rt &= fabs(eos_pressure(&sg, 1000 + rho, eos_energy(&sg, 1000 + rho, ps)) - ps) <= 1e-6 * ps;
    }
    tap_ok(&t, rt, "EOS round trips p -> e -> p, perfect and stiffened gas");
    tap_ok(&t, fabs(eos_sound_speed(&pg, 1.0, 1.0) - sqrt(1.4)) < 1e-15 &&
               fabs(eos_sound_speed(&sg, 1000.0, 1e5) - sqrt(4.4 * (1e5 + 6e8) / 1000.0)) < 1e-9,
           "sound speeds: sqrt(gamma (p + p_inf) / rho)");
    tap_ok(&t, isnan(eos_sound_speed(&pg, 1.0, -1.0)), "negative pressure of a perfect gas has no sound speed");
    /* energy update satisfies e1 = e0 - (p0/2 + p1/2 + q) dtau */
    double e0 = 2.5, p0 = 1.0, q = 0.3, rho1 = 1.2, dtau = 1 / 1.2 - 1.0, e1;
    int it = eos_energy_update(&pg, e0, p0, q, rho1, dtau, &e1);
    double p1 = eos_pressure(&pg, rho1, e1);
    tap_ok(&t, it == 0 && fabs(e1 - (e0 - (0.5 * p0 + 0.5 * p1 + q) * dtau)) < 1e-14,
           "perfect gas energy update (closed form) solves the implicit equation");
    struct eos sg0 = sg;
    sg0.gamma = 1.4;
    sg0.p_inf = 0;
    double e1n;
    it = eos_energy_update(&sg0, e0, p0, q, rho1, dtau, &e1n);
    tap_ok(&t, it >= 1 && it <= 3 && fabs(e1n - e1) < 1e-13, "stiffened gas with p_inf 0: Newton (%d iterations) "
           "gives the perfect gas answer", it);
    double rhos = 1000.0, es0 = eos_energy(&sg, rhos, 1e5), ps0 = 1e5, e1s;
    it = eos_energy_update(&sg, es0, ps0, 0, rhos * 1.01, 1 / (rhos * 1.01) - 1 / rhos, &e1s);
    double p1s = eos_pressure(&sg, rhos * 1.01, e1s);
    tap_ok(&t, it > 0 && fabs(e1s - (es0 - 0.5 * (ps0 + p1s) * (1 / (rhos * 1.01) - 1 / rhos))) < 1e-9 * fabs(e1s),
           "stiffened gas energy update by Newton (%d iterations) solves the implicit equation", it);
    struct eos capped = sg;
    capped.newton_max = 0;
    tap_ok(&t, eos_energy_update(&capped, es0, ps0, 0, rhos * 1.01, 1 / (rhos * 1.01) - 1 / rhos, &e1s) == -1,
           "running out of Newton iterations is reported");
    struct eos tiny = sg;
    tiny.newton_tol = 1e-16; /* below round-off: raised to 4 epsilon, so it still converges */
    unsigned seed = 3;
    int fails = 0;
    for (int i = 0; i < 20000; i++) {
        double rho = 900 + 200 * rnd(&seed), pz = 1e5 + 1e9 * rnd(&seed), ez = eos_energy(&tiny, rho, pz);
        double r1 = rho * (1 + 0.02 * (rnd(&seed) - 0.5)), out;
        fails += eos_energy_update(&tiny, ez, pz, 1e6 * rnd(&seed), r1, 1 / r1 - 1 / rho, &out) < 0;
    }
    tap_ok(&t, fails == 0, "Newton with a tolerance below round-off converges (20000 water-like updates, %d failed)",
           fails);
}

static void test_limiters(void)
{
    static const char *names[] = {"minmod", "superbee", "vanleer"};
    for (int l = 0; l < 3; l++) {
        enum limiter_kind k = (enum limiter_kind)l;
        int bounded = 1, monotone = 1, tvd = 1;
        double prev = 0;
        for (int i = -100; i <= 400; i++) {
            double r = i / 100.0, phi = limiter(k, r);
            bounded &= phi >= 0 && phi <= 1 && (r > 0 || phi == 0);
            monotone &= phi >= prev - 1e-15 || r <= 0;
            tvd &= phi <= 2 * r + 1e-15 || r <= 0;
            prev = r > 0 ? phi : 0;
        }
        tap_ok(&t, bounded && monotone && tvd && limiter(k, 1.0) == 1.0 && limiter(k, NAN) == 0,
               "%s: 0 for r <= 0, within [0, min(1, 2r)], non-decreasing, 1 at r = 1", names[l]);
    }
    tap_ok(&t, limiter(LIMITER_MINMOD, 0.5) == 0.5 && limiter(LIMITER_SUPERBEE, 0.25) == 0.5 &&
               fabs(limiter(LIMITER_VANLEER, 0.5) - 2.0 / 3.0) < 1e-15,
           "minmod, superbee and van Leer differ as expected at r < 1");
}

/* MicroHydro's length of the medians on boxes: d1 d2 d3 / (d1 d2 + d1 d3 + d2 d3), d1 d2 / (d1 + d2) */
static void test_lengths(void)
{
    double box[8][3] = {{0, 0, 0}, {1, 0, 0}, {1, 2, 0}, {0, 2, 0}, {0, 0, 4}, {1, 0, 4}, {1, 2, 4}, {0, 2, 4}};
    double l3 = geom_length(element_of_dim(3), (const double(*)[3])box, 8.0, LENGTH_MEDIANS);
    double l2 = geom_length(element_of_dim(2), (const double(*)[3])box, 2.0, LENGTH_MEDIANS);
    tap_ok(&t, fabs(l3 - 8.0 / 14.0) < 1e-15 && fabs(l2 - 2.0 / 3.0) < 1e-15,
           "length of the medians: 1x2x4 box %.17g (8/14), 1x2 rectangle %.17g (2/3)", l3, l2);
}

static void test_timestep(void)
{
    struct hydro_params hp = {.dt_min = 1e-4, .dt_max = 1e-2, .dt_growth = 1.1, .dt_decrease = 0.2, .density_ratio = 0.1};
    tap_ok(&t, timestep_mahyco(&hp, 5.0, 1e-3) == 1e-3 * 1.1 && timestep_mahyco(&hp, 1e-3, 1e-3) == 1e-3 &&
               timestep_mahyco(&hp, 1.0, 1.0) == 1e-2 && timestep_mahyco(&hp, 1e-6, 1e-3) == 1e-6,
           "mahyco: the candidate, at most dt_growth x previous and dt_max (a small candidate is the caller's to stop)");
    double prev = 1e-3, big = 1.0;
    tap_ok(&t, timestep_microhydro(&hp, big, prev, 0, big) == 1.1 * prev, "microhydro: growth capped at dt_growth x previous");
    tap_ok(&t, timestep_microhydro(&hp, 1e-5, prev, 0, big) == 0.8 * prev,
           "microhydro: a small candidate is floored at (1 - dt_decrease) x previous");
    double cut = timestep_microhydro(&hp, big, prev, 0.4, big);
    tap_ok(&t, cut == prev * 0.1 / 0.4 && timestep_microhydro(&hp, big, prev, 0.1, big) == 1.1 * prev &&
               timestep_microhydro(&hp, big, prev, -0.4, big) == 1.1 * prev,
           "microhydro: a density change of 0.4 > density_ratio cuts the step to prev x 0.1 / 0.4 (%g); 0.1 and -0.4 do not",
           cut);
    tap_ok(&t, timestep_microhydro(&hp, big, 0.0, 0, big) == 1e-4 && timestep_microhydro(&hp, big, 1.0, 0, big) == 1e-2,
           "microhydro: clamped to [dt_min, dt_max] (no previous step gives dt_min)");
    tap_ok(&t, timestep_microhydro(&hp, big, prev, 0, 3e-4) == 3e-4 && timestep_last(1e-3, 3e-4) == 3e-4 &&
               timestep_last(1e-3, 0) == 1e-3 && timestep_last(1e-3, 2e-3) == 1e-3,
           "the last step ends at final_time, below dt_min if need be; none shortened once it is reached");
}

/* The region model's cost averaged over a time interval (the load balancer's weights): a slab of
 * a quarter of [0, 1] moving at one extent per unit of time. */
static void test_cost_mean(void)
{
    const struct cost_params cp = {.kind = COST_REGION, .factor = 4, .xmin = 0, .xmax = 1, .width = 0.25, .speed = 1};
    const double at[3] = {0.1, 0.5, 0.5};
    double full = cost_mean(&cp, at, 0, 0.0, 1.0), inside = cost_mean(&cp, at, 0, 0.0, 0.05);
    double left = cost_mean(&cp, at, 0, 0.2, 0.7), now = cost_mean(&cp, at, 0, 0.3, 0.3);
    double periods = cost_mean(&cp, at, 0, 0.0, 3.0), far = cost_mean(&cp, at, 0, 0.0, 1e300);
    tap_ok(&t, full == 1.75 && fabs(inside - 4) < 1e-12 && left == 1 && now == 1,
           "cost_mean: a cell at x = 0.1 is in the slab a quarter of a period (%g = 1 + 3/4), all of [0, 0.05] (%.15g), "
           "none of [0.2, 0.7] (%g); an empty interval gives the cost at its time (%g)", full, inside, left, now);
    tap_ok(&t, periods == 1.75 && far == 1.75,
           "cost_mean: three periods, or an interval of 1e300, give one period's mean (%g, %g)", periods, far);
    const struct cost_params shock = {.kind = COST_SHOCK, .factor = 4};
    tap_ok(&t, cost_mean(&shock, at, 1.0, 0.0, 1.0) == 4 && cost_mean(&shock, at, 0.0, 0.0, 1.0) == 1,
           "cost_mean: the shock model does not depend on time");
    /* a slab moving left wraps too: at t = 0.1 it covers [0.9, 1) and [0, 0.15) */
    const struct cost_params back = {.kind = COST_REGION, .factor = 4, .xmin = 0, .xmax = 1, .width = 0.25,
                                     .speed = -1};
    const double x95[3] = {0.95, 0, 0}, x10[3] = {0.1, 0, 0}, x50[3] = {0.5, 0, 0};
    tap_ok(&t, cell_cost(&back, x95, 0, 0.1) == 4 && cell_cost(&back, x10, 0, 0.1) == 4 &&
               cell_cost(&back, x50, 0, 0.1) == 1,
           "cell_cost: a slab moving left at t = 0.1 holds x = 0.95 and 0.1, not 0.5");
    /* the exact mean against the midpoint rule on a fine grid, both directions, spans within and over a
     * period, a domain not starting at 0 */
    const struct cost_params cases[] = {cp, back,
                                        {.kind = COST_REGION, .factor = 7, .xmin = -2, .xmax = 3, .width = 0.4,
                                         .speed = 0.37}};
    const double spans[][2] = {{0.13, 0.61}, {0.9, 2.35}, {-0.4, 0.05}, {1.0, 1.001}, {0.2, 5.7}};
    double worst = 0;
    for (int k = 0; k < 3; k++)
        for (int i = 0; i < 5; i++)
            for (int j = 0; j < 7; j++) {
                const struct cost_params *c = &cases[k];
                const double x[3] = {c->xmin + (c->xmax - c->xmin) * (j + 0.3) / 7, 0, 0};
                const double t0 = spans[i][0], t1 = spans[i][1];
                enum { N = 200000 };
                double sum = 0;
                for (int n = 0; n < N; n++)
                    sum += cell_cost(c, x, 0, t0 + (t1 - t0) * (n + 0.5) / N);
                worst = fmax(worst, fabs(cost_mean(c, x, 0, t0, t1) - sum / N));
            }
    tap_ok(&t, worst < 1e-4, "cost_mean: within %.1e of a 200000-point midpoint rule on 105 cells and intervals",
           worst);
    /* edges: a slab as wide as the domain (a phase just below an integer has a fractional part
     * that rounds to 1), a slab at rest, an interval backwards, speed x time beyond the doubles */
    const struct cost_params all = {.kind = COST_REGION, .factor = 4, .xmin = 0, .xmax = 1, .width = 1, .speed = 1},
                             rest = {.kind = COST_REGION, .factor = 4, .xmin = 0, .xmax = 1, .width = 0.25},
                             fast = {.kind = COST_REGION, .factor = 4, .xmin = 0, .xmax = 1, .width = 0.25,
                                     .speed = 1e30};
    const double x0[3] = {0, 0, 0};
    double huge = cost_mean(&fast, at, 0, 0, 1e300);
    tap_ok(&t, cell_cost(&all, x0, 0, 1e-17) == 4 && cost_mean(&all, x0, 0, 0, 0.3) == 4 &&
               cost_mean(&rest, at, 0, 0, 5) == 4 && cost_mean(&rest, x50, 0, 0, 5) == 1 &&
               cost_mean(&cp, at, 0, 0.7, 0.2) == cell_cost(&cp, at, 0, 0.7) && (huge == 1 || huge == 4),
           "cost_mean: a full-width slab, a slab at rest, an interval backwards, a span beyond the doubles (%g)",
           huge);
}

/* materials.relax = pressure on one mixed cell: water at 1e9 Pa beside air at 1e5 Pa */
static void test_relax(void)
{
    struct hydro_params hp = {.nmat = 2, .relax = 1};
    hp.eos[0] = eos_make(EOS_STIFFENED, 4.4, 6e8, 1e-12, 50);
    hp.eos[1] = eos_make(EOS_PERFECT, 1.4, 0, 1e-12, 50);
    double V = 2.0, frac[2] = {0.3, 0.7}, mass[2], e[2], p[2] = {0, 0}, cell[7];
    double rho[2] = {1000, 50}, p0[2] = {1e9, 1e5};
    for (int k = 0; k < 2; k++) {
        mass[k] = rho[k] * frac[k] * V;
        e[k] = eos_energy(&hp.eos[k], rho[k], p0[k]);
    }
    double E0 = mass[0] * e[0] + mass[1] * e[1];
    struct matstore *ms = matstore_create(2, 1); /* one mixed cell: its values in a slot */
    matstore_compose(ms, 0, 3u);
    struct hydro_fields f = {.vol = &cell[0], .mass = &cell[1], .rho = &cell[2], .p = &cell[3], .c = &cell[4],
                             .e = &cell[5], .ms = ms};
    double *const none[MQ_COUNT] = {0};
    matstore_set(ms, none, 0, MQ_FRAC, frac);
    matstore_set(ms, none, 0, MQ_MASS, mass);
    matstore_set(ms, none, 0, MQ_E, e);
    matstore_set(ms, none, 0, MQ_P, p);
    cell[0] = V;
    cell[1] = mass[0] + mass[1];
    cell[2] = cell[1] / V;
    int rc = mat_eos_cell(&hp, &f, 0);
    matstore_get(ms, none, 0, MQ_FRAC, frac);
    matstore_get(ms, none, 0, MQ_E, e);
    matstore_get(ms, none, 0, MQ_P, p);
    matstore_destroy(ms);
    double E1 = mass[0] * e[0] + mass[1] * e[1];
    tap_ok(&t, rc == 0 && fabs(p[0] - p[1]) < 1e-9 * fabs(p[0]) && p[0] > 1e5 && p[0] < 1e9 &&
               fabs(frac[0] + frac[1] - 1) < 1e-15 && frac[0] > 0.3 && fabs(E1 - E0) < 1e-12 * E0 &&
               fabs(cell[3] - p[0]) < 1e-9 * p[0],
           "pressure relaxation: water and air at one pressure %.6g Pa (water's fraction 0.3 -> %.4f), internal "
           "energy kept to %.1e", p[0], frac[0], fabs(E1 - E0) / E0);
}

int main(void)
{
    test_geometry();
    test_eos();
    test_limiters();
    test_lengths();
    test_timestep();
    test_relax();
    test_cost_mean();
    return tap_done(&t);
}
