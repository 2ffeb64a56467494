/* Plot tool: turn a cell variable of a hydro dump into gnuplot data (run/plot_field.sh, plot_profile.sh).
 * usage: plotdata DUMP info VAR            -> "key value" lines: case, time, cycle, dim, unit, components,
 *                                             min, max (over the cells drawn), xmin..ymax, slice_z (3D),
 *                                             axis (of the case's profile: sod its direction, noh/sedov r)
 *        plotdata DUMP cells VAR           -> one closed polygon per cell, "x y value" per vertex, a blank
 *                                             line after each; 3D: the cells that the plane z = slice_z
 *                                             cuts, and their cut (see polygon() and load())
 *        plotdata DUMP profile VAR AXIS    -> "coordinate value" per cell centre, AXIS x, y, z or r (radius
 *                                             from the origin), sorted by coordinate
 *        plotdata DUMP exact VAR AXIS      -> the exact solution of the dump's case at its time along AXIS,
 *                                             "coordinate value"; exit 3 (and a reason on stderr) when none
 * A multi-component variable is drawn as its magnitude, or VAR:K as its component K (from 0: the
 * volume fraction of material K is volume_fractions:K). Exit 2: bad usage, not a dump, no such
 * variable or component. */
#include <hdf5.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exact/exact.h"

static const char *dump_name;

static void die(int code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "plotdata: %s: ", dump_name);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    exit(code);
}

/* A string attribute of object obj (fixed or variable length), malloc'ed; NULL when absent. */
static char *str_attr(hid_t obj, const char *name)
{
    if (H5Aexists(obj, name) <= 0)
        return NULL;
    hid_t a = H5Aopen(obj, name, H5P_DEFAULT), t = H5Aget_type(a);
    char *out = NULL;
    if (H5Tget_class(t) == H5T_STRING) {
        hid_t mt = H5Tcopy(H5T_C_S1);
        if (H5Tis_variable_str(t) > 0) {
            char *v = NULL;
            H5Tset_size(mt, H5T_VARIABLE);
            if (H5Aread(a, mt, &v) >= 0 && v) {
                out = strdup(v);
                H5free_memory(v);
            }
        } else {
            size_t n = H5Tget_size(t);
            out = calloc(n + 1, 1);
            H5Tset_size(mt, n + 1);
            if (H5Aread(a, mt, out) < 0) {
                free(out);
                out = NULL;
            }
        }
        H5Tclose(mt);
    }
    H5Tclose(t);
    H5Aclose(a);
    return out;
}

static int num_attr(hid_t obj, const char *name, hid_t mem_type, void *out)
{
    if (H5Aexists(obj, name) <= 0)
        return -1;
    hid_t a = H5Aopen(obj, name, H5P_DEFAULT);
    herr_t rc = H5Aread(a, mem_type, out);
    H5Aclose(a);
    return rc < 0 ? -1 : 0;
}

/* A 1D or 2D dataset read as mem_type; rows and columns returned. */
static void *read_dataset(hid_t f, const char *path, hid_t mem_type, size_t elem, hsize_t *rows, hsize_t *cols)
{
    if (H5Lexists(f, path, H5P_DEFAULT) <= 0)
        die(2, "no dataset %s (not a complete hydro dump)", path);
    hid_t d = H5Dopen2(f, path, H5P_DEFAULT), s = H5Dget_space(d);
    hsize_t dims[2] = {0, 1};
    int rank = H5Sget_simple_extent_dims(s, dims, NULL);
    if (rank < 1 || rank > 2)
        die(2, "dataset %s has rank %d", path, rank);
    *rows = dims[0];
    *cols = rank == 2 ? dims[1] : 1;
    void *buf = malloc((size_t)(*rows * *cols) * elem + 1);
    if (!buf || H5Dread(d, mem_type, H5S_ALL, H5S_ALL, H5P_DEFAULT, buf) < 0)
        die(2, "cannot read dataset %s", path);
    H5Sclose(s);
    H5Dclose(d);
    return buf;
}

