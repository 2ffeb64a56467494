/* Inside the Gmsh reader: one pass over an MSH 4.1 file keeping some of its items (for gmsh.c's
 * whole read and gmsh_share.c's read by shares). */
#ifndef HYDRO_GMSH_PARSE_H
#define HYDRO_GMSH_PARSE_H

#include <stddef.h>
#include <stdint.h>

#include "element.h"

/* What a pass keeps. Every pass reads (and checks the syntax of) the whole file. */
struct gmsh_keep {
    long cell_lo, cell_hi; /* cells (elements of the mesh's dimension) of tag cell_lo <= tag < cell_hi */
    int cell_to_end;       /* ... or of any tag >= cell_lo */
    long node_lo, node_hi; /* nodes likewise */
    int node_to_end;
    long bnd_stride, bnd_phase; /* boundary elements number i (file order) with i % stride == phase;
                                   stride 0: none */
    int coords;                 /* 0: node coordinates are skipped, not converted */
    /* called for every cell and every node of the file, kept or not (NULL: not called) */
    void (*cell_seen)(void *ctx, long tag);
    void (*node_seen)(void *ctx, long tag);
    void *ctx;
};

/* The items a pass kept, in file order, with the line each one is on. */
struct gmsh_items {
    long nnodes;
    long *node_tag, *node_line;
    double *node_xyz; /* [nnodes][3] */
    long ncells;
    long *cell_tag, *cell_line, *cell_nodes; /* cell_nodes [ncells][4 or 8]: node tags */
    long nbnd;
    long *bnd_tag, *bnd_line, *bnd_ord, *bnd_nodes; /* bnd_ord: number in the file; bnd_nodes [nbnd][2 or 4] */
    int *bnd_phys; /* first physical tag of the boundary element's entity, 0 if none */
    long last_line; /* lines in the file */
};

/* Everything of the whole file: keep everything, no callbacks. */
void gmsh_keep_all(struct gmsh_keep *k);
/* One pass over path for a mesh of dimension dim. Returns 0, or -1 with "FILE:LINE: message"
 * in err (the same on every rank reading the same file: the syntax does not depend on what is
 * kept). it is zeroed first; gmsh_items_free releases it in both cases. */
int gmsh_parse(const char *path, int dim, const struct gmsh_keep *keep, struct gmsh_items *it, char *err,
               size_t errlen);
void gmsh_items_free(struct gmsh_items *it);

/* A cell's corners (node ids and positions x) in an order where every corner Jacobian is
 * positive: as they are, or mirrored (a clockwise quad, a left-handed hex). -1 when neither is
 * (degenerate or twisted). */
int gmsh_orient(const struct element *el, int64_t *nodes, double (*x)[3]);

#endif
