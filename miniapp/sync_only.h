/* Test case sync_only: ghost synchronisations alone, the communication benchmark (its case
 * interface: sync_only_ops in case.h). Each cycle owners write values derived from (global id,
 * variable, component, cycle) into [case] cell_vars cell and node_vars node variables of
 * [case] components doubles, synchronise them (one per variable, or one per kind when grouped)
 * and, with [case] verify, check every ghost (exit 1 naming the first wrong one). */
#ifndef HYDRO_SYNC_ONLY_H
#define HYDRO_SYNC_ONLY_H

/* The value an owner writes, exact in double for global ids below 2^41. */
double sync_case_value(long long gid, int var, int comp, long cycle);

#endif
