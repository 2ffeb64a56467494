/* The hydro fields and the arena (see hydro_fields.h). */
#include "hydro_fields.h"

#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "materials.h"

/* Where a field's values live. */
enum storage {
    S_OWNED, /* an array of the registry's: migrated and dumped as its flags say */
    S_MESH,  /* the mesh's node coordinates */
    S_ARENA, /* Lagrange scratch in the arena (written and read within the phase) */
    S_MATS,  /* a quantity of the registry's matstore (column: which one; a pure cell's value in the
              * field pure_of names, the fractions' 1 in none) */
    S_REMAP, /* a remap work array (unew, knew) */
    S_PHI,   /* a view of columns of the remap's values [cell][nphi - 1] (column 0, the density, is
              * the density itself) */
    S_GRAD,  /* a view of columns of its slopes [cell][REMAP_NPHI][3] (the materials' are not kept) */
};

enum { SMD = VAR_SYNC | VAR_MIGRATE | VAR_CHECKPOINT, MAT = SMD | VAR_MATERIAL };

static const struct {
    const char *name;
    enum var_center center;
    int ncomp;
    unsigned flags;
    const char *unit;
    enum storage storage;
    int column;  /* S_PHI, S_GRAD: the first column in the remap's values */
    int per_mat; /* ncomp per material, registered with more than one material only */
} fields[F_COUNT] = {
    [F_RHO] = {"density", VAR_CELL, 1, SMD, "mass/length^3", S_OWNED, 0, 0},
    [F_E] = {"internal_energy", VAR_CELL, 1, SMD, "energy/mass", S_OWNED, 0, 0},
    [F_P] = {"pressure", VAR_CELL, 1, SMD, "pressure", S_OWNED, 0, 0},
    [F_C] = {"sound_speed", VAR_CELL, 1, SMD, "length/time", S_OWNED, 0, 0},
    [F_Q] = {"viscosity", VAR_CELL, 1, SMD | VAR_SHOCK, "pressure", S_OWNED, 0, 0},
    [F_VOL] = {"volume", VAR_CELL, 1, SMD, "length^dim", S_OWNED, 0, 0},
    [F_MASS] = {"mass", VAR_CELL, 1, SMD, "mass", S_OWNED, 0, 0},
    [F_LEN] = {"length", VAR_CELL, 1, VAR_SYNC | VAR_MIGRATE, "length", S_OWNED, 0, 0},
    [F_X] = {"position", VAR_NODE, 3, VAR_SYNC, "length", S_MESH, 0, 0},
    [F_V] = {"velocity", VAR_NODE, 3, SMD, "length/time", S_OWNED, 0, 0},
    [F_NMASS] = {"mass", VAR_NODE, 1, SMD, "mass", S_OWNED, 0, 0},
    [F_FORCE] = {"force", VAR_NODE, 3, 0, "mass length/time^2", S_ARENA, 0, 0},
    [F_XINIT] = {"initial_position", VAR_NODE, 3, VAR_SYNC | VAR_MIGRATE, "length", S_OWNED, 0, 0},
    [F_MFRAC] = {"material_fraction", VAR_CELL, 1, MAT | VAR_FRACTION, "volume fraction", S_MATS, MQ_FRAC, 1},
    [F_MMASS] = {"material_mass", VAR_CELL, 1, MAT, "mass", S_MATS, MQ_MASS, 1},
    [F_ME] = {"material_internal_energy", VAR_CELL, 1, MAT, "energy/mass", S_MATS, MQ_E, 1},
    [F_MP] = {"material_pressure", VAR_CELL, 1, MAT, "pressure", S_MATS, MQ_P, 1},
    [F_UNEW] = {"remap_velocity", VAR_CELL, 3, VAR_SYNC, "length/time", S_REMAP, 0, 0},
    [F_KNEW] = {"remap_kinetic", VAR_CELL, 1, VAR_SYNC, "energy/mass", S_REMAP, 0, 0},
    [F_PHI_RHO] = {"remap_density", VAR_CELL, 1, VAR_SYNC, "mass/length^3", S_PHI, 0, 0},
    [F_PHI_E] = {"remap_internal_energy", VAR_CELL, 1, VAR_SYNC, "energy/mass", S_PHI, 1, 0},
    [F_PHI_K] = {"remap_kinetic_energy", VAR_CELL, 1, VAR_SYNC, "energy/mass", S_PHI, 2, 0},
    [F_PHI_U] = {"remap_mean_velocity", VAR_CELL, 3, VAR_SYNC, "length/time", S_PHI, 3, 0},
    [F_GRAD_RHO] = {"slope_density", VAR_CELL, 3, VAR_SYNC, "", S_GRAD, 0, 0},
    [F_GRAD_E] = {"slope_internal_energy", VAR_CELL, 3, VAR_SYNC, "", S_GRAD, 1, 0},
    [F_GRAD_K] = {"slope_kinetic_energy", VAR_CELL, 3, VAR_SYNC, "", S_GRAD, 2, 0},
    [F_GRAD_U] = {"slope_mean_velocity", VAR_CELL, 9, VAR_SYNC, "", S_GRAD, 3, 0},
    [F_PHI_MAT] = {"remap_materials", VAR_CELL, MAT_NPHI, VAR_SYNC, "", S_PHI, REMAP_NPHI, 1},
};

static int remap_only(int i) { return fields[i].storage >= S_REMAP; }

