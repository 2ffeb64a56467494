/* Load balancing (see loadbalance.h). */
#include "loadbalance.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "ghost.h"
#include "comm.h"
#include "cellset.h"
#include "cost.h"
#include "geometry.h"
#include "migrate.h"
#include "distribute.h"
#include "partition.h"
#include "quality.h"
#include "spread.h"
#include "case.h"
#include "run.h"

/* The slowest rank's compute beyond the balanced time at a check (seconds per cycle), by the
 * figures the check weighs (the ranks' speeds where it has them), and which rank that was. */
struct excess {
    double value;
    int rank;
};

struct loadbalance {
    int nextra, array_width;
    int first_extra, array_id; /* registry ids (consecutive for the extra variables), -1 if none */
    int spread_id;             /* registry id of the measured work being spread (cells_spread), -1 if none */
    long cycles;               /* cycles since the last check */
    double *cycle_busy;        /* [cycles]: the compute seconds of each of them (with checks) */
    long cycle_cap;            /* cycle_busy's room */
    long work_cycles;          /* cycles the case's work counts cover (since the last weights) */
    double cost;               /* seconds the last rebalance took (slowest rank); 0 before the first */
    long cost_cycle;           /* the cycle it ran at */
    long kept_cycle;           /* the last check whose new partition was kept out, judged no better by
                                * the phases while they were out of balance; -1: none since the last
                                * rebalance */
    long part_cycle;           /* the cycle the current partition was made at (the set-up's, a restart's or
                                * the last rebalance's) */
    double busy_cpu;           /* the main thread's CPU seconds in the compute since the last check */
    double share;              /* the last share of its core measured (core_share); 0: none yet */
    struct cost_params model;
    int collective;            /* ARCANE_MESH_EXCHANGE_USE_COLLECTIVE */
    long rebalances;
    long long cells_moved;
    struct comm_pool pools[2]; /* migration buffers, kept from one migration to the next with mode = shuffle */
};

/* Exact in double for global ids below 2^36. */
static double padding_value(long long gid, int var) { return (double)gid * 131072.0 + (double)var; }

static void padding_fill(struct loadbalance *lb, struct run *run)
{
    const struct mesh *m = run->mesh;
    for (int i = 0; i < lb->nextra; i++) {
        double *d = run->reg.v[lb->first_extra + i].data;
        for (int32_t c = 0; c < m->ncells; c++)
            d[c] = padding_value(m->cell_gid[c], i);
    }
    if (lb->array_id >= 0) {
        double *d = run->reg.v[lb->array_id].data;
        for (int32_t c = 0; c < m->ncells; c++)
            for (int k = 0; k < lb->array_width; k++)
                d[(size_t)c * lb->array_width + k] = padding_value(m->cell_gid[c], 100000 + k);
    }
}

/* Every padding value of every local cell, owned or ghost, must be its formula's. */
static void padding_check(struct loadbalance *lb, struct run *run)
{
    const struct mesh *m = run->mesh;
    for (int i = 0; i < lb->nextra; i++) {
        const double *d = run->reg.v[lb->first_extra + i].data;
        for (int32_t c = 0; c < m->ncells; c++)
            if (d[c] != padding_value(m->cell_gid[c], i))
                hydro_fatal(run->comm, EXIT_RUNTIME, "cycle %ld: after migration, cell %lld holds %.17g in %s, not %.17g",
                            run->cycle, (long long)m->cell_gid[c], d[c], run->reg.v[lb->first_extra + i].name,
                            padding_value(m->cell_gid[c], i));
    }
    if (lb->array_id >= 0) {
        const double *d = run->reg.v[lb->array_id].data;
        for (int32_t c = 0; c < m->ncells; c++)
            for (int k = 0; k < lb->array_width; k++)
                if (d[(size_t)c * lb->array_width + k] != padding_value(m->cell_gid[c], 100000 + k))
                    hydro_fatal(run->comm, EXIT_RUNTIME, "cycle %ld: after migration, cell %lld holds a wrong "
                                "AdditionalCellArray[%d]", run->cycle, (long long)m->cell_gid[c], k);
    }
}

/* The graph partitioner loadbalance.mode names (the deck refused those this build lacks). */
static const struct partitioner *lb_partitioner(const struct config *cfg)
{
    return partitioner_named(deck_enum_name("loadbalance", "mode", cfg->lb_mode));
}

int lb_repartitions(const struct config *cfg) { return cfg->lb_period > 0 && cfg->lb_mode != LB_SHUFFLE; }

/* Does the cost model add work (loadbalance.cost other than uniform, cost_factor above 1)? */
static int cost_adds_work(const struct config *cfg) { return cfg->lb_cost != COST_UNIFORM && cfg->cost_factor > 1; }

/* Weights per cell of a rebalance: 1, or one per phase (2) and one more for the cost model's extra
 * work (3), which runs between the phases with its own synchronisations around it: balanced with
 * the Lagrange phase's, the rank with the costly cells would do less of the Lagrange kernels and
 * wait for the other at each of their synchronisations, then make it wait during the extra work.
 * auto: per phase where the partitioner balances several weights well and fast (METIS up to 8
 * parts, by recursive bisection, Zoltan up to 8 by RCB phases); on 128 simulated ranks and more
 * METIS's k-way left the total 0.7-1.3 out of balance and took 3 x longer (BENCHMARKS.md), and
 * PT-Scotch balances the sum. */
static int weights_per_cell(const struct run *run)
{
    const struct config *cfg = &run->cfg;
    if (cfg->lb_mode == LB_SHUFFLE)
        return 1;
    int phases = cfg->lb_weights == LB_WEIGHTS_PHASES ||
                 (cfg->lb_weights == LB_WEIGHTS_AUTO && run->size <= lb_partitioner(cfg)->multi_weight_max);
    return phases ? 2 + cost_adds_work(cfg) : 1;
}

/* The phases the load balancer's model of a cycle has (each ended by a synchronisation): the
 * Lagrange phase, the remap and, where the cost model adds work, that work. */
static int phases_per_cell(const struct run *run)
{
    return run->cfg.lb_mode == LB_SHUFFLE ? 1 : 2 + cost_adds_work(&run->cfg);
}

/* The deck's cost model (collective): the domain's x extent, for the moving slab, from the nodes
 * xyz[n][3] each rank holds (a node on several ranks may be counted by each). */
