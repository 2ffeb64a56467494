/* Work accounting of the time loop's physics kernels, and the SMPI build's compute model. */
#include "kernels.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "comm.h"
#include "timers.h"

static const char *const names[K_COUNT] = {
#define X(id, name, items, help) [id] = name,
    KERNEL_LIST(X)
#undef X
};

const char *kernel_name(enum kernel k) { return names[k]; }

void kernel_sums_add(struct kernel_sums *s, double n, double m, double t)
{
    s->calls++;
    s->n += n;
    s->m += m;
    s->t += t;
    s->nn += n * n;
    s->nm += n * m;
    s->mm += m * m;
    s->tn += t * n;
    s->tm += t * m;
}

void kernel_sums_fields(struct kernel_sums *s, double *field[KERNEL_SUMS_FIELDS])
{
    double *f[KERNEL_SUMS_FIELDS] = {&s->n, &s->m, &s->t, &s->nn, &s->nm, &s->mm, &s->tn, &s->tm};
    memcpy(field, f, sizeof f);
}

void kernel_fit(const struct kernel_sums *s, double *a, double *b)
{
    *a = *b = 0;
    if (s->nn <= 0 && s->mm <= 0)
        return;
    /* det / (nn mm) is 1 - cos^2 of the angle between the vectors n and m over the calls: below
     * 1e-6 they are (nearly) parallel and the split between a and b is noise */
    double det = s->nn * s->mm - s->nm * s->nm;
    if (s->nn > 0 && s->mm > 0 && det > 1e-6 * s->nn * s->mm) {
        *a = (s->tn * s->mm - s->tm * s->nm) / det;
        *b = (s->tm * s->nn - s->tn * s->nm) / det;
        if (*a >= 0 && *b >= 0)
            return;
        if (*a < 0) { /* the best fit with a = 0 */
            *a = 0;
            *b = s->tm / s->mm;
        } else {
            *b = 0;
            *a = s->tn / s->nn;
        }
    } else if (s->nn > 0) {
        *a = s->tn / s->nn;
    } else {
        *b = s->tm / s->mm;
    }
    if (*a < 0)
        *a = 0;
    if (*b < 0)
        *b = 0;
}

static int parse_scale(const char *v, double *out)
{
    char *end;
    errno = 0;
    double x = strtod(v, &end);
    if (errno || end == v || *end || !(x > 0) || !isfinite(x))
        return -1;
    *out = x;
    return 0;
}

int kernels_init(struct kernels *k, int dim, int smpi, char *why, size_t len)
{
    memset(k, 0, sizeof *k);
    const char *rep = getenv("HYDRO_KERNEL_REPORT"), *model = getenv("HYDRO_COMPUTE_MODEL");
    const char *scale = getenv("HYDRO_COMPUTE_SCALE");
    k->report = rep && *rep ? rep : NULL;
    double s = 1;
    if (scale && *scale && parse_scale(scale, &s)) {
        snprintf(why, len, "HYDRO_COMPUTE_SCALE: '%s' is not a positive number", scale);
        return -1;
    }
    /* a block with s times the cells has s^((dim-1)/dim) times the surface, so as many times
     * the ghost cells of its layers */
    k->scale_own = s;
    k->scale_ghost = pow(s, (dim - 1.0) / dim);
    if (model && *model) {
        if (!smpi) {
            snprintf(why, len, "HYDRO_COMPUTE_MODEL: the compute model is for the SMPI build only (make smpi, "
                     "run/smpirun.sh -m); unset it for real runs");
            return -1;
        }
        if (kernels_read_model(k, model, why, len))
            return -1;
        k->model = 1;
    } else if (scale && *scale) {
        snprintf(why, len, "HYDRO_COMPUTE_SCALE needs HYDRO_COMPUTE_MODEL (the scale applies to the model's work)");
        return -1;
    }
    k->on = k->report || k->model;
    return 0;
}

