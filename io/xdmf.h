/* XDMF sidecars: one .xmf per dump and hydro.xmf, a temporal collection over the kept dumps. */
#ifndef HYDRO_XDMF_H
#define HYDRO_XDMF_H

#include <stddef.h>
#include <stdint.h>

#include "vars.h"

/* <dir>/hydro_<cycle>.xmf describing <dir>/hydro_<cycle>.h5 (written atomically): the mesh,
 * every checkpointed variable but the material variables (entries, not cell fields), and with
 * materials each one's volume fraction as a cell field volume_fraction_<name> (a column of
 * /cells/volume_fractions; mat_names[k] names material k). */
int xdmf_write_dump(const char *dir, long cycle, double time, int dim, int64_t ncells, int64_t nnodes,
                    const struct registry *reg, const char (*mat_names)[32], char *err, size_t errlen);
/* <dir>/hydro.xmf: the grids of every hydro_*.xmf whose .h5 exists, in cycle order. */
int xdmf_write_collection(const char *dir, char *err, size_t errlen);

#endif
