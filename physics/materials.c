/* Materials in mixed cells (see materials.h). A pure cell (f_k = 1, y_k = 1) computes exactly
 * what the single-material formulas compute: every product and sum with 1 or 0 is exact. */
#include "materials.h"

#include <math.h>
#include <string.h>

#include "par.h"

/* A pure cell's values are its cell arrays' (matstore.h); its level-n energy and pressure are the
 * cell's e and p until mat_lagrange_cell replaces them (the only place that reads them). */
#define PURE(f) {NULL, (f)->mass, (f)->e, (f)->p, (f)->e, (f)->p}

/* Quantity q of cell c's materials, one value per material (0 where absent). */
static void load(const struct hydro_fields *f, int32_t c, enum mat_quantity q, double *row)
{
    double *const pure[MQ_COUNT] = PURE(f);
    matstore_get(f->ms, pure, c, q, row);
}

/* The present materials' values of quantity q (a pure cell's into its cell array). */
static void store(struct hydro_fields *f, int32_t c, enum mat_quantity q, const double *row)
{
    double *const pure[MQ_COUNT] = PURE(f);
    matstore_set(f->ms, pure, c, q, row);
}

void mat_init_cell(struct hydro_fields *f, int32_t c, int k)
{
    matstore_compose(f->ms, c, 1u << k); /* a pure cell: its mass and energy are the cell's */
}

/* The relaxed volumes of cell c's materials at common pressure p: each material k (volume vk,
 * internal energy ek) does the work p (V_k' - V_k), so that its stiffened-gas pressure is p:
 * V_k' = (g - 1)(E_k + p V_k) / (g (p + p_inf)). Returns sum V_k' - V (decreasing in p). */
static double relaxed(const struct hydro_params *hp, const double *vk, const double *ek, const int *k, int n, double p,
                      double V, double *out)
{
    double sum = 0;
    for (int i = 0; i < n; i++) {
        double g = hp->eos[k[i]].gamma, pi = hp->eos[k[i]].p_inf; /* 0 for a perfect gas */
        out[i] = (g - 1.0) * (ek[i] + p * vk[i]) / (g * (p + pi));
        sum += out[i];
    }
    return sum - V;
}

/* materials.relax = pressure: cell c's materials brought to one pressure p* at constant total
 * volume and internal energy (each pays its p* dV): F(p) = sum V_k'(p) - V decreases from +inf
 * at p = -min p_inf to a negative limit, so its root is bracketed and found by bisection. */
static int relax_cell(const struct hydro_params *hp, struct hydro_fields *f, int32_t c)
{
    const int nm = hp->nmat;
    const double V = f->vol[c];
    double vk[HYDRO_MAT_MAX], ek[HYDRO_MAT_MAX], out[HYDRO_MAT_MAX], lo = -INFINITY, guess = 0;
    double fr[HYDRO_MAT_MAX], mm[HYDRO_MAT_MAX], me[HYDRO_MAT_MAX], mp[HYDRO_MAT_MAX];
    int k[HYDRO_MAT_MAX], n = 0;
    if (f->ms->cell[c] >= 0)
        return 0; /* a pure cell */
    load(f, c, MQ_FRAC, fr);
    load(f, c, MQ_MASS, mm);
    load(f, c, MQ_E, me);
    load(f, c, MQ_P, mp);
    for (int j = 0; j < nm; j++)
        if (fr[j] > 0) {
            k[n] = j;
            vk[n] = fr[j] * V;
            ek[n] = mm[j] * me[j];
            double pi = hp->eos[j].p_inf;
            lo = -pi > lo ? -pi : lo;
            guess += fr[j] * mp[j];
            n++;
        }
    if (n < 2)
        return 0; /* one material present */
    double hi = fmax(guess, lo) + fabs(guess) + 1.0; /* grows until F(hi) < 0 */
    for (int it = 0; it < 200 && relaxed(hp, vk, ek, k, n, hi, V, out) > 0; it++)
        hi = lo + 2.0 * (hi - lo);
    double a = lo, b = hi;
    for (int it = 0; it < 200 && b - a > 1e-15 * (fabs(a) + fabs(b)); it++) {
        double mid = 0.5 * (a + b);
        if (mid <= a || mid >= b)
            break;
        *(relaxed(hp, vk, ek, k, n, mid, V, out) > 0 ? &a : &b) = mid;
    }
    double p = b, sum = 0;
    relaxed(hp, vk, ek, k, n, p, V, out);
    for (int i = 0; i < n; i++)
        sum += out[i];
    for (int i = 0; i < n; i++) { /* fractions summing to 1; energies after the work p (V_k' - V_k) */
        fr[k[i]] = out[i] / sum;
        me[k[i]] = (ek[i] - p * (out[i] - vk[i])) / mm[k[i]];
    }
    store(f, c, MQ_FRAC, fr);
    store(f, c, MQ_E, me);
    return 1;
}