int kernels_read_model(struct kernels *k, const char *path, char *why, size_t len)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        snprintf(why, len, "HYDRO_COMPUTE_MODEL: cannot open '%s': %s", path, strerror(errno));
        return -1;
    }
    int seen[K_COUNT] = {0}, line = 0, rc = 0;
    char buf[512];
    while (!rc && fgets(buf, sizeof buf, f)) {
        line++;
        if (!strchr(buf, '\n') && !feof(f)) {
            snprintf(why, len, "%s:%d: line too long", path, line);
            rc = -1;
            break;
        }
        char name[64];
        long calls;
        double n, m, t, a, b;
        char extra;
        if (buf[0] == '#' || strspn(buf, " \t\r\n") == strlen(buf))
            continue;
        if (sscanf(buf, "%63s %ld %lf %lf %lf %lf %lf %c", name, &calls, &n, &m, &t, &a, &b, &extra) != 7) {
            snprintf(why, len, "%s:%d: expected 'kernel calls items active_items seconds a b'", path, line);
            rc = -1;
            break;
        }
        int id = -1;
        for (int i = 0; i < K_COUNT; i++)
            if (!strcmp(name, names[i]))
                id = i;
        if (id < 0 || seen[id]) {
            snprintf(why, len, "%s:%d: %s kernel '%s'", path, line, id < 0 ? "unknown" : "repeated", name);
            rc = -1;
        } else if (!(a >= 0 && b >= 0 && isfinite(a) && isfinite(b))) {
            snprintf(why, len, "%s:%d: kernel '%s': costs must be finite and >= 0", path, line, name);
            rc = -1;
        } else {
            seen[id] = 1;
            k->a[id] = a;
            k->b[id] = b;
        }
    }
    if (!rc && ferror(f)) {
        snprintf(why, len, "%s: read error", path);
        rc = -1;
    }
    fclose(f);
    for (int i = 0; i < K_COUNT && !rc; i++)
        if (!seen[i]) {
            snprintf(why, len, "%s: kernel '%s' missing (write the file with HYDRO_KERNEL_REPORT)", path, names[i]);
            rc = -1;
        }
    return rc;
}

void kernels_begin(struct kernels *k)
{
    if (k->on && !k->model)
        k->t0 = timers_now();
}

void kernels_stop(struct kernels *k)
{
    if (k->on && !k->model)
        k->dt = timers_now() - k->t0;
}

/* The model's seconds for a call of that work. */
static double model_seconds(const struct kernels *k, enum kernel id, const struct kernel_work *w)
{
    return k->a[id] * (k->scale_own * w->n_own + k->scale_ghost * w->n_ghost) +
           k->b[id] * (k->scale_own * w->m_own + k->scale_ghost * w->m_ghost);
}

double kernels_end(struct kernels *k, enum kernel id, const struct kernel_work *w)
{
    if (!k->on)
        return 0;
    double n = w->n_own + w->n_ghost, m = w->m_own + w->m_ghost;
    if (!k->model) {
        kernel_sums_add(&k->sums[id], n, m, k->dt);
        return 0;
    }
    double t = model_seconds(k, id, w);
    kernel_sums_add(&k->sums[id], n, m, t);
    return t;
}

static const enum kernel_items items_of[K_COUNT] = {
#define X(id, name, items, help) [id] = items,
    KERNEL_LIST(X)
#undef X
};

void kernels_attach(struct kernels *k, const struct mesh *m, int remap)
{
    if (k->on && remap) {
        k->act_cells = xmalloc(((size_t)m->ncells + 1) * sizeof *k->act_cells);
        k->act_nodes = xmalloc(((size_t)m->nnodes + 1) * sizeof *k->act_nodes);
    }
    if (k->track) /* a new mesh: the counts start again */
        k->cell_steps = xcalloc((size_t)m->ncells + 1, sizeof *k->cell_steps);
}

void kernels_detach(struct kernels *k)
{
    free(k->act_cells);
    free(k->act_nodes);
    free(k->cell_steps);
    k->act_cells = k->act_nodes = NULL;
    k->cell_steps = NULL;
}

void kernels_track(struct kernels *k)
{
    k->track = 1;
    k->on = 1;
}