/* Value of key in section of an INI text (the resolved deck stored in the dump), in out. */
static int deck_value(const char *deck, const char *section, const char *key, char *out, size_t n)
{
    char cur[64] = "";
    for (const char *line = deck; line && *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
        const char *end = strchr(line, '\n');
        size_t len = end ? (size_t)(end - line) : strlen(line);
        char buf[512];
        if (len >= sizeof buf)
            continue;
        memcpy(buf, line, len);
        buf[len] = 0;
        char *p = buf;
        while (*p == ' ' || *p == '\t')
            p++;
        if (*p == '[') {
            char *q = strchr(p, ']');
            if (q && (size_t)(q - p - 1) < sizeof cur) {
                memcpy(cur, p + 1, (size_t)(q - p - 1));
                cur[q - p - 1] = 0;
            }
            continue;
        }
        char *eq = strchr(p, '=');
        if (!eq || strcmp(cur, section))
            continue;
        char *k_end = eq;
        while (k_end > p && (k_end[-1] == ' ' || k_end[-1] == '\t'))
            k_end--;
        if ((size_t)(k_end - p) != strlen(key) || strncmp(p, key, strlen(key)))
            continue;
        char *v = eq + 1;
        while (*v == ' ' || *v == '\t')
            v++;
        char *v_end = v + strlen(v);
        while (v_end > v && (v_end[-1] == ' ' || v_end[-1] == '\t' || v_end[-1] == '\r'))
            v_end--;
        *v_end = 0;
        snprintf(out, n, "%s", v);
        return 0;
    }
    return -1;
}

static double deck_double(const char *deck, const char *section, const char *key, double dflt)
{
    char v[128];
    return deck_value(deck, section, key, v, sizeof v) ? dflt : atof(v);
}

struct dump {
    double time;
    long long cycle;
    int dim;
    char *deck, *unit;
    hsize_t nn, nc, nv, ncomp;
    double *xyz;   /* [nn][3] */
    long long *cn; /* [nc][nv] */
    double *val;   /* [nc], the magnitude of multi-component variables */
    double lo[3], hi[3];
    double slice_z; /* 3D: the plane drawn */
};

