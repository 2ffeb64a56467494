/* Input deck: schema table, INI parsing with libinih, overrides, validation and printing. */
#include "deck.h"

#include <errno.h>
#include <ini.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "cases.h"
#include "gmsh.h"
#include "partitioner.h"

/* Enum keys are stored through an int (the schema's offsets): the physics enums must be ints. */
_Static_assert(sizeof(enum eos_kind) == sizeof(int) && sizeof(enum limiter_kind) == sizeof(int) &&
                   sizeof(enum length_kind) == sizeof(int) && sizeof(enum cost_kind) == sizeof(int) &&
                   sizeof(enum dt_control) == sizeof(int),
               "deck enum fields are written as int");

static const char *const mesh_kinds[] = {"cartesian", "gmsh", NULL};
/* Choices that are physics enums: named by the enum's own constants, sized by its count, so
 * that a value added to the enum without a name here leaves a NULL that deck_test finds. */
static const char *const case_names[CASE_HYDRO + HCASE_COUNT + 1] = {
    [CASE_SYNC_ONLY] = "sync_only",        [CASE_HYDRO + HCASE_SOD] = "sod",
    [CASE_HYDRO + HCASE_BISOD_X] = "bisod_x", [CASE_HYDRO + HCASE_SEDOV] = "sedov",
    [CASE_HYDRO + HCASE_NOH] = "noh",       [CASE_HYDRO + HCASE_TRIPLE_POINT] = "triple_point",
    [CASE_HYDRO + HCASE_WATER_AIR] = "water_air"};
static const char *const directions[] = {"x", "y", "z", NULL};
static const char *const eos_kinds[EOS_COUNT + 1] = {[EOS_PERFECT] = "perfect", [EOS_STIFFENED] = "stiffened"};
static const char *const remaps[] = {"none", "euler", NULL};
static const char *const limiters[LIMITER_COUNT + 1] = {
    [LIMITER_MINMOD] = "minmod", [LIMITER_SUPERBEE] = "superbee", [LIMITER_VANLEER] = "vanleer"};
static const char *const lengths[LENGTH_COUNT + 1] = {
    [LENGTH_VOLUME] = "volume", [LENGTH_FACES] = "faces", [LENGTH_MEDIANS] = "medians"};
static const char *const dt_controls[DT_COUNT + 1] = {[DT_MAHYCO] = "mahyco", [DT_MICROHYDRO] = "microhydro"};
static const char *const patterns[] = {"mahyco", "minimal", NULL};
static const char *const splits[] = {"none", "directional", NULL};
static const char *const lb_modes[] = {"metis", "zoltan", "ptscotch", "shuffle", NULL};
static const char *const lb_decides[] = {"gain", "threshold", NULL};
static const char *const lb_weightings[] = {"total", "phases", "auto", NULL};
static const char *const lb_speed_kinds[] = {"equal", "measured", NULL};
static const char *const costs[COST_COUNT + 1] = {
    [COST_UNIFORM] = "uniform", [COST_REGION] = "region", [COST_SHOCK] = "shock"};
static const char *const partitioners[] = {"metis", "block", "zoltan", "ptscotch", NULL};
static const char *const sync_modes[] = {"persistent", "basic", NULL};
static const char *const relaxations[] = {"none", "pressure", NULL};

const char *const deck_sections[] = {"mesh", "case", "physics", "materials", "parallel", "loadbalance", "output", "run", NULL};

#define OFF(field) offsetof(struct config, field)
#define BIG 1e9