static struct cost_params cost_model(MPI_Comm comm, const struct config *cfg, const double *xyz, int64_t n)
{
    double xmin = INFINITY, xmax = -INFINITY;
    for (int64_t i = 0; i < n; i++) {
        double x = xyz[3 * (size_t)i];
        xmin = x < xmin ? x : xmin;
        xmax = x > xmax ? x : xmax;
    }
    return (struct cost_params){.kind = cfg->lb_cost,
                                .factor = (int)cfg->cost_factor,
                                .xmin = comm_min_double(comm, xmin),
                                .xmax = -comm_min_double(comm, -xmax),
                                .width = cfg->region_width,
                                .speed = cfg->region_speed,
                                .units = (int)cfg->cost_units}; /* 0: calibrated on the second cycle */
}

struct loadbalance *lb_create(struct run *run)
{
    const struct config *cfg = &run->cfg;
    struct loadbalance *lb = xcalloc(1, sizeof *lb);
    lb->nextra = (int)cfg->extra_cell_vars;
    lb->array_width = (int)cfg->extra_cell_array;
    lb->first_extra = lb->array_id = -1;
    /* synchronised while the weights are made, pointing at cells_spread's arrays */
    lb->spread_id = lb_repartitions(cfg) ? registry_add_external(&run->reg, "balance_spread_work", VAR_CELL, 1,
                                                                 VAR_SYNC, "1", NULL)
                                         : -1;
    lb->kept_cycle = -1;
    lb->part_cycle = run->cycle;
    run->tm.cpu = cfg->lb_speeds == LB_SPEEDS_MEASURED && lb_repartitions(cfg); /* the ranks' speeds */
    for (int i = 0; i < lb->nextra; i++) {
        char name[64];
        snprintf(name, sizeof name, "AdditionalCellVariable%d", i);
        int id = registry_add(&run->reg, name, VAR_CELL, 1, VAR_SYNC | VAR_MIGRATE, "1");
        if (i == 0)
            lb->first_extra = id;
    }
    if (lb->array_width > 0)
        lb->array_id = registry_add(&run->reg, "AdditionalCellArray", VAR_CELL, lb->array_width,
                                    VAR_SYNC | VAR_MIGRATE, "1");
    padding_fill(lb, run);
    const char *env = getenv("ARCANE_MESH_EXCHANGE_USE_COLLECTIVE");
    lb->collective = env && (!strcmp(env, "1") || !strcmp(env, "TRUE"));
    lb->model = cost_model(run->comm, cfg, run->mesh->node_xyz, run->mesh->nnodes_owned);
    if (cfg->lb_period > 0) {
        char how[256] = "";
        if (cfg->lb_mode != LB_SHUFFLE) {
            const struct partitioner *pt = lb_partitioner(cfg);
            const int ncon = weights_per_cell(run), summed = ncon > 1 && !pt->multi_weight_max;
            const char *multi = ncon > 1 ? pt->multi_how : NULL; /* how it balances them */
            char decide[96] = " above the threshold";
            if (cfg->lb_decide == LB_DECIDE_GAIN)
                snprintf(decide, sizeof decide, " above the threshold when the gain over %ld check%s exceeds the "
                         "cost", cfg->lb_horizon, cfg->lb_horizon == 1 ? "" : "s");
            static const char *const per[] = {"", "one weight per cell", "one weight per phase",
                                              "one weight per phase and one for the cost model's extra work"};
            snprintf(how, sizeof how, "%s, %s%s%s%s%s", decide, per[ncon], summed ? ", summed by " : "",
                     summed ? pt->display : "", multi ? ", " : "", multi ? multi : "");
        }
        listing_printf(run->lst, "Balance", "Load balance every %ld cycles: %s%s, cost %s, %d padding "
                       "variables + an array of %d, transport %s", cfg->lb_period,
                       deck_enum_name("loadbalance", "mode", cfg->lb_mode), how,
                       deck_enum_name("loadbalance", "cost", cfg->lb_cost), lb->nextra, lb->array_width,
                       lb->collective ? "MPI_Alltoallv" : "MPI_Isend/MPI_Irecv");
    }
    return lb;
}

const struct cost_params *lb_cost(const struct loadbalance *lb) { return &lb->model; }

/* A plain cell's compute seconds per cycle and one EOS evaluation's, each averaged over ranks
 * (collective): this cycle's compute seconds less the extra work the model had this rank's cells
 * do (none before the calibration), per owned cell; the evaluation timed here. */
static void cost_measure(struct loadbalance *lb, struct run *run, double seconds, double t[2])
{
    const long n = 200000;
    const struct mesh *m = run->mesh;
    case_to_host(run); /* the cost model reads the fields */
    const double eval = case_burn_seconds(run, n) / n;
    int q_id = registry_flagged(&run->reg, VAR_SHOCK);
    const double *q = q_id >= 0 ? run->reg.v[q_id].data : NULL;
    double extra = 0; /* evaluations */
    for (int32_t c = 0; lb->model.units > 0 && c < m->ncells_owned; c++)
        extra += (double)cost_evaluations(&lb->model, (int)lround(cell_cost_mean_of(&lb->model, m, m->node_xyz, q, c,
                                                                                         run->time, run->time)));
    /* a plain cell's seconds: the mean over the ranks holding cells (an empty one measures none) */
    double v[3] = {m->ncells_owned > 0 ? fmax(0.0, seconds - extra * eval) / m->ncells_owned : 0, eval,
                   m->ncells_owned > 0};
    comm_sum_doubles(run->comm, v, 3);
    t[0] = v[0] / fmax(1.0, v[2]);
    t[1] = v[1] / run->size;
}

/* The evaluations one unit of extra cost means: a plain cell's compute seconds per cycle over one
 * evaluation's. The second cycle is used because the first pays for page faults and cold caches. */
static void calibrate(struct loadbalance *lb, struct run *run, double seconds)
{
    double t[2];
    cost_measure(lb, run, seconds, t);
    long units = t[1] > 0 ? lround(t[0] / t[1]) : 1;
    lb->model.units = units > 0 ? (int)(units < 1000000 ? units : 1000000) : 1;
    listing_printf(run->lst, "Balance", "Cost model calibrated at cycle %ld: a plain cell computes %.3g us per cycle, "
                   "an EOS evaluation %.3g ns; a costly cell does %ld more evaluations (cost_factor %d)",
                   run->cycle, 1e6 * t[0], 1e9 * t[1], cost_evaluations(&lb->model, lb->model.factor),
                   lb->model.factor);
}

/* With cost_units fixed, what a costly cell really costs, measured as the calibration measures:
 * its weight is cost_factor plain cells whatever the units, and units far from the calibrated
 * ones make the weights lie (on 256 simulated ranks 20 units made a costly cell 1.2 plain cells
 * against a weight of 4, and a rebalance doubled the measured imbalance: BENCHMARKS.md). Printed,
 * not used: weights from a timing would make the partitions depend on the run. */
