/* Restart from an HDF5 dump (see restart.h). Every rank reads one block of global ids of each
 * dataset; items then travel to the ranks that hold them with sparse exchanges. */
#include "restart.h"

#include <errno.h>
#include <limits.h>
#include <hdf5.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "check.h"
#include "checkpoint.h"
#include "comm.h"
#include "crc32.h"
#include "gidblocks.h"
#include "h5util.h"
#include "idmap.h"

/* Type class and dimensions of a dataset; -1 when absent or unreadable, -2 when its data is
 * not all in the file as hydro writes it (contiguous, rows x cols x type size bytes), -3 when
 * it has no integer crc32 attribute (checked against the data when the data is read). */
static int dataset_shape(hid_t file, const char *name, H5T_class_t *cls, int *rank, hsize_t dims[2])
{
    if (H5Lexists(file, name, H5P_DEFAULT) <= 0)
        return -1;
    hid_t d = H5Dopen2(file, name, H5P_DEFAULT);
    if (d < 0)
        return -1;
    hid_t t = H5Dget_type(d), s = H5Dget_space(d), dcpl = H5Dget_create_plist(d);
    int rc = -1;
    if (t >= 0 && s >= 0 && dcpl >= 0) {
        *cls = H5Tget_class(t);
        *rank = H5Sget_simple_extent_ndims(s);
        if (*rank >= 1 && *rank <= 2) {
            H5Sget_simple_extent_dims(s, dims, NULL);
            if (*rank == 1)
                dims[1] = 1;
            size_t size = H5Tget_size(t);
            /* dims come from the file: compare in floating point, no overflow */
            double want = (double)dims[0] * (double)dims[1] * (double)size;
            rc = H5Pget_layout(dcpl) == H5D_CONTIGUOUS && H5Pget_external_count(dcpl) == 0 &&
                         (double)H5Dget_storage_size(d) == want
                     ? 0
                     : -2;
            int64_t crc;
            if (rc == 0 && h5_read_attr_i64(d, "crc32", &crc))
                rc = -3;
            if (*rank == 1)
                dims[1] = 0;
        }
    }
    if (dcpl >= 0)
        H5Pclose(dcpl);
    if (t >= 0)
        H5Tclose(t);
    if (s >= 0)
        H5Sclose(s);
    H5Dclose(d);
    return rc;
}

/* "" when the dataset is there with that class and shape (cols 0: one-dimensional). */
static int check_dataset(hid_t file, const char *name, H5T_class_t want, int64_t rows, int cols, const char *path,
                         char *err, size_t errlen)
{
    H5T_class_t cls;
    int rank;
    hsize_t dims[2];
    int rc = dataset_shape(file, name, &cls, &rank, dims);
    if (rc == -1) {
        snprintf(err, errlen, "%s: lacks dataset %s", path, name);
        return -1;
    }
    if (rc == -2) {
        snprintf(err, errlen, "%s: dataset %s is not stored whole in the file (truncated, chunked or external)",
                 path, name);
        return -1;
    }
    if (rc == -3) {
        snprintf(err, errlen, "%s: dataset %s has no crc32 checksum attribute", path, name);
        return -1;
    }
    if (cls != want || dims[0] != (hsize_t)rows || (cols ? rank != 2 || dims[1] != (hsize_t)cols : rank != 1)) {
        char shape[64];
        if (cols)
            snprintf(shape, sizeof shape, "[%lld][%d]", (long long)rows, cols);
        else
            snprintf(shape, sizeof shape, "[%lld]", (long long)rows);
        snprintf(err, errlen, "%s: dataset %s has the wrong type or size (expected %s %s)", path, name,
                 want == H5T_FLOAT ? "float" : "integer", shape);
        return -1;
    }
    return 0;
}

struct scan {
    hid_t group;
    enum var_center center;
    int64_t rows;
    int material; /* > 1: scanning /materials, whose variables have this many materials */
    const char *gname, *path;
    struct restart_file *rf;
    char *err;
    size_t errlen;
    int bad;
};