/* Each present material's density y_k rho / f_k, pressure and sound speed from its mass and
 * energy, and the cell's mean p, c and e (mp 0 where a material is absent). Returns 0, or -1
 * when a material has no sound speed. */
static int eos_means(const struct hydro_params *hp, struct hydro_fields *f, int32_t c)
{
    const int32_t pure = f->ms->cell[c];
    if (pure >= 0) { /* the loop below for one material of fraction 1 and mass m, its sums from 0 */
        const struct eos *q = &hp->eos[pure];
        double y = f->mass[c] / f->mass[c], rk = y * f->rho[c] / 1.0;
        double pk = eos_pressure(q, rk, f->e[c]), ck = eos_sound_speed(q, rk, pk);
        int bad = !isfinite(pk) || !isfinite(ck);
        f->p[c] = 0.0 + 1.0 * pk;
        f->c[c] = bad ? NAN : ck > 0 ? ck : 0;
        f->e[c] = 0.0 + y * f->e[c];
        return bad ? -1 : 0;
    }
    const int nm = hp->nmat;
    double m = f->mass[c], rho = f->rho[c], p = 0, cs = 0, e = 0;
    double fr[HYDRO_MAT_MAX], mm[HYDRO_MAT_MAX], me[HYDRO_MAT_MAX], mp[HYDRO_MAT_MAX] = {0};
    load(f, c, MQ_FRAC, fr);
    load(f, c, MQ_MASS, mm);
    load(f, c, MQ_E, me);
    int bad = 0;
    for (int k = 0; k < nm; k++) {
        double fk = fr[k];
        if (!(fk > 0)) {
            mp[k] = 0;
            continue;
        }
        double y = mm[k] / m, rk = y * rho / fk;
        double pk = eos_pressure(&hp->eos[k], rk, me[k]), ck = eos_sound_speed(&hp->eos[k], rk, pk);
        mp[k] = pk;
        p += fk * pk;
        e += y * me[k];
        cs = ck > cs ? ck : cs;
        bad |= !isfinite(pk) || !isfinite(ck);
    }
    store(f, c, MQ_P, mp);
    f->p[c] = p;
    f->c[c] = bad ? NAN : cs;
    f->e[c] = e;
    return bad ? -1 : 0;
}

int mat_eos_cell(const struct hydro_params *hp, struct hydro_fields *f, int32_t c)
{
    if (hp->relax)
        relax_cell(hp, f, c);
    return eos_means(hp, f, c);
}

void mat_save(int nmat, struct hydro_fields *f, int32_t nc)
{
    const struct matstore *ms = f->ms; /* the pure cells' are the cells' e0 and p0 */
    PAR_FOR(ms->cap)
    for (int32_t s = 0; s < ms->cap; s++)
        if (ms->owner[s] >= 0 && ms->owner[s] < nc) {
            memcpy(matstore_row(ms, s, MQ_E0), matstore_row(ms, s, MQ_E), (size_t)nmat * sizeof(double));
            memcpy(matstore_row(ms, s, MQ_P0), matstore_row(ms, s, MQ_P), (size_t)nmat * sizeof(double));
        }
}

