/* The hydro cases' cycle: physics steps (physics/) and the synchronisations of the chosen
 * pattern (mesh/sync), with the time step reduction overlapped with communication. */
#ifndef HYDRO_SCHEME_H
#define HYDRO_SCHEME_H

struct run;
struct scheme;

/* Registers the hydro variables, records the synchronisations and sets the initial state
 * (or takes the restored one after restart_read_vars: see scheme_restored). */
struct scheme *scheme_create(struct run *run);
/* Load balancing: drop what depends on the mesh before it changes, rebuild it afterwards. */
void scheme_detach(struct scheme *s);
void scheme_attach(struct scheme *s, struct run *run);
/* After a restart has filled the checkpointed variables. */
void scheme_restored(struct scheme *s, struct run *run);
/* One cycle from run->time with step run->dt; advances run->time. Returns 0, or -1 when the
 * run must stop (message already reported on rank 0, a dump is due, exit 1). */
int scheme_cycle(struct scheme *s, struct run *run);
/* The next time step (completes the pending reduction): sets run->dt, run->dt_old. Returns
 * -1 when it falls below dt_min (reported on rank 0). */
int scheme_next_dt(struct scheme *s, struct run *run);
/* Listing lines at a listing period: totals of mass and energy (completed one period late). */
void scheme_listing(struct scheme *s, struct run *run, int final);
void scheme_report(const struct scheme *s, struct run *run);
/* Totals at t = 0 (mass, energy), written into dumps so that a restart reports drift from t = 0. */
void scheme_totals0(const struct scheme *s, double *mass0, double *energy0);
/* Seconds n equation-of-state evaluations of the cost model take here (for its calibration). */
double scheme_burn_seconds(struct scheme *s, long n);
void scheme_destroy(struct scheme *s);

#endif
