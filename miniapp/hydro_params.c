/* Deck -> scheme and case parameters (see hydro_params.h). */
#include "hydro_params.h"

#include <math.h>
#include <string.h>

#include "check.h"
#include "comm.h"
#include "run.h"

/* The blast sits at the corner of a quarter plane or octant. */
static void check_sedov_mesh(struct run *run)
{
    const struct mesh *m = run->mesh;
    int outside = 0, at_origin = 0;
    for (int32_t c = 0; c < m->ncells_owned; c++)
        for (int k = 0; k < m->el->nnodes; k++) {
            const double *x = m->node_xyz + 3 * (size_t)m->cell_nodes[(size_t)c * m->el->nnodes + k];
            outside |= x[0] < -1e-12 || x[1] < -1e-12 || x[2] < -1e-12;
            at_origin |= fabs(x[0]) + fabs(x[1]) + fabs(x[2]) < 1e-12;
        }
    if (comm_max_int(run->comm, outside) || !comm_max_int(run->comm, at_origin))
        run_exit_collective(run, EXIT_BADINPUT, run->rank == 0 ? "case sedov: the mesh must be the quarter plane "
                            "(2D) or octant (3D) x, y, z >= 0, with a node at the origin where the blast starts"
                                                               : NULL);
}

void hydro_params_from_deck(struct run *run, struct hydro_params *hp, struct case_params *cp)
{
    const struct config *cfg = &run->cfg;
    *hp = (struct hydro_params){
        .nmat = cfg->nmat,
        .threshold = cfg->mat_threshold,
        .relax = cfg->mat_relax,
        .cfl = cfg->cfl,
        .q1 = cfg->q1,
        .dt_init = cfg->dt_init,
        .dt_min = cfg->dt_min,
        .dt_max = cfg->dt_max,
        .dt_growth = cfg->dt_growth,
        .dt_control = cfg->dt_control,
        .dt_decrease = cfg->dt_decrease,
        .density_ratio = cfg->density_ratio,
        .final_time = cfg->final_time,
        .length = cfg->length,
        .remap = cfg->remap == REMAP_EULER,
        .remap_heat = cfg->remap_heat,
        .limiter = cfg->limiter,
    };
    for (int k = 0; k < cfg->nmat; k++) { /* q2 -1: MaHyCo's (gamma + 1) / 2, the material's gamma */
        const struct material_decl *d = &cfg->mat[k];
        hp->eos[k] = eos_make(d->eos, d->gamma, d->p_inf, cfg->newton_tol, (int)cfg->newton_max);
        hp->q2[k] = cfg->q2 >= 0 ? cfg->q2 : 0.5 * (d->gamma + 1.0);
    }
    *cp = (struct case_params){.name = (enum hydro_case)(cfg->case_name - CASE_HYDRO), .direction = cfg->direction,
                               .interface = cfg->interface, .sedov_energy = cfg->sedov_energy};
    memcpy(cp->region_mat, cfg->region_mat, sizeof cp->region_mat);
    if (cp->name == HCASE_SEDOV && cp->sedov_energy == 0) {
        double alpha = sedov_alpha((int)cfg->dim, cfg->mat[cfg->region_mat[0]].gamma);
        if (alpha == 0)
            run_exit_collective(run, EXIT_BADINPUT, run->rank == 0 ? "case.sedov_energy: the automatic value is "
                                                                     "known for gamma 1.4 only: set it" : NULL);
        cp->sedov_energy = alpha / (cfg->dim == 2 ? 4.0 : 8.0); /* a quarter plane or an octant */
    }
    if (cp->name == HCASE_SEDOV)
        check_sedov_mesh(run);
}