/* Material k of cell c (fraction fk, mass fraction y) from rho0 to rho1: its viscosity *qk and
 * energy *e1 from its level-n e0 and p0. Returns 0, or -1 (*what says why). */
static int lagrange_material(const struct hydro_params *hp, const struct hydro_fields *f, int32_t c, int k,
                             double fk, double y, double rho0, double rho1, double divu, double e0, double p0,
                             double *qk, double *e1, const char **what)
{
    const double L = f->len[c], cbar = f->c[c];
    double r0 = y * rho0 / fk, r1 = y * rho1 / fk;
    double dtau = 1.0 / r1 - 1.0 / r0, tau = 0.5 * (1.0 / r0 + 1.0 / r1);
    *qk = 0;
    if (divu < 0) /* compression only: the cell's L, div u and mean c, the material's q2 */
        *qk = (1.0 / tau) * (-hp->q1 * L * cbar * divu + hp->q2[k] * L * L * divu * divu);
    if (eos_energy_update(&hp->eos[k], e0, p0, *qk, r1, dtau, e1) < 0) {
        *what = "a material's energy update (Newton iteration) did not converge";
        return -1;
    }
    if (!isfinite(*e1)) {
        *what = "NaN in a material's energy or pressure";
        return -1;
    }
    return 0;
}

int mat_lagrange_cell(const struct hydro_params *hp, struct hydro_fields *f, int32_t c, double rho0, double rho1,
                      double divu, const char **what)
{
    const int nm = hp->nmat;
    const double m = f->mass[c];
    const int32_t pure = f->ms->cell[c];
    if (pure >= 0) { /* fraction 1, mass m, the cell's own level-n energy and pressure */
        double qk, e1;
        if (lagrange_material(hp, f, c, pure, 1.0, m / m, rho0, rho1, divu, f->e[c], f->p[c], &qk, &e1, what))
            return -1;
        f->e[c] = e1;
        f->q[c] = 0.0 + 1.0 * qk;
    } else {
        double q = 0, fr[HYDRO_MAT_MAX], mm[HYDRO_MAT_MAX], me[HYDRO_MAT_MAX], e0[HYDRO_MAT_MAX], p0[HYDRO_MAT_MAX];
        load(f, c, MQ_FRAC, fr);
        load(f, c, MQ_MASS, mm);
        load(f, c, MQ_E, me);
        load(f, c, MQ_E0, e0);
        load(f, c, MQ_P0, p0);
        for (int k = 0; k < nm; k++) {
            double qk;
            if (!(fr[k] > 0))
                continue;
            if (lagrange_material(hp, f, c, k, fr[k], mm[k] / m, rho0, rho1, divu, e0[k], p0[k], &qk, &me[k], what))
                return -1;
            q += fr[k] * qk;
        }
        store(f, c, MQ_E, me);
        f->q[c] = q;
    }
    /* the pressures and means at rho1 (f->rho, set by the caller); with the relaxation a mixed
     * cell then reaches one pressure (its bracket starts from these) and its means are redone */
    if (eos_means(hp, f, c)) {
        *what = "NaN in a material's energy or pressure";
        return -1;
    }
    if (hp->relax && relax_cell(hp, f, c) && eos_means(hp, f, c)) {
        *what = "a material has no sound speed after the pressure relaxation";
        return -1;
    }
    return 0;
}

