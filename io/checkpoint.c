/* HDF5 dumps (see checkpoint.h). Items are sent to the rank holding their block of global
 * ids with one all-to-all, then every rank writes one hyperslab per dataset. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* sync_file_range, beside the build's _XOPEN_SOURCE */
#endif
#include "checkpoint.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <hdf5.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "comm.h"
#include "crc32.h"
#include "gidblocks.h"
#include "h5util.h"
#include "xdmf.h"

struct checkpointer {
    MPI_Comm comm;
    char dir[4096];
    long keep;
    int nwritten;
    long *written;   /* cycles of this run's dumps still on disk, oldest first */
    int node_leader; /* the lowest rank of its node: the one that starts the disk writes (start_writeback) */
};

/* What every dataset write needs. */
struct writer {
    MPI_Comm comm;
    hid_t dxpl;
    const char *path;
    int fd; /* the file, read-only, for start_writeback; -1: none */
};

/* mkdir -p */
static int make_dirs(const char *dir)
{
    char path[4096];
    snprintf(path, sizeof path, "%s", dir);
    for (char *p = path + 1; *p; p++)
        if (*p == '/') {
            *p = '\0';
            if (mkdir(path, 0777) && errno != EEXIST)
                return -1;
            *p = '/';
        }
    if (mkdir(path, 0777) && errno != EEXIST)
        return -1;
    struct stat st;
    if (stat(path, &st) || !S_ISDIR(st.st_mode)) {
        errno = ENOTDIR;
        return -1;
    }
    return 0;
}

struct checkpointer *checkpointer_create(MPI_Comm comm, const char *dir, long keep, char *err, size_t errlen)
{
    int ok = 1;
    err[0] = '\0';
    if (comm_rank(comm) == 0) {
        if (make_dirs(dir)) {
            ERROR_AT(err, errlen, "cannot create checkpoint directory '%s': %s", dir, strerror(errno));
            ok = 0;
        } else { /* leftovers of a dump that was interrupted: never complete, never read */
            DIR *d = opendir(dir);
            struct dirent *e;
            while (d && (e = readdir(d)))
                if ((!strncmp(e->d_name, ".hydro_", 7) || !strncmp(e->d_name, "hydro", 5)) &&
                    strstr(e->d_name, ".tmp")) {
                    char path[8192];
                    snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
                    unlink(path);
                }
            if (d)
                closedir(d);
        }
    }
    comm_bcast_int(comm, &ok, 0);
    if (!ok)
        return NULL;
    struct checkpointer *cp = xcalloc(1, sizeof *cp);
    cp->comm = comm;
    snprintf(cp->dir, sizeof cp->dir, "%s", dir);
    cp->keep = keep;
    MPI_Comm node; /* the ranks sharing this one's memory, hence its page cache */
    MPI_CHECK(MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node));
    cp->node_leader = comm_rank(node) == 0;
    MPI_CHECK(MPI_Comm_free(&node));
    h5_quiet();
    return cp;
}

void checkpointer_destroy(struct checkpointer *cp)
{
    if (!cp)
        return;
    free(cp->written);
    free(cp);
}

#if defined(__linux__) && defined(SYNC_FILE_RANGE_WRITE)
#define WRITEBACK 1
#endif

/* After each dataset, one rank per node starts the disk writes of every page of the file its
 * node's ranks have written so far, without waiting for them (Linux's sync_file_range; elsewhere
 * nothing): they go on while the later datasets are built, and the dump's fsync finds most of the
 * file written (on the bench deck on 2 ranks that fsync took 15 ms, and 6 with this:
 * BENCHMARKS.md). One rank per node, as the page cache is the node's: no more opens of the file
 * than nodes. A hint: the fsync makes the dump durable, and a failed write shows there (publish). */
static void start_writeback(const struct writer *w)
{
#ifdef WRITEBACK
    if (w->fd >= 0)
        (void)sync_file_range(w->fd, 0, 0, SYNC_FILE_RANGE_WRITE); /* 0 bytes: to the end of the file */
#else
    (void)w;
#endif
}