static void cost_check(struct loadbalance *lb, struct run *run, double seconds)
{
    double t[2];
    cost_measure(lb, run, seconds, t);
    const long evals = cost_evaluations(&lb->model, lb->model.factor);
    const double real = t[0] > 0 ? 1.0 + (double)evals * t[1] / t[0] : 0;
    const long agree = t[1] > 0 ? lround(t[0] / t[1]) : 0; /* the calibration's units */
    const int off = real > 0 && (real > 1.25 * lb->model.factor || real < 0.8 * lb->model.factor);
    char hint[96] = "";
    if (off)
        snprintf(hint, sizeof hint, "; about %ld units (or 0: calibrated) would make them agree", agree);
    listing_printf(run->lst, "Balance", "Cost model checked at cycle %ld (cost_units %d fixed): a plain cell computes "
                   "%.3g us per cycle, an EOS evaluation %.3g ns, so a costly cell's %ld more evaluations make it "
                   "cost %.2f plain cells against its weight of %d%s", run->cycle, lb->model.units, 1e6 * t[0],
                   1e9 * t[1], evals, real, lb->model.factor, hint);
}

void lb_account(struct loadbalance *lb, struct run *run, double seconds, double cpu_seconds)
{
    lb->busy_cpu += cpu_seconds;
    if (run->cfg.lb_period > 0) { /* read at the checks only (without them the count runs on) */
        if (lb->cycles == lb->cycle_cap) { /* room for a period's cycles, made at the first */
            lb->cycle_cap = 2 * lb->cycle_cap > 16 ? 2 * lb->cycle_cap : 16;
            lb->cycle_busy = xrealloc(lb->cycle_busy, (size_t)lb->cycle_cap * sizeof *lb->cycle_busy);
        }
        lb->cycle_busy[lb->cycles] = seconds;
    }
    lb->cycles++;
    lb->work_cycles++;
    if (lb->model.kind == COST_UNIFORM || !case_burns(run))
        return;
    if (lb->model.units == 0 && run->cycle > run->first_cycle)
        calibrate(lb, run, seconds);
    else if (run->cycle == run->first_cycle + 1 && run->cfg.lb_period > 0) /* units fixed in the deck */
        cost_check(lb, run, seconds);
}

enum { WEIGHT_UNIT = 8 }; /* a quiet plain cell's weight: room for fractions of the measured extra work */
/* METIS and PT-Scotch add the weights in 32-bit integers: their total is kept below this */
static const double WEIGHT_TOTAL_MAX = 1073741824.0; /* 2^30 */
/* The cycles a new partition is expected to serve: `horizon` checks, as a rebalanced partition is
 * kept until a check finds it out of balance, never past the last cycle or the final time (at the
 * current step). */
static long horizon_from(const struct config *cfg, long cycle, double time, double dt)
{
    long horizon = cfg->lb_period * cfg->lb_horizon;
    if (cfg->max_cycles > 0 && cfg->max_cycles - cycle < horizon)
        horizon = cfg->max_cycles - cycle;
    if (cfg->final_time > 0 && dt > 0) {
        double left = ceil((cfg->final_time - time) / dt);
        if (left < (double)horizon)
            horizon = left > 0 ? (long)left : 0;
    }
    return horizon;
}

static long horizon_cycles(const struct run *run) { return horizon_from(&run->cfg, run->cycle, run->time, run->dt); }

/* Cell weights (collective): the cost model's (1 or cost_factor) at the current time and state,
 * plus the work each cell did beyond a quiet cell's in the cycles since the last check, as the
 * case measures it (the hydro scheme's remap steps with moving nodes, which cost several quiet
 * cells each: without them the rank holding the waves stays the slowest). ncon 1: their sum;
 * ncon 2: [cell][2], the Lagrange phase with the extra work (which runs between the phases),
 * and the remap with the moving cells' work, a quiet cell-cycle split between the two as the
 * case measured it (the hydro scheme's kernels: mostly Lagrange, since the remap skips cells at
 * rest); ncon 3: the Lagrange phase, the extra work, the remap. At least 1 in each phase's, so
 * that no constraint is empty; the extra work's is 0 where there is none (a floor of 1 would
 * weigh the plain cells in it: 14% of its total at a factor of 3), and 1 everywhere when no cell
 * has any. The cost model's cost is its mean over the cycles the partition is expected to serve
 * (a region's slab moves on meanwhile). */
/* One cell's weights[ncon] from its Lagrange share, cost model cost and measured extra remap work. */
static void cell_weights(int *w, int ncon, double share, double cost, double extra)
{
    if (ncon == 1) {
        w[0] = (int)lround(WEIGHT_UNIT * (cost + extra));
        return;
    }
    /* Lagrange (with the extra work when ncon is 2), extra work, remap */
    const double lagrange = share, work = cost - 1.0, remap = (1.0 - share) + extra;
    const double part[3] = {ncon == 2 ? lagrange + work : lagrange, ncon == 2 ? remap : work, remap};
    for (int k = 0; k < ncon; k++) /* the extra work's 0 where there is none (below) */
        w[k] = (int)fmax(ncon == 3 && k == 1 ? 0.0 : 1.0, lround(WEIGHT_UNIT * part[k]));
}

/* The extra work's weight 1 everywhere when no cell has any (a shock model before the shock: a
 * count of cells), then every weight scaled so that their total stays below WEIGHT_TOTAL_MAX. */
static void weights_finish(MPI_Comm comm, int32_t n, int *w, int ncon)
{
    if (ncon == 3) {
        double work = 0;
        for (int32_t c = 0; c < n; c++)
            work += w[3 * (size_t)c + 1];
        comm_sum_doubles(comm, &work, 1);
        for (int32_t c = 0; c < n && work == 0; c++)
            w[3 * (size_t)c + 1] = 1;
    }
    /* scaled, else a million cells of cost_factor 10000 would wrap the partitioners' sums */
    double total = 0;
    for (size_t i = 0; i < (size_t)n * (size_t)ncon; i++)
        total += w[i];
    comm_sum_doubles(comm, &total, 1);
    if (total > WEIGHT_TOTAL_MAX) {
        double scale = total / WEIGHT_TOTAL_MAX;
        for (size_t i = 0; i < (size_t)n * (size_t)ncon; i++)
            w[i] = w[i] > 0 ? (int)fmax(1.0, floor(w[i] / scale)) : 0;
    }
}