static void load(struct dump *d, const char *path, const char *var)
{
    H5Eset_auto2(H5E_DEFAULT, NULL, NULL); /* our messages, not HDF5's error stack */
    FILE *probe = fopen(path, "rb");
    if (!probe)
        die(2, "cannot read the file");
    fclose(probe);
    hid_t f = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    if (f < 0)
        die(2, "not an HDF5 file");
    char *format = str_attr(f, "format");
    if (!format || strcmp(format, "hydro-checkpoint"))
        die(2, "not a hydro dump (root attribute format is not \"hydro-checkpoint\")");
    free(format);
    if (num_attr(f, "time", H5T_NATIVE_DOUBLE, &d->time) || num_attr(f, "cycle", H5T_NATIVE_LLONG, &d->cycle) ||
        num_attr(f, "dim", H5T_NATIVE_INT, &d->dim))
        die(2, "root attribute time, cycle or dim missing");
    d->deck = str_attr(f, "deck");
    if (!d->deck)
        d->deck = strdup("");
    hsize_t three, one;
    d->xyz = read_dataset(f, "/mesh/node_coords", H5T_NATIVE_DOUBLE, sizeof(double), &d->nn, &three);
    d->cn = read_dataset(f, "/mesh/cell_nodes", H5T_NATIVE_LLONG, sizeof(long long), &d->nc, &d->nv);
    if (three != 3 || d->nv != (d->dim == 2 ? 4u : 8u))
        die(2, "mesh datasets do not match dim %d", d->dim);
    for (hsize_t i = 0; i < d->nc * d->nv; i++)
        if (d->cn[i] < 0 || (hsize_t)d->cn[i] >= d->nn)
            die(2, "/mesh/cell_nodes refers to node %lld of %llu", d->cn[i], (unsigned long long)d->nn);
    char dpath[300];
    long want = -1; /* VAR:K: component K alone */
    const char *colon = strrchr(var, ':');
    if (colon) {
        char *end;
        want = strtol(colon + 1, &end, 10);
        if (end == colon + 1 || *end || want < 0)
            die(2, "'%s': a component is VAR:K with K a number from 0", var);
    }
    snprintf(dpath, sizeof dpath, "/cells/%.*s", colon ? (int)(colon - var) : (int)strlen(var), var);
    if (strchr(var, '/') || H5Lexists(f, dpath, H5P_DEFAULT) <= 0) {
        /* name the variables there are, so that the user can pick one */
        char list[4096] = "";
        hid_t g = H5Gopen2(f, "/cells", H5P_DEFAULT);
        H5G_info_t gi;
        if (g >= 0 && H5Gget_info(g, &gi) >= 0)
            for (hsize_t i = 0; i < gi.nlinks; i++) {
                char name[256];
                if (H5Lget_name_by_idx(g, ".", H5_INDEX_NAME, H5_ITER_INC, i, name, sizeof name, H5P_DEFAULT) > 0 &&
                    strlen(list) + strlen(name) + 2 < sizeof list) {
                    strcat(list, " ");
                    strcat(list, name);
                }
            }
        die(2, "no cell variable '%s'; cell variables:%s", var, list[0] ? list : " (none)");
    }
    double *raw = read_dataset(f, dpath, H5T_NATIVE_DOUBLE, sizeof(double), &one, &d->ncomp);
    if (one != d->nc)
        die(2, "%s has %llu rows for %llu cells", dpath, (unsigned long long)one, (unsigned long long)d->nc);
    if (want >= 0 && (hsize_t)want >= d->ncomp)
        die(2, "%s has %llu components: no component %ld", dpath, (unsigned long long)d->ncomp, want);
    d->val = malloc(d->nc * sizeof *d->val + 1);
    for (hsize_t c = 0; c < d->nc; c++) {
        double s = 0;
        for (hsize_t k = 0; k < d->ncomp; k++)
            s += raw[c * d->ncomp + k] * raw[c * d->ncomp + k];
        d->val[c] = want >= 0 ? raw[c * d->ncomp + want] : d->ncomp == 1 ? raw[c] : sqrt(s);
    }
    if (want >= 0)
        d->ncomp = 1; /* one component drawn as it is */
    free(raw);
    hid_t ds = H5Dopen2(f, dpath, H5P_DEFAULT);
    d->unit = str_attr(ds, "unit");
    if (!d->unit)
        d->unit = strdup("");
    H5Dclose(ds);
    H5Fclose(f);
    for (int k = 0; k < 3; k++) {
        d->lo[k] = INFINITY;
        d->hi[k] = -INFINITY;
    }
    for (hsize_t n = 0; n < d->nn; n++)
        for (int k = 0; k < 3; k++) {
            d->lo[k] = fmin(d->lo[k], d->xyz[3 * n + k]);
            d->hi[k] = fmax(d->hi[k], d->xyz[3 * n + k]);
        }
    /* the slice: the centre height of the cell whose centre is nearest the middle of the domain,
     * so that on a layered mesh it goes through the middle of one layer, away from the nodes
     * (a plane through perturbed nodes would cut faces on both sides of it) */
    double mid = 0.5 * (d->lo[2] + d->hi[2]), best = INFINITY;
    d->slice_z = mid;
    for (hsize_t c = 0; d->dim == 3 && c < d->nc; c++) {
        double z = 0;
        for (hsize_t k = 0; k < d->nv; k++)
            z += d->xyz[3 * d->cn[c * d->nv + k] + 2] / (double)d->nv;
        if (fabs(z - mid) < best || (fabs(z - mid) == best && z < d->slice_z)) {
            best = fabs(z - mid);
            d->slice_z = z;
        }
    }
}

/* The polygon that a cell shows, in xy, vertices in order; returns their count (< 3: none).
 * 2D: the quad. 3D: the cut of the hex by the plane z = slice_z: a node counts as above when
 * z >= slice_z, every edge between an above and a below node gives one vertex. Neighbouring
 * cuts share their vertices on shared edges, so they tile the plane; on a layered mesh (even a
 * perturbed one) the plane crosses one layer, each hex along its four side edges. */
