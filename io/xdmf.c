/* XDMF sidecars for ParaView (see xdmf.h). Paths inside are relative to the directory. */
#include "xdmf.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "check.h"

static void data_item(FILE *f, const char *indent, int64_t n, int k, const char *type, int prec, long cycle,
                      const char *dset)
{
    if (k > 0)
        fprintf(f, "%s<DataItem Dimensions=\"%lld %d\" NumberType=\"%s\" Precision=\"%d\" Format=\"HDF\">", indent,
                (long long)n, k, type, prec);
    else
        fprintf(f, "%s<DataItem Dimensions=\"%lld\" NumberType=\"%s\" Precision=\"%d\" Format=\"HDF\">", indent,
                (long long)n, type, prec);
    fprintf(f, "hydro_%06ld.h5:%s</DataItem>\n", cycle, dset);
}

/* Write through a temporary name and rename, so readers never see half a file. */
static FILE *open_tmp(const char *path, char *tmp, size_t n, char *err, size_t errlen)
{
    snprintf(tmp, n, "%s.tmp", path);
    FILE *f = fopen(tmp, "w");
    if (!f)
        ERROR_AT(err, errlen, "cannot write '%s': %s", tmp, strerror(errno));
    return f;
}

static int close_rename(FILE *f, const char *tmp, const char *path, char *err, size_t errlen)
{
    int bad = ferror(f);
    if (fclose(f) || bad || rename(tmp, path)) {
        ERROR_AT(err, errlen, "cannot write '%s': %s", path, strerror(errno));
        remove(tmp);
        return -1;
    }
    return 0;
}

/* Material k's volume fraction: column k of /cells/volume_fractions [ncells][nm]. */
static void fraction_item(FILE *f, const char *in, int64_t ncells, int nm, int k, const char *name, long cycle)
{
    fprintf(f, "%s<Attribute Name=\"volume_fraction_%s\" AttributeType=\"Scalar\" Center=\"Cell\">\n", in, name);
    fprintf(f, "%s  <DataItem ItemType=\"HyperSlab\" Dimensions=\"%lld 1\" Type=\"HyperSlab\">\n", in,
            (long long)ncells);
    fprintf(f, "%s    <DataItem Dimensions=\"3 2\" Format=\"XML\">0 %d 1 1 %lld 1</DataItem>\n", in, k,
            (long long)ncells);
    data_item(f, "          ", ncells, nm, "Float", 8, cycle, "/cells/volume_fractions");
    fprintf(f, "%s  </DataItem>\n%s</Attribute>\n", in, in);
}

int xdmf_write_dump(const char *dir, long cycle, double time, int dim, int64_t ncells, int64_t nnodes,
                    const struct registry *reg, const char (*mat_names)[32], char *err, size_t errlen)
{
    char path[8192], tmp[8300];
    snprintf(path, sizeof path, "%s/hydro_%06ld.xmf", dir, cycle);
    FILE *f = open_tmp(path, tmp, sizeof tmp, err, errlen);
    if (!f)
        return -1;
    const char *in = "      ";
    fprintf(f, "<?xml version=\"1.0\" ?>\n<Xdmf Version=\"3.0\">\n  <Domain>\n");
    fprintf(f, "    <Grid Name=\"hydro_%06ld\" GridType=\"Uniform\">\n", cycle);
    fprintf(f, "%s<Time Value=\"%.17g\"/>\n", in, time);
    fprintf(f, "%s<Topology TopologyType=\"%s\" NumberOfElements=\"%lld\">\n", in,
            dim == 2 ? "Quadrilateral" : "Hexahedron", (long long)ncells);
    data_item(f, "        ", ncells, dim == 2 ? 4 : 8, "Int", 8, cycle, "/mesh/cell_nodes");
    fprintf(f, "%s</Topology>\n%s<Geometry GeometryType=\"XYZ\">\n", in, in);
    data_item(f, "        ", nnodes, 3, "Float", 8, cycle, "/mesh/node_coords");
    fprintf(f, "%s</Geometry>\n", in);
    fprintf(f, "%s<Attribute Name=\"rank\" AttributeType=\"Scalar\" Center=\"Cell\">\n", in);
    data_item(f, "        ", ncells, 0, "Int", 4, cycle, "/cells/rank");
    fprintf(f, "%s</Attribute>\n", in);
    for (int v = 0; v < reg->n; v++) {
        const struct var *var = &reg->v[v];
        if (!(var->flags & VAR_CHECKPOINT))
            continue;
        if (var->flags & VAR_FRACTION)
            for (int k = 0; k < var->ncomp; k++)
                fraction_item(f, in, ncells, var->ncomp, k, mat_names[k], cycle);
        if (var->flags & VAR_MATERIAL)
            continue;
        int cell = var->center == VAR_CELL;
        char dset[128];
        snprintf(dset, sizeof dset, "/%s/%s", cell ? "cells" : "nodes", var->name);
        /* ParaView lists cell and point arrays apart, but names must not collide in a grid */
        fprintf(f, "%s<Attribute Name=\"%s%s\" AttributeType=\"%s\" Center=\"%s\">\n", in, var->name,
                !cell && registry_name_shared(reg, v) ? "_node" : "",
                var->ncomp == 1 ? "Scalar" : var->ncomp == 3 ? "Vector" : "Matrix", cell ? "Cell" : "Node");
        data_item(f, "        ", cell ? ncells : nnodes, var->ncomp > 1 ? var->ncomp : 0, "Float", 8, cycle, dset);
        fprintf(f, "%s</Attribute>\n", in);
    }
    fprintf(f, "    </Grid>\n  </Domain>\n</Xdmf>\n");
    return close_rename(f, tmp, path, err, errlen);
}