static int *weights(struct loadbalance *lb, struct run *run, int ncon, int nph, int **phases)
{
    const struct mesh *m = run->mesh;
    size_t n = (size_t)(m->ncells_owned ? m->ncells_owned : 1);
    int *w = xmalloc(n * (size_t)ncon * sizeof *w);
    *phases = nph == ncon ? w : xmalloc(n * (size_t)nph * sizeof **phases);
    double *extra = xmalloc(n * sizeof *extra);
    double share, spread, ratio = case_active_work(run, lb->work_cycles, extra, &share, &spread);
    lb->work_cycles = 0; /* the case counts again from here (and from zero on a new mesh) */
    const long horizon = horizon_cycles(run);
    const double reach = spread * (double)horizon; /* cells the activity can move into meanwhile */
    /* The activity moves (the waves that make the hydro scheme's remap work) by up to reach cells
     * meanwhile, so that a cell d layers from an active one is active in about 1 - d / reach
     * of those cycles: each cell weighs the largest such share of the work around it. Without it
     * the cells the waves enter next weigh as quiet ones, and the rank holding them grows slower
     * at every cycle (BENCHMARKS.md). */
    const int spreads = ratio > 0 && reach > 1 && lb->spread_id >= 0;
    if (spreads)
        cells_spread(run->comm, m, &run->cell_plan, &run->reg, lb->spread_id, extra, reach);
    int q_id = registry_flagged(&run->reg, VAR_SHOCK); /* none (sync_only): no cell is in a shock */
    const double *q = q_id >= 0 ? run->reg.v[q_id].data : NULL;
    const double t_end = run->time + (double)horizon * run->dt; /* the cost model's, over the horizon */
    for (int32_t c = 0; c < m->ncells_owned; c++) {
        double cost = cell_cost_mean_of(&lb->model, m, m->node_xyz, q, c, run->time, t_end);
        cell_weights(w + (size_t)ncon * c, ncon, share, cost, extra[c]);
        if (*phases != w)
            cell_weights(*phases + (size_t)nph * c, nph, share, cost, extra[c]);
    }
    free(extra);
    weights_finish(run->comm, m->ncells_owned, w, ncon);
    if (*phases != w)
        weights_finish(run->comm, m->ncells_owned, *phases, nph);
    if (ratio > 0)
        listing_printf(run->lst, "Balance", "Cycle %ld: cost model: a cell's remap step with moving nodes costs %.3f "
                       "quiet cell-cycles (measured)", run->cycle, ratio);
    if (spreads)
        listing_printf(run->lst, "Balance", "Cycle %ld: cost model: the moving cells' work spread over %.1f cells "
                       "around them, as far as a wave goes in the %ld cycles a new partition serves", run->cycle,
                       reach, horizon);
    if (ratio > 0 && nph > 1)
        listing_printf(run->lst, "Balance", "Cycle %ld: cost model: the Lagrange phase is %.1f%% of a quiet "
                       "cell-cycle (measured)", run->cycle, 100 * share);
    return w;
}

int32_t *lb_setup_weights(MPI_Comm comm, const struct config *cfg, const struct partitioner *pt,
                          const struct cellset *cs, long cycle, double time, double dt, int *ncon,
                          struct listing *lst)
{
    *ncon = 1;
    if (!lb_repartitions(cfg) || !cfg->lb_setup || !cost_adds_work(cfg) || !pt || comm_size(comm) == 1)
        return NULL;
    /* One weight for the cells' own work and one for the extra work, which runs between the
     * phases (weights_per_cell), each balanced on its own; the remap's moving cells are not known
     * before a cycle. Where the partitioner would balance their sum only, the cells are counted:
     * the sum balanced leaves the phases further out of balance than a count (PT-Scotch on 2
     * ranks: 1.62 against 1.43 x the balanced time, BENCHMARKS.md). */
    const int nc = 2;
    const int per_phase = pt->multi_weight_max > 0 && (cfg->lb_weights == LB_WEIGHTS_PHASES ||
                                                       (cfg->lb_weights == LB_WEIGHTS_AUTO &&
                                                        comm_size(comm) <= pt->multi_weight_max));
    if (!per_phase) /* as weights_per_cell decides, with the set-up's partitioner */
        return NULL;
    const struct cost_params model = cost_model(comm, cfg, cs->xyz, cs->nnodes);
    const long horizon = horizon_from(cfg, cycle, time, dt);
    const double t_end = time + (double)horizon * dt;
    int32_t *w = xmalloc((size_t)(cs->ncells ? cs->ncells : 1) * nc * sizeof *w);
    double extra = 0; /* the extra work's weights */
    for (int64_t c = 0; c < cs->ncells; c++) {
        double centre[3];
        cellset_centre(cs, c, centre);
        const double cost = cost_mean(&model, centre, 0, time, t_end);
        w[nc * (size_t)c] = WEIGHT_UNIT;
        w[nc * (size_t)c + 1] = (int32_t)lround(WEIGHT_UNIT * (cost - 1));
        extra += w[nc * (size_t)c + 1];
    }
    double sums[2] = {extra, (double)cs->ncells}; /* one reduction for both (integers: exact) */
    comm_sum_doubles(comm, sums, 2);
    extra = sums[0];
    const double cells = sums[1];
    if (!(extra > 0)) { /* no cell costs more yet (a shock model), or less than a weight unit: counted */
        free(w);
        return NULL;
    }
    weights_finish(comm, (int32_t)cs->ncells, w, nc);
    listing_printf(lst, "Balance", "Set-up partition: the cells weighed by the cost model over the %ld cycle%s it is "
                   "expected to serve (extra work %.3g x the cells' own), one weight per cell and one for the extra "
                   "work", horizon, horizon == 1 ? "" : "s", extra / WEIGHT_UNIT / cells);
    *ncon = nc;
    return w;
}

/* The ranks' speeds and what they predict of the compute since the last check (seconds). */
struct speeds {
    double *speed;   /* each rank's, mean 1; NULL: equal shares */
    double sum;      /* the sum of the speeds measured, before they were scaled to mean 1 */
    double factor;   /* this rank's compute seconds to its work: its share of its core */
    int empty;       /* some rank holds no cell: its time is a floor on the balanced time */
    double slowest;  /* the largest of a rank's work over its speed: its compute time */
    double balanced; /* the slowest rank's time, balanced: the ranks' work over their speeds' sum,
                      * or an empty rank's time if longer (no partition moves what it does) */
    int slowest_rank;
};

/* This rank's share of its core in its compute since the last check (busy seconds): its main
 * thread's CPU seconds per wall second there (the synchronisations' and reductions' waits left
 * out: a waiting rank may yield its core). Over less than 1% of the slowest rank's compute and
 * under 20 ms (a rank left empty computes next to nothing: too few scheduler ticks for a share)
 * the last share measured stands; 0: unknown. */
