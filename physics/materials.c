/* Materials in mixed cells (see materials.h). A pure cell (f_k = 1, y_k = 1) computes exactly
 * what the single-material formulas compute: every product and sum with 1 or 0 is exact. */
#include "materials.h"

#include <math.h>
#include <string.h>

void mat_init_cell(int nmat, struct hydro_fields *f, int32_t c, int k)
{
    size_t o = (size_t)c * nmat;
    for (int j = 0; j < nmat; j++) {
        f->mfrac[o + j] = j == k ? 1.0 : 0.0;
        f->mmass[o + j] = j == k ? f->mass[c] : 0.0;
        f->me[o + j] = j == k ? f->e[c] : 0.0;
        f->mp[o + j] = 0.0;
    }
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
    const size_t o = (size_t)c * nm;
    const double V = f->vol[c];
    double vk[HYDRO_MAT_MAX], ek[HYDRO_MAT_MAX], out[HYDRO_MAT_MAX], lo = -INFINITY, guess = 0;
    int k[HYDRO_MAT_MAX], n = 0;
    for (int j = 0; j < nm; j++)
        if (f->mfrac[o + j] > 0) {
            k[n] = j;
            vk[n] = f->mfrac[o + j] * V;
            ek[n] = f->mmass[o + j] * f->me[o + j];
            double pi = hp->eos[j].p_inf;
            lo = -pi > lo ? -pi : lo;
            guess += f->mfrac[o + j] * f->mp[o + j];
            n++;
        }
    if (n < 2)
        return 0; /* a pure cell */
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
        f->mfrac[o + k[i]] = out[i] / sum;
        f->me[o + k[i]] = (ek[i] - p * (out[i] - vk[i])) / f->mmass[o + k[i]];
    }
    return 1;
}

/* Each present material's density y_k rho / f_k, pressure and sound speed from its mass and
 * energy, and the cell's mean p, c and e (mp 0 where a material is absent). Returns 0, or -1
 * when a material has no sound speed. */
static int eos_means(const struct hydro_params *hp, struct hydro_fields *f, int32_t c)
{
    const int nm = hp->nmat;
    const size_t o = (size_t)c * nm;
    double m = f->mass[c], rho = f->rho[c], p = 0, cs = 0, e = 0;
    int bad = 0;
    for (int k = 0; k < nm; k++) {
        double fk = f->mfrac[o + k];
        if (!(fk > 0)) {
            f->mp[o + k] = 0;
            continue;
        }
        double y = f->mmass[o + k] / m, rk = y * rho / fk;
        double pk = eos_pressure(&hp->eos[k], rk, f->me[o + k]), ck = eos_sound_speed(&hp->eos[k], rk, pk);
        f->mp[o + k] = pk;
        p += fk * pk;
        e += y * f->me[o + k];
        cs = ck > cs ? ck : cs;
        bad |= !isfinite(pk) || !isfinite(ck);
    }
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
    memcpy(f->me0, f->me, (size_t)nc * nmat * sizeof *f->me);
    memcpy(f->mp0, f->mp, (size_t)nc * nmat * sizeof *f->mp);
}

int mat_lagrange_cell(const struct hydro_params *hp, struct hydro_fields *f, int32_t c, double rho0, double rho1,
                      double divu, const char **what)
{
    const int nm = hp->nmat;
    const size_t o = (size_t)c * nm;
    const double L = f->len[c], cbar = f->c[c], m = f->mass[c];
    double q = 0;
    for (int k = 0; k < nm; k++) {
        double fk = f->mfrac[o + k];
        if (!(fk > 0))
            continue;
        double y = f->mmass[o + k] / m, r0 = y * rho0 / fk, r1 = y * rho1 / fk;
        double dtau = 1.0 / r1 - 1.0 / r0, tau = 0.5 * (1.0 / r0 + 1.0 / r1);
        double qk = 0;
        if (divu < 0) /* compression only: the cell's L, div u and mean c, the material's q2 */
            qk = (1.0 / tau) * (-hp->q1 * L * cbar * divu + hp->q2[k] * L * L * divu * divu);
        double e1;
        if (eos_energy_update(&hp->eos[k], f->me0[o + k], f->mp0[o + k], qk, r1, dtau, &e1) < 0) {
            *what = "a material's energy update (Newton iteration) did not converge";
            return -1;
        }
        if (!isfinite(e1)) {
            *what = "NaN in a material's energy or pressure";
            return -1;
        }
        f->me[o + k] = e1;
        q += fk * qk;
    }
    f->q[c] = q;
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
    const size_t o = (size_t)c * nmat;
    const double rho_m = f->rho[c] / f->mass[c];
    for (int k = 0; k < nmat; k++) {
        double pk = f->mmass[o + k] * rho_m;
        phi[MAT_NPHI * k] = f->mfrac[o + k];
        phi[MAT_NPHI * k + 1] = pk;
        phi[MAT_NPHI * k + 2] = pk * f->me[o + k];
    }
}

double mat_remap_cell(const struct hydro_params *hp, struct hydro_fields *f, int32_t c, double vol, const double *dv,
                      const double *dm, const double *de, double *eint, double *removed)
{
    const int nm = hp->nmat;
    const size_t o = (size_t)c * nm;
    double vk[HYDRO_MAT_MAX], mk[HYDRO_MAT_MAX], ek[HYDRO_MAT_MAX], vsum = 0;
    for (int k = 0; k < nm; k++) {
        vk[k] = f->mfrac[o + k] * vol + dv[k];
        mk[k] = f->mmass[o + k] + dm[k];
        ek[k] = f->mmass[o + k] * f->me[o + k] + de[k];
        vsum += vk[k] > 0 ? vk[k] : 0;
    }
    double kept = 0;
    for (int k = 0; k < nm; k++) { /* below the threshold, or no mass left: the material leaves */
        if (vk[k] > 0 && vk[k] >= hp->threshold * vsum && mk[k] > 0) {
            kept += vk[k];
            continue;
        }
        removed[k] += mk[k]; /* negative: mass a clip to zero adds */
        vk[k] = mk[k] = ek[k] = 0;
    }
    double mass = 0, e = 0;
    for (int k = 0; k < nm; k++) {
        double fk = kept > 0 ? vk[k] / kept : 0;
        ek[k] = ek[k] > 0 ? ek[k] : 0; /* MaHyCo clips negative partial energies */
        f->mfrac[o + k] = fk;
        f->mmass[o + k] = mk[k];
        f->me[o + k] = mk[k] > 0 ? ek[k] / mk[k] : 0;
        mass += mk[k];
        e += ek[k];
    }
    *eint = e;
    return mass;
}

void mat_heat(const struct hydro_params *hp, struct hydro_fields *f, int32_t c, double dk)
{
    const int nm = hp->nmat;
    const size_t o = (size_t)c * nm;
    for (int k = 0; k < nm; k++)
        if (f->mfrac[o + k] > 0 && !eos_energy_admissible(&hp->eos[k], f->me[o + k] + dk))
            return;
    for (int k = 0; k < nm; k++)
        if (f->mfrac[o + k] > 0)
            f->me[o + k] += dk;
}

int mat_admissible(const struct hydro_params *hp, const struct hydro_fields *f, int32_t c)
{
    const int nm = hp->nmat;
    const size_t o = (size_t)c * nm;
    for (int k = 0; k < nm; k++)
        if (f->mfrac[o + k] > 0 && !eos_energy_admissible(&hp->eos[k], f->me[o + k]))
            return 0;
    return 1;
}