static int polygon(const struct dump *d, hsize_t c, double poly[12][2])
{
    static const int edge[12][2] = {{0, 1}, {1, 2}, {2, 3}, {3, 0}, {4, 5}, {5, 6},
                                    {6, 7}, {7, 4}, {0, 4}, {1, 5}, {2, 6}, {3, 7}};
    const long long *cn = d->cn + c * d->nv;
    if (d->dim == 2) {
        for (int k = 0; k < 4; k++) {
            poly[k][0] = d->xyz[3 * cn[k]];
            poly[k][1] = d->xyz[3 * cn[k] + 1];
        }
        return 4;
    }
    double mid = d->slice_z, tol = 1e-12 * (d->hi[0] - d->lo[0] + d->hi[1] - d->lo[1]);
    int n = 0;
    for (int e = 0; e < 12; e++) {
        const double *a = d->xyz + 3 * cn[edge[e][0]], *b = d->xyz + 3 * cn[edge[e][1]];
        if ((a[2] >= mid) == (b[2] >= mid))
            continue;
        if (a[2] >= mid) { /* from the node below: both cells of a shared edge compute the same */
            const double *t = a;
            a = b;
            b = t;
        }
        double w = (mid - a[2]) / (b[2] - a[2]), x = a[0] + w * (b[0] - a[0]), y = a[1] + w * (b[1] - a[1]);
        int seen = 0; /* a node on the plane ends several edges */
        for (int k = 0; k < n; k++)
            seen |= fabs(poly[k][0] - x) <= tol && fabs(poly[k][1] - y) <= tol;
        if (!seen) {
            poly[n][0] = x;
            poly[n][1] = y;
            n++;
        }
    }
    if (n < 3)
        return 0;
    /* order by angle around the mean point (the cut of a hex is convex, or nearly) */
    double cx = 0, cy = 0, ang[12];
    for (int k = 0; k < n; k++) {
        cx += poly[k][0] / n;
        cy += poly[k][1] / n;
    }
    for (int k = 0; k < n; k++)
        ang[k] = atan2(poly[k][1] - cy, poly[k][0] - cx);
    for (int i = 1; i < n; i++)
        for (int j = i; j > 0 && ang[j - 1] > ang[j]; j--) {
            double t = ang[j], px = poly[j][0], py = poly[j][1];
            ang[j] = ang[j - 1];
            poly[j][0] = poly[j - 1][0];
            poly[j][1] = poly[j - 1][1];
            ang[j - 1] = t;
            poly[j - 1][0] = px;
            poly[j - 1][1] = py;
        }
    return n;
}

static void centre(const struct dump *d, hsize_t c, double x[3])
{
    x[0] = x[1] = x[2] = 0;
    for (hsize_t k = 0; k < d->nv; k++)
        for (int j = 0; j < 3; j++)
            x[j] += d->xyz[3 * d->cn[c * d->nv + k] + j] / (double)d->nv;
}

static double coordinate(const double x[3], int axis)
{
    return axis < 3 ? x[axis] : sqrt(x[0] * x[0] + x[1] * x[1] + x[2] * x[2]);
}

struct point {
    double s, v;
};

static int point_cmp(const void *a, const void *b)
{
    double x = ((const struct point *)a)->s, y = ((const struct point *)b)->s;
    return (x > y) - (x < y);
}

static int point_cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Exact (rho, p) of the dump's case at coordinate s along axis; 0 when there is none. */
struct exact_ctx {
    int kind; /* 1 sod, 2 noh, 3 sedov, 4 water_air */
    double gamma, t, interface, radius;
    int dim;
    int n;          /* sedov: table of the self-similar solution from xi = 1 inwards */
    double *xi, *G, *Z;
};

