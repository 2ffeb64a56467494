/* Variable registry (see vars.h). */
#include "vars.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

void registry_init(struct registry *r, int32_t ncells, int32_t nnodes)
{
    memset(r, 0, sizeof *r);
    r->ncells = ncells;
    r->nnodes = nnodes;
}

void registry_free(struct registry *r)
{
    for (int i = 0; i < r->n; i++)
        if (!r->v[i].external)
            free(r->v[i].data);
    free(r->v);
    matstore_destroy(r->mats);
    memset(r, 0, sizeof *r);
}

int32_t registry_items(const struct registry *r, int id)
{
    return r->v[id].center == VAR_CELL ? r->ncells : r->nnodes;
}

/* A new variable's entry, its storage left to the caller. */
static struct var *new_var(struct registry *r, const char *name, enum var_center center, int ncomp, unsigned flags,
                           const char *unit)
{
    for (int i = 0; i < r->n; i++) /* one name per centering: cells and nodes may both have a "mass" */
        if (r->v[i].center == center && !strcmp(r->v[i].name, name))
            hydro_fatal(MPI_COMM_WORLD, EXIT_RUNTIME, "internal error: variable '%s' registered twice", name);
    if (strlen(name) >= sizeof r->v[0].name || ncomp < 1 || ((flags & VAR_MIGRATE) && !(flags & VAR_SYNC)) ||
        ((flags & VAR_SHOCK) && (center != VAR_CELL || ncomp != 1 || registry_flagged(r, VAR_SHOCK) >= 0)) ||
        ((flags & VAR_MATERIAL) && (center != VAR_CELL || !r->mats || ncomp != r->mats->nmat)) ||
        ((flags & VAR_FRACTION) && (!(flags & VAR_MATERIAL) || registry_flagged(r, VAR_FRACTION) >= 0)))
        hydro_fatal(MPI_COMM_WORLD, EXIT_RUNTIME, "internal error: bad variable '%s'", name);
    if (r->n == r->cap) {
        r->cap = r->cap ? 2 * r->cap : 16;
        r->v = xrealloc(r->v, (size_t)r->cap * sizeof *r->v);
    }
    struct var *v = &r->v[r->n++];
    memset(v, 0, sizeof *v);
    strcpy(v->name, name);
    snprintf(v->unit, sizeof v->unit, "%s", unit ? unit : "");
    v->center = center;
    v->ncomp = ncomp;
    v->stride = ncomp;
    v->flags = flags;
    return v;
}

int registry_add(struct registry *r, const char *name, enum var_center center, int ncomp, unsigned flags,
                 const char *unit)
{
    if (flags & VAR_MATERIAL) /* the matstore's: registry_add_material */
        hydro_fatal(MPI_COMM_WORLD, EXIT_RUNTIME, "internal error: material variable '%s' without the store", name);
    struct var *v = new_var(r, name, center, ncomp, flags, unit);
    int32_t items = center == VAR_CELL ? r->ncells : r->nnodes;
    v->data = xcalloc((size_t)(items ? items : 1) * (size_t)ncomp, sizeof *v->data);
    return r->n - 1;
}

void registry_set_materials(struct registry *r, int nmat)
{
    if (r->mats || nmat < 2 || nmat > MATSTORE_MAX)
        hydro_fatal(MPI_COMM_WORLD, EXIT_RUNTIME, "internal error: %d materials", nmat);
    r->mats = matstore_create(nmat, r->ncells);
}

int registry_add_material(struct registry *r, const char *name, enum mat_quantity mq, int pure, unsigned flags,
                          const char *unit)
{
    if (!(flags & VAR_MATERIAL) || !r->mats || (mq == MQ_FRAC) != (pure < 0) || !(mq == MQ_FRAC) != !(flags & VAR_FRACTION) ||
        (pure >= 0 && (pure >= r->n || r->v[pure].center != VAR_CELL || r->v[pure].ncomp != 1 || r->v[pure].external)))
        hydro_fatal(MPI_COMM_WORLD, EXIT_RUNTIME, "internal error: bad material variable '%s'", name);
    struct var *v = new_var(r, name, VAR_CELL, r->mats->nmat, flags, unit);
    v->mq = mq;
    v->pure = pure;
    return r->n - 1;
}

void registry_mat_row(const struct registry *r, int id, int32_t c, double *row)
{
    const struct var *v = &r->v[id];
    double *pure[MQ_COUNT] = {0};
    if (v->pure >= 0)
        pure[v->mq] = r->v[v->pure].data;
    matstore_get(r->mats, pure, c, (enum mat_quantity)v->mq, row);
}

void registry_mat_set_row(struct registry *r, int id, int32_t c, const double *row, int to_cell)
{
    const struct var *v = &r->v[id];
    if (v->flags & VAR_FRACTION)
        matstore_compose_fractions(r->mats, c, row);
    double *pure[MQ_COUNT] = {0};
    if (v->pure >= 0 && to_cell)
        pure[v->mq] = r->v[v->pure].data;
    matstore_set(r->mats, pure, c, (enum mat_quantity)v->mq, row);
}

int registry_add_external(struct registry *r, const char *name, enum var_center center, int ncomp, unsigned flags,
                          const char *unit, double *data)
{
    if (flags & VAR_MIGRATE) /* migration reallocates a variable's array: it must be the registry's */
        hydro_fatal(MPI_COMM_WORLD, EXIT_RUNTIME, "internal error: external variable '%s' cannot migrate", name);
    struct var *v = new_var(r, name, center, ncomp, flags, unit);
    v->data = data;
    v->external = 1;
    return r->n - 1;
}

void registry_set_external(struct registry *r, int id, double *data)
{
    r->v[id].data = data;
    r->v[id].stride = r->v[id].ncomp;
}

void registry_set_view(struct registry *r, int id, double *data, int stride)
{
    struct var *v = &r->v[id];
    if (!v->external || (v->flags & ~(unsigned)VAR_SYNC) || stride < v->ncomp)
        hydro_fatal(MPI_COMM_WORLD, EXIT_RUNTIME, "internal error: variable '%s' cannot be a view", v->name);
    v->data = data;
    v->stride = stride;
}

int registry_flagged(const struct registry *r, unsigned flag)
{
    for (int i = 0; i < r->n; i++)
        if (r->v[i].flags & flag)
            return i;
    return -1;
}

int registry_name_shared(const struct registry *r, int id)
{
    for (int i = 0; i < r->n; i++)
        if (r->v[i].center != r->v[id].center && !strcmp(r->v[i].name, r->v[id].name))
            return 1;
    return 0;
}
