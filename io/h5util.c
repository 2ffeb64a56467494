/* HDF5 helpers (see h5util.h). */
#include "h5util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "comm.h"
#include "crc32.h"

void h5_quiet(void) { H5Eset_auto2(H5E_DEFAULT, NULL, NULL); }

struct walk {
    char first[256], last[256];
    int n;
};

static herr_t walk_cb(unsigned n, const H5E_error2_t *e, void *data)
{
    struct walk *w = data;
    char *dst = n == 0 ? w->first : w->last;
    snprintf(dst, sizeof w->first, "%s(): %s", e->func_name ? e->func_name : "?", e->desc ? e->desc : "?");
    w->n++;
    return 0;
}

void h5_error_summary(char *out, size_t n)
{
    struct walk w = {.n = 0};
    H5Ewalk2(H5E_DEFAULT, H5E_WALK_DOWNWARD, walk_cb, &w);
    if (w.n == 0)
        snprintf(out, n, "no HDF5 error stack");
    else if (w.n == 1)
        snprintf(out, n, "%s", w.first);
    else
        snprintf(out, n, "%s ... %s", w.first, w.last);
}

int64_t h5_check_at(int64_t rc, const char *call, const char *path, int status, const char *file, int line)
{
    if (rc >= 0)
        return rc;
    char summary[600];
    h5_error_summary(summary, sizeof summary);
    hydro_fatal_shared_at(MPI_COMM_WORLD, status, file, line, "%s: %s failed: %s", path, call, summary);
}

/* A scalar attribute (n 0) or a one-dimensional one of n values. */
static void attr_write(hid_t obj, const char *name, hid_t ftype, hid_t mtype, const void *v, hsize_t n, const char *path)
{
    hid_t space = H5_CHECK(n ? H5Screate_simple(1, &n, NULL) : H5Screate(H5S_SCALAR), path);
    hid_t a = H5_CHECK(H5Acreate2(obj, name, ftype, space, H5P_DEFAULT, H5P_DEFAULT), path);
    H5_CHECK(H5Awrite(a, mtype, v), path);
    H5_CHECK(H5Aclose(a), path);
    H5_CHECK(H5Sclose(space), path);
}

void h5_attr_double(hid_t obj, const char *name, double v, const char *path)
{
    attr_write(obj, name, H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, &v, 0, path);
}

void h5_attr_doubles(hid_t obj, const char *name, int n, const double *v, const char *path)
{
    attr_write(obj, name, H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, v, (hsize_t)n, path);
}

void h5_attr_i64(hid_t obj, const char *name, int64_t v, const char *path)
{
    attr_write(obj, name, H5T_STD_I64LE, H5T_NATIVE_INT64, &v, 0, path);
}

void h5_attr_i64s(hid_t obj, const char *name, int n, const int64_t *v, const char *path)
{
    attr_write(obj, name, H5T_STD_I64LE, H5T_NATIVE_INT64, v, (hsize_t)n, path);
}

void h5_attr_i32(hid_t obj, const char *name, int32_t v, const char *path)
{
    attr_write(obj, name, H5T_STD_I32LE, H5T_NATIVE_INT32, &v, 0, path);
}

void h5_attr_string(hid_t obj, const char *name, const char *v, const char *path)
{
    hid_t t = H5_CHECK(H5Tcopy(H5T_C_S1), path);
    H5_CHECK(H5Tset_size(t, strlen(v) + 1), path);
    H5_CHECK(H5Tset_strpad(t, H5T_STR_NULLTERM), path);
    attr_write(obj, name, t, t, v, 0, path);
    H5_CHECK(H5Tclose(t), path);
}

void h5_attr_u32(hid_t obj, const char *name, uint32_t v, const char *path)
{
    attr_write(obj, name, H5T_STD_U32LE, H5T_NATIVE_UINT32, &v, 0, path);
}

static int by_offset(const void *a, const void *b)
{
    const uint64_t *x = a, *y = b;
    return (x[0] > y[0]) - (x[0] < y[0]);
}

