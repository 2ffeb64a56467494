/* Initial conditions of the hydro test cases (see cases.h). */
#include "cases.h"

#include <math.h>
#include <string.h>

#include "lagrange.h"
#include "materials.h"

double sedov_alpha(int dim, double gamma)
{
    /* Kamm & Timmes (2007) tabulate alpha; gamma 1.4: cylindrical 0.9840, spherical 0.8510 */
    if (fabs(gamma - 1.4) > 1e-12)
        return 0;
    return dim == 2 ? 0.9840 : 0.8510;
}

static const char *const two_sides[] = {"left", "right"}, *const everywhere[] = {"all"},
                         *const triple[] = {"left", "bottom", "top"};

int case_regions(enum hydro_case name, const char *const **names)
{
    switch (name) {
    case HCASE_SOD:
    case HCASE_BISOD_X:
    case HCASE_WATER_AIR:
        *names = two_sides;
        return 2;
    case HCASE_TRIPLE_POINT:
        *names = triple;
        return 3;
    case HCASE_SEDOV:
    case HCASE_NOH:
    case HCASE_COUNT: /* not a case */
        break;
    }
    *names = everywhere;
    return 1;
}

/* The initial density and pressure at x, and the index of its region (case_regions' order). */
static int region(const struct case_params *cp, const double x[3], double *rho, double *p)
{
    switch (cp->name) {
    case HCASE_SOD:
    case HCASE_BISOD_X: {
        int d = cp->name == HCASE_SOD ? cp->direction : 0;
        int left = x[d] < cp->interface;
        *rho = left ? 1.0 : 0.125;
        *p = left ? 1.0 : 0.1;
        return !left;
    }
    case HCASE_WATER_AIR: {
        int left = x[0] < 0.7;
        *rho = left ? 1000.0 : 50.0; /* kg/m^3 */
        *p = left ? 1e9 : 1e5;       /* Pa */
        return !left;
    }
    case HCASE_SEDOV:
    case HCASE_NOH:
        *rho = 1.0;
        *p = 1e-6;
        return 0;
    case HCASE_TRIPLE_POINT:
        *rho = x[0] < 1.0 ? 1.0 : x[1] < 1.5 ? 1.0 : 0.125;
        *p = x[0] < 1.0 ? 1.0 : 0.1;
        return x[0] < 1.0 ? 0 : x[1] < 1.5 ? 1 : 2;
    case HCASE_COUNT: /* not a case */
        break;
    }
    return 0;
}

int case_init(const struct case_params *cp, const struct hydro_params *hp, const struct mesh *m,
              struct hydro_fields *f, int32_t nc, int32_t nn, struct hydro_error *err)
{
    const struct element *el = m->el;
    const int nv = el->nnodes;
    lagrange_geometry(m, f, nc);
    double origin_volume = 0; /* sedov: cells with a node at the origin */
    for (int32_t c = 0; c < nc; c++) {
        double xc[MAX_CELL_NODES][3], centre[3];
        int at_origin = 0;
        mesh_cell_coords(m, f->x, c, xc);
        for (int k = 0; k < nv; k++)
            at_origin |= fabs(xc[k][0]) + fabs(xc[k][1]) + fabs(xc[k][2]) < 1e-12;
        geom_centre(el, (const double(*)[3])xc, centre);
        double p = 0;
        int r = region(cp, centre, &f->rho[c], &p), k = cp->region_mat[r];
        f->e[c] = eos_energy(&hp->eos[k], f->rho[c], p);
        f->mass[c] = f->rho[c] * f->vol[c];
        if (hp->nmat > 1)
            mat_init_cell(f, c, k);
        f->len[c] = geom_length(el, (const double(*)[3])xc, f->vol[c], hp->length);
        f->q[c] = 0;
        if (cp->name == HCASE_SEDOV && at_origin)
            origin_volume += f->vol[c];
    }
    if (cp->name == HCASE_SEDOV)
        for (int32_t c = 0; c < nc; c++) {
            int at_origin = 0;
            for (int k = 0; k < nv; k++) {
                const double *x = f->x + 3 * (size_t)m->cell_nodes[(size_t)c * nv + k];
                at_origin |= fabs(x[0]) + fabs(x[1]) + fabs(x[2]) < 1e-12;
            }
            if (at_origin) { /* the energy shared by volume: uniform energy density */
                f->e[c] += cp->sedov_energy * (f->vol[c] / origin_volume) / f->mass[c];
                if (hp->nmat > 1)
                    mat_init_cell(f, c, cp->region_mat[0]);
            }
        }
    for (int32_t n = 0; n < nn; n++) {
        double *v = f->v + 3 * (size_t)n;
        v[0] = v[1] = v[2] = 0;
        if (cp->name == HCASE_NOH) {
            const double *x = f->x + 3 * (size_t)n;
            double r = sqrt(x[0] * x[0] + x[1] * x[1] + x[2] * x[2]);
            if (r > 0)
                for (int d = 0; d < el->dim; d++)
                    v[d] = -x[d] / r;
        }
    }
    return lagrange_eos(hp, f, nc, err);
}