/* The file start_writeback hints at, read-only, on a node's lowest rank; -1 elsewhere. */
static int writeback_fd(const struct checkpointer *cp, const char *path)
{
#ifdef WRITEBACK
    return cp->node_leader ? open(path, O_RDONLY | O_CLOEXEC) : -1;
#else
    (void)cp, (void)path;
    return -1;
#endif
}

/* One dataset [N] (k = 0) or [N][k], this rank writing rows [lo, lo + cnt) collectively, with
 * attribute crc32: the CRC-32 of the dataset's bytes as stored (little-endian, row after row),
 * which restart checks and anyone can recompute (h5dump -b LE, then any crc32 tool). */
static hid_t write_rows(const struct writer *w, hid_t group, const char *name, hid_t ftype, hid_t mtype, int64_t N,
                        int k, int64_t lo, int64_t cnt, const void *buf)
{
    const char *path = w->path;
    int rank = k ? 2 : 1;
    hsize_t dims[2] = {(hsize_t)N, (hsize_t)k}, start[2] = {(hsize_t)lo, 0}, count[2] = {(hsize_t)cnt, (hsize_t)k};
    hid_t fspace = H5_CHECK(H5Screate_simple(rank, dims, NULL), path);
    hid_t dset = H5_CHECK(H5Dcreate2(group, name, ftype, fspace, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT), path);
    hid_t mspace;
    static const double dummy = 0;
    const uint64_t row = (uint64_t)(k ? k : 1) * H5Tget_size(mtype);
    const uint32_t crc = crc32_update(0, buf, (size_t)(row * (uint64_t)cnt));
    if (cnt > 0) {
        H5_CHECK(H5Sselect_hyperslab(fspace, H5S_SELECT_SET, start, NULL, count, NULL), path);
        mspace = H5_CHECK(H5Screate_simple(rank, count, NULL), path);
    } else { /* owning nothing, this rank still takes part in the collective write */
        H5_CHECK(H5Sselect_none(fspace), path);
        hsize_t one = 1;
        mspace = H5_CHECK(H5Screate_simple(1, &one, NULL), path);
        H5_CHECK(H5Sselect_none(mspace), path);
        buf = &dummy;
    }
    H5_CHECK(H5Dwrite(dset, mtype, mspace, fspace, w->dxpl, buf), path);
    start_writeback(w);
    H5_CHECK(H5Sclose(mspace), path);
    H5_CHECK(H5Sclose(fspace), path);
    h5_attr_u32(dset, "crc32", h5_crc_of_parts(w->comm, row * (uint64_t)lo, row * (uint64_t)cnt, crc), path);
    return dset;
}

/* Copies of one double each, whose constant size the compiler turns into a load and a store (a
 * record's doubles need not be aligned), where a memcpy call per item and variable cost more than
 * the copy: the bench dump's columns took 2.8-3.0 ms that way, 2.2 ms so. */
static inline void copy_doubles(void *dst, const void *src, int k)
{
    for (int j = 0; j < k; j++)
        memcpy((char *)dst + 8 * (size_t)j, (const char *)src + 8 * (size_t)j, sizeof(double));
}

/* Column of doubles at byte offset off, k per item, out of cnt records. */
static double *column(const char *block, int64_t cnt, size_t rec, size_t off, int k)
{
    double *c = xmalloc((size_t)(cnt ? cnt : 1) * (size_t)k * sizeof *c);
    for (int64_t i = 0; i < cnt; i++)
        copy_doubles(c + (size_t)i * k, block + (size_t)i * rec + off, k);
    return c;
}

/* The columns of one centring's checkpointed variables, by registry id (NULL for the others and
 * for those in /materials), out of cnt records whose variables start at byte offset off: one pass
 * over the records, where a pass per variable read the whole block again each time. Together
 * they are smaller than the exchange's send and receive buffers, gone by then (peak memory). */