static int exact_setup(struct exact_ctx *e, const struct dump *d, int axis)
{
    char name[64] = "";
    deck_value(d->deck, "case", "name", name, sizeof name);
    e->gamma = deck_double(d->deck, "physics", "gamma", 1.4);
    e->t = d->time;
    e->dim = d->dim;
    if (!strcmp(name, "sod") || !strcmp(name, "bisod_x")) {
        char dir[16] = "x";
        if (!strcmp(name, "sod"))
            deck_value(d->deck, "case", "direction", dir, sizeof dir);
        if (axis != dir[0] - 'x')
            return fprintf(stderr, "plotdata: the exact Sod solution is along %s only\n", dir), 0;
        e->interface = deck_double(d->deck, "case", "interface", 0.5);
        return e->kind = 1;
    }
    if (!strcmp(name, "water_air")) {
        if (axis != 0)
            return fprintf(stderr, "plotdata: the exact water-air solution is along x only\n"), 0;
        return e->kind = 4;
    }
    if (strcmp(name, "noh") && strcmp(name, "sedov"))
        return fprintf(stderr, "plotdata: no exact solution for case '%s'\n", name), 0;
    if (axis != 3)
        return fprintf(stderr, "plotdata: the exact %s solution is radial: use axis r\n", name), 0;
    if (!strcmp(name, "noh"))
        return e->kind = 2;
    /* Sedov: hydro puts sedov_energy in the cells at the origin (0: alpha / 2^dim, alpha of
     * Kamm & Timmes for gamma 1.4); the whole blast has 2x that per axis the mesh starts at 0. */
    int nu = d->dim;
    double es = deck_double(d->deck, "case", "sedov_energy", 0);
    if (es == 0) {
        if (fabs(e->gamma - 1.4) > 1e-12)
            return fprintf(stderr, "plotdata: sedov energy unknown for gamma %g\n", e->gamma), 0;
        es = (d->dim == 2 ? 0.9840 : 0.8510) / (1 << d->dim);
    }
    double energy = es;
    for (int k = 0; k < d->dim; k++)
        energy *= d->lo[k] < -1e-12 ? 1 : 2;
    e->radius = pow(energy * e->t * e->t / sedov_alpha_exact(nu, e->gamma), 1.0 / (nu + 2));
    /* integrate the self-similar ODEs in ln xi from the shock inwards (RK4, as exact.h) */
    const int n = 20000;
    const double h = log(1e-4) / n;
    double g = e->gamma, V = 2.0 / (g + 1.0), lnG = log((g + 1.0) / (g - 1.0)),
           Z = 2.0 * g * (g - 1.0) / ((g + 1.0) * (g + 1.0));
    e->n = n + 1;
    e->xi = malloc(e->n * sizeof(double));
    e->G = malloc(e->n * sizeof(double));
    e->Z = malloc(e->n * sizeof(double));
    for (int i = 0; i <= n; i++) {
        e->xi[i] = exp(i * h);
        e->G[i] = exp(lnG);
        e->Z[i] = Z;
        double k[4][3], s[3] = {V, lnG, Z};
        for (int st = 0; st < 4; st++) {
            double fr = st == 0 ? 0 : st == 3 ? 1.0 : 0.5;
            double v = s[0] + (st ? fr * h * k[st - 1][0] : 0), lg = s[1] + (st ? fr * h * k[st - 1][1] : 0),
                   z = s[2] + (st ? fr * h * k[st - 1][2] : 0);
            sedov_rhs(nu, g, v, exp(lg), z, &k[st][0], &k[st][1], &k[st][2]);
        }
        V += h / 6 * (k[0][0] + 2 * k[1][0] + 2 * k[2][0] + k[3][0]);
        lnG += h / 6 * (k[0][1] + 2 * k[1][1] + 2 * k[2][1] + k[3][1]);
        Z += h / 6 * (k[0][2] + 2 * k[1][2] + 2 * k[2][2] + k[3][2]);
    }
    return e->kind = 3;
}