static double core_share(struct loadbalance *lb, double busy, double busy_max)
{
    const int enough = busy > 0.01 * busy_max || busy >= 0.02; /* seconds */
    if (enough && busy > 0 && lb->busy_cpu > 0)
        lb->share = lb->busy_cpu / busy;
    return lb->share;
}

/* The ranks' relative speeds (collective): with speeds = measured, each rank's share of its core
 * (core_share), printed; with run.test_speed_rank0 other than 1, rank 0's that and every other
 * rank's 1 instead. NULL (equal shares) otherwise, or when a share is unknown or all lie within 5%
 * of each other: on cores of its own every rank gets all of its core, and a partition depends on
 * no timing. A rank's work is its compute seconds times its share (what it would have computed
 * on a core of its own), its time that work over its speed: what the gain of a partition by the
 * speeds is judged by. */
static struct speeds rank_speeds(struct loadbalance *lb, struct run *run, double busy, double busy_max)
{
    const struct config *cfg = &run->cfg;
    const int P = run->size;
    struct speeds sp = {0};
    if (cfg->lb_speeds != LB_SPEEDS_MEASURED || !lb_repartitions(cfg))
        return sp;
    const double share = core_share(lb, busy, busy_max);
    double *v = xcalloc(3 * (size_t)P, sizeof *v), *speed = v, *work = v + P, *empty = v + 2 * P;
    speed[run->rank] = cfg->test_speed_rank0 == 1.0 ? share : run->rank == 0 ? cfg->test_speed_rank0 : 1.0;
    /* pretended speeds (the test key) slow no rank: each one's measured seconds are its work */
    const double factor = cfg->test_speed_rank0 == 1.0 && share > 0 ? share : 1.0;
    work[run->rank] = busy * factor;
    empty[run->rank] = run->mesh->ncells_owned == 0;
    comm_sum_doubles(run->comm, v, 3 * P);
    int lo = 0, hi = 0;
    double sum = 0, total = 0;
    for (int r = 0; r < P; r++) {
        lo = speed[r] < speed[lo] ? r : lo;
        hi = speed[r] > speed[hi] ? r : hi;
        sum += speed[r];
        total += work[r];
    }
    const int equal = !(speed[lo] > 0) || speed[hi] <= 1.05 * speed[lo];
    if (speed[lo] > 0)
        listing_printf(run->lst, "Balance", "Cycle %ld: ranks' speeds (the share of its core each got in its compute "
                       "since the last check): min %.3f (rank %d), max %.3f (rank %d), max / min %.3f: %s", run->cycle,
                       speed[lo], lo, speed[hi], hi, speed[hi] / speed[lo],
                       equal ? "within 5%, equal shares" : "shares in proportion");
    else
        listing_printf(run->lst, "Balance", "Cycle %ld: ranks' speeds unknown (no CPU time measured): equal shares",
                       run->cycle);
    if (equal) {
        free(v);
        return sp;
    }
    sp.balanced = total / sum;
    sp.sum = sum;
    sp.factor = factor;
    for (int r = 0; r < P; r++) {
        sp.slowest_rank = work[r] / speed[r] > sp.slowest ? r : sp.slowest_rank;
        sp.slowest = fmax(sp.slowest, work[r] / speed[r]);
        if (empty[r] > 0)
            sp.balanced = fmax(sp.balanced, work[r] / speed[r]);
        sp.empty |= empty[r] > 0;
    }
    sp.speed = xmalloc((size_t)P * sizeof *sp.speed);
    for (int r = 0; r < P; r++)
        sp.speed[r] = speed[r] * P / sum;
    free(v);
    return sp;
}

/* Every migrating variable of one centering, as one synchronisation. */
static void sync_all(struct run *run, enum var_center center)
{
    int *ids = xmalloc((size_t)(run->reg.n ? run->reg.n : 1) * sizeof *ids), n = 0;
    for (int v = 0; v < run->reg.n; v++)
        if (run->reg.v[v].center == center && (run->reg.v[v].flags & VAR_MIGRATE))
            ids[n++] = v;
    if (n) {
        struct sync_group *g = sync_group_create(run->comm, center == VAR_CELL ? &run->cell_plan : &run->node_plan,
                                                 &run->reg, ids, n, SYNC_KIND_BASIC);
        sync_start(g);
        sync_finish(g);
        sync_group_destroy(g);
    }
    free(ids);
}

struct by_x {
    double x;
    int64_t gid;
    int32_t cell;
};

static int by_x_cmp(const void *a, const void *b)
{
    const struct by_x *p = a, *q = b;
    if (p->x != q->x)
        return p->x < q->x ? -1 : 1;
    return (p->gid > q->gid) - (p->gid < q->gid);
}

/* Shuffle: the ceil(fraction * n) owned cells of lowest centre x (then global id) go to the
 * next rank. A slab across the subdomain keeps the new interfaces small, so that the cycles
 * after a shuffle cost about what they did before it. */
static void shuffle(struct run *run, double fraction, int *dest)
{
    const struct mesh *m = run->mesh;
    struct by_x *o = xmalloc((size_t)(m->ncells_owned ? m->ncells_owned : 1) * sizeof *o);
    for (int32_t c = 0; c < m->ncells_owned; c++) {
        double x[MAX_CELL_NODES][3], centre[3];
        mesh_cell_coords(m, m->node_xyz, c, x);
        geom_centre(m->el, (const double(*)[3])x, centre);
        o[c] = (struct by_x){centre[0], m->cell_gid[c], c};
        dest[c] = run->rank;
    }
    qsort(o, (size_t)m->ncells_owned, sizeof *o, by_x_cmp);
    int32_t moved = (int32_t)ceil(fraction * m->ncells_owned);
    for (int32_t i = 0; i < moved; i++)
        dest[o[i].cell] = (run->rank + 1) % run->size;
    free(o);
}

/* An imbalance for the listing; negative means a rank holds no weight at all. */
static const char *imbalance_text(double imb, char *out, size_t n)
{
    if (imb < 0)
        snprintf(out, n, "inf (a rank holds none)");
    else
        snprintf(out, n, "%.3f", imb);
    return out;
}

/* A rebuild's seconds after the transfer: all of it, and its mesh_build and the case's part (sync
 * plans, ghost values, the case's arrays); the rest is the new cell set and the variables' values. */
struct rebuild_times {
    double all, mesh, cases;
};