static double **columns(const struct registry *reg, enum var_center center, const char *block, int64_t cnt,
                        size_t rec, size_t off)
{
    double **col = xcalloc((size_t)(reg->n ? reg->n : 1), sizeof *col);
    int *ids = xmalloc((size_t)(reg->n ? reg->n : 1) * sizeof *ids), n = 0;
    size_t *at = xmalloc((size_t)(reg->n ? reg->n : 1) * sizeof *at);
    for (int v = 0; v < reg->n; v++) {
        const struct var *var = &reg->v[v];
        if (var->center != center || !(var->flags & VAR_CHECKPOINT))
            continue;
        if (!(var->flags & VAR_MATERIAL)) { /* those go in /materials, entry by entry (write_materials) */
            col[v] = xmalloc((size_t)(cnt ? cnt : 1) * (size_t)var->ncomp * sizeof **col);
            ids[n] = v;
            at[n++] = off;
        }
        off += (size_t)var->ncomp * sizeof(double);
    }
    for (int64_t i = 0; i < cnt; i++)
        for (int j = 0; j < n; j++) {
            const int k = reg->v[ids[j]].ncomp;
            copy_doubles(col[ids[j]] + (size_t)i * k, block + (size_t)i * rec + at[j], k);
        }
    free(ids);
    free(at);
    return col;
}

static void write_vars(const struct writer *w, hid_t group, const struct registry *reg, enum var_center center,
                       const char *block, int64_t N, int64_t lo, int64_t cnt, size_t rec, size_t off)
{
    const char *path = w->path;
    double **col = columns(reg, center, block, cnt, rec, off);
    for (int v = 0; v < reg->n; v++) {
        const struct var *var = &reg->v[v];
        if (!col[v])
            continue;
        hid_t d = write_rows(w, group, var->name, H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, N, var->ncomp > 1 ? var->ncomp : 0,
                             lo, cnt, col[v]);
        h5_attr_string(d, "unit", var->unit, path);
        h5_attr_string(d, "centering", center == VAR_CELL ? "cell" : "node", path);
        H5_CHECK(H5Dclose(d), path);
        free(col[v]);
    }
    free(col);
}

static size_t vars_width(const struct registry *reg, enum var_center center)
{
    size_t w = 0;
    for (int v = 0; v < reg->n; v++)
        if (reg->v[v].center == center && (reg->v[v].flags & VAR_CHECKPOINT))
            w += (size_t)reg->v[v].ncomp * sizeof(double);
    return w;
}

/* The checkpointed variables of one centring, in registry order (the record layout). */
static int dumped_vars(const struct registry *reg, enum var_center center, const struct var **out)
{
    int n = 0;
    for (int v = 0; v < reg->n; v++)
        if (reg->v[v].center == center && (reg->v[v].flags & VAR_CHECKPOINT))
            out[n++] = &reg->v[v];
    return n;
}

static void pack_vars(const struct registry *reg, const struct var *const *vars, int nvars, int32_t item, char *dst)
{
    for (int v = 0; v < nvars; v++) {
        size_t bytes = (size_t)vars[v]->ncomp * sizeof(double);
        if (vars[v]->flags & VAR_MATERIAL) { /* a row of one value per material */
            double row[MATSTORE_MAX];
            registry_mat_row(reg, (int)(vars[v] - reg->v), item, row);
            memcpy(dst, row, bytes);
        } else {
            copy_doubles(dst, vars[v]->data + (size_t)item * vars[v]->ncomp, vars[v]->ncomp);
        }
        dst += bytes;
    }
}

/* fsync of a file or a directory by name: 0, or the errno of its open or fsync. */
static int fsync_path(const char *path)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return errno;
    int rc = fsync(fd) ? errno : 0;
    close(fd);
    return rc;
}

/* Rank 0: drop this run's dumps beyond keep, oldest first. */
static void apply_keep(struct checkpointer *cp)
{
    while (cp->keep > 0 && cp->nwritten > cp->keep) {
        char path[8192];
        snprintf(path, sizeof path, "%s/hydro_%06ld.h5", cp->dir, cp->written[0]);
        unlink(path);
        snprintf(path, sizeof path, "%s/hydro_%06ld.xmf", cp->dir, cp->written[0]);
        unlink(path);
        memmove(cp->written, cp->written + 1, (size_t)(cp->nwritten - 1) * sizeof *cp->written);
        cp->nwritten--;
    }
}

/* The dump's file, created collectively under its temporary name (which exists for the whole
 * dump), and the collective transfer property of its writes. */