static herr_t scan_var(hid_t group, const char *name, const H5L_info_t *info, void *data)
{
    (void)info;
    struct scan *s = data;
    if ((s->center == VAR_CELL && !s->material && !strcmp(name, "rank")) ||
        (s->material && (!strcmp(name, "count") || !strcmp(name, "material"))))
        return 0;
    char full[256];
    snprintf(full, sizeof full, "/%s/%s", s->gname, name);
    H5T_class_t cls;
    int rank;
    hsize_t dims[2];
    int rc = strlen(name) >= sizeof s->rf->vars[0].name ? -1 : dataset_shape(group, name, &cls, &rank, dims);
    if (rc == -2) {
        snprintf(s->err, s->errlen, "%s: dataset %s is not stored whole in the file (truncated, chunked or external)",
                 s->path, full);
        s->bad = 1;
        return 1;
    }
    if (rc == -3) {
        snprintf(s->err, s->errlen, "%s: dataset %s has no crc32 checksum attribute", s->path, full);
        s->bad = 1;
        return 1;
    }
    if (s->material && (rc || cls != H5T_FLOAT || rank != 1)) {
        snprintf(s->err, s->errlen, "%s: %s is not a float dataset [entries]", s->path, full);
        s->bad = 1;
        return 1;
    }
    if (rc || cls != H5T_FLOAT || (rank == 2 && (dims[1] < 2 || dims[1] > 4096))) {
        snprintf(s->err, s->errlen, "%s: %s is not a float dataset [n] or [n][k] with 2 <= k <= 4096", s->path, full);
        s->bad = 1;
        return 1;
    }
    if ((int64_t)dims[0] != s->rows) {
        snprintf(s->err, s->errlen, "%s: %s has %lld rows but %s %lld %s", s->path, full, (long long)dims[0],
                 s->material ? "/materials/material has" : "the mesh has", (long long)s->rows,
                 s->material ? "entries" : s->center == VAR_CELL ? "cells" : "nodes");
        s->bad = 1;
        return 1;
    }
    struct restart_file *rf = s->rf;
    rf->vars = xrealloc(rf->vars, (size_t)(rf->nvars + 1) * sizeof *rf->vars);
    struct restart_var *v = &rf->vars[rf->nvars++];
    snprintf(v->name, sizeof v->name, "%s", name);
    v->center = s->center;
    v->ncomp = s->material ? s->material : rank == 2 ? (int)dims[1] : 1;
    v->material = s->material > 0;
    return 0;
}

/* Iterates a group's datasets with scan_var; -1 with err set when one is wrong. */
static int scan_group(hid_t file, struct scan *s)
{
    if (H5Lexists(file, s->gname, H5P_DEFAULT) <= 0) {
        snprintf(s->err, s->errlen, "%s: lacks group /%s", s->path, s->gname);
        return -1;
    }
    hid_t g = H5Gopen2(file, s->gname, H5P_DEFAULT);
    int rc = 0;
    if (g < 0 || H5Literate(g, H5_INDEX_NAME, H5_ITER_INC, NULL, scan_var, s) < 0 || s->bad) {
        if (!s->bad)
            snprintf(s->err, s->errlen, "%s: cannot read group /%s", s->path, s->gname);
        rc = -1;
    }
    if (g >= 0)
        H5Gclose(g);
    return rc;
}

/* /materials, when the dump has one: its count [cells] and material [entries] (int32, at
 * least one entry per cell, at most nmat), and its variables [entries]. */
static int validate_materials(hid_t file, const char *path, struct restart_file *rf, char *err, size_t errlen)
{
    if (H5Lexists(file, "materials", H5P_DEFAULT) <= 0)
        return 0;
    hid_t g = H5Gopen2(file, "materials", H5P_DEFAULT);
    int64_t nmat = 0;
    int bad = g < 0 || h5_read_attr_i64(g, "nmat", &nmat) || nmat < 2 || nmat > DUMP_MAT_MAX;
    if (g >= 0)
        H5Gclose(g);
    if (bad) {
        snprintf(err, errlen, "%s: group /materials lacks attribute nmat (2 to %d materials)", path, DUMP_MAT_MAX);
        return -1;
    }
    H5T_class_t cls;
    int rank;
    hsize_t dims[2];
    if (check_dataset(file, "/materials/count", H5T_INTEGER, rf->ncells, 0, path, err, errlen))
        return -1;
    int rc = dataset_shape(file, "/materials/material", &cls, &rank, dims);
    if (rc || cls != H5T_INTEGER || rank != 1 || dims[0] < (hsize_t)rf->ncells ||
        (double)dims[0] > (double)rf->ncells * (double)nmat) {
        snprintf(err, errlen, "%s: dataset /materials/material is missing, without crc32, or not an integer "
                 "dataset [entries] with between %lld and %lld entries", path, (long long)rf->ncells,
                 (long long)rf->ncells * (long long)nmat);
        return -1;
    }
    rf->nentries = (int64_t)dims[0];
    struct scan s = {.center = VAR_CELL, .rows = rf->nentries, .material = (int)nmat, .gname = "materials",
                     .path = path, .rf = rf, .err = err, .errlen = errlen};
    return scan_group(file, &s);
}

static int read_diagnostics(hid_t file, struct restart_file *rf)
{
    if (H5Lexists(file, "diagnostics", H5P_DEFAULT) <= 0)
        return -1;
    hid_t g = H5Gopen2(file, "diagnostics", H5P_DEFAULT);
    if (g < 0)
        return -1;
    int rc = h5_read_attr_double(g, "initial_mass", &rf->mass0) || h5_read_attr_double(g, "initial_energy", &rf->energy0);
    /* materials (optional: dumps of one material, or older ones, have none) */
    int n = h5_read_attr_doubles(g, "material_initial_mass", DUMP_MAT_MAX, rf->mat_mass0);
    if (n > 1 && h5_read_attr_doubles(g, "material_removed_mass", DUMP_MAT_MAX, rf->mat_removed) == n)
        rf->nmat = n;
    int64_t limbs[DUMP_MAT_MAX * XSUM_LIMBS];
    if (rf->nmat > 1 &&
        h5_read_attr_i64s(g, "material_removed_mass_exact", DUMP_MAT_MAX * XSUM_LIMBS, limbs) == n * XSUM_LIMBS) {
        for (int k = 0; k < n; k++) {
            xsum_init(&rf->mat_removed_exact[k]);
            memcpy(rf->mat_removed_exact[k].limb, limbs + (size_t)k * XSUM_LIMBS, sizeof rf->mat_removed_exact[k].limb);
        }
        rf->removed_exact = 1;
    }
    H5Gclose(g);
    return rc ? -1 : 0;
}