const struct deck_key deck_keys[] = {
    {"mesh", "kind", KEY_ENUM, "cartesian", 0, 0, mesh_kinds,
     "mesh source: built-in generator of a box, or a Gmsh MSH 4.1 ASCII file", OFF(mesh_kind)},
    {"mesh", "dim", KEY_INT, "3", 2, 3, NULL, "space dimension: 2 (quads) or 3 (hexes); gmsh: taken from the file when not given (a value given must "
     "match it)",
     OFF(dim)},
    {"mesh", "nx", KEY_INT, "100", 1, BIG, NULL, "cartesian: cells along x", OFF(nx)},
    {"mesh", "ny", KEY_INT, "10", 1, BIG, NULL, "cartesian: cells along y", OFF(ny)},
    {"mesh", "nz", KEY_INT, "10", 1, BIG, NULL, "cartesian: cells along z (ignored in 2D)", OFF(nz)},
    {"mesh", "x0", KEY_DOUBLE, "0", -1e30, 1e30, NULL, "cartesian: origin x of the box (length)", OFF(x0)},
    {"mesh", "y0", KEY_DOUBLE, "0", -1e30, 1e30, NULL, "cartesian: origin y of the box (length)", OFF(y0)},
    {"mesh", "z0", KEY_DOUBLE, "0", -1e30, 1e30, NULL, "cartesian: origin z of the box (length)", OFF(z0)},
    {"mesh", "lx", KEY_DOUBLE, "1", 1e-30, 1e30, NULL, "cartesian: box length along x", OFF(lx)},
    {"mesh", "ly", KEY_DOUBLE, "0.1", 1e-30, 1e30, NULL, "cartesian: box length along y", OFF(ly)},
    {"mesh", "lz", KEY_DOUBLE, "0.1", 1e-30, 1e30, NULL, "cartesian: box length along z (ignored in 2D)",
     OFF(lz)},
    {"mesh", "perturb", KEY_DOUBLE, "0", 0, 0.3, NULL,
     "cartesian: interior nodes move by up to perturb/2 cell sizes per axis, pseudo-randomly from seed "
     "(a hex stays valid below 1/3)",
     OFF(perturb)},
    {"mesh", "seed", KEY_INT, "12345", 0, 2147483647.0, NULL, "seed of the node perturbation", OFF(seed)},
    {"mesh", "file", KEY_STRING, "", 0, 0, NULL,
     "gmsh: mesh file, relative to the deck's directory (printed resolved by --check)", OFF(mesh_file)},

    {"case", "name", KEY_ENUM, "sync_only", 0, 0, case_names,
     "test case; sync_only runs ghost synchronisations alone (communication benchmark), the others the hydro "
     "scheme (initial conditions in the README)",
     OFF(case_name)},
    {"case", "direction", KEY_ENUM, "x", 0, 0, directions, "sod: axis of the shock tube", OFF(direction)},
    {"case", "interface", KEY_DOUBLE, "0.5", -1e30, 1e30, NULL,
     "sod: position of the initial discontinuity along direction (length)", OFF(interface)},
    {"case", "sedov_energy", KEY_DOUBLE, "0", 0, 1e30, NULL,
     "sedov: energy put in the cells at the origin; 0: the value that gives a shock radius of 1 at t = 1 "
     "(rho 1, gamma 1.4)",
     OFF(sedov_energy)},
    {"case", "materials", KEY_STRING, "", 0, 0, NULL,
     "hydro cases: the material of each of the case's regions, in order (sod, bisod_x, water_air: left right; "
     "triple_point: left bottom top; sedov, noh: one), names from materials.names; empty: the one [physics] gas",
     OFF(region_text)},
    {"case", "cell_vars", KEY_INT, "5", 0, 1000, NULL, "sync_only: cell variables synchronised every cycle",
     OFF(cell_vars)},
    {"case", "node_vars", KEY_INT, "2", 0, 1000, NULL, "sync_only: node variables synchronised every cycle",
     OFF(node_vars)},
    {"case", "components", KEY_INT, "1", 1, 64, NULL, "sync_only: doubles per item of each variable",
     OFF(components)},
    {"case", "grouped", KEY_BOOL, "false", 0, 0, NULL,
     "sync_only: one synchronisation for all variables of a kind (true) or one per variable, as MaHyCo (false)",
     OFF(grouped)},
    {"case", "verify", KEY_BOOL, "true", 0, 0, NULL,
     "sync_only: check every ghost value against its owner's formula after each synchronisation (exit 1 if not)",
     OFF(verify)},

    {"physics", "final_time", KEY_DOUBLE, "0.2", 0, 1e30, NULL, "physical time at which the run stops (time)",
     OFF(final_time)},
    {"physics", "cfl", KEY_DOUBLE, "0.3", 1e-6, 1, NULL, "dt = cfl min over cells of L / (c + |v|)", OFF(cfl)},
    {"physics", "eos", KEY_ENUM, "perfect", 0, 0, eos_kinds,
     "perfect gas p = (gamma - 1) rho e, or stiffened gas p = (gamma - 1) rho e - gamma p_inf (the one gas when no "
     "materials are declared)", OFF(eos)},
    {"physics", "gamma", KEY_DOUBLE, "1.4", 1.000001, 100, NULL, "ratio of specific heats (the one gas)", OFF(gamma)},
    {"physics", "p_inf", KEY_DOUBLE, "0", 0, 1e30, NULL, "stiffened gas: p_inf (pressure; the one gas)", OFF(p_inf)},
    {"physics", "remap", KEY_ENUM, "euler", 0, 0, remaps,
     "euler: remap back to the initial mesh every cycle (second order, conservative); none: pure Lagrange",
     OFF(remap)},
    {"physics", "limiter", KEY_ENUM, "minmod", 0, 0, limiters, "slope limiter of the remap", OFF(limiter)},
    {"physics", "remap_heat", KEY_BOOL, "true", 0, 0, NULL,
     "the kinetic energy the remap dissipates becomes internal energy (total energy conserved); false: dropped, as "
     "MaHyCo",
     OFF(remap_heat)},
    {"physics", "remap_split", KEY_ENUM, "none", 0, 0, splits,
     "none: one swept-face remap to the initial mesh; directional: one per axis, the first axis rotating each cycle "
     "(MaHyCo's sweeps)",
     OFF(remap_split)},
    {"physics", "q1", KEY_DOUBLE, "0.5", 0, 100, NULL, "linear artificial viscosity coefficient", OFF(q1)},
    {"physics", "q2", KEY_DOUBLE, "-1", -1, 100, NULL,
     "quadratic artificial viscosity coefficient; -1: (gamma + 1) / 2 as MaHyCo", OFF(q2)},
    {"physics", "length", KEY_ENUM, "volume", 0, 0, lengths,
     "characteristic length: volume^(1/dim) (MaHyCo), the smallest distance between opposite faces, or "
     "MicroHydro's d1 d2 d3 / (d1 d2 + d1 d3 + d2 d3) of those distances (2D: d1 d2 / (d1 + d2))", OFF(length)},
    {"physics", "dt_init", KEY_DOUBLE, "1e-5", 1e-30, 1e30, NULL, "first time step (time)", OFF(dt_init)},
    {"physics", "dt_min", KEY_DOUBLE, "1e-8", 0, 1e30, NULL,
     "mahyco: a time step below this stops the run (exit 1) after a dump; microhydro: the smallest step, and the "
     "second one (time)", OFF(dt_min)},
    {"physics", "dt_max", KEY_DOUBLE, "1e-2", 1e-30, 1e30, NULL, "largest time step (time)", OFF(dt_max)},
    {"physics", "dt_growth", KEY_DOUBLE, "1.05", 1, 100, NULL, "largest ratio of a time step to the previous one",
     OFF(dt_growth)},
    {"physics", "dt_control", KEY_ENUM, "mahyco", 0, 0, dt_controls,
     "mahyco: dt = cfl min L / (c + |v|), at most dt_growth times the previous step, a step below dt_min stops the "
     "run; microhydro: MicroHydro's, cfl min L / c between (1 - dt_decrease) and dt_growth times the previous step, "
     "cut by density_ratio, clamped to [dt_min, dt_max], its time counting from the second step (as MicroHydro's, "
     "whose first step after dt_init is dt_min)",
     OFF(dt_control)},
    {"physics", "dt_decrease", KEY_DOUBLE, "0.99", 0, 1, NULL,
     "microhydro: a step is at least (1 - dt_decrease) times the previous one", OFF(dt_decrease)},
    {"physics", "density_ratio", KEY_DOUBLE, "0.1", 1e-30, 1e30, NULL,
     "microhydro: when a cycle's largest relative density change (rho1 - rho0) / rho1 exceeds this, the next step "
     "is at most the previous one times density_ratio over that change", OFF(density_ratio)},
    {"physics", "newton_tol", KEY_DOUBLE, "1e-12", 1e-16, 1e-2, NULL,
     "stiffened gas: relative tolerance of the energy update's Newton iteration", OFF(newton_tol)},
    {"physics", "newton_max", KEY_INT, "50", 1, 1000, NULL, "stiffened gas: Newton iteration cap (exit 1 beyond)",
     OFF(newton_max)},

    {"materials", "names", KEY_STRING, "", 0, 0, NULL,
     "materials, names separated by spaces or commas (at most 8, letters, digits, '_' and '-'); empty: one gas, "
     "[physics]'s",
     OFF(mat_names_text)},
    {"materials", "eos", KEY_STRING, "", 0, 0, NULL, "each material's equation of state, perfect or stiffened "
     "(as physics.eos), one per name", OFF(mat_eos_text)},
    {"materials", "gamma", KEY_STRING, "", 0, 0, NULL, "each material's ratio of specific heats, in (1, 100], one per "
     "name", OFF(mat_gamma_text)},
    {"materials", "p_inf", KEY_STRING, "", 0, 0, NULL, "each material's p_inf (pressure, >= 0; 0 for a perfect gas), "
     "one per name; empty: 0 for every material", OFF(mat_pinf_text)},
    {"materials", "threshold", KEY_DOUBLE, "1e-10", 0, 0.5, NULL,
     "a material whose volume fraction in a cell falls below this leaves the cell (its mass is counted as removed, "
     "as MaHyCo's 1e-10)", OFF(mat_threshold)},
    {"materials", "relax", KEY_ENUM, "none", 0, 0, relaxations,
     "none: frozen fractions, each material keeps its own pressure (MaHyCo); pressure: after the Lagrange phase and "
     "the remap, a mixed cell's materials reach one pressure at constant volume and internal energy", OFF(mat_relax)},

    {"parallel", "partitioner", KEY_ENUM, "metis", 0, 0, partitioners,
     "metis: METIS k-way on the cell dual graph (gathered on rank 0); block: geometric blocks of a cartesian mesh; "
     "zoltan: Zoltan's PHG graph partitioner, ptscotch: PT-Scotch (both distributed: no rank holds the whole mesh "
     "or graph)",
     OFF(partitioner)},
    {"parallel", "ghost_layers", KEY_INT, "3", 1, 3, NULL, "layers of ghost cells around each subdomain",
     OFF(ghost_layers)},
    {"parallel", "sync", KEY_ENUM, "persistent", 0, 0, sync_modes,
     "ghost synchronisation: persistent requests built once (MPI_Send_init) or Isend/Irecv every time",
     OFF(sync)},
    {"parallel", "sync_pattern", KEY_ENUM, "mahyco", 0, 0, patterns,
     "hydro cases: synchronise where MaHyCo does (mahyco) or once per cycle, computing on ghost layers "
     "(minimal); same results",
     OFF(sync_pattern)},
    {"parallel", "overlap", KEY_BOOL, "true", 0, 0, NULL,
     "sync_pattern minimal: start each ghost exchange, compute the items that need none of its values, then "
     "finish it and compute the rest (false: every exchange finished where it starts); same results",
     OFF(overlap)},

    {"loadbalance", "period", KEY_INT, "0", 0, BIG, NULL,
     "cycles between load-balance checks (0: never)", OFF(lb_period)},
    {"loadbalance", "threshold", KEY_DOUBLE, "0.1", 0, 1e30, NULL,
     "metis: no rebalance while (max - min) / min of the ranks' compute time since the last check is below this",
     OFF(lb_threshold)},
    {"loadbalance", "decide", KEY_ENUM, "gain", 0, 0, lb_decides,
     "metis, at or above the threshold: rebalance when the time it should save over the next horizon checks exceeds "
     "what a rebalance costs (gain: the last one's seconds, before the first the set-up's partition less its dual "
     "graph, ghosts and plans; where the slowest rank's excess grew cycle by cycle since the last check, the saving "
     "counts it from its fitted value now and grows by its fitted slope for as many cycles ahead as the partition "
     "has served), or always (threshold); either way a partition the phases judge no better is kept out",
     OFF(lb_decide)},
    {"loadbalance", "horizon", KEY_INT, "5", 1, BIG, NULL,
     "decide = gain: the checks over which a rebalance's saving is counted, since the partition it gives serves "
     "until the next rebalance (or the run's end: max_cycles, or final_time at the current step); 1: until the "
     "next check only. Also how long no gain is expected of a partitioner whose partition was kept out",
     OFF(lb_horizon)},
    {"loadbalance", "mode", KEY_ENUM, "metis", 0, 0, lb_modes,
     "metis, zoltan (repartitioning, which weighs the cells moved against the faces cut; with several weights "
     "per cell, RCB, one phase per weight) or ptscotch: "
     "repartition with cell weights by that partitioner; shuffle: move a fraction of every rank's cells to the "
     "next rank each period, whatever the balance (exchange benchmark)",
     OFF(lb_mode)},
    {"loadbalance", "weights", KEY_ENUM, "auto", 0, 0, lb_weightings,
     "total: one weight per cell, its whole cost; phases: the Lagrange phase, the remap with its moving cells "
     "and, where the cost model adds work (cost not uniform, cost_factor above 1), that work (it runs between "
     "the phases), each balanced on its own "
     "(metis; zoltan by RCB, one phase per weight; ptscotch takes their sum; on 128 "
     "ranks and more METIS then balances the total poorly and partitions 3 x slower, and Zoltan's parts "
     "scatter); auto: phases with metis and zoltan on up to 8 ranks, total otherwise",
     OFF(lb_weights)},
    {"loadbalance", "speeds", KEY_ENUM, "equal", 0, 0, lb_speed_kinds,
     "metis, zoltan, ptscotch: give every rank the same share of the weight (equal), or a share in proportion to "
     "its speed (measured: the share of its core the rank got in its compute since the last check, its main "
     "thread's CPU seconds per wall second there, for ranks that share cores with other ranks or jobs; shares "
     "within 5% of each other count as equal; not in the SMPI build); same results",
     OFF(lb_speeds)},
    {"loadbalance", "setup", KEY_BOOL, "true", 0, 0, NULL,
     "with a cost model that adds work, and a [parallel] partitioner that balances one weight per phase "
     "(metis or zoltan with weights = phases, or auto up to 8 ranks): the set-up partition, and a restart's, "
     "weighs the cells by the model over the cycles it is "
     "expected to serve, one weight for their own work and one for the extra work, as a rebalance would "
     "(false, or a partitioner of one weight: the cells are counted, and the first check finds the costly "
     "cells out of balance); same results",
     OFF(lb_setup)},
    {"loadbalance", "shuffle_fraction", KEY_DOUBLE, "0.1", 0, 1, NULL,
     "shuffle: fraction of each rank's cells moved, those of lowest centre x, rounded up", OFF(shuffle_fraction)},
    {"loadbalance", "cost", KEY_ENUM, "uniform", 0, 0, costs,
     "extra work: region, cells in a slab moving along x cost cost_factor times more; shock, cells with q > 0 do",
     OFF(lb_cost)},
    {"loadbalance", "cost_factor", KEY_INT, "4", 1, 10000, NULL,
     "weight of a costly cell: hydro cases make it do this many times a plain cell's work (extra EOS "
     "evaluations, their number measured on the second cycle; results unchanged)",
     OFF(cost_factor)},
    {"loadbalance", "cost_units", KEY_INT, "0", 0, 1000000, NULL,
     "EOS evaluations that cost as much as a plain cell's cycle (0: measured on the second cycle); set it to "
     "compare runs with the same extra work (the second cycle then prints what a costly cell costs beside its "
     "weight)",
     OFF(cost_units)},
    {"loadbalance", "region_width", KEY_DOUBLE, "0.25", 0, 1, NULL, "region: slab width, fraction of the x extent",
     OFF(region_width)},
    {"loadbalance", "region_speed", KEY_DOUBLE, "1", -1e30, 1e30, NULL,
     "region: slab speed, x extents per unit of time", OFF(region_speed)},
    {"loadbalance", "extra_cell_vars", KEY_INT, "0", 0, 100000, NULL,
     "padding: cell variables AdditionalCellVariable<i> that every migration carries (Arcane's decks)",
     OFF(extra_cell_vars)},
    {"loadbalance", "extra_cell_array", KEY_INT, "0", 0, 100000, NULL,
     "padding: width of one cell array variable AdditionalCellArray (0: none)", OFF(extra_cell_array)},

    {"output", "listing_period", KEY_INT, "10", 0, BIG, NULL, "cycles between cycle lines in the listing (0: none)",
     OFF(listing_period)},

    {"output", "checkpoint_period", KEY_INT, "0", -1, BIG, NULL,
     "cycles between HDF5 dumps; 0: one dump at the end; -1: no dumps", OFF(checkpoint_period)},
    {"output", "checkpoint_dir", KEY_STRING, "checkpoints", 0, 0, NULL,
     "directory of the dumps hydro_<cycle>.h5, their .xmf and hydro.xmf, relative to the working directory "
     "(created if missing)",
     OFF(checkpoint_dir)},
    {"output", "checkpoint_keep", KEY_INT, "3", 0, BIG, NULL, "dumps of this run kept on disk, newest first (0: all)",
     OFF(checkpoint_keep)},
    {"output", "walltime", KEY_DOUBLE, "0", 0, 1e9, NULL,
     "seconds of wall time the run may take: before that it dumps and ends (exit 0) for a restart (0: no limit; "
     "SIGTERM does the same at once, SIGUSR1 dumps and goes on)",
     OFF(walltime)},

    {"run", "max_cycles", KEY_INT, "50", 0, BIG, NULL, "last cycle of the time loop (a restart continues to it)",
     OFF(max_cycles)},
    {"run", "memory_limit", KEY_DOUBLE, "0", 0, 1e12, NULL,
     "megabytes each rank may use: a run whose estimated peak exceeds it is refused before it allocates "
     "(exit 2); 0: the node's available memory shared by the ranks on it",
     OFF(memory_limit)},
    {"run", "test_nan_cycle", KEY_INT, "0", 0, BIG, NULL,
     "for tests only: at the start of this cycle the energy of cell test_nan_cell becomes NaN, to check that the run "
     "stops naming the cell and the cycle after a dump (0: never)",
     OFF(test_nan_cycle)},
    {"run", "test_nan_cell", KEY_INT, "0", 0, 1e18, NULL, "for tests only: global id of the cell test_nan_cycle spoils",
     OFF(test_nan_cell)},
    {"run", "test_fatal_cycle", KEY_INT, "0", 0, BIG, NULL,
     "for tests only: at the start of this cycle rank test_fatal_rank alone stops on a fatal error, to check that the "
     "whole job ends at once (0: never)",
     OFF(test_fatal_cycle)},
    {"run", "test_fatal_rank", KEY_INT, "0", 0, BIG, NULL, "for tests only: the rank test_fatal_cycle stops",
     OFF(test_fatal_rank)},
    {"run", "test_speed_rank0", KEY_DOUBLE, "1", 0.01, 100, NULL,
     "for tests only: other than 1, loadbalance.speeds = measured takes this for rank 0's speed and 1 for every "
     "other rank's instead of measuring them (a slower or faster rank 0 on any machine)",
     OFF(test_speed_rank0)},
};
const int deck_nkeys = (int)(sizeof deck_keys / sizeof deck_keys[0]);