static hid_t create_file(MPI_Comm comm, const char *tmp, hid_t *dxpl)
{
    hid_t fapl = H5_CHECK(H5Pcreate(H5P_FILE_ACCESS), tmp);
    H5_CHECK(H5Pset_fapl_mpio(fapl, comm, MPI_INFO_NULL), tmp);
    H5_CHECK(H5Pset_all_coll_metadata_ops(fapl, 1), tmp);
    H5_CHECK(H5Pset_coll_metadata_write(fapl, 1), tmp);
    /* the 1.10 file format: HDF5 checksums every piece of metadata and refuses a damaged one */
    H5_CHECK(H5Pset_libver_bounds(fapl, H5F_LIBVER_V110, H5F_LIBVER_V110), tmp);
    hid_t file = H5_CHECK(H5Fcreate(tmp, H5F_ACC_TRUNC, H5P_DEFAULT, fapl), tmp);
    H5_CHECK(H5Pclose(fapl), tmp);
    *dxpl = H5_CHECK(H5Pcreate(H5P_DATASET_XFER), tmp);
    H5_CHECK(H5Pset_dxpl_mpio(*dxpl, H5FD_MPIO_COLLECTIVE), tmp);
    return file;
}

/* Record layouts: cells (gid, node gids, face tags, owner rank, checkpointed cell variables),
 * nodes (gid, coordinates, checkpointed node variables); byte offsets. */
struct layout {
    size_t c_nodes, c_tags, c_rank, c_vars, c_rec;
    size_t n_xyz, n_vars, n_rec;
};

static struct layout layout_of(const struct mesh *m, const struct registry *reg)
{
    struct layout l;
    l.c_nodes = 8;
    l.c_tags = l.c_nodes + 8 * (size_t)m->el->nnodes;
    l.c_rank = l.c_tags + 4 * (size_t)m->el->nfaces;
    l.c_vars = l.c_rank + 4;
    l.c_rec = l.c_vars + vars_width(reg, VAR_CELL);
    l.n_xyz = 8;
    l.n_vars = l.n_xyz + 24;
    l.n_rec = l.n_vars + vars_width(reg, VAR_NODE);
    return l;
}

/* Every owned cell's record to the holder of its block of ids: this rank's block, in id order. */
static char *cell_block(MPI_Comm comm, const struct mesh *m, const struct registry *reg, const struct layout *l,
                        int64_t *lo, int64_t *cnt)
{
    const int me = comm_rank(comm), nv = m->el->nnodes, nf = m->el->nfaces;
    const struct var **vars = xmalloc((size_t)(reg->n ? reg->n : 1) * sizeof *vars);
    int nvars = dumped_vars(reg, VAR_CELL, vars);
    struct gid_blocks blocks;
    gid_blocks_init(&blocks, m->global_ncells, comm_size(comm));
    struct gid_push push;
    gid_push_init(&push, comm, &blocks, m->cell_gid, m->ncells_owned, l->c_rec, "cell");
    for (int32_t c = 0; c < m->ncells_owned; c++) {
        char *r = gid_push_record(&push, c);
        memcpy(r, &m->cell_gid[c], 8);
        for (int k = 0; k < nv; k++)
            memcpy(r + l->c_nodes + 8 * (size_t)k, &m->node_gid[m->cell_nodes[(size_t)c * nv + k]], 8);
        int32_t tags[MAX_CELL_FACES];
        mesh_cell_face_tags(m, c, tags);
        memcpy(r + l->c_tags, tags, 4 * (size_t)nf);
        memcpy(r + l->c_rank, &me, 4);
        pack_vars(reg, vars, nvars, c, r + l->c_vars);
    }
    free(vars);
    return gid_push_exchange(&push, lo, cnt);
}

/* The same for the owned nodes. */
static char *node_block(MPI_Comm comm, const struct mesh *m, const struct registry *reg, const struct layout *l,
                        int64_t *lo, int64_t *cnt)
{
    const struct var **vars = xmalloc((size_t)(reg->n ? reg->n : 1) * sizeof *vars);
    int nvars = dumped_vars(reg, VAR_NODE, vars);
    struct gid_blocks blocks;
    gid_blocks_init(&blocks, m->global_nnodes, comm_size(comm));
    struct gid_push push;
    gid_push_init(&push, comm, &blocks, m->node_gid, m->nnodes_owned, l->n_rec, "node");
    for (int32_t i = 0; i < m->nnodes_owned; i++) {
        char *r = gid_push_record(&push, i);
        memcpy(r, &m->node_gid[i], 8);
        memcpy(r + l->n_xyz, m->node_xyz + 3 * (size_t)i, 24);
        pack_vars(reg, vars, nvars, i, r + l->n_vars);
    }
    free(vars);
    return gid_push_exchange(&push, lo, cnt);
}