static void exact_state(const struct exact_ctx *e, double s, double *rho, double *p, struct riemann_gas *gas)
{
    const double p0 = 1e-6; /* the cold gas of noh and sedov (physics/cases.c) */
    *gas = (struct riemann_gas){e->gamma, 0};
    if (e->kind == 4) { /* exact.h's water-air tube */
        const struct water_air wa = water_air_problem();
        double ps, us;
        riemann_star2(&wa.water, &wa.qwater, &wa.air, &wa.qair, &ps, &us);
        double w = e->t > 0 ? (s - wa.x0) / e->t : s - wa.x0;
        struct riemann_state st = e->t > 0 ? riemann_sample2(&wa.water, &wa.qwater, &wa.air, &wa.qair, w)
                                  : w < 0  ? wa.water
                                           : wa.air;
        *gas = (e->t > 0 ? w <= us : w < 0) ? wa.qwater : wa.qair;
        *rho = st.rho;
        *p = st.p;
    } else if (e->kind == 1) {
        struct riemann_state l = {1.0, 0.0, 1.0}, r = {0.125, 0.0, 0.1}, st;
        if (e->t > 0)
            st = riemann_sample(&l, &r, e->gamma, (s - e->interface) / e->t);
        else
            st = s < e->interface ? l : r;
        *rho = st.rho;
        *p = st.p;
    } else if (e->kind == 2) {
        *rho = noh_density(e->dim, e->gamma, e->t, s);
        /* behind the shock all the unit inflow speed became internal energy 1/2 */
        *p = s < 0.5 * (e->gamma - 1.0) * e->t ? (e->gamma - 1.0) * *rho * 0.5 : p0;
    } else {
        double xi = e->radius > 0 ? s / e->radius : INFINITY;
        if (xi >= 1 || e->t <= 0) {
            *rho = 1;
            *p = p0;
            return;
        }
        int i = 0, hi = e->n - 1; /* xi table decreasing: the first entry not above xi (or the last) */
        while (i < hi) {
            int m = (i + hi) / 2;
            if (e->xi[m] > xi)
                i = m + 1;
            else
                hi = m;
        }
        double w = i ? fmax(0, (xi - e->xi[i]) / (e->xi[i - 1] - e->xi[i])) : 0; /* 0 below the table */
        double G = i ? w * e->G[i - 1] + (1 - w) * e->G[i] : e->G[0];
        double Z = i ? w * e->Z[i - 1] + (1 - w) * e->Z[i] : e->Z[0];
        double speed = 2.0 / (e->dim + 2.0) * s / e->t; /* delta r / t */
        *rho = G;
        *p = G * speed * speed * Z / e->gamma;
    }
}

