/* The graph partitioners by name (see partitioner.h). */
#include "partitioner.h"

#include <string.h>

const struct partitioner *partitioner_named(const char *name)
{
    static const struct partitioner *const backends[] = {
        &partitioner_metis,
#ifndef HYDRO_NO_ZOLTAN
        &partitioner_zoltan,
#endif
#ifndef HYDRO_NO_PTSCOTCH
        &partitioner_ptscotch,
#endif
    };
    for (size_t i = 0; i < sizeof backends / sizeof *backends; i++)
        if (!strcmp(backends[i]->name, name))
            return backends[i];
    return NULL;
}