/* The root attributes and /diagnostics (exact sums over the ranks: the same bits for any rank
 * count). */
static void write_attributes(hid_t file, const struct dump_meta *meta, int dim, int P, const char *tmp)
{
    h5_attr_string(file, "format", CHECKPOINT_FORMAT, tmp);
    h5_attr_i32(file, "format_version", CHECKPOINT_FORMAT_VERSION, tmp);
    h5_attr_double(file, "time", meta->time, tmp);
    h5_attr_i64(file, "cycle", meta->cycle, tmp);
    h5_attr_double(file, "dt", meta->dt, tmp);
    h5_attr_double(file, "dt_old", meta->dt_old, tmp);
    h5_attr_i32(file, "dim", dim, tmp);
    h5_attr_i32(file, "nranks_written", P, tmp);
    h5_attr_string(file, "code_version", meta->code_version, tmp);
    h5_attr_string(file, "deck", meta->deck_text, tmp);
    hid_t gdiag = H5_CHECK(H5Gcreate2(file, "diagnostics", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT), tmp);
    h5_attr_double(gdiag, "initial_mass", meta->mass0, tmp);
    h5_attr_double(gdiag, "initial_energy", meta->energy0, tmp);
    if (meta->nmat > 1) {
        h5_attr_doubles(gdiag, "material_initial_mass", meta->nmat, meta->mat_mass0, tmp);
        h5_attr_doubles(gdiag, "material_removed_mass", meta->nmat, meta->mat_removed, tmp);
        int64_t limbs[DUMP_MAT_MAX * XSUM_LIMBS];
        for (int k = 0; k < meta->nmat; k++)
            memcpy(limbs + (size_t)k * XSUM_LIMBS, meta->mat_removed_exact[k].limb, sizeof meta->mat_removed_exact[k].limb);
        h5_attr_i64s(gdiag, "material_removed_mass_exact", meta->nmat * XSUM_LIMBS, limbs, tmp);
    }
    H5_CHECK(H5Gclose(gdiag), tmp);
}

/* Byte offset of variable id's values in a cell record (the checkpointed cell variables in
 * registry order from off). */
static size_t var_offset(const struct registry *reg, int id, size_t off)
{
    for (int v = 0; v < id; v++)
        if (reg->v[v].center == VAR_CELL && (reg->v[v].flags & VAR_CHECKPOINT))
            off += (size_t)reg->v[v].ncomp * sizeof(double);
    return off;
}

/* Value k of the record's variable at byte offset off (records are not aligned). */
static double rec_value(const char *r, size_t off, int k)
{
    double x;
    memcpy(&x, r + off + (size_t)k * sizeof x, sizeof x);
    return x;
}

/* One material variable's entries of this rank's block: each cell's present materials. */
static void write_entries(const struct writer *w, hid_t g, const struct var *var, size_t voff, const char *block,
                          const int32_t *bits, int64_t cnt, size_t rec, int64_t E, int64_t elo, int64_t ne)
{
    double *val = xmalloc((size_t)(ne ? ne : 1) * sizeof *val);
    int64_t j = 0;
    for (int64_t i = 0; i < cnt; i++)
        for (int k = 0; k < var->ncomp; k++)
            if (bits[i] >> k & 1)
                val[j++] = rec_value(block + (size_t)i * rec, voff, k);
    hid_t d = write_rows(w, g, var->name, H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, E, 0, elo, ne, val);
    h5_attr_string(d, "unit", var->unit, w->path);
    h5_attr_string(d, "centering", "material entry", w->path);
    H5_CHECK(H5Dclose(d), w->path);
    free(val);
}

/* /materials: the cells' materials in global cell id order, a cell's present materials (volume
 * fraction > 0) in ascending index: count [cells] and material [entries] (int32), then every
 * checkpointed material variable [entries]. Beside them /cells/volume_fractions [cells][materials]
 * (0 where absent), which the XDMF file shows ParaView one material at a time and restart only
 * checks. Nothing when the run has one material. */
