/* The deck translated into the scheme's parameters and the case's initial conditions. */
#ifndef HYDRO_HYDRO_PARAMS_H
#define HYDRO_HYDRO_PARAMS_H

#include "cases.h"
#include "hydro.h"

struct run;

/* From run->cfg; checks what the case needs of the mesh (Sedov: the quarter plane or octant
 * with a node at the origin) and of the deck (Sedov's automatic energy: gamma 1.4). Collective:
 * a bad input ends every rank with exit 2, rank 0 saying why. */
void hydro_params_from_deck(struct run *run, struct hydro_params *hp, struct case_params *cp);

#endif