/* The cell field holding a pure cell's value of each material field (the fractions: none). */
static const int pure_of[F_COUNT] = {[F_MFRAC] = -1, [F_MMASS] = F_MASS, [F_ME] = F_E, [F_MP] = F_P};

static int ncomp_of(int i, int nmat) { return fields[i].ncomp * (fields[i].per_mat ? nmat : 1); }

void hydro_fields_register(struct registry *reg, int remap, int nmat, double *node_xyz, int id[F_COUNT])
{
    for (int i = 0; i < F_COUNT; i++) {
        id[i] = -1;
        if ((remap_only(i) && !remap) || (fields[i].per_mat && nmat < 2))
            continue;
        int nc = ncomp_of(i, nmat);
        if (fields[i].storage == S_MATS && !reg->mats)
            registry_set_materials(reg, nmat);
        if (fields[i].storage == S_MATS)
            id[i] = registry_add_material(reg, fields[i].name, (enum mat_quantity)fields[i].column,
                                          pure_of[i] >= 0 ? id[pure_of[i]] : -1, fields[i].flags,
                                          fields[i].unit);
        else if (fields[i].storage == S_OWNED)
            id[i] = registry_add(reg, fields[i].name, fields[i].center, nc, fields[i].flags, fields[i].unit);
        else /* pointed at its storage by hydro_fields_attach */
            id[i] = registry_add_external(reg, fields[i].name, fields[i].center, nc, fields[i].flags,
                                          fields[i].unit, fields[i].storage == S_MESH ? node_xyz : NULL);
    }
}

/* Doubles of one field over the mesh's items (at least one item, for empty ranks). */
static size_t field_doubles(const struct mesh *m, int i, int nmat)
{
    size_t items = (size_t)(fields[i].center == VAR_CELL ? m->ncells : m->nnodes);
    return (items ? items : 1) * (size_t)ncomp_of(i, nmat);
}

/* The arena: corner vectors and forces live from the start of the Lagrange phase to its end, the
 * remap's work arrays within one remap step; neither reads what the other left, so one block the
 * size of the larger serves both. Written once here so that its pages are faulted in during the
 * set-up, not inside the first cycle's timers (page faults are expensive on some VMs). */
static void arena_attach(struct hydro *h, struct registry *reg, const int id[F_COUNT])
{
    const struct mesh *m = h->m;
    size_t ncorner = (size_t)(m->ncells ? m->ncells : 1) * m->el->nnodes * 3, lag = ncorner;
    size_t rem = h->hp.remap ? remap_work_size(m, h->hp.nmat) : 0;
    for (int i = 0; i < F_COUNT; i++)
        if (fields[i].storage == S_ARENA && id[i] >= 0)
            lag += field_doubles(m, i, h->hp.nmat);
    h->narena = lag > rem ? lag : rem;
    h->arena = xmalloc(h->narena * sizeof *h->arena);
    memset(h->arena, 0, h->narena * sizeof *h->arena);
    h->f.corner = h->arena;
    double *next = h->arena + ncorner;
    for (int i = 0; i < F_COUNT; i++)
        if (fields[i].storage == S_ARENA && id[i] >= 0) {
            registry_set_external(reg, id[i], next);
            next += field_doubles(m, i, h->hp.nmat);
        }
}

/* The remap's results and its values and slopes, each synchronised in place (MaHyCo does one
 * variable at a time): views of the interleaved [cell][e k u] (the density: f->rho itself) and
 * [cell][rho e k u][3]. */
static void remap_attach(struct hydro *h, struct registry *reg, const int id[F_COUNT])
{
    remap_work_init(&h->rw, h->m, h->arena, h->hp.nmat);
    registry_set_external(reg, id[F_UNEW], h->rw.unew);
    registry_set_external(reg, id[F_KNEW], h->rw.knew);
    const int nrow = h->rw.nphi - 1;
    for (int i = 0; i < F_COUNT; i++)
        if (id[i] < 0)
            continue;
        else if (fields[i].storage == S_PHI && fields[i].column == 0)
            registry_set_view(reg, id[i], h->f.rho, 1);
        else if (fields[i].storage == S_PHI)
            registry_set_view(reg, id[i], h->rw.phi + fields[i].column - 1, nrow);
        else if (fields[i].storage == S_GRAD)
            registry_set_view(reg, id[i], h->rw.grad + 3 * fields[i].column, REMAP_NPHI * 3);
}

void hydro_fields_attach(struct hydro *h, struct registry *reg, const int id[F_COUNT])
{
    registry_set_external(reg, id[F_X], h->m->node_xyz);
    arena_attach(h, reg, id);
    struct hydro_fields *f = &h->f;
    double **ptr[F_COUNT] = {[F_RHO] = &f->rho, [F_E] = &f->e,     [F_P] = &f->p,         [F_C] = &f->c,
                             [F_Q] = &f->q,     [F_VOL] = &f->vol, [F_MASS] = &f->mass,   [F_LEN] = &f->len,
                             [F_X] = &f->x,
                             [F_V] = &f->v,     [F_NMASS] = &f->nmass, [F_FORCE] = &f->force, [F_XINIT] = &f->x_init};
    f->ms = reg->mats; /* NULL with one material */
    for (int i = 0; i < F_COUNT; i++)
        if (ptr[i] && id[i] >= 0)
            *ptr[i] = reg->v[id[i]].data;
    if (h->hp.remap)
        remap_attach(h, reg, id);
}

void hydro_fields_detach(struct hydro *h)
{
    remap_work_free(&h->rw);
    free(h->arena);
    h->arena = NULL;
    h->f.corner = NULL;
}