static void write_materials(const struct writer *w, hid_t file, hid_t gcells, const struct registry *reg,
                            const struct dump_meta *meta, const char *block, int64_t N, int64_t lo, int64_t cnt,
                            size_t rec, size_t off)
{
    const int frac = registry_flagged(reg, VAR_FRACTION);
    const char *path = w->path;
    for (int v = 0; v < reg->n; v++)
        if ((reg->v[v].flags & VAR_MATERIAL) && (reg->v[v].flags & VAR_CHECKPOINT) &&
            (frac < 0 || !(reg->v[frac].flags & VAR_CHECKPOINT)))
            hydro_fatal(w->comm, EXIT_RUNTIME, "internal error: material variable '%s' dumped without a composition",
                        reg->v[v].name);
    if (frac < 0 || !(reg->v[frac].flags & VAR_CHECKPOINT))
        return;
    const int nm = reg->v[frac].ncomp;
    const size_t foff = var_offset(reg, frac, off);
    int32_t *count = xmalloc((size_t)(cnt ? cnt : 1) * sizeof *count), *bits = xmalloc((size_t)(cnt ? cnt : 1) * sizeof *bits);
    double *vf = xmalloc((size_t)(cnt ? cnt : 1) * (size_t)nm * sizeof *vf);
    long long ne = 0, elo = 0, E;
    for (int64_t i = 0; i < cnt; i++) {
        count[i] = bits[i] = 0;
        for (int k = 0; k < nm; k++) {
            double f = rec_value(block + (size_t)i * rec, foff, k);
            vf[(size_t)i * nm + k] = f;
            bits[i] |= (f > 0) << k;
            count[i] += f > 0;
        }
        ne += count[i];
    }
    MPI_CHECK(MPI_Exscan(&ne, &elo, 1, MPI_LONG_LONG, MPI_SUM, w->comm));
    if (comm_rank(w->comm) == 0)
        elo = 0; /* MPI_Exscan leaves rank 0's undefined */
    E = comm_sum_ll(w->comm, ne);
    hid_t g = H5_CHECK(H5Gcreate2(file, "materials", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT), path);
    char names[DUMP_MAT_MAX * 33] = "";
    for (int k = 0; k < nm; k++)
        snprintf(names + strlen(names), sizeof names - strlen(names), "%s%s", k ? " " : "", meta->mat_names[k]);
    h5_attr_string(g, "names", names, path);
    h5_attr_i32(g, "nmat", nm, path);
    hid_t d = write_rows(w, g, "count", H5T_STD_I32LE, H5T_NATIVE_INT32, N, 0, lo, cnt, count);
    H5_CHECK(H5Dclose(d), path);
    int32_t *mat = xmalloc((size_t)(ne ? ne : 1) * sizeof *mat);
    for (int64_t i = 0, j = 0; i < cnt; i++)
        for (int k = 0; k < nm; k++)
            if (bits[i] >> k & 1)
                mat[j++] = k;
    d = write_rows(w, g, "material", H5T_STD_I32LE, H5T_NATIVE_INT32, E, 0, elo, ne, mat);
    H5_CHECK(H5Dclose(d), path);
    for (int v = 0; v < reg->n; v++)
        if ((reg->v[v].flags & VAR_MATERIAL) && (reg->v[v].flags & VAR_CHECKPOINT))
            write_entries(w, g, &reg->v[v], var_offset(reg, v, off), block, bits, cnt, rec, E, elo, ne);
    H5_CHECK(H5Gclose(g), path);
    d = write_rows(w, gcells, "volume_fractions", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, N, nm, lo, cnt, vf);
    h5_attr_string(d, "unit", "volume fraction", path);
    h5_attr_string(d, "centering", "cell", path);
    h5_attr_string(d, "materials", names, path);
    H5_CHECK(H5Dclose(d), path);
    free(mat);
    free(vf);
    free(bits);
    free(count);
}