/* The cells to their new ranks (dest, freed here) and the mesh rebuilt around them, with its
 * plans, its ghosts' values and the case's arrays; the rebuild's seconds into *rt. keep: the
 * migration buffers stay pooled for the next one (the shuffle's). */
static void migrate_and_rebuild(struct loadbalance *lb, struct run *run, int *dest, int keep, struct migration *mg,
                                struct rebuild_times *rt)
{
    struct mesh *m = run->mesh;
    sync_all(run, VAR_CELL); /* every local copy is then as good as the owner's */
    sync_all(run, VAR_NODE);
    migration_run(run->comm, m, &run->reg, dest, lb->collective, lb->pools, mg);
    free(dest);
    for (int f = 0; f < 2 && !keep; f++)
        comm_pool_release_send(&lb->pools[f]); /* sent: gone before the new mesh is built (peak memory) */
    double t1 = comm_wtime();
    const double t_cellset = mg->seconds_unpack; /* the new cell set's; migration_finish adds its own time */
    /* the old mesh and its plans go before the new mesh is built, so that the two meshes never
     * coexist (peak memory); the variables' old arrays go one by one in migration_finish */
    sync_plan_free(&run->cell_plan);
    sync_plan_free(&run->node_plan);
    const int nlayers = m->nlayers;
    mesh_destroy(m);
    run->mesh = m = NULL;
    char err[1024];
    double t2 = comm_wtime();
    struct mesh *nm = mesh_build(run->comm, &mg->own, nlayers, 0, err, sizeof err);
    if (!nm)
        run_exit_collective(run, EXIT_RUNTIME, err);
    rt->mesh = comm_wtime() - t2;
    migration_finish(mg, nm, &run->reg);
    for (int f = 0; f < 2 && !keep; f++)
        comm_pool_free(&lb->pools[f]); /* the received messages, read */
    release_freed_memory(); /* the old mesh, variables and case arrays, mesh_build's scratch, the buffers:
                             * kept, the case's new arrays would come on top of them (7 MB more peak) */
    run->mesh = nm;
    double t3 = comm_wtime();
    sync_plans_build(run->comm, nm, &run->cell_plan, &run->node_plan);
    sync_all(run, VAR_CELL); /* the new ghosts from their owners */
    sync_all(run, VAR_NODE);
    case_attach(run);
    padding_check(lb, run);
    const double t4 = comm_wtime();
    rt->cases = t4 - t3;
    rt->all = t4 - t1 + t_cellset; /* with the new cell set, built in migration_run */
}

static void rebalance(struct loadbalance *lb, struct run *run, double measured, const double *speed)
{
    const struct config *cfg = &run->cfg;
    struct mesh *m = run->mesh;
    double t0 = comm_wtime();
    int *dest = xmalloc((size_t)(m->ncells_owned ? m->ncells_owned : 1) * sizeof *dest);
    double wb = 0, wa = 0;
    const int ncon = weights_per_cell(run), nph = phases_per_cell(run);
    int *wp, *w = weights(lb, run, ncon, nph, &wp);
    /* the step's parts for the listing: the weights, then the dual graph and the partitioner (or the
     * shuffle) in t_cut */
    double t_weights = comm_wtime() - t0, t_cut[2] = {0, 0};
    /* the case's work arrays go first (they are rebuilt for the new mesh anyway), so that the
     * partition's scratch and the messages take their place. Their pages stay with the process
     * (a page handed back is faulted in again when reused: on issue 17's case that made a
     * rebalance 0.05-0.1 s slower, of 0.35-0.4, for 2.5 MB less peak), except with the
     * shuffle, whose buffers are kept for the next one: they would come on top (8 MB more peak). */
    const int keep = cfg->lb_mode == LB_SHUFFLE; /* a decided rebalance is rare: its buffers are not kept */
    case_detach(run);
    if (keep)
        release_freed_memory();
    if (cfg->lb_mode != LB_SHUFFLE) {
        partition_rebalance(run->comm, lb_partitioner(cfg), m, w, ncon, speed, dest, &wb, &wa, t_cut);
    } else {
        double ts = comm_wtime();
        shuffle(run, cfg->shuffle_fraction, dest);
        t_cut[1] = comm_wtime() - ts;
        distribute_weight_imbalance(run->comm, m->ncells_owned, w, dest, NULL, &wb, &wa);
    }
    double pb = 1, pa = 1; /* the phases' time over the balanced time, now and with the new partition */
    distribute_phase_cost(run->comm, m->ncells_owned, wp, nph, dest, speed, &pb, &pa);
    const char *const weights_of = speed ? "cell weights over speeds" : "cell weights"; /* the imbalances' */
    if (wp != w)
        free(wp);
    free(w);
    double t_part = comm_wtime() - t0;
    /* judged by the phases, which a total balanced alone can leave slower (one weight summing them).
     * A rank left empty (Zoltan's PHG left one on 256 simulated ranks; a rank far slower than the
     * others may get none) makes the weights' imbalance infinite, but the phases count it: an
     * empty rank stays a working member of the run (the set-up may leave one too). */
    const int better = nph > 1 ? pa < pb : wa >= 0 && (wb < 0 || wa < wb); /* the same on every rank */
    /* near balance (within the partitioners' 5% tolerance) a partition no better says nothing */
    lb->kept_cycle = cfg->lb_mode != LB_SHUFFLE && !better && pb > 1.05 ? run->cycle : -1;
    if (cfg->lb_mode != LB_SHUFFLE && !better) {
        char before[32], after[32];
        listing_printf(run->lst, "Balance", "Cycle %ld: imbalance measured %.3f, but %s's partition is no better "
                       "(%s %s -> %s; phases %.3f -> %.3f x the balanced time; partition %.6f s): the "
                       "current one is kept", run->cycle, measured, lb_partitioner(cfg)->display, weights_of,
                       imbalance_text(wb, before, sizeof before), imbalance_text(wa, after, sizeof after), pb, pa,
                       t_part);
        free(dest);
        /* the partitioner's scratch goes back first: kept, the case's arrays came on top of it
         * (Zoltan's on issue 17's case: peak 62-64 MB instead of 55, 1.45 x the run without) */
        release_freed_memory();
        case_attach(run);
        return;
    }

    struct migration mg;
    struct rebuild_times rt;
    migrate_and_rebuild(lb, run, dest, keep, &mg, &rt);

    lb->cost = -comm_min_double(run->comm, -(comm_wtime() - t0)); /* what the slowest rank paid */
    lb->cost_cycle = run->cycle;
    long long moved = comm_sum_ll(run->comm, mg.cells_sent);
    lb->rebalances++;
    lb->cells_moved += moved;
    static const char *const family[2] = {"Cell", "Node"};
    for (int f = 0; f < 2; f++) {
        listing_printf(run->lst, "Mesh", "ParallelExchanger %s: ProcessExchange (begin) date=%s", family[f], mg.date[f]);
        listing_printf(run->lst, "Mesh", "ParallelExchanger %s: ProcessExchange total_size=%lld nb_message=%d",
                       family[f], mg.bytes[f], mg.messages[f]);
        listing_printf(run->lst, "Mesh", "ParallelExchanger %s: ProcessExchange (end) total_time=%.15g", family[f],
                       mg.seconds_transfer[f]);
    }
    char before[32], after[32];
    listing_printf(run->lst, "Balance", "Rebalance at cycle %ld (%s): %lld cells moved; imbalance measured %.3f, "
                   "%s %s -> %s; seconds: partition %.6f (weights %.6f, graph %.6f, %s %.6f), pack %.6f, "
                   "transfer %.6f, rebuild %.6f (mesh %.6f, cells and values %.6f, case %.6f)",
                   run->cycle, deck_enum_name("loadbalance", "mode", cfg->lb_mode), moved, measured, weights_of,
                   imbalance_text(wb, before, sizeof before), imbalance_text(wa, after, sizeof after), t_part,
                   t_weights, t_cut[0], cfg->lb_mode == LB_SHUFFLE ? "shuffle" : lb_partitioner(cfg)->display,
                   t_cut[1],
                   mg.seconds_pack, mg.seconds_transfer[0] + mg.seconds_transfer[1], rt.all, rt.mesh,
                   rt.all - rt.mesh - rt.cases, rt.cases);
    if (nph > 1)
        listing_printf(run->lst, "Balance", "Cycle %ld: phases %.3f -> %.3f x the balanced time (per phase the "
                       "slowest rank's weight, as the %d weights per cell predict)", run->cycle, pb, pa, nph);
    migration_free(&mg);
    struct partition_quality q;
    partition_quality(run->comm, run->mesh, sync_plan_neighbours(&run->cell_plan), &q);
    listing_printf(run->lst, "Balance", "Cycle %ld: partition now: owned cells per rank min %.0f avg %.1f max %.0f, "
                   "edge cut %lld faces, neighbours per rank max %.0f", run->cycle, q.cells.min, q.cells.avg,
                   q.cells.max, q.edge_cut, q.neighbours.max);
}