/* The datasets of the mesh, their shapes, and the variables of /cells and /nodes (scan_var). */
static int validate_datasets(hid_t file, const char *path, struct restart_file *rf, char *err, size_t errlen)
{
    int nv = rf->dim == 2 ? 4 : 8, nf = rf->dim == 2 ? 4 : 6;
    H5T_class_t cls;
    int rank;
    hsize_t dims[2];
    if (dataset_shape(file, "/mesh/node_coords", &cls, &rank, dims) == -1) {
        snprintf(err, errlen, "%s: lacks dataset /mesh/node_coords", path);
        return -1;
    }
    if (dataset_shape(file, "/mesh/cell_nodes", &cls, &rank, dims) == -1) {
        snprintf(err, errlen, "%s: lacks dataset /mesh/cell_nodes", path);
        return -1;
    }
    if (dims[0] < 1 || dims[0] > (hsize_t)INT64_MAX / 8) {
        snprintf(err, errlen, "%s: /mesh/cell_nodes has %llu rows", path, (unsigned long long)dims[0]);
        return -1;
    }
    rf->ncells = (int64_t)dims[0];
    dataset_shape(file, "/mesh/node_coords", &cls, &rank, dims);
    rf->nnodes = (int64_t)dims[0];
    if (!(rf->nnodes >= 1 && !check_dataset(file, "/mesh/node_coords", H5T_FLOAT, rf->nnodes, 3, path, err, errlen) &&
          !check_dataset(file, "/mesh/cell_nodes", H5T_INTEGER, rf->ncells, nv, path, err, errlen) &&
          !check_dataset(file, "/mesh/cell_face_tags", H5T_INTEGER, rf->ncells, nf, path, err, errlen) &&
          !check_dataset(file, "/cells/rank", H5T_INTEGER, rf->ncells, 0, path, err, errlen)))
        return -1;
    for (int c = 0; c < 2; c++) {
        struct scan s = {.center = c == 0 ? VAR_CELL : VAR_NODE,
                         .rows = c == 0 ? rf->ncells : rf->nnodes,
                         .gname = c == 0 ? "cells" : "nodes",
                         .path = path,
                         .rf = rf,
                         .err = err,
                         .errlen = errlen};
        if (scan_group(file, &s))
            return -1;
    }
    return validate_materials(file, path, rf, err, errlen);
}

/* The file exists, is a regular file, and is not an HDF5 file of a format older than hydro's. */
static int validate_file(const char *path, char *err, size_t errlen)
{
    struct stat st;
    if (stat(path, &st)) {
        snprintf(err, errlen, "%s: cannot open: %s", path, strerror(errno));
        return -1;
    }
    if (!S_ISREG(st.st_mode)) {
        snprintf(err, errlen, "%s: not a regular file", path);
        return -1;
    }
    /* hydro writes the HDF5 1.10 format (superblock 2 or later), whose metadata HDF5 checksums;
     * older superblocks have none, and libhdf5 can crash on damaged ones: refuse them unopened */
    unsigned char head[9] = {0};
    FILE *fp = fopen(path, "rb");
    size_t got = fp ? fread(head, 1, sizeof head, fp) : 0;
    if (fp)
        fclose(fp);
    if (got == sizeof head && !memcmp(head, "\211HDF\r\n\032\n", 8) && head[8] < 2) {
        snprintf(err, errlen, "%s: HDF5 superblock version %d: not a hydro checkpoint of format %d (HDF5 1.10 "
                 "format, with checksummed metadata)", path, head[8], CHECKPOINT_FORMAT_VERSION);
        return -1;
    }
    return 0;
}

