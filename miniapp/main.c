/* hydro: prolog (deck, mesh, ghosts, plans), time loop, epilog (timers, TotalReel). */
#ifdef __linux__
#define _GNU_SOURCE /* sched_getaffinity: the cores a rank's threads may use */
#include <sched.h>
#endif
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>
#include <time.h>
#ifdef __GLIBC__
#include <malloc.h>
#include <sys/resource.h>
#endif

#include "case.h"
#include "check.h"
#include "checkpoint.h"
#include "comm.h"
#include "loadbalance.h"
#include "memest.h"
#include "par.h"
#include "partition.h"
#include "quality.h"
#include "restart.h"
#include "run.h"
#include "setup.h"
#include "version.h"

/* Cores this process may run on (its affinity mask: mpirun binds each rank to one core by
 * default), 0 when unknown. */
static int cores_allowed(void)
{
#ifdef __linux__
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) == 0)
        return CPU_COUNT(&set);
#endif
    return 0;
}

static void banner(struct run *run)
{
    char date[64];
    time_t now = time(NULL);
    strftime(date, sizeof date, "%Y-%m-%d %H:%M:%S", localtime(&now));
    int threads = par_threads(); /* OMP_NUM_THREADS; 1 when unset (comm_init) or without OpenMP */
    listing_printf(run->lst, "Internal", "hydro %s (%s), %d ranks x %d thread%s, started %s", HYDRO_VERSION,
                   HYDRO_REVISION, run->size, threads, threads > 1 ? "s" : "", date);
    int cores = cores_allowed(), node_ranks = comm_node_ranks(run->comm);
    long online = sysconf(_SC_NPROCESSORS_ONLN);
    const char *wait = getenv("OMP_WAIT_POLICY");
    if (threads > 1 && online > 0 && (long)node_ranks * threads > online && !(wait && !strcasecmp(wait, "passive")))
        listing_printf(run->lst, "Internal", "Warning: %d ranks x %d threads on a node of %ld cores: threads that "
                       "spin while they wait take the cores the others need; set OMP_WAIT_POLICY=passive",
                       node_ranks, threads, online);
    if (threads > 1 && cores > 0 && cores < threads)
        listing_printf(run->lst, "Internal", "Warning: %d threads per rank, but rank 0 may run on %d core%s only (its "
                       "binding): launch with mpirun --bind-to none, or --map-by slot:PE=%d", threads, cores,
                       cores > 1 ? "s" : "", threads);
    listing_printf(run->lst, "Internal", "Deck: %s", run->deck_path);
    for (const char *s = run->deck_text; *s;) { /* the resolved deck, for the record */
        const char *e = strchr(s, '\n');
        int n = e ? (int)(e - s) : (int)strlen(s);
        if (n > 0 && s[0] != ';')
            listing_printf(run->lst, "Deck", "%.*s", n, s);
        s += n + (e ? 1 : 0);
    }
}

static void report_mesh(struct run *run)
{
    const struct config *cfg = &run->cfg;
    const struct mesh *m = run->mesh;
    if (cfg->mesh_kind == MESH_GMSH)
        listing_printf(run->lst, "Mesh", "Gmsh mesh %s", cfg->mesh_file);
    else if (cfg->dim == 3)
        listing_printf(run->lst, "Mesh", "Cartesian box %ld x %ld x %ld cells, perturb %g", cfg->nx, cfg->ny, cfg->nz,
                       cfg->perturb);
    else
        listing_printf(run->lst, "Mesh", "Cartesian box %ld x %ld cells, perturb %g", cfg->nx, cfg->ny, cfg->perturb);
    listing_printf(run->lst, "Mesh", "%ldD %s: %lld cells, %lld nodes", cfg->dim, cfg->dim == 2 ? "quads" : "hexes",
                   (long long)m->global_ncells, (long long)m->global_nnodes);
    struct partition_quality q;
    partition_quality(run->comm, m, sync_plan_neighbours(&run->cell_plan), &q);
    listing_printf(run->lst, "Mesh", "Partition %s: owned cells per rank min %.0f (rank %d) avg %.1f max %.0f (rank %d), "
                   "imbalance %.3f", deck_enum_name("parallel", "partitioner", cfg->partitioner), q.cells.min,
                   q.cells.rank_min, q.cells.avg, q.cells.max, q.cells.rank_max,
                   q.cells.avg > 0 ? q.cells.max / q.cells.avg : 0.0);
    listing_printf(run->lst, "Mesh", "Partition edge cut: %lld faces; neighbours per rank min %.0f avg %.2f max %.0f",
                   q.edge_cut, q.neighbours.min, q.neighbours.avg, q.neighbours.max);
    listing_printf(run->lst, "Mesh", "Ghost layers: %d; ghost cells per rank min %.0f avg %.1f max %.0f", m->nlayers,
                   q.ghosts.min, q.ghosts.avg, q.ghosts.max);
    listing_printf(run->lst, "Mesh", "This rank: %d owned cells, %d ghost cells (layers %d/%d/%d), %d nodes (%d owned), "
                   "%d faces", m->ncells_owned, m->ncells - m->ncells_owned,
                   m->cell_layer_start[2] - m->cell_layer_start[1], m->cell_layer_start[3] - m->cell_layer_start[2],
                   m->cell_layer_start[4] - m->cell_layer_start[3], m->nnodes, m->nnodes_owned, m->nfaces);
}

