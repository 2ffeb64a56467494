/* Load balancing: measure the imbalance every period, repartition (weighted METIS or shuffle),
 * migrate cells with every registered variable, rebuild the mesh, plans and case. */
#ifndef HYDRO_LOADBALANCE_H
#define HYDRO_LOADBALANCE_H

#include <stdint.h>
#include <mpi.h>

struct run;
struct loadbalance;
struct cellset;
struct listing;
struct partitioner;
struct cost_params;
struct config;

/* Registers the padding variables ([loadbalance] extra_cell_vars / extra_cell_array) with
 * values derived from (variable, cell global id), checked after every migration. */
struct loadbalance *lb_create(struct run *run);
/* This rank's compute seconds of the cycle just done (its time outside synchronisations and
 * reductions), and its main thread's CPU seconds in them. On the second cycle of a hydro run with
 * a cost model, calibrates the extra work (collective): a costly cell must really cost cost_factor
 * plain cells, as METIS is told. */
void lb_account(struct loadbalance *lb, struct run *run, double seconds, double cpu_seconds);
/* Will a partitioner be asked for a new partition ([loadbalance] period > 0, mode not shuffle)? */
int lb_repartitions(const struct config *cfg);
/* Collective, at set-up (and at a restart), before the mesh is built: weights for pt's partition
 * of the cells cs each rank holds, when the load balancer repartitions, its cost model adds work
 * and pt balances one weight per phase there ([loadbalance] setup; weights, as for a rebalance):
 * [cs->ncells][*ncon] (ncon 2: the cell's own work, and its extra work by the model over the
 * cycles the partition is expected to serve from (cycle, time) at steps of dt), as a rebalance
 * weighs them before any cycle has measured the remap's work; printed. NULL on every rank (the
 * cells counted) otherwise, or when no cell costs more yet. */
int32_t *lb_setup_weights(MPI_Comm comm, const struct config *cfg, const struct partitioner *pt,
                          const struct cellset *cs, long cycle, double time, double dt, int *ncon,
                          struct listing *lst);
/* Seconds a balanced partition should save over the next h cycles when the slowest rank now
 * computes `excess` seconds per cycle beyond the balanced time and that excess has grown by
 * `growth` seconds per cycle each cycle: assumed to grow on so for as many cycles as the partition
 * has served (`served`: no further ahead than it was watched), then to hold. */
double lb_expected_gain(double excess, double growth, long served, long h);
/* The least-squares slope of x[0 .. n) against the index: how much a figure measured once per
 * cycle grows per cycle; 0 below 3 values. */
double lb_growth(const double *x, long n);
/* At the end of a cycle: every period, measure and perhaps rebalance. Collective. */
void lb_step(struct loadbalance *lb, struct run *run);
void lb_report(const struct loadbalance *lb, struct run *run);
/* The cost model, for the case's extra work. */
const struct cost_params *lb_cost(const struct loadbalance *lb);
void lb_destroy(struct loadbalance *lb);

#endif