/* Rank 0: everything a restart relies on, before any rank reads in parallel. */
static int validate(const char *path, struct restart_file *rf, char *err, size_t errlen)
{
    if (validate_file(path, err, errlen))
        return -1;
    hid_t file = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    if (file < 0) {
        char summary[600];
        h5_error_summary(summary, sizeof summary);
        snprintf(err, errlen, "%s: not a readable HDF5 file (%s)", path, summary);
        return -1;
    }
    int rc = -1;
    char *format = h5_read_attr_string(file, "format");
    int64_t version = 0, cycle = 0, dim = 0, nranks = 0;
    if (!format || strcmp(format, CHECKPOINT_FORMAT)) {
        snprintf(err, errlen, "%s: not a hydro checkpoint (no format = \"%s\" attribute)", path, CHECKPOINT_FORMAT);
    } else if (h5_read_attr_i64(file, "format_version", &version) || version != CHECKPOINT_FORMAT_VERSION) {
        snprintf(err, errlen, "%s: checkpoint format version %lld, this hydro reads version %d", path,
                 (long long)version, CHECKPOINT_FORMAT_VERSION);
    } else if (h5_read_attr_i64(file, "cycle", &cycle) || h5_read_attr_double(file, "time", &rf->time) ||
               h5_read_attr_double(file, "dt", &rf->dt) || h5_read_attr_double(file, "dt_old", &rf->dt_old) ||
               h5_read_attr_i64(file, "dim", &dim) ||
               h5_read_attr_i64(file, "nranks_written", &nranks) || !(rf->deck_text = h5_read_attr_string(file, "deck"))) {
        snprintf(err, errlen, "%s: a root attribute (cycle, time, dt, dt_old, dim, nranks_written or deck) is "
                 "missing or of the wrong type", path);
    } else if (dim != 2 && dim != 3) {
        snprintf(err, errlen, "%s: dim = %lld", path, (long long)dim);
    } else if (cycle < 0 || cycle > 1000000000000LL || !isfinite(rf->time) || !isfinite(rf->dt) || rf->dt <= 0 ||
               !isfinite(rf->dt_old) || rf->dt_old < 0) { /* MicroHydro's first step has no previous one */
        snprintf(err, errlen, "%s: bad time-stepping state (cycle %lld, time %g, dt %g)", path, (long long)cycle,
                 rf->time, rf->dt);
    } else if (read_diagnostics(file, rf)) {
        snprintf(err, errlen, "%s: lacks group /diagnostics with attributes initial_mass and initial_energy", path);
    } else {
        rf->cycle = (long)cycle;
        rf->dim = (int)dim;
        rf->nranks_written = (int)nranks;
        rc = validate_datasets(file, path, rf, err, errlen);
    }
    free(format);
    H5Fclose(file);
    return rc;
}

int restart_open(MPI_Comm comm, const char *path, struct restart_file *rf, char *err, size_t errlen)
{
    memset(rf, 0, sizeof *rf);
    snprintf(rf->path, sizeof rf->path, "%s", path);
    err[0] = '\0';
    h5_quiet();
    int ok = 1;
    if (comm_rank(comm) == 0)
        ok = validate(path, rf, err, errlen) == 0;
    comm_bcast_int(comm, &ok, 0);
    if (!ok) {
        restart_close(rf);
        return -1;
    }
    /* the scalars and the variable list, then the deck text */
    struct {
        long cycle;
        double time, dt, dt_old, mass0, energy0;
        int dim, nranks_written, nvars, nmat;
        int64_t ncells, nnodes, nentries;
    } head = {rf->cycle, rf->time, rf->dt, rf->dt_old, rf->mass0, rf->energy0, rf->dim, rf->nranks_written,
              rf->nvars, rf->nmat, rf->ncells, rf->nnodes, rf->nentries};
    comm_bcast_bytes(comm, &head, sizeof head, 0);
    rf->nmat = head.nmat;
    comm_bcast_bytes(comm, rf->mat_mass0, sizeof rf->mat_mass0, 0);
    comm_bcast_bytes(comm, rf->mat_removed, sizeof rf->mat_removed, 0);
    comm_bcast_bytes(comm, &rf->removed_exact, sizeof rf->removed_exact, 0);
    comm_bcast_bytes(comm, rf->mat_removed_exact, sizeof rf->mat_removed_exact, 0);
    rf->cycle = head.cycle;
    rf->time = head.time;
    rf->dt = head.dt;
    rf->dt_old = head.dt_old;
    rf->mass0 = head.mass0;
    rf->energy0 = head.energy0;
    rf->dim = head.dim;
    rf->nranks_written = head.nranks_written;
    rf->ncells = head.ncells;
    rf->nnodes = head.nnodes;
    rf->nentries = head.nentries;
    if (comm_rank(comm) != 0)
        rf->vars = xmalloc((size_t)(head.nvars ? head.nvars : 1) * sizeof *rf->vars);
    rf->nvars = head.nvars;
    comm_bcast_bytes(comm, rf->vars, (size_t)rf->nvars * sizeof *rf->vars, 0);
    char *text = comm_bcast_text(comm, rf->deck_text, 0);
    free(rf->deck_text);
    rf->deck_text = text;
    return 0;
}

void restart_close(struct restart_file *rf)
{
    free(rf->deck_text);
    free(rf->vars);
    rf->deck_text = NULL;
    rf->vars = NULL;
}