/* One HDF5 dump of the current state, reported in the listing. */
static void dump(struct run *run)
{
    char err[1024], version[128];
    snprintf(version, sizeof version, "hydro %s (%s)", HYDRO_VERSION, HYDRO_REVISION);
    struct dump_meta meta = {.cycle = run->cycle,
                             .time = run->time,
                             .dt = run->dt,
                             .dt_old = run->dt_old,
                             .deck_text = run->deck_text,
                             .code_version = version};
    case_to_host(run);
    case_diagnostics(run, &meta);
    struct dump_report rep;
    timers_start(&run->tm, TIMER_DUMP);
    if (checkpoint_write(run->dumps, run->mesh, &run->reg, &meta, &rep, err, sizeof err)) {
        listing_printf(run->lst, "Checkpoint", "Dump %s: cycle %ld, failed: %s", rep.path, run->cycle,
                       run->rank == 0 ? err : "see rank 0");
        run_exit_collective(run, EXIT_RUNTIME, err);
    }
    timers_stop(&run->tm, TIMER_DUMP);
    run->last_dump = run->cycle;
    snprintf(run->dump_path, sizeof run->dump_path, "%s", rep.path);
    listing_printf(run->lst, "Checkpoint", "Dump %s: cycle %ld, %.3f MB in %.3f s (%.3f GB/s)", rep.path, run->cycle,
                   rep.bytes / 1e6, rep.seconds, rep.seconds > 0 ? rep.bytes / rep.seconds / 1e9 : 0.0);
}

static void prolog(struct run *run)
{
    char err[1024];
    const struct config *cfg = &run->cfg;
    banner(run);
    mem_check(run); /* a run too large for the machine stops here, before it allocates */
    if (run->restart) {
        const struct restart_file *rf = run->restart;
        listing_printf(run->lst, "Restart", "Restart from %s: cycle %ld, time %.17g, dt %.17g, written by %d ranks",
                       rf->path, rf->cycle, rf->time, rf->dt, rf->nranks_written);
        run->mesh = setup_mesh_restart(run->comm, cfg, rf, &run->tm, run->lst, err, sizeof err);
    } else {
        run->mesh = setup_mesh(run->comm, cfg, &run->tm, run->lst, err, sizeof err);
    }
    if (!run->mesh)
        run_exit_collective(run, EXIT_BADINPUT, err);
    /* the set-up's scratch (node directory, cell sets, graph, messages) goes back to the system,
     * except where a partitioner may rebalance: its first rebalance peaks higher anyway, and on
     * this VM would fault those pages in again, about 10 us each (issue 17's case: the same peak
     * either way, its partition step 0.084 -> 0.048 s; BENCHMARKS.md) */
    if (!lb_repartitions(cfg))
        release_freed_memory();
    timers_start(&run->tm, TIMER_PLANS);
    sync_plans_build(run->comm, run->mesh, &run->cell_plan, &run->node_plan);
    registry_init(&run->reg, run->mesh->ncells, run->mesh->nnodes);
    run->first_cycle = 1;
    run->last_dump = -1;
    case_create(run); /* sets dt */
    timers_stop(&run->tm, TIMER_PLANS);
    if (run->restart) {
        timers_start(&run->tm, TIMER_RESTART);
        if (restart_read_vars(run->comm, run->restart, run->mesh, &run->reg, err, sizeof err))
            run_exit_collective(run, EXIT_BADINPUT, err);
        timers_stop(&run->tm, TIMER_RESTART);
        run->cycle = run->last_dump = run->restart->cycle;
        run->first_cycle = run->cycle + 1;
        run->time = run->restart->time;
        run->dt = run->restart->dt;
        run->dt_old = run->restart->dt_old;
        case_restored(run);
    }
    run->lb = lb_create(run);
    stop_create(&run->stop, run->comm, cfg->walltime, run->t_start);
    if (cfg->checkpoint_period >= 0) {
        run->dumps = checkpointer_create(run->comm, cfg->checkpoint_dir, cfg->checkpoint_keep, err, sizeof err);
        if (!run->dumps)
            run_exit_collective(run, EXIT_RUNTIME, err);
    }
    report_mesh(run);
    timers_stop(&run->tm, TIMER_INIT);
    listing_printf(run->lst, "Internal", "Initialisation done in %.6f s; starting the time loop",
                   run->tm.total[TIMER_INIT]);
}