enum { ORIGIN_DEFAULT = 0, ORIGIN_CMDLINE = -1 };

struct parse_ctx {
    const char *path;
    const char *text, *cursor; /* reader state */
    int line;                  /* line last handed to inih */
    struct config *cfg;
    int origin[128]; /* per key: line in the deck, ORIGIN_DEFAULT or ORIGIN_CMDLINE */
    char *err;
    size_t errlen;
    int failed;
    int fail_line; /* deck line of the recorded error, 0 when not from a deck line */
    int sections;  /* section headers read */
    unsigned flags;
};

static void fail(struct parse_ctx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void fail(struct parse_ctx *c, const char *fmt, ...)
{
    if (c->failed)
        return;
    c->failed = 1;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(c->err, c->errlen, fmt, ap);
    va_end(ap);
}

static int find_key(const char *section, const char *name)
{
    for (int i = 0; i < deck_nkeys; i++)
        if (!strcmp(deck_keys[i].section, section) && !strcmp(deck_keys[i].name, name))
            return i;
    return -1;
}

static int known_section(const char *s)
{
    for (int i = 0; deck_sections[i]; i++)
        if (!strcmp(deck_sections[i], s))
            return 1;
    return 0;
}

static void keys_of_section(const char *section, char *out, size_t n)
{
    out[0] = '\0';
    for (int i = 0; i < deck_nkeys; i++)
        if (!strcmp(deck_keys[i].section, section)) {
            if (out[0])
                strncat(out, ", ", n - strlen(out) - 1);
            strncat(out, deck_keys[i].name, n - strlen(out) - 1);
        }
}

static void choices_text(const char *const *ch, char *out, size_t n)
{
    out[0] = '\0';
    for (int i = 0; ch[i]; i++) {
        if (i)
            strncat(out, " | ", n - strlen(out) - 1);
        strncat(out, ch[i], n - strlen(out) - 1);
    }
}

/* Convert one value; on error write "reason" into why and return -1. */
static int set_value(struct config *cfg, const struct deck_key *k, const char *v, char *why, size_t n)
{
    char *end;
    void *field = (char *)cfg + k->offset;
    if (!*v && k->type != KEY_STRING) {
        snprintf(why, n, "missing value");
        return -1;
    }
    switch (k->type) {
    case KEY_INT: {
        errno = 0;
        long long x = strtoll(v, &end, 10);
        if (*end || errno) {
            snprintf(why, n, "'%s' is not an integer", v);
            return -1;
        }
        if ((double)x < k->min || (double)x > k->max) {
            snprintf(why, n, "%lld is out of range [%.15g, %.15g]", x, k->min, k->max);
            return -1;
        }
        *(long *)field = (long)x;
        return 0;
    }
    case KEY_DOUBLE: {
        errno = 0;
        double x = strtod(v, &end);
        if (*end || !isfinite(x)) {
            snprintf(why, n, "'%s' is not a finite number", v);
            return -1;
        }
        if (errno == ERANGE) {
            snprintf(why, n, "'%s' is out of the range of a double", v);
            return -1;
        }
        if (x < k->min || x > k->max) {
            snprintf(why, n, "%s is out of range [%.15g, %.15g]", v, k->min, k->max);
            return -1;
        }
        *(double *)field = x;
        return 0;
    }
    case KEY_STRING:
        /* --check prints "key = value" on one line that must read back */
        if (strlen(k->name) + 3 + strlen(v) > DECK_LINE_MAX) {
            snprintf(why, n, "value longer than %zu characters", DECK_LINE_MAX - strlen(k->name) - 3);
            return -1;
        }
        /* ... and reads back the same: inih strips blanks around a value, printing puts a blank
         * before it (so a leading ';' or '#' becomes a comment), a line ends at a newline */
        for (const char *p = v; *p; p++)
            if (((unsigned char)*p < 0x20 && *p != '\t') || *p == 0x7f) {
                snprintf(why, n, "contains a control character (byte %d)", (unsigned char)*p);
                return -1;
            }
        if (*v == ' ' || *v == '\t' || (*v && (v[strlen(v) - 1] == ' ' || v[strlen(v) - 1] == '\t'))) {
            snprintf(why, n, "'%s' starts or ends with a blank", v);
            return -1;
        }
        if (*v == '#' || *v == ';') {
            snprintf(why, n, "'%s' starts with a comment marker ('%c')", v, *v);
            return -1;
        }
        for (const char *p = v; *p; p++)
            if ((*p == '#' || *p == ';') && p > v && (p[-1] == ' ' || p[-1] == '\t')) {
                snprintf(why, n, "'%s' contains a comment marker (' %c')", v, *p);
                return -1;
            }
        strcpy(field, v);
        return 0;
    case KEY_ENUM:
        for (int i = 0; k->choices[i]; i++)
            if (!strcmp(k->choices[i], v)) {
                *(int *)field = i;
                return 0;
            }
        {
            char ch[256];
            choices_text(k->choices, ch, sizeof ch);
            snprintf(why, n, "'%s' is not one of: %s", v, ch);
        }
        return -1;
    case KEY_BOOL: {
        static const char *const yes[] = {"true", "yes", "on", "1"}, *const no[] = {"false", "no", "off", "0"};
        for (int i = 0; i < 4; i++) {
            if (!strcasecmp(v, yes[i])) {
                *(bool *)field = true;
                return 0;
            }
            if (!strcasecmp(v, no[i])) {
                *(bool *)field = false;
                return 0;
            }
        }
        snprintf(why, n, "'%s' is not a boolean (true | false)", v);
        return -1;
    }
    }
    snprintf(why, n, "internal error: unknown key type");
    return -1;
}

/* Line reader for inih: counts lines, strips leading blanks (so that indentation never
 * turns into an inih continuation line), cuts " #" comments, rejects unknown sections and
 * over-long lines. Returns NULL (end of input) once an error has been recorded. */
static char *reader(char *str, int num, void *stream)
{
    struct parse_ctx *c = stream;
    if (c->failed || !*c->cursor)
        return NULL;
    const char *eol = strchr(c->cursor, '\n');
    size_t len = eol ? (size_t)(eol - c->cursor) : strlen(c->cursor);
    c->line++;
    const char *s = c->cursor;
    c->cursor += len + (eol ? 1 : 0);
    while (len && (*s == ' ' || *s == '\t')) {
        s++;
        len--;
    }
    if (len && s[len - 1] == '\r')
        len--;
    if (len && (*s == ';' || *s == '#'))
        len = 0; /* a comment, whatever its length */
    if (len + 2 > (size_t)num) {
        c->fail_line = c->line;
        fail(c, "%s:%d: line longer than %d characters", c->path, c->line, num - 2);
        return NULL;
    }
    memcpy(str, s, len);
    str[len] = '\0';
    for (char *h = strchr(str, '#'); h; h = strchr(h + 1, '#'))
        if (h > str && (h[-1] == ' ' || h[-1] == '\t')) {
            *h = '\0';
            break;
        }
    if (str[0] == '[') {
        char *close = strchr(str, ']');
        c->sections++;
        if (close) {
            char name[256];
            size_t n = (size_t)(close - str - 1);
            if (n >= sizeof name)
                n = sizeof name - 1;
            memcpy(name, str + 1, n);
            name[n] = '\0';
            if (!known_section(name)) {
                c->fail_line = c->line;
                char list[256] = "";
                for (int i = 0; deck_sections[i]; i++) {
                    if (i)
                        strcat(list, ", ");
                    strcat(list, deck_sections[i]);
                }
                fail(c, "%s:%d: unknown section [%s] (known: %s)", c->path, c->line, name, list);
                return NULL;
            }
        }
    }
    strcat(str, "\n");
    return str;
}

static int handler(void *user, const char *section, const char *name, const char *value)
{
    struct parse_ctx *c = user;
    if (c->failed)
        return 0;
    c->fail_line = c->line; /* meaningful only if this call fails */
    if (!*section) {
        fail(c, "%s:%d: key '%s' outside any section", c->path, c->line, name);
        return 0;
    }
    int k = find_key(section, name);
    if (k < 0) {
        char list[512];
        keys_of_section(section, list, sizeof list);
        fail(c, "%s:%d: unknown key '%s' in section [%s] (known: %s)", c->path, c->line, name, section, list);
        return 0;
    }
    if (c->origin[k] > 0) {
        fail(c, "%s:%d: %s.%s: duplicate key (first set at line %d)", c->path, c->line, section, name,
             c->origin[k]);
        return 0;
    }
    char why[300];
    if (set_value(c->cfg, &deck_keys[k], value, why, sizeof why)) {
        fail(c, "%s:%d: %s.%s: %s", c->path, c->line, section, name, why);
        return 0;
    }
    c->origin[k] = c->line;
    return 1;
}

static int apply_override(struct parse_ctx *c, const char *arg)
{
    const char *eq = strchr(arg, '=');
    const char *dot = strchr(arg, '.');
    if (!eq || !dot || dot > eq || dot == arg || dot + 1 == eq) {
        fail(c, "command line: '%s': expected section.key=value", arg);
        return -1;
    }
    char section[64], name[64];
    size_t ns = (size_t)(dot - arg), nk = (size_t)(eq - dot - 1);
    if (ns >= sizeof section || nk >= sizeof name) {
        fail(c, "command line: '%s': unknown key", arg);
        return -1;
    }
    memcpy(section, arg, ns);
    section[ns] = '\0';
    memcpy(name, dot + 1, nk);
    name[nk] = '\0';
    int k = find_key(section, name);
    if (k < 0) {
        fail(c, "command line: %s.%s: unknown key", section, name);
        return -1;
    }
    if ((c->flags & DECK_RESTART) && !deck_run_control(section)) {
        fail(c, "command line: %s.%s: a restart continues the dumped run: only [run], [output], [parallel] and "
             "[loadbalance] keys may change", section, name);
        return -1;
    }
    char why[300];
    if (set_value(c->cfg, &deck_keys[k], eq + 1, why, sizeof why)) {
        fail(c, "command line: %s.%s: %s", section, name, why);
        return -1;
    }
    c->origin[k] = ORIGIN_CMDLINE;
    return 0;
}

/* Report a cross-key problem where the user set key k. */
static void fail_at(struct parse_ctx *c, const char *section, const char *name, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static void fail_at(struct parse_ctx *c, const char *section, const char *name, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    int o = c->origin[find_key(section, name)];
    if (o == ORIGIN_CMDLINE)
        fail(c, "command line: %s.%s: %s", section, name, msg);
    else if (o > 0)
        fail(c, "%s:%d: %s.%s: %s", c->path, o, section, name, msg);
    else
        fail(c, "%s: %s.%s: %s", c->path, section, name, msg);
}

static void resolve_mesh_file(struct parse_ctx *c)
{
    struct config *cfg = c->cfg;
    char path[2 * DECK_STRING_MAX + 2];
    if (cfg->mesh_file[0] == '/' || !strchr(c->path, '/')) {
        snprintf(path, sizeof path, "%s", cfg->mesh_file);
    } else {
        const char *slash = strrchr(c->path, '/');
        snprintf(path, sizeof path, "%.*s/%s", (int)(slash - c->path), c->path, cfg->mesh_file);
    }
    /* Overrides are relative to the current directory, as users type them. */
    if (c->origin[find_key("mesh", "file")] == ORIGIN_CMDLINE)
        snprintf(path, sizeof path, "%s", cfg->mesh_file);
    FILE *f = fopen(path, "r");
    if (!f) {
        fail_at(c, "mesh", "file", "cannot open '%s': %s", path, strerror(errno));
        return;
    }
    fclose(f);
    struct stat st;
    if (stat(path, &st) || !S_ISREG(st.st_mode)) {
        fail_at(c, "mesh", "file", "'%s' is not a regular file", path);
        return;
    }
    char *real = realpath(path, NULL);
    char why[300];
    if (!real || set_value(cfg, &deck_keys[find_key("mesh", "file")], real, why, sizeof why)) {
        fail_at(c, "mesh", "file", "cannot use the resolved path '%s': %s", real ? real : path,
                real ? why : strerror(errno));
        free(real);
        return;
    }
    free(real);
}

/* mesh.kind = gmsh: the file resolved and, when mesh.dim is not given, the dimension read from
 * its elements (a dimension given must match the file: gmsh_read checks it). */
static void gmsh_file(struct parse_ctx *c)
{
    struct config *cfg = c->cfg;
    if (!cfg->mesh_file[0]) {
        fail_at(c, "mesh", "kind", "gmsh needs mesh.file");
        return;
    }
    if (!(c->flags & DECK_CHECK_FILES))
        return;
    resolve_mesh_file(c);
    int dim;
    int64_t ncells, nnodes;
    if (!c->failed && c->origin[find_key("mesh", "dim")] == ORIGIN_DEFAULT &&
        gmsh_scan(cfg->mesh_file, &dim, &ncells, &nnodes) == 0)
        cfg->dim = dim;
}

/* The words of a list key (separated by blanks or commas: an override without blanks passes
 * launchers that split arguments, as smpirun), at most max of them, each shorter than 32
 * bytes; their number, or -1 (reported at the key) when there are too many or one is too long. */
static int words_of(struct parse_ctx *c, const char *section, const char *name, const char *text,
                    char (*w)[32], int max)
{
    int n = 0;
    for (const char *p = text;;) {
        p += strspn(p, " \t,");
        if (!*p)
            return n;
        size_t len = strcspn(p, " \t,");
        if (n == max) {
            fail_at(c, section, name, "more than %d entries", max);
            return -1;
        }
        if (len >= 32) {
            fail_at(c, section, name, "'%.*s' is longer than 31 bytes", (int)len, p);
            return -1;
        }
        memcpy(w[n], p, len);
        w[n++][len] = '\0';
        p += len;
    }
}

/* The words of list key materials.NAME, one per declared material: their count, or -1 (reported). */
static int material_list(struct parse_ctx *c, const char *name, const char *text, int nmat, char (*w)[32])
{
    int n = words_of(c, "materials", name, text, w, HYDRO_MAT_MAX);
    if (n >= 0 && n != nmat) {
        fail_at(c, "materials", name, "%d value%s for %d materials (one per name of materials.names)", n,
                n == 1 ? "" : "s", nmat);
        return -1;
    }
    return n;
}

/* materials.NAME: nmat numbers within the bounds of physics.NAME, the one gas's key (into the
 * field at offset in each declaration). */
static void number_list(struct parse_ctx *c, const char *name, const char *text, int nmat, size_t offset)
{
    char w[HYDRO_MAT_MAX][32];
    const struct deck_key *k1 = &deck_keys[find_key("physics", name)];
    if (material_list(c, name, text, nmat, w) < 0)
        return;
    for (int k = 0; k < nmat && !c->failed; k++) {
        char *end;
        double x = strtod(w[k], &end);
        if (*end || !isfinite(x) || x < k1->min || x > k1->max)
            fail_at(c, "materials", name, "'%s' (material %s) is not a number in [%g, %g]", w[k], c->cfg->mat[k].name,
                    k1->min, k1->max);
        else
            *(double *)((char *)&c->cfg->mat[k] + offset) = x;
    }
}

/* case.materials: one declared material per region of the case, every material in a region. */
static void regions(struct parse_ctx *c, char (*names)[32], int nmat)
{
    struct config *cfg = c->cfg;
    const char *const *rname;
    int nr = case_regions((enum hydro_case)(cfg->case_name - CASE_HYDRO), &rname);
    char w[HYDRO_MAT_MAX][32];
    int n = words_of(c, "case", "materials", cfg->region_text, w, HYDRO_MAT_MAX);
    if (n < 0)
        return;
    if (n < nr) {
        fail_at(c, "case", "materials", "the case's region '%s' has no material (%s has %d region%s: give one "
                "material name for each)", rname[n], case_names[cfg->case_name], nr, nr == 1 ? "" : "s");
        return;
    }
    if (n > nr) {
        fail_at(c, "case", "materials", "%d materials for the %d region%s of %s", n, nr, nr == 1 ? "" : "s",
                case_names[cfg->case_name]);
        return;
    }
    unsigned used = 0;
    for (int r = 0; r < nr; r++) {
        int k = 0;
        while (k < nmat && strcmp(w[r], names[k]))
            k++;
        if (k == nmat) {
            fail_at(c, "case", "materials", "unknown material '%s' for region '%s' (materials.names: %s)", w[r],
                    rname[r], cfg->mat_names_text);
            return;
        }
        cfg->region_mat[r] = k;
        used |= 1u << k;
    }
    for (int k = 0; k < nmat; k++)
        if (!(used & (1u << k))) {
            fail_at(c, "materials", "names", "material '%s' is in no region of the case (case.materials: %s)",
                    names[k], cfg->region_text);
            return;
        }
}

static void value_text(const struct config *cfg, const struct deck_key *k, char *out, size_t n);
/* Whether key k holds its default value (as deck_print would write it). */
static int at_default(const struct config *cfg, int k)
{
    char v[DECK_STRING_MAX];
    value_text(cfg, &deck_keys[k], v, sizeof v);
    return strcmp(v, deck_keys[k].def) == 0;
}

/* [materials] and case.materials: the declared materials, and the material of each region. */
static void materials(struct parse_ctx *c)
{
    struct config *cfg = c->cfg;
    char w[HYDRO_MAT_MAX][32];
    int n = words_of(c, "materials", "names", cfg->mat_names_text, w, HYDRO_MAT_MAX);
    static const char *const per_material[] = {"eos", "gamma", "p_inf"};
    /* by value, not by origin: a dump's deck (deck_print) gives every key */
    if (n == 0) { /* one gas, [physics]'s */
        for (int i = 0; i < 3; i++)
            if (!at_default(cfg, find_key("materials", per_material[i])))
                fail_at(c, "materials", per_material[i], "needs materials.names");
        if (cfg->region_text[0])
            fail_at(c, "case", "materials", "names materials, but materials.names declares none");
        cfg->nmat = 1;
        cfg->mat[0] = (struct material_decl){"gas", cfg->eos, cfg->gamma, cfg->p_inf};
        return;
    }
    if (n < 0)
        return;
    for (int i = 0; i < 3; i++)
        if (!at_default(cfg, find_key("physics", per_material[i])))
            fail_at(c, "physics", per_material[i], "materials are declared: give each one's %s in materials.%s",
                    per_material[i], per_material[i]);
    if (cfg->case_name == CASE_SYNC_ONLY)
        fail_at(c, "materials", "names", "sync_only has no materials");
    cfg->nmat = n;
    for (int k = 0; k < n; k++) {
        if (strspn(w[k], "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-") != strlen(w[k]))
            fail_at(c, "materials", "names", "'%s': a name is letters, digits, '_' and '-'", w[k]);
        for (int j = 0; j < k; j++)
            if (!strcmp(w[j], w[k]))
                fail_at(c, "materials", "names", "'%s' is declared twice", w[k]);
        snprintf(cfg->mat[k].name, sizeof cfg->mat[k].name, "%s", w[k]);
    }
    char e[HYDRO_MAT_MAX][32];
    material_list(c, "eos", cfg->mat_eos_text, n, e);
    for (int k = 0; k < n && !c->failed; k++) {
        int kind = -1;
        for (int i = 0; eos_kinds[i]; i++)
            kind = strcmp(e[k], eos_kinds[i]) ? kind : i;
        if (kind < 0)
            fail_at(c, "materials", "eos", "'%s' (material %s) is not perfect or stiffened", e[k], w[k]);
        cfg->mat[k].eos = (enum eos_kind)kind;
    }
    number_list(c, "gamma", cfg->mat_gamma_text, n, offsetof(struct material_decl, gamma));
    if (cfg->mat_pinf_text[0])
        number_list(c, "p_inf", cfg->mat_pinf_text, n, offsetof(struct material_decl, p_inf));
    for (int k = 0; k < n && !c->failed; k++)
        if (cfg->mat[k].eos == EOS_PERFECT && cfg->mat[k].p_inf != 0)
            fail_at(c, "materials", "p_inf", "material %s is a perfect gas: its p_inf is 0", w[k]);
    if (!c->failed && cfg->case_name != CASE_SYNC_ONLY)
        regions(c, w, n);
}

static void validate(struct parse_ctx *c)
{
    struct config *cfg = c->cfg;
    if (cfg->mesh_kind == MESH_GMSH)
        gmsh_file(c);
    materials(c);

    if (cfg->case_name != CASE_SYNC_ONLY && cfg->remap == REMAP_EULER && cfg->ghost_layers < 2)
        fail_at(c, "parallel", "ghost_layers", "the Euler remap needs at least 2 ghost layers (its fluxes use the "
                "neighbours' slopes)");
    if (cfg->case_name != CASE_SYNC_ONLY && cfg->sync_pattern == PATTERN_MINIMAL && cfg->ghost_layers < 3)
        fail_at(c, "parallel", "sync_pattern", "minimal computes on the ghost layers and needs 3 of them");
    if (cfg->case_name != CASE_SYNC_ONLY && cfg->dt_min >= cfg->dt_max)
        fail_at(c, "physics", "dt_min", "must be smaller than physics.dt_max");
    if (cfg->case_name != CASE_SYNC_ONLY && cfg->dt_control == DT_MICROHYDRO && cfg->dt_min <= 0)
        fail_at(c, "physics", "dt_min", "must be > 0 with physics.dt_control = microhydro (its second step is dt_min: "
                "0 would never advance the time)");
    if (cfg->case_name != CASE_SYNC_ONLY && cfg->dt_init > cfg->dt_max)
        fail_at(c, "physics", "dt_init", "must not exceed physics.dt_max");
    if (cfg->case_name == CASE_HYDRO + HCASE_SOD && cfg->direction == 2 && cfg->dim == 2)
        fail_at(c, "case", "direction", "z needs mesh.dim = 3");
    if (cfg->partitioner != PART_BLOCK && !partitioner_named(partitioners[cfg->partitioner]))
        fail_at(c, "parallel", "partitioner", "this build has no %s (the SMPI build has metis and block, and zoltan "
                "when built with make smpi-zoltan)",
                partitioners[cfg->partitioner]);
    if (cfg->lb_period > 0 && cfg->lb_mode != LB_SHUFFLE && !partitioner_named(lb_modes[cfg->lb_mode]))
        fail_at(c, "loadbalance", "mode", "this build has no %s (the SMPI build has metis and shuffle, and "
                "zoltan when built with make smpi-zoltan)",
                lb_modes[cfg->lb_mode]);
#ifdef HYDRO_SMPI /* its clocks are the simulated one: no rank's share of a core to measure */
    if (cfg->lb_speeds == LB_SPEEDS_MEASURED)
        fail_at(c, "loadbalance", "speeds", "measured needs CPU clocks, which the SMPI build does not have");
#endif
    if (cfg->mesh_kind == MESH_GMSH) {
        if (cfg->perturb > 0)
            fail_at(c, "mesh", "perturb", "applies to mesh.kind = cartesian only");
        if (cfg->partitioner == PART_BLOCK)
            fail_at(c, "parallel", "partitioner", "block needs mesh.kind = cartesian");
    } else {
        double cells = (double)cfg->nx * (double)cfg->ny * (cfg->dim == 3 ? (double)cfg->nz : 1.0);
        if (cells > 1e16) /* face ids are cell ids times 6, sort keys keep 59 bits */
            fail_at(c, "mesh", "nx", "nx * ny * nz = %.3g cells, more than the 1e16 hydro numbers", cells);
        if (cfg->partitioner != PART_BLOCK && cells > INT32_MAX) {
            /* blame the partitioner if the user chose it, else the mesh size (the dual graph's
             * vertex numbers are 32-bit, whatever the backend) */
            int chosen = c->origin[find_key("parallel", "partitioner")] != ORIGIN_DEFAULT;
            fail_at(c, chosen ? "parallel" : "mesh", chosen ? "partitioner" : "nx",
                    "%s handles at most %d cells (this mesh has %.3g): use parallel.partitioner = block",
                    partitioners[cfg->partitioner], INT32_MAX, cells);
        }
    }
}

int deck_parse(const char *text, const char *path, int noverride, char *const *overrides, unsigned flags,
               struct config *cfg, char *err, size_t errlen)
{
    struct parse_ctx c = {.path = path,
                          .text = text,
                          .cursor = text,
                          .cfg = cfg,
                          .err = err,
                          .errlen = errlen,
                          .flags = flags};
    memset(cfg, 0, sizeof *cfg);
    if (deck_nkeys > (int)(sizeof c.origin / sizeof c.origin[0])) {
        fail(&c, "internal error: schema larger than the parser's table");
        return -1;
    }
    for (int k = 0; k < deck_nkeys; k++) {
        char why[300];
        if (set_value(cfg, &deck_keys[k], deck_keys[k].def, why, sizeof why)) {
            fail(&c, "internal error: default of %s.%s: %s", deck_keys[k].section, deck_keys[k].name, why);
            return -1;
        }
    }
    int rc = ini_parse_stream(reader, &c, handler, &c);
    if (rc > 0 && (!c.failed || rc < c.fail_line)) { /* inih's syntax error came first */
        c.failed = 0;
        fail(&c, "%s:%d: syntax error: expected [section] or key = value", path, rc);
    }
    if (!c.failed && rc < 0)
        fail(&c, "%s: cannot parse (inih error %d)", path, rc);
    if (!c.failed && (flags & DECK_FILE) && !c.sections)
        fail(&c, "%s: empty deck (no section)", path);
    for (int i = 0; i < noverride && !c.failed; i++)
        apply_override(&c, overrides[i]);
    if (!c.failed)
        validate(&c);
    return c.failed ? -1 : 0;
}

char *deck_read_file(const char *path, char *err, size_t errlen)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(err, errlen, "%s: cannot open deck: %s", path, strerror(errno));
        return NULL;
    }
    struct stat st;
    if (fstat(fileno(f), &st) || !S_ISREG(st.st_mode) || st.st_size > DECK_FILE_MAX) {
        snprintf(err, errlen, "%s: not a deck: %s", path,
                 S_ISREG(st.st_mode) ? "larger than 1 MiB" : "not a regular file");
        fclose(f);
        return NULL;
    }
    size_t cap = 4096, len = 0;
    char *s = malloc(cap);
    for (;;) {
        if (!s) {
            fclose(f);
            snprintf(err, errlen, "%s: out of memory reading the deck", path);
            return NULL;
        }
        size_t n = fread(s + len, 1, cap - len - 1, f);
        len += n;
        if (n == 0)
            break;
        if (len + 1 == cap) {
            cap *= 2;
            char *t = realloc(s, cap);
            if (!t)
                free(s);
            s = t;
        }
    }
    int bad = ferror(f);
    fclose(f);
    if (bad) {
        free(s);
        snprintf(err, errlen, "%s: cannot read deck: %s", path, strerror(errno));
        return NULL;
    }
    if (memchr(s, '\0', len)) {
        free(s);
        snprintf(err, errlen, "%s: not a text file (contains NUL bytes)", path);
        return NULL;
    }
    s[len] = '\0';
    return s;
}