int main(int argc, char **argv)
{
    if (argc < 4 || (strcmp(argv[2], "info") && strcmp(argv[2], "cells") && strcmp(argv[2], "profile") &&
                     strcmp(argv[2], "exact"))) {
        fprintf(stderr, "usage: plotdata DUMP info|cells VAR | plotdata DUMP profile|exact VAR x|y|z|r\n");
        return 2;
    }
    dump_name = argv[1];
    const char *cmd = argv[2], *var = argv[3];
    int axis = -1;
    if (!strcmp(cmd, "profile") || !strcmp(cmd, "exact")) {
        if (argc != 5 || strlen(argv[4]) != 1 || !strchr("xyzr", argv[4][0])) {
            fprintf(stderr, "plotdata: %s needs an axis: x, y, z or r\n", cmd);
            return 2;
        }
        axis = argv[4][0] == 'r' ? 3 : argv[4][0] - 'x';
    } else if (argc != 4) {
        fprintf(stderr, "plotdata: %s takes one variable\n", cmd);
        return 2;
    }
    struct dump d = {0};
    load(&d, argv[1], var);
    if (axis == 2 && d.dim == 2)
        die(2, "a 2D dump has no z axis");

    if (!strcmp(cmd, "info")) {
        char name[64] = "?";
        deck_value(d.deck, "case", "name", name, sizeof name);
        double lo = INFINITY, hi = -INFINITY;
        hsize_t count = 0;
        double poly[12][2];
        for (hsize_t c = 0; c < d.nc; c++)
            if (polygon(&d, c, poly) && isfinite(d.val[c])) {
                lo = fmin(lo, d.val[c]);
                hi = fmax(hi, d.val[c]);
                count++;
            }
        printf("case %s\ntime %.6g\ncycle %lld\ndim %d\nunit %s\ncomponents %llu\ncells %llu\ndrawn %llu\n", name,
               d.time, d.cycle, d.dim, d.unit, (unsigned long long)d.ncomp, (unsigned long long)d.nc,
               (unsigned long long)count);
        printf("min %.17g\nmax %.17g\n", count ? lo : 0, count ? hi : 0);
        printf("xmin %.17g\nxmax %.17g\nymin %.17g\nymax %.17g\n", d.lo[0], d.hi[0], d.lo[1], d.hi[1]);
        if (d.dim == 3)
            printf("slice_z %.6g\n", d.slice_z);
        char dir[16] = "x";
        if (!strcmp(name, "sod"))
            deck_value(d.deck, "case", "direction", dir, sizeof dir);
        printf("axis %s\n", !strcmp(name, "noh") || !strcmp(name, "sedov") ? "r" : dir);
    } else if (!strcmp(cmd, "cells")) {
        double poly[12][2];
        for (hsize_t c = 0; c < d.nc; c++) {
            int n = polygon(&d, c, poly);
            if (!n)
                continue;
            for (int k = 0; k <= n; k++) /* closed: the first vertex again */
                printf("%.9g %.9g %.9g\n", poly[k % n][0], poly[k % n][1], d.val[c]);
            printf("\n");
        }
    } else if (!strcmp(cmd, "profile")) {
        struct point *pt = malloc(d.nc * sizeof *pt + 1);
        for (hsize_t c = 0; c < d.nc; c++) {
            double x[3];
            centre(&d, c, x);
            pt[c] = (struct point){coordinate(x, axis), d.val[c]};
        }
        qsort(pt, d.nc, sizeof *pt, point_cmp);
        for (hsize_t c = 0; c < d.nc; c++)
            printf("%.9g %.9g\n", pt[c].s, pt[c].v);
        free(pt);
    } else {
        int which = !strcmp(var, "density") ? 0 : !strcmp(var, "pressure") ? 1 : !strcmp(var, "internal_energy") ? 2
                  : !strcmp(var, "sound_speed") ? 3 : -1;
        if (which < 0) {
            fprintf(stderr, "plotdata: no exact solution for %s (density, pressure, internal_energy, sound_speed)\n",
                    var);
            return 3;
        }
        struct exact_ctx e = {0};
        if (!exact_setup(&e, &d, axis))
            return 3;
        /* from the smallest to the largest coordinate of the mesh (r: from 0 to the farthest node) */
        double a = axis < 3 ? d.lo[axis] : 0, b = axis < 3 ? d.hi[axis] : 0;
        if (axis == 3)
            for (hsize_t n = 0; n < d.nn; n++)
                b = fmax(b, coordinate(d.xyz + 3 * n, 3));
        /* evenly spaced points, and for sedov as many inside the shock, up to just behind it,
         * whatever the radius is next to the mesh */
        const int np = 2000;
        double *at = malloc(2 * (np + 1) * sizeof *at);
        int n = 0;
        for (int i = 0; i <= np; i++)
            at[n++] = a + (b - a) * i / np;
        if (e.kind == 3 && e.radius < b)
            for (int i = 0; i <= np; i++)
                at[n++] = e.radius * (i < np ? (double)i / np : 1 - 1e-12);
        qsort(at, n, sizeof *at, point_cmp_double);
        for (int i = 0; i < n; i++) {
            double rho, p;
            struct riemann_gas q;
            exact_state(&e, at[i], &rho, &p, &q);
            double v = which == 0   ? rho
                       : which == 1 ? p
                       : which == 2 ? (p + q.gamma * q.p_inf) / ((q.gamma - 1) * rho)
                                    : sqrt(q.gamma * (p + q.p_inf) / rho);
            printf("%.9g %.9g\n", at[i], v);
        }
        free(at);
    }
    return 0;
}