/* Collective parallel open for reading. */
static hid_t open_parallel(MPI_Comm comm, const char *path)
{
    hid_t fapl = H5_CHECK_INPUT(H5Pcreate(H5P_FILE_ACCESS), path);
    H5_CHECK_INPUT(H5Pset_fapl_mpio(fapl, comm, MPI_INFO_NULL), path);
    H5_CHECK_INPUT(H5Pset_all_coll_metadata_ops(fapl, 1), path);
    hid_t file = H5_CHECK_INPUT(H5Fopen(path, H5F_ACC_RDONLY, fapl), path);
    H5_CHECK_INPUT(H5Pclose(fapl), path);
    return file;
}

/* What every dataset read needs: the open file, where to report. */
struct reader {
    MPI_Comm comm;
    hid_t file;
    const char *path;
    char *err;
    size_t errlen;
};

/* Rows [lo, lo + cnt) of dataset name (cols 0: one-dimensional), collectively, checked against
 * the dataset's crc32 attribute (every rank reads one part; the parts tile the dataset). Returns
 * -1 on every rank on a mismatch, with the dataset named in err on rank 0. */
static int read_rows(const struct reader *r, const char *name, hid_t mtype, int64_t lo, int64_t cnt, int cols,
                     void *buf)
{
    const char *path = r->path;
    hid_t d = H5_CHECK_INPUT(H5Dopen2(r->file, name, H5P_DEFAULT), path);
    hid_t fspace = H5_CHECK_INPUT(H5Dget_space(d), path);
    int rank = cols ? 2 : 1;
    hsize_t start[2] = {(hsize_t)lo, 0}, count[2] = {(hsize_t)cnt, (hsize_t)cols};
    hid_t mspace;
    static double dummy;
    void *dst = buf;
    if (cnt > 0) {
        H5_CHECK_INPUT(H5Sselect_hyperslab(fspace, H5S_SELECT_SET, start, NULL, count, NULL), path);
        mspace = H5_CHECK_INPUT(H5Screate_simple(rank, count, NULL), path);
    } else {
        H5_CHECK_INPUT(H5Sselect_none(fspace), path);
        hsize_t one = 1;
        mspace = H5_CHECK_INPUT(H5Screate_simple(1, &one, NULL), path);
        H5_CHECK_INPUT(H5Sselect_none(mspace), path);
        dst = &dummy;
    }
    hid_t dxpl = H5_CHECK_INPUT(H5Pcreate(H5P_DATASET_XFER), path);
    H5_CHECK_INPUT(H5Pset_dxpl_mpio(dxpl, H5FD_MPIO_COLLECTIVE), path);
    H5_CHECK_INPUT(H5Dread(d, mtype, mspace, fspace, dxpl, dst), path);
    H5_CHECK_INPUT(H5Pclose(dxpl), path);
    H5_CHECK_INPUT(H5Sclose(mspace), path);
    H5_CHECK_INPUT(H5Sclose(fspace), path);

    /* memory types are the file's (little-endian, same sizes), so these are the file's bytes */
    const uint64_t row = (uint64_t)(cols ? cols : 1) * H5Tget_size(mtype);
    uint32_t crc = crc32_update(0, buf, (size_t)(row * (uint64_t)cnt));
    crc = h5_crc_of_parts(r->comm, row * (uint64_t)lo, row * (uint64_t)cnt, crc);
    int64_t stored = -1;
    h5_read_attr_i64(d, "crc32", &stored); /* present: validated by restart_open */
    H5_CHECK_INPUT(H5Dclose(d), path);
    if (stored == (int64_t)crc)
        return 0;
    if (comm_rank(r->comm) == 0)
        snprintf(r->err, r->errlen, "%s: dataset %s does not match its checksum (crc32 attribute %08llx, data %08lx): "
                 "the dump is damaged", path, name, (unsigned long long)stored, (unsigned long)crc);
    return -1;
}

/* The same for a dataset restart does not otherwise need: read in the file's own type, checked, dropped. */
static int verify_rows(const struct reader *r, const char *name, int64_t lo, int64_t cnt, int cols)
{
    const char *path = r->path;
    hid_t d = H5_CHECK_INPUT(H5Dopen2(r->file, name, H5P_DEFAULT), path);
    hid_t t = H5_CHECK_INPUT(H5Dget_type(d), path);
    H5_CHECK_INPUT(H5Dclose(d), path);
    size_t bytes = (size_t)(cnt ? cnt : 1) * (size_t)(cols ? cols : 1) * H5Tget_size(t);
    void *buf = xmalloc(bytes);
    int rc = read_rows(r, name, t, lo, cnt, cols, buf);
    free(buf);
    H5_CHECK_INPUT(H5Tclose(t), path);
    return rc;
}

/* This rank's block of the n items of a dump: what it reads. */
static void block_of(int64_t n, MPI_Comm comm, int64_t *lo, int64_t *cnt)
{
    struct gid_blocks b;
    gid_blocks_init(&b, n, comm_size(comm));
    gid_blocks_range(&b, comm_rank(comm), lo, cnt);
}

