/* The interface of a case, what the time loop runs: the hydro scheme (hydro_case.c) or sync_only
 * (sync_only.c). main.c and the load balancer call these functions and never ask which case runs;
 * adding a case is one file implementing struct case_ops and one row of case.c's table. */
#ifndef HYDRO_CASE_H
#define HYDRO_CASE_H

struct run;
struct dump_meta;

struct case_ops {
    /* Registers the case's variables, records its synchronisations, sets run->dt and (unless
     * restarting: see restored) the initial state. */
    void *(*create)(struct run *run);
    /* Load balancing: drop what depends on the mesh before it changes, rebuild it afterwards. */
    void (*detach)(void *self);
    void (*attach)(void *self, struct run *run);
    /* After a restart has filled the checkpointed variables. */
    void (*restored)(void *self, struct run *run);
    /* One cycle from run->time with step run->dt: advances run->time and sets the next
     * run->dt. Returns 0, or -1 when the run must stop (reported on rank 0; a dump is due, exit 1). */
    int (*cycle)(void *self, struct run *run);
    /* Whether the run is over at run->time before max_cycles (a final time reached). */
    int (*finished)(const void *self, const struct run *run);
    /* Listing lines every listing period, and the report at the end (collective both). */
    void (*listing)(void *self, struct run *run);
    void (*report)(void *self, struct run *run);
    /* A dump's diagnostics: mass and energy at t = 0 (so that a restart reports its drift from
     * t = 0), each material's too and the mass removed so far (collective). */
    void (*diagnostics)(const void *self, struct run *run, struct dump_meta *meta);
    /* Seconds n evaluations of the cost model's extra work take (its calibration); NULL when
     * the case does no such work. */
    double (*burn_seconds)(void *self, long n);
    /* Load balancing: per owned cell, the work it did per cycle over the last `cycles` cycles
     * beyond a quiet cell's, in quiet cells' cycles (for the hydro scheme, its remap steps with
     * moving nodes), into extra; starts counting again. Returns the cost of one such unit of
     * activity in quiet cell-cycles, and *lagrange_share the part of a quiet cell-cycle spent
     * before the extra work (the Lagrange phase), and *spread the most cells the activity can
     * move into per cycle (a wave's front: the hydro scheme's cfl), all the same on every rank
     * (collective). NULL: no such work. */
    double (*active_work)(void *self, struct run *run, long cycles, double *extra, double *lagrange_share,
                          double *spread);
    /* The variables' latest values into the registry's arrays, before anything but the case
     * reads them (a dump); NULL: they always are (the hydro scheme keeps them on an accelerator
     * between cycles in the offload build). */
    void (*to_host)(void *self);
    void (*destroy)(void *self);
};

extern const struct case_ops hydro_case_ops, sync_only_ops;

/* The case the deck names (run->cfg.case_name), created into run->case_ops and run->case_self. */
void case_create(struct run *run);
void case_detach(struct run *run);
void case_attach(struct run *run);
void case_restored(struct run *run);
int case_cycle(struct run *run);
int case_finished(const struct run *run);
void case_listing(struct run *run);
void case_report(struct run *run);
void case_diagnostics(struct run *run, struct dump_meta *meta);
void case_to_host(struct run *run);
/* Whether the case does the cost model's extra work, and the seconds n evaluations take. */
int case_burns(const struct run *run);
double case_burn_seconds(struct run *run, long n);
/* The case's active_work, or 0 with extra all 0, a share of 0.5 and no spread when it has none
 * (collective). */
double case_active_work(struct run *run, long cycles, double *extra, double *lagrange_share, double *spread);
void case_destroy(struct run *run);

#endif