static int cmp_long(const void *a, const void *b)
{
    long x = *(const long *)a, y = *(const long *)b;
    return (x > y) - (x < y);
}

/* Cycle of a file named hydro_<digits>.xmf, -1 for any other name. */
static long dump_cycle(const char *name)
{
    size_t n = strlen(name);
    if (n < 15 || strncmp(name, "hydro_", 6) || strcmp(name + n - 4, ".xmf"))
        return -1;
    long c = 0;
    for (size_t i = 6; i < n - 4; i++) {
        if (name[i] < '0' || name[i] > '9')
            return -1;
        c = c * 10 + (name[i] - '0');
    }
    return c;
}

/* The <Grid ...>...</Grid> element of a per-dump file, malloc'd, or NULL. */
static char *grid_of(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return NULL;
    char *text = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&text, &len);
    char line[4096];
    int in = 0;
    while (mem && fgets(line, sizeof line, f)) {
        if (strstr(line, "<Grid "))
            in = 1;
        if (in)
            fputs(line, mem);
        if (strstr(line, "</Grid>"))
            in = 0;
    }
    fclose(f);
    if (mem)
        fclose(mem);
    return text;
}

int xdmf_write_collection(const char *dir, char *err, size_t errlen)
{
    DIR *d = opendir(dir);
    if (!d) {
        ERROR_AT(err, errlen, "cannot read directory '%s': %s", dir, strerror(errno));
        return -1;
    }
    long *cycles = NULL;
    size_t n = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        long c = dump_cycle(e->d_name);
        char h5[8192];
        struct stat st;
        snprintf(h5, sizeof h5, "%s/hydro_%06ld.h5", dir, c);
        if (c < 0 || stat(h5, &st))
            continue;
        cycles = xrealloc(cycles, (n + 1) * sizeof *cycles);
        cycles[n++] = c;
    }
    closedir(d);
    if (n) /* no dump left: qsort must not get a null array, even empty */
        qsort(cycles, n, sizeof *cycles, cmp_long);
    char path[8192], tmp[8300];
    snprintf(path, sizeof path, "%s/hydro.xmf", dir);
    FILE *f = open_tmp(path, tmp, sizeof tmp, err, errlen);
    if (!f) {
        free(cycles);
        return -1;
    }
    fprintf(f, "<?xml version=\"1.0\" ?>\n<Xdmf Version=\"3.0\">\n  <Domain>\n");
    fprintf(f, "    <Grid Name=\"hydro\" GridType=\"Collection\" CollectionType=\"Temporal\">\n");
    for (size_t i = 0; i < n; i++) {
        char xmf[8192];
        snprintf(xmf, sizeof xmf, "%s/hydro_%06ld.xmf", dir, cycles[i]);
        char *grid = grid_of(xmf);
        if (grid)
            fputs(grid, f);
        free(grid);
    }
    fprintf(f, "    </Grid>\n  </Domain>\n</Xdmf>\n");
    free(cycles);
    return close_rename(f, tmp, path, err, errlen);
}