int restart_read_cells(MPI_Comm comm, const struct restart_file *rf, struct cellset *block, char *err, size_t errlen)
{
    err[0] = '\0';
    const struct element *el = element_of_dim(rf->dim);
    const int nv = el->nnodes, nf = el->nfaces, P = comm_size(comm);
    struct gid_blocks cblocks, nblocks;
    gid_blocks_init(&cblocks, rf->ncells, P);
    gid_blocks_init(&nblocks, rf->nnodes, P);
    hid_t file = open_parallel(comm, rf->path);
    int64_t clo, ccnt, nlo, ncnt;
    block_of(rf->ncells, comm, &clo, &ccnt);
    block_of(rf->nnodes, comm, &nlo, &ncnt);
    int64_t *nodes = xmalloc((size_t)(ccnt ? ccnt : 1) * nv * sizeof *nodes);
    int32_t *tags = xmalloc((size_t)(ccnt ? ccnt : 1) * nf * sizeof *tags);
    double *xyz = xmalloc((size_t)(ncnt ? ncnt : 1) * 3 * sizeof *xyz);
    const struct reader r = {comm, file, rf->path, err, errlen};
    int damaged = read_rows(&r, "/mesh/cell_nodes", H5T_NATIVE_INT64, clo, ccnt, nv, nodes) ||
                  read_rows(&r, "/mesh/cell_face_tags", H5T_NATIVE_INT32, clo, ccnt, nf, tags) ||
                  read_rows(&r, "/mesh/node_coords", H5T_NATIVE_DOUBLE, nlo, ncnt, 3, xyz);
    H5_CHECK_INPUT(H5Fclose(file), rf->path);
    if (damaged) { /* every rank took the same branches: the checks are collective */
        free(nodes);
        free(tags);
        free(xyz);
        return -1;
    }

    /* every node id in range (the smallest offending cell is reported, by rank 0) */
    long long bad = LLONG_MAX;
    for (int64_t i = 0; i < ccnt * nv; i++)
        if ((nodes[i] < 0 || nodes[i] >= rf->nnodes) && clo + i / nv < bad)
            bad = clo + i / nv;
    bad = comm_min_ll(comm, bad);
    if (bad != LLONG_MAX) {
        if (bad >= clo && bad < clo + ccnt) /* the rank that read it tells rank 0 through err */
            for (int k = 0; k < nv; k++)
                if (nodes[(bad - clo) * nv + k] < 0 || nodes[(bad - clo) * nv + k] >= rf->nnodes)
                    snprintf(err, errlen, "%s: cell %lld uses node %lld, outside [0, %lld)", rf->path, bad,
                             (long long)nodes[(bad - clo) * nv + k], (long long)rf->nnodes);
        char *msg = comm_bcast_text(comm, err, gid_blocks_rank(&cblocks, bad));
        snprintf(err, errlen, "%s", comm_rank(comm) == 0 ? msg : "");
        free(msg);
        free(nodes);
        free(tags);
        free(xyz);
        return -1;
    }

    /* coordinates of our cells' nodes, each asked once of the rank holding its node block */
    int64_t nasked = 0;
    int64_t *asked = xmalloc((size_t)(ccnt ? ccnt * nv : 1) * sizeof *asked);
    struct idmap seen;
    idmap_init(&seen, (size_t)ccnt * 2);
    for (int64_t i = 0; i < ccnt * nv; i++)
        if (idmap_put(&seen, nodes[i], 0))
            asked[nasked++] = nodes[i];
    idmap_free(&seen);
    unsigned char *used = xcalloc((size_t)(ncnt ? ncnt : 1), 1);
    double *got = xmalloc((size_t)(nasked ? nasked : 1) * 3 * sizeof *got);
    gid_fetch(comm, &nblocks, asked, nasked, (const char *)xyz, 3 * sizeof *xyz, (char *)got, used);
    /* node ids must be exactly the nodes of the cells: a node no cell uses has no owner */
    long long unused = LLONG_MAX;
    for (int64_t i = 0; i < ncnt; i++)
        if (!used[i] && nlo + i < unused)
            unused = nlo + i;
    free(used);
    unused = comm_min_ll(comm, unused);
    if (unused != LLONG_MAX) {
        if (comm_rank(comm) == 0)
            snprintf(err, errlen, "%s: node %lld of /mesh/node_coords belongs to no cell", rf->path, unused);
        free(asked);
        free(got);
        free(nodes);
        free(tags);
        free(xyz);
        return -1;
    }
    for (int64_t i = 0; i < nasked; i++)
        cellset_add_node(block, asked[i], got + 3 * i);
    free(asked);
    free(got);
    for (int64_t i = 0; i < ccnt; i++)
        cellset_add_cell(block, clo + i, nodes + i * nv, tags + i * nf);
    free(nodes);
    free(tags);
    free(xyz);
    return 0;
}

/* The materials of this rank's block of cells: their count, and entries [elo, elo + ne). */
struct mat_block {
    int nm;
    int64_t elo, ne;
    int32_t *count, *mat; /* [cnt], [ne] */
};

/* Reads /materials/count and /materials/material for cells [lo, lo + cnt), checked against their
 * checksums and each other (1 to nm materials per cell, ascending indices below nm, entries
 * summing to the dataset's length). -1 on every rank with err on rank 0. */