/* /mesh and /cells/rank from the blocks, then every checkpointed variable. */
static void write_datasets(const struct writer *w, hid_t file, const struct mesh *m, const struct registry *reg,
                           const struct dump_meta *meta, const struct layout *l, const char *cblock, int64_t clo, int64_t ccnt, const char *nblock,
                           int64_t nlo, int64_t ncnt)
{
    const char *tmp = w->path;
    const int nv = m->el->nnodes, nf = m->el->nfaces;
    hid_t gmesh = H5_CHECK(H5Gcreate2(file, "mesh", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT), tmp);
    double *xyz = column(nblock, ncnt, l->n_rec, l->n_xyz, 3);
    hid_t d = write_rows(w, gmesh, "node_coords", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, m->global_nnodes, 3, nlo, ncnt, xyz);
    h5_attr_string(d, "unit", "length", tmp);
    H5_CHECK(H5Dclose(d), tmp);
    free(xyz);
    int64_t *cn = xmalloc((size_t)(ccnt ? ccnt : 1) * nv * sizeof *cn);
    int32_t *tags = xmalloc((size_t)(ccnt ? ccnt : 1) * nf * sizeof *tags);
    int32_t *rank = xmalloc((size_t)(ccnt ? ccnt : 1) * sizeof *rank);
    for (int64_t i = 0; i < ccnt; i++) {
        const char *r = cblock + (size_t)i * l->c_rec;
        memcpy(cn + i * nv, r + l->c_nodes, 8 * (size_t)nv);
        memcpy(tags + i * nf, r + l->c_tags, 4 * (size_t)nf);
        memcpy(rank + i, r + l->c_rank, 4);
    }
    d = write_rows(w, gmesh, "cell_nodes", H5T_STD_I64LE, H5T_NATIVE_INT64, m->global_ncells, nv, clo, ccnt, cn);
    H5_CHECK(H5Dclose(d), tmp);
    d = write_rows(w, gmesh, "cell_face_tags", H5T_STD_I32LE, H5T_NATIVE_INT32, m->global_ncells, nf, clo, ccnt, tags);
    H5_CHECK(H5Dclose(d), tmp);
    H5_CHECK(H5Gclose(gmesh), tmp);
    hid_t gcells = H5_CHECK(H5Gcreate2(file, "cells", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT), tmp);
    d = write_rows(w, gcells, "rank", H5T_STD_I32LE, H5T_NATIVE_INT32, m->global_ncells, 0, clo, ccnt, rank);
    h5_attr_string(d, "centering", "cell", tmp);
    H5_CHECK(H5Dclose(d), tmp);
    write_vars(w, gcells, reg, VAR_CELL, cblock, m->global_ncells, clo, ccnt, l->c_rec, l->c_vars);
    write_materials(w, file, gcells, reg, meta, cblock, m->global_ncells, clo, ccnt, l->c_rec, l->c_vars);
    H5_CHECK(H5Gclose(gcells), tmp);
    hid_t gnodes = H5_CHECK(H5Gcreate2(file, "nodes", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT), tmp);
    write_vars(w, gnodes, reg, VAR_NODE, nblock, m->global_nnodes, nlo, ncnt, l->n_rec, l->n_vars);
    H5_CHECK(H5Gclose(gnodes), tmp);
    free(cn);
    free(tags);
    free(rank);
}

/* Rank 0 publishes the complete file: rename is atomic, so hydro_*.h5 is always a whole dump;
 * then old dumps beyond keep go and the XDMF sidecars are written. Collective: 0, or -1 with
 * err on rank 0. rep->bytes is the file's size; *keep_s the seconds removing old dumps took. */
/* Rank 0: the file just written reads back as this dump (its superblock, root group and cycle).
 * MPI-IO can lose a write error (seen on a full tmpfs with 3 ranks: every write failed, every
 * call returned success, a file of holes), so a dump is published only once it reopens. */
static int reads_back(const char *tmp, long cycle, char *err, size_t errlen)
{
    hid_t f = H5Fopen(tmp, H5F_ACC_RDONLY, H5P_DEFAULT);
    int64_t c = -1;
    if (f >= 0) {
        h5_read_attr_i64(f, "cycle", &c);
        H5Fclose(f);
    }
    if (c == cycle)
        return 0;
    char summary[600] = "";
    if (f < 0)
        h5_error_summary(summary, sizeof summary);
    ERROR_AT(err, errlen, "%s: the dump just written does not read back (%s): a write failed unreported; is the "
             "disk full?", tmp, f < 0 ? summary : "no cycle attribute");
    return -1;
}