/* A stop request every rank agreed on: dump (once per cycle), say where and how to restart.
 * Returns 1 when the run must end here (SIGTERM, walltime), 0 to go on (SIGUSR1). */
static int act_on_stop(struct run *run, enum stop_request req)
{
    const char *why = stop_reason(req);
    if (run->dumps) {
        if (run->last_dump != run->cycle)
            dump(run);
        listing_printf(run->lst, "Stop", "%s at cycle %ld (time %.6e): dump %s; %s with: mpirun -np %d hydro --restart %s",
                       why, run->cycle, run->time, run->dump_path, req == STOP_DUMP ? "going on; it restarts" : "ending; continue",
                       run->size, run->dump_path);
    } else {
        listing_printf(run->lst, "Stop", "%s at cycle %ld (time %.6e): no dump (output.checkpoint_period = -1)%s", why,
                       run->cycle, run->time, req == STOP_DUMP ? "; going on" : "; ending");
    }
    return req != STOP_DUMP;
}

/* Up to max_cycles, unless the case is over before (a final time). */
static int more(const struct run *run) { return run->cycle <= run->cfg.max_cycles && !case_finished(run); }

static void time_loop(struct run *run)
{
    timers_start(&run->tm, TIMER_LOOP);
    double last = timers_now();
    long last_cycle = run->first_cycle - 1; /* of the previous cycle line */
    long period = run->cfg.listing_period;
    long dump_period = run->cfg.checkpoint_period;
    for (run->cycle = run->first_cycle; more(run); run->cycle++) {
        double t0 = timers_now(), comm0 = run->tm.total[TIMER_SYNC] + run->tm.total[TIMER_REDUCE];
        double cpu0 = timers_cpu(&run->tm), cpu_comm0 = run->tm.cpu_total[TIMER_SYNC] + run->tm.cpu_total[TIMER_REDUCE];
        double dump0 = run->tm.total[TIMER_DUMP];
        if (run->cycle == run->cfg.test_fatal_cycle && run->rank == run->cfg.test_fatal_rank)
            hydro_fatal(run->comm, EXIT_RUNTIME, "[run] test_fatal_cycle = %ld: rank %ld stops alone (a test of the "
                        "fatal-error path)", run->cfg.test_fatal_cycle, run->cfg.test_fatal_rank);
        int failed = case_cycle(run); /* advances time and sets the next dt; -1: stop on a failure */
        lb_account(run->lb, run, (timers_now() - t0) - (run->tm.total[TIMER_SYNC] + run->tm.total[TIMER_REDUCE] - comm0),
                   (timers_cpu(&run->tm) - cpu0) - (run->tm.cpu_total[TIMER_SYNC] + run->tm.cpu_total[TIMER_REDUCE] - cpu_comm0));
        if (failed) { /* the state at the failure, for the post-mortem, then exit 1 */
            timers_stop(&run->tm, TIMER_LOOP);
            if (run->dumps)
                dump(run);
            run_exit_collective(run, EXIT_RUNTIME, NULL);
        }
        int last_one = run->cycle == run->cfg.max_cycles || case_finished(run);
        if (period > 0 && (run->cycle % period == 0 || last_one)) {
            double now = timers_now();
            listing_printf(run->lst, "Loop", "Cycle %6ld  time=%.6e  dt=%.6e  wall/cycle=%.6e s", run->cycle, run->time,
                           run->dt_old, (now - last) / (double)(run->cycle - last_cycle));
            last = now;
            last_cycle = run->cycle;
            case_listing(run);
        }
        if (run->dumps && dump_period > 0 && run->cycle % dump_period == 0)
            dump(run);
        lb_step(run->lb, run);
        double now = timers_now(), dumped = run->tm.total[TIMER_DUMP] - dump0;
        enum stop_request req = stop_poll(&run->stop, now, now - t0 - dumped, dumped);
        if (req != STOP_NONE && act_on_stop(run, req) && !last_one) {
            run->cycle++; /* as if the loop had ended after this cycle */
            break;
        }
    }
    run->cycle--; /* the last cycle done */
    timers_stop(&run->tm, TIMER_LOOP);
}