static int read_mat_block(const struct reader *r, const struct restart_file *rf, int nm, int64_t lo, int64_t cnt,
                          struct mat_block *b)
{
    memset(b, 0, sizeof *b);
    b->nm = nm;
    b->count = xmalloc((size_t)(cnt ? cnt : 1) * sizeof *b->count);
    if (read_rows(r, "/materials/count", H5T_NATIVE_INT32, lo, cnt, 0, b->count))
        return -1;
    long long ne = 0, elo = 0, bad = 0;
    for (int64_t i = 0; i < cnt; i++) {
        bad |= b->count[i] < 1 || b->count[i] > nm;
        ne += b->count[i] < 1 || b->count[i] > nm ? 0 : b->count[i];
    }
    MPI_CHECK(MPI_Exscan(&ne, &elo, 1, MPI_LONG_LONG, MPI_SUM, r->comm));
    if (comm_rank(r->comm) == 0)
        elo = 0; /* MPI_Exscan leaves rank 0's undefined */
    if (comm_max_ll(r->comm, bad) || comm_sum_ll(r->comm, ne) != rf->nentries) {
        if (comm_rank(r->comm) == 0)
            snprintf(r->err, r->errlen, "%s: dataset /materials/count does not match /materials/material (a cell "
                     "with no material or more than %d, or counts not summing to its %lld entries)", r->path, nm,
                     (long long)rf->nentries);
        return -1;
    }
    b->elo = elo;
    b->ne = ne;
    b->mat = xmalloc((size_t)(ne ? ne : 1) * sizeof *b->mat);
    if (read_rows(r, "/materials/material", H5T_NATIVE_INT32, elo, ne, 0, b->mat))
        return -1;
    for (int64_t i = 0, j = 0; i < cnt; i++)
        for (int k = 0; k < b->count[i]; k++, j++)
            bad |= b->mat[j] < 0 || b->mat[j] >= nm || (k > 0 && b->mat[j] <= b->mat[j - 1]);
    if (comm_max_ll(r->comm, bad)) {
        if (comm_rank(r->comm) == 0)
            snprintf(r->err, r->errlen, "%s: dataset /materials/material holds a material index outside [0, %d) or "
                     "a cell's materials out of ascending order", r->path, nm);
        return -1;
    }
    return 0;
}

static void mat_block_free(struct mat_block *b)
{
    free(b->count);
    free(b->mat);
    memset(b, 0, sizeof *b);
}

/* A material variable's entries of the block, as [cnt][nm] rows (0 where a material is absent). */
static int read_mat_var(const struct reader *r, const char *name, const struct mat_block *b, int64_t cnt, double *col)
{
    double *e = xmalloc((size_t)(b->ne ? b->ne : 1) * sizeof *e);
    int rc = read_rows(r, name, H5T_NATIVE_DOUBLE, b->elo, b->ne, 0, e);
    memset(col, 0, (size_t)(cnt ? cnt : 1) * (size_t)b->nm * sizeof *col);
    for (int64_t i = 0, j = 0; !rc && i < cnt; i++)
        for (int k = 0; k < b->count[i]; k++, j++)
            col[(size_t)i * b->nm + b->mat[j]] = e[j];
    free(e);
    return rc;
}

/* Rows of every checkpointed variable of one centering, for this rank's block, as records
 * (material variables from /materials' entries, mb); NULL on every rank when one does not
 * match its checksum (err on rank 0). */
static double *read_var_block(const struct reader *r, const struct registry *reg, enum var_center center, int64_t lo,
                              int64_t cnt, int width, const struct mat_block *mb)
{
    double *rec = xmalloc((size_t)(cnt ? cnt : 1) * (size_t)(width ? width : 1) * sizeof *rec);
    int off = 0;
    for (int v = 0; v < reg->n; v++) {
        const struct var *var = &reg->v[v];
        if (var->center != center || !(var->flags & VAR_CHECKPOINT))
            continue;
        double *col = xmalloc((size_t)(cnt ? cnt : 1) * var->ncomp * sizeof *col);
        char name[128];
        int mat = (var->flags & VAR_MATERIAL) != 0;
        snprintf(name, sizeof name, "/%s/%s", mat ? "materials" : center == VAR_CELL ? "cells" : "nodes", var->name);
        if (mat ? read_mat_var(r, name, mb, cnt, col)
                : read_rows(r, name, H5T_NATIVE_DOUBLE, lo, cnt, var->ncomp > 1 ? var->ncomp : 0, col)) {
            free(col);
            free(rec);
            return NULL;
        }
        for (int64_t i = 0; i < cnt; i++)
            memcpy(rec + (size_t)i * width + off, col + (size_t)i * var->ncomp, (size_t)var->ncomp * sizeof *col);
        free(col);
        off += var->ncomp;
    }
    return rec;
}