void mat_remap_values(int nmat, const struct hydro_fields *f, int32_t c, double *phi)
{
    /* m_k / V as y_k rho: density and mass are synchronised wherever the remap's values are
     * computed (a ghost's volume is not, between two directional steps of minimal), and a pure
     * cell's partial density is exactly its density */
    const double rho_m = f->rho[c] / f->mass[c];
    const int32_t pure = f->ms->cell[c];
    if (pure >= 0) { /* the others' columns 0 (0 times rho_m) */
        for (int k = 0; k < MAT_NPHI * nmat; k++)
            phi[k] = 0.0;
        double pk = f->mass[c] * rho_m;
        phi[MAT_NPHI * pure] = 1.0;
        phi[MAT_NPHI * pure + 1] = pk;
        phi[MAT_NPHI * pure + 2] = pk * f->e[c];
        return;
    }
    double fr[HYDRO_MAT_MAX], mm[HYDRO_MAT_MAX], me[HYDRO_MAT_MAX];
    load(f, c, MQ_FRAC, fr);
    load(f, c, MQ_MASS, mm);
    load(f, c, MQ_E, me);
    for (int k = 0; k < nmat; k++) {
        double pk = mm[k] * rho_m;
        phi[MAT_NPHI * k] = fr[k];
        phi[MAT_NPHI * k + 1] = pk;
        phi[MAT_NPHI * k + 2] = pk * me[k];
    }
}

/* mat_remap_cell for a pure cell of material k that only its own material crossed: the loops
 * below with the others' zeros (every sum with them exact). */
static double remap_pure(const struct hydro_params *hp, struct hydro_fields *f, int32_t c, int k, double vol,
                         double dv, double dm, double de, double *eint, struct xsum *removed)
{
    double vk = 1.0 * vol + dv, mk = f->mass[c] + dm, ek = f->mass[c] * f->e[c] + de;
    double vsum = 0.0 + (vk > 0 ? vk : 0), kept = 0;
    if (vk > 0 && vk >= hp->threshold * vsum && mk > 0) {
        kept = 0.0 + vk;
    } else { /* the material leaves: the cell keeps it at 0, and fails */
        xsum_add(&removed[k], mk);
        vk = mk = ek = 0;
    }
    double fk = kept > 0 ? vk / kept : 0;
    ek = ek > 0 ? ek : 0;
    f->mass[c] = mk;
    f->e[c] = mk > 0 ? ek / mk : 0;
    f->p[c] = fk > 0 ? f->p[c] : 0;
    *eint = 0.0 + ek;
    return 0.0 + mk;
}