/* Peak resident set of each rank (getrusage: the high-water mark since the process started,
 * MPI and library buffers included), and per owned cell on the rank where that is largest. */
static void report_memory(struct run *run)
{
    struct rusage ru;
    double v[2] = {0, 0};
    if (getrusage(RUSAGE_SELF, &ru) == 0)
        v[0] = (double)ru.ru_maxrss * 1024.0; /* Linux: kilobytes */
    if (run->mesh->ncells_owned > 0)
        v[1] = v[0] / run->mesh->ncells_owned;
    struct stats st[2];
    comm_stats(run->comm, v, 2, st);
    listing_printf(run->lst, "Memory",
                   "Peak resident memory per rank: min %.1f MB (rank %d) avg %.1f MB max %.1f MB (rank %d); "
                   "%.0f bytes per owned cell (largest rank)",
                   st[0].min / 1e6, st[0].rank_min, st[0].avg / 1e6, st[0].max / 1e6, st[0].rank_max, st[1].max);
}

static void epilog(struct run *run)
{
    if (run->dumps && run->last_dump != run->cycle)
        dump(run);
    checkpointer_destroy(run->dumps);
    stop_destroy(&run->stop);
    case_report(run);
    lb_report(run->lb, run);
    report_memory(run);
    timers_print_local(&run->tm, run->lst);
    timers_print_global(&run->tm, run->comm, run->rank == 0 ? run->lst : NULL);
    double total = timers_now() - run->t_start;
    listing_printf(run->lst, "Internal", "TotalReel = %.15g secondes (init: %.15g  loop: %.15g )", total,
                   run->tm.total[TIMER_INIT], run->tm.total[TIMER_LOOP]);
    case_destroy(run);
    lb_destroy(run->lb);
    registry_free(&run->reg);
    sync_plan_free(&run->cell_plan);
    sync_plan_free(&run->node_plan);
    mesh_destroy(run->mesh);
}

/* Migration messages and dump staging buffers are large and allocated anew each time. By
 * default glibc maps such blocks with mmap and unmaps them on free, so every reuse faults its
 * pages in again: on the development VM a 46 MB migration message took 0.25 s instead of 0.03 s
 * (BENCHMARKS.md). Freed memory therefore stays in the process for reuse. */
static void keep_freed_memory(void)
{
#ifdef __GLIBC__
    mallopt(M_MMAP_MAX, 0);
    mallopt(M_TRIM_THRESHOLD, INT_MAX);
#endif
}

int main(int argc, char **argv)
{
    keep_freed_memory();
    comm_init(&argc, &argv);
    double t_start = timers_now();
    struct run *run = run_create(MPI_COMM_WORLD, argc, argv, t_start);
    prolog(run);
    time_loop(run);
    epilog(run);
    run_destroy(run);
    comm_finalize();
    return EXIT_OK;
}