/* What a rebalance is expected to cost (seconds, the slowest rank): the last one's, or before the
 * first the set-up's partition, ghost layers and plans, which a rebalance does again, less the
 * set-up's dual graph from the cells' nodes (a rebalance reads it from the faces). */
static double expected_cost(const struct loadbalance *lb, struct run *run, char *source, size_t n)
{
    if (lb->cost_cycle > 0) {
        snprintf(source, n, "the rebalance at cycle %ld", lb->cost_cycle);
        return lb->cost;
    }
    snprintf(source, n, "estimated from the set-up's partition less its graph, ghosts and plans");
    const double *t = run->tm.total;
    return -comm_min_double(run->comm, -(t[TIMER_PARTITION] - t[TIMER_GRAPH] + t[TIMER_GHOSTS] + t[TIMER_PLANS]));
}

double lb_growth(const double *x, long n)
{
    if (n < 3)
        return 0;
    const double mid = (double)(n - 1) / 2;
    double mean = 0, sxy = 0, sxx = 0;
    for (long i = 0; i < n; i++)
        mean += x[i];
    mean /= (double)n;
    for (long i = 0; i < n; i++) {
        sxy += ((double)i - mid) * (x[i] - mean);
        sxx += ((double)i - mid) * ((double)i - mid);
    }
    return sxy / sxx;
}

/* Rank `slowest`'s compute beyond the balanced time in each cycle since the last check, seconds,
 * by the figures the check weighs, into x[lb->cycles] (collective): its time less the ranks' mean,
 * or with the ranks' speeds its work over its speed less the ranks' work over the speeds' sum, or
 * less an empty rank's time if longer. Their mean is the check's excess (but for that floor, taken
 * cycle by cycle here). */
static void excess_series(const struct loadbalance *lb, struct run *run, const struct speeds *sp, int slowest,
                          double *x)
{
    const long n = lb->cycles;
    /* every rank's work, the slowest rank's, an empty rank's time (the largest) */
    double *v = xcalloc(3 * (size_t)n, sizeof *v);
    const double f = sp->speed ? sp->factor : 1.0;
    const double P = run->size, all = sp->speed ? sp->sum : P;
    for (long c = 0; c < n; c++) {
        v[c] = lb->cycle_busy[c] * f;
        v[n + c] = run->rank == slowest ? lb->cycle_busy[c] * f : 0;
        if (sp->empty && run->mesh->ncells_owned == 0) /* speeds known, since an empty rank is known */
            v[2 * n + c] = lb->cycle_busy[c] * f / (sp->speed[run->rank] * all / P);
    }
    comm_sum_doubles(run->comm, v, 2 * (int)n);
    if (sp->empty)
        comm_max_doubles(run->comm, v + 2 * n, (int)n);
    const double own = sp->speed ? sp->speed[slowest] * all / P : 1.0; /* its speed as measured */
    for (long c = 0; c < n; c++)
        x[c] = v[n + c] / own - fmax(v[c] / all, v[2 * n + c]);
    free(v);
}

/* How fast the slowest rank's excess grows (collective): its slope over the cycles since the last
 * check (lb_growth), without the partition's first cycle (page faults and cold caches) when they
 * start with it; 0 when it does not grow. *first: the first cycle fitted. */
static double excess_growth(const struct loadbalance *lb, struct run *run, const struct speeds *sp, int slowest,
                            long *first)
{
    const long n = lb->cycles, skip = run->cycle - n == lb->part_cycle && n > 0;
    double *x = xmalloc((size_t)(n > 0 ? n : 1) * sizeof *x);
    excess_series(lb, run, sp, slowest, x);
    const double g = lb_growth(x + skip, n - skip);
    free(x);
    *first = run->cycle - n + 1 + skip;
    return g > 0 ? g : 0;
}

double lb_expected_gain(double excess, double growth, long served, long h)
{
    const double k = (double)(h < served ? h : served), rest = (double)(h > served ? h - served : 0);
    return (double)h * excess + growth * (k * (k + 1) / 2 + rest * (double)served);
}

/* Seconds of compute since the last check as ms per cycle. */
static double ms_per_cycle(const struct loadbalance *lb, double seconds)
{
    return lb->cycles > 0 ? 1e3 * seconds / (double)lb->cycles : 0;
}