uint32_t h5_crc_of_parts(MPI_Comm comm, uint64_t offset, uint64_t nbytes, uint32_t crc)
{
    const int P = comm_size(comm);
    uint64_t mine[3] = {offset, nbytes, crc}, *all = xmalloc((size_t)P * sizeof mine);
    MPI_CHECK(MPI_Allgather(mine, 3, MPI_UINT64_T, all, 3, MPI_UINT64_T, comm));
    qsort(all, (size_t)P, sizeof mine, by_offset);
    uint32_t whole = 0;
    uint64_t end = 0;
    for (int r = 0; r < P; r++) {
        if (!all[3 * r + 1])
            continue;
        if (all[3 * r] != end)
            hydro_fatal(comm, EXIT_RUNTIME, "internal error: dataset parts do not tile it (a part at byte %llu, "
                        "expected %llu)", (unsigned long long)all[3 * r], (unsigned long long)end);
        whole = crc32_concat(whole, (uint32_t)all[3 * r + 2], all[3 * r + 1]);
        end += all[3 * r + 1];
    }
    free(all);
    return whole;
}

/* Open attribute name if it exists with the given type class, else -1 (no error printed):
 * scalar when n is NULL, else one-dimensional with its length in *n. */
static hid_t attr_open(hid_t obj, const char *name, H5T_class_t cls, hsize_t *n)
{
    if (H5Aexists(obj, name) <= 0)
        return -1;
    hid_t a = H5Aopen(obj, name, H5P_DEFAULT);
    if (a < 0)
        return -1;
    hid_t t = H5Aget_type(a), s = H5Aget_space(a);
    int ok = t >= 0 && s >= 0 && H5Tget_class(t) == cls &&
             (n ? H5Sget_simple_extent_ndims(s) == 1 && H5Sget_simple_extent_dims(s, n, NULL) == 1
                : H5Sget_simple_extent_type(s) == H5S_SCALAR);
    if (t >= 0)
        H5Tclose(t);
    if (s >= 0)
        H5Sclose(s);
    if (!ok) {
        H5Aclose(a);
        return -1;
    }
    return a;
}

/* A scalar attribute of class cls read as mtype into v: 0, or -1. */
static int read_attr_scalar(hid_t obj, const char *name, H5T_class_t cls, hid_t mtype, void *v)
{
    hid_t a = attr_open(obj, name, cls, NULL);
    if (a < 0)
        return -1;
    int rc = H5Aread(a, mtype, v) < 0 ? -1 : 0;
    H5Aclose(a);
    return rc;
}

int h5_read_attr_double(hid_t obj, const char *name, double *v)
{
    return read_attr_scalar(obj, name, H5T_FLOAT, H5T_NATIVE_DOUBLE, v);
}

/* A one-dimensional attribute of class cls read as mtype into v: how many (at most max), or -1. */
static int read_attr_array(hid_t obj, const char *name, H5T_class_t cls, hid_t mtype, int max, void *v)
{
    hsize_t n = 0;
    hid_t a = attr_open(obj, name, cls, &n);
    if (a < 0)
        return -1;
    int ok = n >= 1 && n <= (hsize_t)max && H5Aread(a, mtype, v) >= 0;
    H5Aclose(a);
    return ok ? (int)n : -1;
}

int h5_read_attr_doubles(hid_t obj, const char *name, int max, double *v)
{
    return read_attr_array(obj, name, H5T_FLOAT, H5T_NATIVE_DOUBLE, max, v);
}

int h5_read_attr_i64s(hid_t obj, const char *name, int max, int64_t *v)
{
    return read_attr_array(obj, name, H5T_INTEGER, H5T_NATIVE_INT64, max, v);
}

int h5_read_attr_i64(hid_t obj, const char *name, int64_t *v)
{
    return read_attr_scalar(obj, name, H5T_INTEGER, H5T_NATIVE_INT64, v);
}

char *h5_read_attr_string(hid_t obj, const char *name)
{
    hid_t a = attr_open(obj, name, H5T_STRING, NULL);
    if (a < 0)
        return NULL;
    hid_t t = H5Aget_type(a);
    char *s = NULL;
    if (t >= 0 && H5Tis_variable_str(t) == 0) {
        size_t n = H5Tget_size(t);
        if (n > 0 && n < (1u << 24)) {
            s = calloc(n + 1, 1);
            if (s && H5Aread(a, t, s) < 0) {
                free(s);
                s = NULL;
            }
        }
    }
    if (t >= 0)
        H5Tclose(t);
    H5Aclose(a);
    return s;
}
