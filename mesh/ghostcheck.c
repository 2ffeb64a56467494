/* Ghost check (see ghostcheck.h). */
#include "ghostcheck.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "comm.h"

/* Part k of item i as the check sees it: variable k's values (a material variable's row of one
 * value per material, built in row), and after the variables, in a material group, the
 * composition (in row too). Returns the part's values, *nc of them; *name names it. */
static const double *item_part(const struct sync_group *g, int k, int32_t i, double row[MATSTORE_MAX], int *nc,
                               const char **name)
{
    if (k == g->nvars) {
        row[0] = (double)matstore_bits(g->reg->mats, i);
        *nc = 1;
        *name = "composition";
        return row;
    }
    const struct var *var = &g->reg->v[g->vars[k]];
    *nc = var->ncomp;
    *name = var->name;
    if (!(var->flags & VAR_MATERIAL))
        return var->data + (size_t)i * var->stride;
    registry_mat_row(g->reg, g->vars[k], i, row);
    return row;
}

/* The end of the ghosts g refreshes: those of its layers (sync_group_set_depth), which come first. */
static int32_t refreshed_end(const struct mesh *m, const struct sync_group *g)
{
    const int cells = g->plan->center == VAR_CELL;
    const int32_t end = cells ? m->cell_layer_start[g->depth + 1] : m->node_layer_start[g->depth + 1];
    const int32_t n = cells ? m->ncells : m->nnodes;
    return end < n ? end : n;
}

/* Parts of an item: the variables, and the composition in a material group. */
static int item_parts(const struct sync_group *g) { return g->nvars + (g->nmat > 0); }

/* Every part of item i, one after the other. */
static void put_values(struct buf *b, const struct sync_group *g, int32_t i)
{
    for (int k = 0; k < item_parts(g); k++) {
        double row[MATSTORE_MAX];
        const char *name;
        int nc;
        const double *x = item_part(g, k, i, row, &nc, &name);
        buf_put(b, x, (size_t)nc * sizeof *x);
    }
}

/* Compares the parts of ghost i with the owner's in b; counts and describes differences. */
static long long compare(const struct sync_group *g, const struct mesh *m, int32_t i, struct buf *b,
                         long long *compared, long long bad, char *what, size_t n)
{
    const int cells = g->plan->center == VAR_CELL;
    for (int k = 0; k < item_parts(g); k++) {
        double row[MATSTORE_MAX];
        const char *name;
        int nc;
        const double *x = item_part(g, k, i, row, &nc, &name);
        for (int c = 0; c < nc; c++) {
            double own;
            buf_get(b, &own, sizeof own);
            ++*compared;
            if (!memcmp(&own, &x[c], sizeof own))
                continue;
            if (!bad++)
                snprintf(what, n, "'%s' component %d of %s %lld (owner rank %d): ghost %.17g, owner %.17g", name, c,
                         cells ? "cell" : "node", (long long)(cells ? m->cell_gid[i] : m->node_gid[i]),
                         cells ? mesh_cell_owner(m, i) : mesh_node_owner(m, i), x[c], own);
        }
    }
    return bad;
}

void ghost_check_fetch(MPI_Comm comm, const struct mesh *m, const struct sync_group *g, struct inbox *answered)
{
    const int cells = g->plan->center == VAR_CELL;
    const int32_t first = cells ? m->ncells_owned : m->nnodes_owned, last = refreshed_end(m, g);
    const int32_t *owner = cells ? m->ghost_cell_owner : m->ghost_node_owner; /* [i - first] */
    const int64_t *gid = cells ? m->cell_gid : m->node_gid;
    struct outbox ask, answer;
    struct inbox asked;
    outbox_init(&ask, comm);
    for (int32_t i = first; i < last; i++) /* ascending local order per owner, kept by the answer */
        buf_put_i64(&ask.to[owner[i - first]], gid[i]);
    comm_exchange(comm, &ask, &asked);
    outbox_free(&ask);
    outbox_init(&answer, comm);
    for (int k = 0; k < asked.n; k++)
        while (!buf_done(&asked.msg[k])) {
            int64_t id = buf_get_i64(&asked.msg[k]);
            int32_t i = cells ? mesh_owned_cell(m, id) : mesh_owned_node(m, id);
            if (i < 0)
                hydro_fatal(comm, EXIT_RUNTIME, "ghost check: rank %d holds %s %lld as a ghost owned here, "
                            "which does not own it", asked.src[k], cells ? "cell" : "node", (long long)id);
            put_values(&answer.to[asked.src[k]], g, i);
        }
    inbox_free(&asked);
    comm_exchange(comm, &answer, answered);
    outbox_free(&answer);
}

long long ghost_check_compare(const struct mesh *m, const struct sync_group *g, struct inbox *answered,
                              long long *compared, char *what, size_t n)
{
    const int cells = g->plan->center == VAR_CELL;
    const int32_t first = cells ? m->ncells_owned : m->nnodes_owned, last = refreshed_end(m, g);
    const int32_t *owner = cells ? m->ghost_cell_owner : m->ghost_node_owner; /* [i - first] */
    long long bad = 0;
    *compared = 0;
    what[0] = '\0';
    for (int k = 0; k < answered->n; k++)
        for (int32_t i = first; i < last; i++)
            if (owner[i - first] == answered->src[k])
                bad = compare(g, m, i, &answered->msg[k], compared, bad, what, n);
    inbox_free(answered);
    return bad;
}

long long ghost_check_group(MPI_Comm comm, const struct mesh *m, const struct sync_group *g, long long *compared,
                            char *what, size_t n)
{
    struct inbox answered;
    ghost_check_fetch(comm, m, g, &answered);
    return ghost_check_compare(m, g, &answered, compared, what, n);
}