/* Shortest text that reads back as exactly the same double. */
static void format_double(double x, char *out, size_t n)
{
    for (int prec = 6; prec <= 17; prec++) {
        snprintf(out, n, "%.*g", prec, x);
        if (strtod(out, NULL) == x)
            return;
    }
}

static void value_text(const struct config *cfg, const struct deck_key *k, char *out, size_t n)
{
    const void *field = (const char *)cfg + k->offset;
    switch (k->type) {
    case KEY_INT:
        snprintf(out, n, "%ld", *(const long *)field);
        break;
    case KEY_DOUBLE:
        format_double(*(const double *)field, out, n);
        break;
    case KEY_STRING:
        snprintf(out, n, "%s", (const char *)field);
        break;
    case KEY_ENUM:
        snprintf(out, n, "%s", k->choices[*(const int *)field]);
        break;
    case KEY_BOOL:
        snprintf(out, n, "%s", *(const bool *)field ? "true" : "false");
        break;
    }
}

void deck_print(const struct config *cfg, FILE *out)
{
    fprintf(out, "; hydro deck, fully resolved\n");
    for (int s = 0; deck_sections[s]; s++) {
        fprintf(out, "\n[%s]\n", deck_sections[s]);
        for (int k = 0; k < deck_nkeys; k++) {
            if (strcmp(deck_keys[k].section, deck_sections[s]))
                continue;
            char v[DECK_STRING_MAX + 32];
            value_text(cfg, &deck_keys[k], v, sizeof v);
            fprintf(out, "%s = %s\n", deck_keys[k].name, v);
        }
    }
}