/* The compute the ranks measured since the last check, as every check line prints it. */
static const char *compute_text(const struct loadbalance *lb, const struct stats *st, char *out, size_t n)
{
    snprintf(out, n, "compute ms per cycle: min %.3f avg %.3f max %.3f (rank %d)", ms_per_cycle(lb, st->min),
             ms_per_cycle(lb, st->avg), ms_per_cycle(lb, st->max), st->rank_max);
    return out;
}

/* Decide by gain and cost: balanced, the slowest rank would have computed the ranks' mean (with
 * the ranks' speeds, their work over the speeds' sum: a slow rank left empty then leaves nothing
 * to gain), so each cycle the new partition serves should save the slowest rank's compute seconds
 * per cycle less that (ex); it is expected to serve `horizon` checks, as a rebalanced partition is
 * kept until a check finds it out of balance. Where that excess grew cycle by cycle since the last
 * check (its slope, excess_growth), the saving counts it from its fitted value now and grows on
 * (lb_expected_gain): a partition that falls a little further out of balance at each cycle would
 * otherwise never seem worth replacing, or only a check later than it pays (issue 17's wave: the
 * cycle's excess rises nearly in a straight line, BENCHMARKS.md). decide = threshold: rebalance
 * anyway; the figures are printed all the same. */
static int worth_it(const struct loadbalance *lb, struct run *run, const struct stats *st, double measured,
                    const struct speeds *sp, const struct excess *ex)
{
    const struct config *cfg = &run->cfg;
    const long horizon = horizon_cycles(run), served = run->cycle - lb->part_cycle;
    /* a partitioner that could not improve on the partition is expected to gain nothing while that
     * partition would have served (horizon checks): its next one would come from about the same
     * weights (decide = gain does not ask it; threshold does all the same) */
    const int kept = lb->kept_cycle >= 0 && run->cycle - lb->kept_cycle <= cfg->lb_period * cfg->lb_horizon;
    long first = 0;
    const double growth = kept ? 0 : excess_growth(lb, run, sp, ex->rank, &first);
    /* the fitted line at this cycle: through the excess, the mean over the cycles since the last
     * check, at their middle */
    const double now = ex->value + growth * (double)(lb->cycles - 1) / 2;
    const double gain = kept ? 0 : lb_expected_gain(now, growth, served, horizon);
    char grew[256] = "";
    if (growth > 0)
        snprintf(grew, sizeof grew, "; the slowest rank's excess over the mean grows by %.4f ms per cycle each cycle "
                 "(fitted over cycles %ld-%ld), %.3f ms per cycle now, assumed to grow on so for %ld cycles at most",
                 1e3 * growth, first, run->cycle, 1e3 * now, served);
    if (kept)
        listing_printf(run->lst, "Balance", "Cycle %ld: no gain expected until cycle %ld: %s's partition at cycle %ld "
                       "was no better by the phases", run->cycle, lb->kept_cycle + cfg->lb_period * cfg->lb_horizon,
                       lb_partitioner(cfg)->display, lb->kept_cycle);
    char source[96], by_speeds[96] = "";
    double cost = expected_cost(lb, run, source, sizeof source);
    int yes = cfg->lb_decide == LB_DECIDE_THRESHOLD || gain > cost;
    if (sp->speed)
        snprintf(by_speeds, sizeof by_speeds, "; by the ranks' speeds: slowest %.3f (rank %d), balanced %.3f",
                 ms_per_cycle(lb, sp->slowest), sp->slowest_rank, ms_per_cycle(lb, sp->balanced));
    const char *decision = cfg->lb_decide == LB_DECIDE_THRESHOLD ? "rebalance (decide = threshold)"
                           : yes                                 ? "rebalance"
                                                                 : "no rebalance";
    char compute[128];
    listing_printf(run->lst, "Balance", "Cycle %ld: imbalance measured %.3f (%s%s)%s; expected gain %.6f s over the "
                   "next %ld cycles, rebalance cost %.6f s (%s): %s", run->cycle, measured,
                   compute_text(lb, st, compute, sizeof compute), by_speeds, grew, gain, horizon, cost, source,
                   decision);
    return yes;
}

void lb_step(struct loadbalance *lb, struct run *run)
{
    const struct config *cfg = &run->cfg;
    if (cfg->lb_period <= 0 || run->cycle % cfg->lb_period != 0)
        return;
    timers_start(&run->tm, TIMER_BALANCE);
    case_to_host(run); /* the weights read the fields (the case's activity, the cost model) */
    struct stats st;
    char compute[128];
    double busy = 0; /* this rank's compute seconds since the last check */
    for (long c = 0; c < lb->cycles; c++)
        busy += lb->cycle_busy[c];
    comm_stats(run->comm, &busy, 1, &st);
    double measured = st.min > 0 ? (st.max - st.min) / st.min : 0;
    const int check = cfg->lb_mode == LB_SHUFFLE || measured >= cfg->lb_threshold;
    struct speeds sp = check ? rank_speeds(lb, run, busy, st.max) : (struct speeds){0};
    struct excess ex = {0, sp.speed ? sp.slowest_rank : st.rank_max};
    if (lb->cycles > 0)
        ex.value = fmax(0.0, sp.speed ? sp.slowest - sp.balanced : st.max - st.avg) / (double)lb->cycles;
    const long rebalanced = lb->rebalances;
    if (cfg->lb_mode == LB_SHUFFLE)
        rebalance(lb, run, measured, sp.speed);
    else if (!check)
        listing_printf(run->lst, "Balance", "Cycle %ld: imbalance %.3f below threshold %.3f (%s), no rebalance",
                       run->cycle, measured, cfg->lb_threshold, compute_text(lb, &st, compute, sizeof compute));
    else if (worth_it(lb, run, &st, measured, &sp, &ex))
        rebalance(lb, run, measured, sp.speed);
    free(sp.speed);
    if (lb->rebalances != rebalanced) /* a new partition: its excess is measured from the next check */
        lb->part_cycle = run->cycle;
    lb->busy_cpu = 0;
    lb->cycles = 0;
    timers_stop(&run->tm, TIMER_BALANCE);
}

void lb_report(const struct loadbalance *lb, struct run *run)
{
    if (run->cfg.lb_period > 0)
        listing_printf(run->lst, "Balance", "%ld rebalances, %lld cells moved in all", lb->rebalances, lb->cells_moved);
}

void lb_destroy(struct loadbalance *lb)
{
    if (!lb)
        return;
    comm_pool_free(&lb->pools[0]);
    comm_pool_free(&lb->pools[1]);
    free(lb->cycle_busy);
    free(lb);
}
