/* Built-in generator: a box of quads or hexes, optionally with pseudo-randomly moved interior nodes. */
#ifndef HYDRO_CARTESIAN_H
#define HYDRO_CARTESIAN_H

#include <stdint.h>

#include "cellset.h"

struct box {
    int dim;
    int64_t n[3];     /* cells per axis (n[2] = 1 in 2D) */
    double x0[3];     /* origin, length units */
    double len[3];    /* lengths */
    double perturb;   /* interior nodes move by up to perturb/2 cell sizes per axis */
    uint64_t seed;
};

/* Boundary tags of the box faces; names in cartesian_tag_names[tag]. */
enum { TAG_XMIN = 1, TAG_XMAX, TAG_YMIN, TAG_YMAX, TAG_ZMIN, TAG_ZMAX };
extern const char *const cartesian_tag_names[7];

/* Global ids: cell (i,j,k) = i + nx (j + ny k); node (i,j,k) = i + (nx+1)(j + (ny+1) k).
 * Appends the cells of the index block lo <= (i,j,k) < hi and their nodes to out. A node's
 * position depends only on its id and the seed, so every rank generates the same nodes. */
void cartesian_generate(const struct box *b, const int64_t lo[3], const int64_t hi[3], struct cellset *out);

/* The same for the cells of ids first <= id < end, in ascending id (a rank's share of the box
 * for a distributed partitioner, without any rank generating the whole box). */
void cartesian_generate_range(const struct box *b, int64_t first, int64_t end, struct cellset *out);

int64_t cartesian_ncells(const struct box *b);

/* Split the box into P blocks px*py*pz = P minimising the cut area; 0 on success, -1 when
 * no split gives every block at least one cell. Block of rank r: axis x fastest. */
int cartesian_split(const struct box *b, int P, int parts[3]);
void cartesian_block(const struct box *b, const int parts[3], int rank, int64_t lo[3], int64_t hi[3]);

#endif