char *deck_to_text(const struct config *cfg)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    if (!f)
        return NULL;
    deck_print(cfg, f);
    fclose(f);
    return text;
}

static void range_text(const struct deck_key *k, char *out, size_t n)
{
    switch (k->type) {
    case KEY_INT:
    case KEY_DOUBLE: /* both bounds, as set_value enforces and reports them */
        snprintf(out, n, "%.15g .. %.15g", k->min, k->max);
        break;
    case KEY_ENUM:
        choices_text(k->choices, out, n);
        break;
    case KEY_BOOL:
        snprintf(out, n, "true | false");
        break;
    case KEY_STRING:
        snprintf(out, n, "text");
        break;
    }
}

static const char *type_name(enum key_type t)
{
    static const char *const names[] = {"int", "double", "string", "enum", "bool"};
    return names[t];
}

/* A Markdown table cell: a bare '|' (an enum list, |v|) would end it. */
static void md_cell(FILE *out, const char *text)
{
    for (const char *p = text; *p; p++) {
        if (*p == '|')
            fputc('\\', out);
        fputc(*p, out);
    }
}

void deck_print_reference(FILE *out, bool markdown)
{
    for (int s = 0; deck_sections[s]; s++) {
        if (markdown)
            fprintf(out, "\n#### `[%s]`\n\n| key | type | default | allowed | meaning |\n|---|---|---|---|---|\n",
                    deck_sections[s]);
        else
            fprintf(out, "\n[%s]\n", deck_sections[s]);
        for (int k = 0; k < deck_nkeys; k++) {
            const struct deck_key *d = &deck_keys[k];
            if (strcmp(d->section, deck_sections[s]))
                continue;
            char range[256];
            range_text(d, range, sizeof range);
            if (markdown) {
                fprintf(out, "| `%s` | %s | %s%s%s | ", d->name, type_name(d->type), d->def[0] ? "`" : "",
                        d->def[0] ? d->def : "(empty)", d->def[0] ? "`" : "");
                md_cell(out, range);
                fputs(" | ", out);
                md_cell(out, d->help);
                fputs(" |\n", out);
            } else
                fprintf(out, "  %-15s %-6s default %-10s (%s)\n      %s\n", d->name, type_name(d->type),
                        d->def[0] ? d->def : "\"\"", range, d->help);
        }
    }
}

bool deck_run_control(const char *section)
{
    return !strcmp(section, "run") || !strcmp(section, "output") || !strcmp(section, "parallel") ||
           !strcmp(section, "loadbalance");
}

const char *deck_enum_name(const char *section, const char *name, int value)
{
    int k = find_key(section, name);
    if (k < 0 || deck_keys[k].type != KEY_ENUM)
        return "?";
    return deck_keys[k].choices[value];
}
