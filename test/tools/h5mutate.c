/* Test tool: damage a copy of a dump in one named way, to check that restart refuses it.
 * usage: h5mutate FILE drop-dataset PATH
 *                      drop-root-attr NAME
 *                      drop-attr PATH NAME         (attribute of a dataset)
 *                      resize-dataset PATH DELTA   (rows added or removed, data kept, new rows 0)
 *                      set-i64 NAME VALUE          (root attribute)
 *                      deck-replace OLD NEW        (text of the root attribute deck)
 *                      scale-dataset PATH FACTOR   (every value of a float dataset)
 * A dataset it rewrites gets a crc32 attribute that matches its new bytes, so that restart's
 * later checks (sizes, values) are the ones tested, not the checksum. */
#include <hdf5.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "crc32.h"

/* Set the crc32 attribute of dataset d to the CRC-32 of its bytes as stored. */
static int set_crc(hid_t d)
{
    hid_t t = H5Dget_type(d), s = H5Dget_space(d);
    size_t n = (size_t)H5Sget_simple_extent_npoints(s) * H5Tget_size(t);
    char *data = malloc(n ? n : 1);
    herr_t rc = H5Dread(d, t, H5S_ALL, H5S_ALL, H5P_DEFAULT, data);
    uint32_t crc = crc32_update(0, data, n);
    free(data);
    if (H5Aexists(d, "crc32") > 0)
        H5Adelete(d, "crc32");
    hid_t as = H5Screate(H5S_SCALAR), a = H5Acreate2(d, "crc32", H5T_STD_U32LE, as, H5P_DEFAULT, H5P_DEFAULT);
    if (rc >= 0)
        rc = H5Awrite(a, H5T_NATIVE_UINT32, &crc);
    H5Aclose(a);
    H5Sclose(as);
    H5Sclose(s);
    H5Tclose(t);
    return rc < 0 ? -1 : 0;
}

static int resize(hid_t f, const char *path, long delta)
{
    hid_t d = H5Dopen2(f, path, H5P_DEFAULT);
    if (d < 0)
        return -1;
    hid_t s = H5Dget_space(d), t = H5Dget_type(d);
    hsize_t dims[2] = {0, 1};
    int rank = H5Sget_simple_extent_dims(s, dims, NULL);
    size_t row = H5Tget_size(t) * (rank == 2 ? dims[1] : 1);
    hsize_t rows = dims[0], keep = delta < 0 ? rows + delta : rows;
    char *data = calloc(rows + (delta > 0 ? delta : 0), row);
    H5Dread(d, t, H5S_ALL, H5S_ALL, H5P_DEFAULT, data);
    H5Dclose(d);
    H5Ldelete(f, path, H5P_DEFAULT);
    dims[0] = keep + (delta > 0 ? delta : 0);
    hid_t s2 = H5Screate_simple(rank, dims, NULL);
    hid_t d2 = H5Dcreate2(f, path, t, s2, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    herr_t rc = H5Dwrite(d2, t, H5S_ALL, H5S_ALL, H5P_DEFAULT, data);
    if (rc >= 0)
        rc = set_crc(d2);
    free(data);
    H5Dclose(d2);
    H5Sclose(s2);
    H5Sclose(s);
    H5Tclose(t);
    return rc < 0 ? -1 : 0;
}

static int set_i64(hid_t f, const char *name, long long v)
{
    H5Adelete(f, name);
    hid_t s = H5Screate(H5S_SCALAR);
    hid_t a = H5Acreate2(f, name, H5T_STD_I64LE, s, H5P_DEFAULT, H5P_DEFAULT);
    herr_t rc = H5Awrite(a, H5T_NATIVE_LLONG, &v);
    H5Aclose(a);
    H5Sclose(s);
    return rc < 0 ? -1 : 0;
}

static int deck_replace(hid_t f, const char *old, const char *new)
{
    hid_t a = H5Aopen(f, "deck", H5P_DEFAULT);
    hid_t t = H5Aget_type(a);
    size_t n = H5Tget_size(t);
    char *text = calloc(n + 1, 1);
    H5Aread(a, t, text);
    H5Aclose(a);
    H5Tclose(t);
    char *at = strstr(text, old);
    if (!at)
        return -1;
    char *out = calloc(n + strlen(new) + 1, 1);
    sprintf(out, "%.*s%s%s", (int)(at - text), text, new, at + strlen(old));
    H5Adelete(f, "deck");
    hid_t st = H5Tcopy(H5T_C_S1);
    H5Tset_size(st, strlen(out) + 1);
    hid_t s = H5Screate(H5S_SCALAR);
    a = H5Acreate2(f, "deck", st, s, H5P_DEFAULT, H5P_DEFAULT);
    herr_t rc = H5Awrite(a, st, out);
    H5Aclose(a);
    H5Sclose(s);
    H5Tclose(st);
    free(text);
    free(out);
    return rc < 0 ? -1 : 0;
}

static int scale(hid_t f, const char *path, double factor)
{
    hid_t d = H5Dopen2(f, path, H5P_DEFAULT);
    if (d < 0)
        return -1;
    hid_t s = H5Dget_space(d);
    hssize_t n = H5Sget_simple_extent_npoints(s);
    double *v = malloc((size_t)n * sizeof *v);
    herr_t rc = H5Dread(d, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, v);
    for (hssize_t i = 0; i < n; i++)
        v[i] *= factor;
    if (rc >= 0)
        rc = H5Dwrite(d, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, v);
    if (rc >= 0)
        rc = set_crc(d);
    free(v);
    H5Sclose(s);
    H5Dclose(d);
    return rc < 0 ? -1 : 0;
}

int main(int argc, char **argv)
{
    if (argc < 4) {
        fprintf(stderr, "usage: see the comment at the top of h5mutate.c\n");
        return 2;
    }
    hid_t f = H5Fopen(argv[1], H5F_ACC_RDWR, H5P_DEFAULT);
    if (f < 0)
        return 1;
    int rc = -1;
    if (!strcmp(argv[2], "drop-dataset"))
        rc = H5Ldelete(f, argv[3], H5P_DEFAULT) < 0 ? -1 : 0;
    else if (!strcmp(argv[2], "drop-root-attr"))
        rc = H5Adelete(f, argv[3]) < 0 ? -1 : 0;
    else if (!strcmp(argv[2], "drop-attr") && argc == 5)
        rc = H5Adelete_by_name(f, argv[3], argv[4], H5P_DEFAULT) < 0 ? -1 : 0;
    else if (!strcmp(argv[2], "resize-dataset") && argc == 5)
        rc = resize(f, argv[3], atol(argv[4]));
    else if (!strcmp(argv[2], "set-i64") && argc == 5)
        rc = set_i64(f, argv[3], atoll(argv[4]));
    else if (!strcmp(argv[2], "deck-replace") && argc == 5)
        rc = deck_replace(f, argv[3], argv[4]);
    else if (!strcmp(argv[2], "scale-dataset") && argc == 5)
        rc = scale(f, argv[3], atof(argv[4]));
    H5Fclose(f);
    return rc < 0 ? 1 : 0;
}