static int publish(struct checkpointer *cp, const char *tmp, const char *final, const struct dump_meta *meta,
                   const struct mesh *m, const struct registry *reg, struct dump_report *rep, double *keep_s,
                   char *err, size_t errlen)
{
    int ok = 1;
    *keep_s = 0;
    if (comm_rank(cp->comm) == 0) {
        const int e = fsync_path(tmp); /* a write that failed on its way to the disk shows here */
        if (e) {
            ERROR_AT(err, errlen, "%s: fsync failed: %s; the dump is not published", tmp, strerror(e));
            unlink(tmp);
            ok = 0;
        } else if (reads_back(tmp, meta->cycle, err, errlen)) {
            unlink(tmp);
            ok = 0;
        } else if (rename(tmp, final)) {
            ERROR_AT(err, errlen, "cannot rename '%s' to '%s': %s", tmp, final, strerror(errno));
            unlink(tmp);
            ok = 0;
        } else {
            (void)fsync_path(cp->dir); /* the rename on disk: some file systems refuse a directory's fsync */
            cp->written = xrealloc(cp->written, (size_t)(cp->nwritten + 1) * sizeof *cp->written);
            cp->written[cp->nwritten++] = meta->cycle;
            double k0 = comm_wtime();
            apply_keep(cp);
            *keep_s = comm_wtime() - k0;
            if (xdmf_write_dump(cp->dir, meta->cycle, meta->time, m->el->dim, m->global_ncells, m->global_nnodes,
                                reg, meta->mat_names, err, errlen) ||
                xdmf_write_collection(cp->dir, err, errlen))
                ok = 0;
        }
        struct stat st;
        rep->bytes = ok && !stat(final, &st) ? (double)st.st_size : 0;
    }
    comm_bcast_int(cp->comm, &ok, 0);
    comm_bcast_bytes(cp->comm, &rep->bytes, sizeof rep->bytes, 0);
    comm_bcast_bytes(cp->comm, keep_s, sizeof *keep_s, 0);
    return ok ? 0 : -1;
}

int checkpoint_write(struct checkpointer *cp, const struct mesh *m, const struct registry *reg,
                     const struct dump_meta *meta, struct dump_report *rep, char *err, size_t errlen)
{
    MPI_Comm comm = cp->comm;
    double t0 = comm_wtime();
    err[0] = '\0';
    char tmp[8192], final[8192];
    snprintf(final, sizeof final, "%s/hydro_%06ld.h5", cp->dir, meta->cycle);
    snprintf(tmp, sizeof tmp, "%s/.hydro_%06ld.h5.tmp", cp->dir, meta->cycle);
    hid_t dxpl;
    hid_t file = create_file(comm, tmp, &dxpl);
    const struct writer w = {comm, dxpl, tmp, writeback_fd(cp, tmp)}; /* created by every rank's H5Fcreate */
    const struct layout l = layout_of(m, reg);
    int64_t clo, ccnt, nlo, ncnt;
    char *cblock = cell_block(comm, m, reg, &l, &clo, &ccnt);
    char *nblock = node_block(comm, m, reg, &l, &nlo, &ncnt);
    write_attributes(file, meta, m->el->dim, comm_size(comm), tmp);
    write_datasets(&w, file, m, reg, meta, &l, cblock, clo, ccnt, nblock, nlo, ncnt);
    H5_CHECK(H5Pclose(dxpl), tmp);
    if (w.fd >= 0)
        close(w.fd);
    H5_CHECK(H5Fclose(file), tmp); /* MPI_File_close: each rank's data reaches the file system */
    MPI_CHECK(MPI_Barrier(comm));  /* ... on every rank, before rank 0 publishes the file */
    free(cblock);
    free(nblock);
    double keep_s;
    int rc = publish(cp, tmp, final, meta, m, reg, rep, &keep_s, err, errlen);
    snprintf(rep->path, sizeof rep->path, "%s", final);
    rep->seconds = comm_wtime() - t0 - keep_s;
    return rc;
}
