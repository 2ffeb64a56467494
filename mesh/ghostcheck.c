/* Ghost check (see ghostcheck.h). */
#include "ghostcheck.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "comm.h"

/* The doubles of item i of g's variables, packed one variable after the other. */
static void put_values(struct buf *b, const struct sync_group *g, int32_t i)
{
    for (int v = 0; v < g->nvars; v++) {
        const struct var *var = &g->reg->v[g->vars[v]];
        double row[8];
        const double *src = var->data + (size_t)i * var->stride;
        if (var->flags & VAR_MATERIAL) {
            registry_mat_row(g->reg, g->vars[v], i, row);
            src = row;
        }
        buf_put(b, src, (size_t)var->ncomp * sizeof(double));
    }
    if (g->nmat) { /* and the composition */
        double bits = (double)matstore_bits(g->reg->mats, i);
        buf_put(b, &bits, sizeof bits);
    }
}

/* Compares the values of ghost i with the owner's in b; counts and describes differences. */
static long long compare(const struct sync_group *g, const struct mesh *m, int32_t i, struct buf *b,
                         long long *compared, long long bad, char *what, size_t n)
{
    const int cells = g->plan->center == VAR_CELL;
    for (int v = 0; v <= g->nvars; v++) {
        if (v == g->nvars && !g->nmat)
            break;
        const struct var *var = &g->reg->v[g->vars[v < g->nvars ? v : 0]];
        double row[8];
        const double *mine_row = var->data + (size_t)i * var->stride;
        if (v == g->nvars) { /* the composition, after the values */
            row[0] = (double)matstore_bits(g->reg->mats, i);
            mine_row = row;
        } else if (var->flags & VAR_MATERIAL) {
            registry_mat_row(g->reg, g->vars[v], i, row);
            mine_row = row;
        }
        for (int c = 0; c < (v == g->nvars ? 1 : var->ncomp); c++) {
            double own, mine = mine_row[c];
            buf_get(b, &own, sizeof own);
            ++*compared;
            if (!memcmp(&own, &mine, sizeof own))
                continue;
            if (!bad++)
                snprintf(what, n, "%s '%s' component %d of %s %lld (owner rank %d): ghost %.17g, owner %.17g",
                         v == g->nvars ? "composition" : var->flags & VAR_MATERIAL ? "material variable" : "variable",
                         v == g->nvars ? "bits" : var->name, c,
                         cells ? "cell" : "node", (long long)(cells ? m->cell_gid[i] : m->node_gid[i]),
                         cells ? m->cell_owner[i] : m->node_owner[i], mine, own);
        }
    }
    return bad;
}

long long ghost_check_group(MPI_Comm comm, const struct mesh *m, const struct sync_group *g, long long *compared,
                            char *what, size_t n)
{
    const int cells = g->plan->center == VAR_CELL;
    const int32_t first = cells ? m->ncells_owned : m->nnodes_owned, last = cells ? m->ncells : m->nnodes;
    const int32_t *owner = cells ? m->cell_owner : m->node_owner;
    const int64_t *gid = cells ? m->cell_gid : m->node_gid;
    struct outbox ask, answer;
    struct inbox asked, answered;
    outbox_init(&ask, comm);
    for (int32_t i = first; i < last; i++) /* ascending local order per owner, kept by the answer */
        buf_put_i64(&ask.to[owner[i]], gid[i]);
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
    comm_exchange(comm, &answer, &answered);
    outbox_free(&answer);
    long long bad = 0;
    *compared = 0;
    what[0] = '\0';
    for (int k = 0; k < answered.n; k++)
        for (int32_t i = first; i < last; i++)
            if (owner[i] == answered.src[k])
                bad = compare(g, m, i, &answered.msg[k], compared, bad, what, n);
    inbox_free(&answered);
    return bad;
}
