/* Test case sync_only: ghost synchronisations alone, the communication benchmark. */
#ifndef HYDRO_SYNC_ONLY_H
#define HYDRO_SYNC_ONLY_H

struct run;
struct sync_case;

/* Registers [case] cell_vars cell and node_vars node variables of [case] components doubles
 * and records their synchronisations (one per variable, or one per kind when grouped). */
struct sync_case *sync_case_create(struct run *run);
/* One cycle: owners write values derived from (global id, variable, component, cycle),
 * synchronise, and with [case] verify every ghost is checked (exit 1 naming the first wrong one). */
void sync_case_cycle(struct sync_case *sc, struct run *run);
/* After a restart: every value restored (owned and ghost) must be what its owner wrote in
 * the dumped cycle; exit 1 naming the first wrong one. */
void sync_case_check_restart(const struct sync_case *sc, struct run *run);
/* Listing lines: synchronisations, messages and bytes per cycle. Collective. */
void sync_case_report(const struct sync_case *sc, struct run *run);
void sync_case_destroy(struct sync_case *sc);
/* Load balancing: drop the recorded synchronisations before the mesh changes, record anew. */
void sync_case_detach(struct sync_case *sc);
void sync_case_attach(struct sync_case *sc, struct run *run);

/* The value an owner writes, exact in double for global ids below 2^41. */
double sync_case_value(long long gid, int var, int comp, long cycle);

#endif