/* Every local item's record from its block holder, scattered into the registry's variables. */
static void fetch_records(MPI_Comm comm, struct registry *reg, enum var_center center, const int64_t *gid, int32_t n,
                          int64_t N, const double *block, int width)
{
    if (width == 0)
        return; /* nothing checkpointed on these items */
    struct gid_blocks b;
    gid_blocks_init(&b, N, comm_size(comm));
    double *rec = xmalloc((size_t)(n ? n : 1) * (size_t)width * sizeof *rec);
    gid_fetch(comm, &b, gid, n, (const char *)block, (size_t)width * sizeof *rec, (char *)rec, NULL);
    for (int32_t i = 0; i < n; i++) {
        int off = 0;
        for (int v = 0; v < reg->n; v++) {
            struct var *var = &reg->v[v];
            if (var->center != center || !(var->flags & VAR_CHECKPOINT))
                continue;
            if (var->flags & VAR_MATERIAL) /* after the cell variables, the fractions first */
                registry_mat_set_row(reg, v, i, rec + (size_t)i * width + off, 1);
            else
                memcpy(var->data + (size_t)i * var->ncomp, rec + (size_t)i * width + off, (size_t)var->ncomp * sizeof *rec);
            off += var->ncomp;
        }
    }
    free(rec);
}

int restart_read_vars(MPI_Comm comm, const struct restart_file *rf, const struct mesh *m, struct registry *reg,
                      char *err, size_t errlen)
{
    err[0] = '\0';
    int width[2] = {0, 0};
    for (int v = 0; v < reg->n; v++) {
        const struct var *var = &reg->v[v];
        if (!(var->flags & VAR_CHECKPOINT))
            continue;
        const struct restart_var *found = NULL;
        int mat = (var->flags & VAR_MATERIAL) != 0;
        for (int k = 0; k < rf->nvars; k++)
            if (rf->vars[k].center == var->center && rf->vars[k].material == mat && !strcmp(rf->vars[k].name, var->name))
                found = &rf->vars[k];
        if (!found || found->ncomp != var->ncomp) { /* every rank sees the same lists */
            if (comm_rank(comm) == 0)
                snprintf(err, errlen, "%s: %s dataset /%s/%s%s", rf->path, found ? "wrong width of" : "lacks",
                         mat ? "materials" : var->center == VAR_CELL ? "cells" : "nodes", var->name,
                         found ? " for this run's variable" : "");
            return -1;
        }
        width[var->center] += var->ncomp;
    }
    hid_t file = open_parallel(comm, rf->path);
    int64_t clo, ccnt, nlo, ncnt;
    block_of(rf->ncells, comm, &clo, &ccnt);
    block_of(rf->nnodes, comm, &nlo, &ncnt);
    const struct reader r = {comm, file, rf->path, err, errlen};
    struct mat_block mb = {0};
    int frac = registry_flagged(reg, VAR_FRACTION), nm = frac >= 0 ? reg->v[frac].ncomp : 0;
    int mat_bad = rf->nentries > 0 && read_mat_block(&r, rf, nm ? nm : DUMP_MAT_MAX, clo, ccnt, &mb);
    double *cells = mat_bad ? NULL : read_var_block(&r, reg, VAR_CELL, clo, ccnt, width[VAR_CELL], &mb);
    double *nodes = cells ? read_var_block(&r, reg, VAR_NODE, nlo, ncnt, width[VAR_NODE], &mb) : NULL;
    /* the datasets this run does not read are checked too: a restart never starts from a damaged dump */
    int damaged = !cells || !nodes ||
                  verify_rows(&r, "/cells/rank", clo, ccnt, 0);
    for (int k = 0; k < rf->nvars && !damaged; k++) {
        const struct restart_var *rv = &rf->vars[k];
        int used = 0;
        for (int v = 0; v < reg->n; v++)
            used |= (reg->v[v].flags & VAR_CHECKPOINT) && reg->v[v].center == rv->center &&
                    ((reg->v[v].flags & VAR_MATERIAL) != 0) == rv->material && !strcmp(reg->v[v].name, rv->name);
        if (used)
            continue;
        char name[128];
        snprintf(name, sizeof name, "/%s/%s", rv->material ? "materials" : rv->center == VAR_CELL ? "cells" : "nodes",
                 rv->name);
        damaged = rv->material             ? verify_rows(&r, name, mb.elo, mb.ne, 0)
                  : rv->center == VAR_CELL ? verify_rows(&r, name, clo, ccnt, rv->ncomp > 1 ? rv->ncomp : 0)
                                           : verify_rows(&r, name, nlo, ncnt, rv->ncomp > 1 ? rv->ncomp : 0);
    }
    mat_block_free(&mb);
    H5_CHECK_INPUT(H5Fclose(file), rf->path);
    if (damaged) {
        free(cells);
        free(nodes);
        return -1;
    }
    fetch_records(comm, reg, VAR_CELL, m->cell_gid, m->ncells, rf->ncells, cells, width[VAR_CELL]);
    fetch_records(comm, reg, VAR_NODE, m->node_gid, m->nnodes, rf->nnodes, nodes, width[VAR_NODE]);
    free(cells);
    free(nodes);
    return 0;
}