double kernels_active_ratio(const struct kernel_sums sums[K_COUNT], double *lagrange_share)
{
    double quiet = 0, active = 0, lagrange = 0;
    for (int i = 0; i < K_COUNT; i++) {
        double a, b;
        kernel_fit(&sums[i], &a, &b);
        quiet += a * sums[i].n;
        lagrange += i < K_FIRST_REMAP ? a * sums[i].n : 0;
        active += b * sums[i].m;
    }
    *lagrange_share = quiet > 0 ? lagrange / quiet : 0.5; /* the fits' a are never negative */
    /* per owned cell-cycle (lagrange_dt: the owned cells, once a cycle) and per active owned
     * cell-step (remap_finish: the owned cells, once a step, its active items those that moved) */
    double cell_cycles = sums[K_DT].n, active_steps = sums[K_R_FINISH].m;
    if (!(quiet > 0 && cell_cycles > 0 && active_steps > 0))
        return 0;
    return (active / active_steps) / (quiet / cell_cycles);
}

void kernels_count_active(struct kernels *k, const struct mesh *m, const unsigned char *moved)
{
    if (!k->on)
        return;
    int nv = m->el->nnodes;
    k->act_nodes[0] = 0;
    for (int32_t i = 0; i < m->nnodes; i++)
        k->act_nodes[i + 1] = k->act_nodes[i] + moved[i];
    k->act_cells[0] = 0;
    for (int32_t c = 0; c < m->ncells; c++) {
        int any = 0;
        for (int j = 0; j < nv; j++)
            any |= moved[m->cell_nodes[(size_t)c * nv + j]];
        k->act_cells[c + 1] = k->act_cells[c] + any;
        if (k->cell_steps)
            k->cell_steps[c] += (uint32_t)any;
    }
}

/* Kernel id's call over items [0, n) of m's cells or nodes: owned and ghost, all and active. */
static struct kernel_work work_of(const struct kernels *k, const struct mesh *m, enum kernel id, int32_t n)
{
    int nodes = items_of[id] == ITEMS_NODES;
    int32_t own = nodes ? m->node_layer_start[1] : m->ncells_owned, o = n < own ? n : own;
    const int32_t *act = id >= K_FIRST_REMAP ? (nodes ? k->act_nodes : k->act_cells) : NULL;
    struct kernel_work w = {.n_own = o, .n_ghost = n - o, .m_own = o, .m_ghost = n - o};
    if (act) {
        w.m_own = act[o];
        w.m_ghost = act[n] - act[o];
    }
    return w;
}

void kernels_account(struct kernels *k, const struct mesh *m, enum kernel id, int32_t n)
{
    if (!k->on)
        return;
    struct kernel_work w = work_of(k, m, id, n);
    k->pending += kernels_end(k, id, &w);
}

void kernels_account_part(struct kernels *k, const struct mesh *m, enum kernel id, int32_t n, double share, int last)
{
    if (!k->on)
        return;
    if (!k->model)
        k->part_dt[id] += k->dt;
    if (!last) {
        if (k->model) {
            struct kernel_work w = work_of(k, m, id, n);
            k->pending += share * model_seconds(k, id, &w);
        }
        return;
    }
    k->dt = k->part_dt[id]; /* the whole call's measured time */
    k->part_dt[id] = 0;
    struct kernel_work w = work_of(k, m, id, n);
    double whole = kernels_end(k, id, &w); /* counts the call once */
    k->pending += share * whole;
}

void kernels_flush(struct kernels *k)
{
    if (k->pending > 0)
        comm_compute(k->pending);
    k->pending = 0;
}

void kernels_write(const struct kernels *k, FILE *out, const char *what)
{
    fprintf(out, "# hydro kernel costs (%s): least squares t = a items + b active_items over the calls\n", what);
    fprintf(out, "# kernel calls items active_items seconds a_s_per_item b_s_per_active_item\n");
    for (int i = 0; i < K_COUNT; i++) {
        double a, b;
        kernel_fit(&k->sums[i], &a, &b);
        fprintf(out, "%s %ld %.17g %.17g %.17g %.17g %.17g\n", names[i], k->sums[i].calls, k->sums[i].n, k->sums[i].m,
                k->sums[i].t, a, b);
    }
}