double mat_remap_cell(const struct hydro_params *hp, struct hydro_fields *f, int32_t c, double vol, const double *dv,
                      const double *dm, const double *de, double *eint, struct xsum *removed, struct mat_change *change)
{
    change->cell = -1;
    const int nm = hp->nmat;
    const int32_t pure = f->ms->cell[c];
    int foreign = 0; /* another material crossed one of a pure cell's faces */
    for (int k = 0; k < nm && pure >= 0; k++)
        foreign |= k != pure && (dv[k] != 0 || dm[k] != 0 || de[k] != 0);
    if (pure >= 0 && !foreign)
        return remap_pure(hp, f, c, pure, vol, dv[pure], dm[pure], de[pure], eint, removed);
    double vk[HYDRO_MAT_MAX], mk[HYDRO_MAT_MAX], ek[HYDRO_MAT_MAX], vsum = 0;
    double fr[HYDRO_MAT_MAX], mm[HYDRO_MAT_MAX], me[HYDRO_MAT_MAX], mp[HYDRO_MAT_MAX];
    load(f, c, MQ_FRAC, fr);
    load(f, c, MQ_MASS, mm);
    load(f, c, MQ_E, me);
    load(f, c, MQ_P, mp); /* kept for the materials that stay, until the EOS */
    for (int k = 0; k < nm; k++) {
        vk[k] = fr[k] * vol + dv[k];
        mk[k] = mm[k] + dm[k];
        ek[k] = mm[k] * me[k] + de[k];
        vsum += vk[k] > 0 ? vk[k] : 0;
    }
    double kept = 0;
    for (int k = 0; k < nm; k++) { /* below the threshold, or no mass left: the material leaves */
        if (vk[k] > 0 && vk[k] >= hp->threshold * vsum && mk[k] > 0) {
            kept += vk[k];
            continue;
        }
        xsum_add(&removed[k], mk[k]); /* negative: mass a clip to zero adds */
        vk[k] = mk[k] = ek[k] = 0;
    }
    double mass = 0, e = 0;
    unsigned bits = 0;
    for (int k = 0; k < nm; k++) {
        double fk = kept > 0 ? vk[k] / kept : 0;
        ek[k] = ek[k] > 0 ? ek[k] : 0; /* MaHyCo clips negative partial energies */
        fr[k] = fk;
        mm[k] = mk[k];
        me[k] = mk[k] > 0 ? ek[k] / mk[k] : 0;
        mp[k] = fk > 0 ? mp[k] : 0;
        bits |= (unsigned)(fk > 0) << k;
        mass += mk[k];
        e += ek[k];
    }
    /* the new composition (none left: the cell keeps its materials at 0, and fails) */
    bits = bits ? bits : matstore_bits(f->ms, c);
    *eint = e;
    if ((f->ms->cell[c] < 0) != ((bits & (bits - 1)) != 0)) { /* a slot taken or given back: later */
        *change = (struct mat_change){.cell = c, .bits = bits, .mass = mass, .eint = e};
        memcpy(change->fr, fr, sizeof fr);
        memcpy(change->mm, mm, sizeof mm);
        memcpy(change->me, me, sizeof me);
        memcpy(change->mp, mp, sizeof mp);
        return mass;
    }
    matstore_compose(f->ms, c, bits); /* the cell's own entries only: its slot stays */
    store(f, c, MQ_FRAC, fr);
    store(f, c, MQ_MASS, mm);
    store(f, c, MQ_E, me);
    store(f, c, MQ_P, mp);
    return mass;
}

void mat_apply_change(struct hydro_fields *f, const struct mat_change *ch)
{
    const int32_t c = ch->cell;
    matstore_compose(f->ms, c, ch->bits);
    store(f, c, MQ_FRAC, ch->fr);
    store(f, c, MQ_MASS, ch->mm);
    store(f, c, MQ_E, ch->me);
    store(f, c, MQ_P, ch->mp);
    f->mass[c] = ch->mass;
    f->e[c] = ch->eint / ch->mass;
}

void mat_heat(const struct hydro_params *hp, struct hydro_fields *f, int32_t c, double dk)
{
    const int32_t pure = f->ms->cell[c];
    if (pure >= 0) {
        if (eos_energy_admissible(&hp->eos[pure], f->e[c] + dk))
            f->e[c] += dk;
        return;
    }
    const int nm = hp->nmat;
    double fr[HYDRO_MAT_MAX], me[HYDRO_MAT_MAX];
    load(f, c, MQ_FRAC, fr);
    load(f, c, MQ_E, me);
    for (int k = 0; k < nm; k++)
        if (fr[k] > 0 && !eos_energy_admissible(&hp->eos[k], me[k] + dk))
            return;
    for (int k = 0; k < nm; k++)
        if (fr[k] > 0)
            me[k] += dk;
    store(f, c, MQ_E, me);
}

int mat_admissible(const struct hydro_params *hp, const struct hydro_fields *f, int32_t c)
{
    const int32_t pure = f->ms->cell[c];
    if (pure >= 0)
        return eos_energy_admissible(&hp->eos[pure], f->e[c]);
    const int nm = hp->nmat;
    double fr[HYDRO_MAT_MAX], me[HYDRO_MAT_MAX];
    load(f, c, MQ_FRAC, fr);
    load(f, c, MQ_E, me);
    for (int k = 0; k < nm; k++)
        if (fr[k] > 0 && !eos_energy_admissible(&hp->eos[k], me[k]))
            return 0;
    return 1;
}
