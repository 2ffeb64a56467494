/* Input deck: one schema table drives parsing, validation, --help, --check and the README reference. */
#ifndef HYDRO_DECK_H
#define HYDRO_DECK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "cost.h"
#include "hydro.h"

#define DECK_STRING_MAX 256
#define DECK_LINE_MAX 198 /* longest line libinih reads (its INI_MAX_LINE is 200) */
#define DECK_FILE_MAX (1L << 20)

enum mesh_kind { MESH_CARTESIAN, MESH_GMSH };
/* [case] name: sync_only, then the hydro cases in physics' order (enum hydro_case, cases.h):
 * the hydro case of a deck is case_name - CASE_HYDRO. The deck's other physics choices are the
 * physics enums themselves (eos_kind, limiter_kind, length_kind, cost_kind): deck.c names
 * their values by the enum constants. */
enum case_name { CASE_SYNC_ONLY, CASE_HYDRO };
enum sync_pattern { PATTERN_MAHYCO, PATTERN_MINIMAL };
enum remap_choice { REMAP_NONE, REMAP_EULER };
/* loadbalance.mode: a graph partitioner (the same names as [parallel] partitioner's) or shuffle */
enum lb_mode { LB_METIS, LB_ZOLTAN, LB_PTSCOTCH, LB_SHUFFLE };
enum lb_decide { LB_DECIDE_GAIN, LB_DECIDE_THRESHOLD };
enum lb_weights { LB_WEIGHTS_TOTAL, LB_WEIGHTS_PHASES, LB_WEIGHTS_AUTO };
enum lb_speeds { LB_SPEEDS_EQUAL, LB_SPEEDS_MEASURED };
enum partitioner_choice { PART_METIS, PART_BLOCK, PART_ZOLTAN, PART_PTSCOTCH };
enum sync_mode { SYNC_PERSISTENT, SYNC_BASIC };

/* A material of the deck: [materials] names, eos, gamma and p_inf, one entry per name. */
struct material_decl {
    char name[32];
    enum eos_kind eos;
    double gamma, p_inf; /* p_inf: pressure */
};

/* The fully resolved, validated run configuration. Read-only after deck_load. */
struct config {
    /* [mesh] */
    int mesh_kind;
    long dim;
    long nx, ny, nz;
    double x0, y0, z0; /* origin of the box, length units */
    double lx, ly, lz; /* box lengths */
    double perturb;    /* fraction of the local cell size */
    long seed;
    char mesh_file[DECK_STRING_MAX];
    /* [case] */
    int case_name;
    long cell_vars, node_vars, components;
    bool grouped, verify;
    int direction;            /* sod: 0 x, 1 y, 2 z */
    double interface;         /* sod: position of the interface along direction */
    double sedov_energy;      /* sedov: energy in the domain; 0: the value giving radius 1 at t = 1 */
    char region_text[DECK_STRING_MAX];         /* case.materials as given */
    int region_mat[HYDRO_MAT_MAX];             /* the material of each of the case's regions */
    /* [physics] */
    double final_time, cfl, gamma, p_inf, q1, q2;
    double dt_init, dt_min, dt_max, dt_growth, newton_tol;
    long newton_max;
    enum eos_kind eos;
    enum limiter_kind limiter;
    enum length_kind length;
    enum dt_control dt_control;
    double dt_decrease, density_ratio;
    int remap, remap_split;
    bool remap_heat;
    /* [materials]: the lists as given, and what they declare (nmat 1 and mat[0] the [physics]
     * gas when no name is given) */
    char mat_names_text[DECK_STRING_MAX], mat_eos_text[DECK_STRING_MAX];
    char mat_gamma_text[DECK_STRING_MAX], mat_pinf_text[DECK_STRING_MAX];
    int nmat;
    struct material_decl mat[HYDRO_MAT_MAX];
    double mat_threshold; /* a material whose volume fraction falls below this leaves the cell */
    int mat_relax;        /* 0 none (MaHyCo), 1 pressure */
    /* [parallel] */
    int partitioner;
    long ghost_layers;
    int sync;
    int sync_pattern;
    int overlap; /* minimal: interior work while ghost exchanges are in flight */
    /* [loadbalance] */
    long lb_period;
    long lb_horizon; /* checks over which a rebalance's saving is counted */
    double lb_threshold, shuffle_fraction, region_width, region_speed;
    int lb_mode;
    int lb_decide;
    int lb_weights;
    int lb_speeds;
    int lb_setup; /* the set-up partition weighs the cells by the cost model */
    enum cost_kind lb_cost;
    long cost_factor, cost_units, extra_cell_vars, extra_cell_array;
    /* [output] */
    long listing_period;
    long checkpoint_period; /* cycles; 0: at the end only; -1: never */
    char checkpoint_dir[DECK_STRING_MAX];
    long checkpoint_keep; /* 0: keep all */
    double walltime;      /* seconds; 0: no limit */
    /* [run] */
    long max_cycles;
    double memory_limit; /* MB a rank may use; 0: the node's available memory shared by its ranks */
    long test_nan_cycle, test_nan_cell;     /* tests only: NaN injected into a cell's energy */
    long test_fatal_cycle, test_fatal_rank; /* tests only: one rank stops on a fatal error */
    double test_speed_rank0; /* tests only: other than 1, rank 0's speed (the others' 1), not measured */
};

enum key_type { KEY_INT, KEY_DOUBLE, KEY_STRING, KEY_ENUM, KEY_BOOL };

struct deck_key {
    const char *section, *name;
    enum key_type type;
    const char *def;            /* default, written as in a deck */
    double min, max;            /* KEY_INT and KEY_DOUBLE */
    const char *const *choices; /* KEY_ENUM, NULL-terminated */
    const char *help;
    size_t offset; /* of the field in struct config */
};

/* The schema: deck_keys[0 .. deck_nkeys-1]. */
extern const struct deck_key deck_keys[];
extern const int deck_nkeys;
extern const char *const deck_sections[]; /* NULL-terminated, in listing order */

enum deck_flags {
    DECK_CHECK_FILES = 1u << 0, /* files named by the deck must open; their paths become absolute */
    DECK_RESTART = 1u << 1,     /* overrides may change run-control keys only (see deck_run_control) */
    DECK_FILE = 1u << 2         /* the text is a deck file: with no section at all it is refused (an empty
                                 * or comments-only file would run every default) */
};

/* Parse deck text (path used in messages and to resolve relative mesh files), apply
 * "section.key=value" overrides, validate. On error returns -1 and writes one line
 * ("DECK:LINE: message" or "command line: section.key: message") into err. */
int deck_parse(const char *text, const char *path, int noverride, char *const *overrides, unsigned flags,
               struct config *cfg, char *err, size_t errlen);

/* Keys a restart may change: they steer the run ([run], [output]) or its parallel layout
 * ([parallel], [loadbalance]), never what is computed, so a restarted run ends as the
 * uninterrupted one. */
bool deck_run_control(const char *section);

/* Read a whole file into a malloc'd string; NULL and a message in err on failure. */
char *deck_read_file(const char *path, char *err, size_t errlen);

/* Resolved deck as INI text that deck_parse accepts back unchanged. */
void deck_print(const struct config *cfg, FILE *out);
char *deck_to_text(const struct config *cfg); /* malloc'd */

/* Reference of every key: plain text for --help, Markdown for the README. */
void deck_print_reference(FILE *out, bool markdown);

/* Name of an enum value of a key, e.g. deck_enum_name("mesh", "kind", cfg->mesh_kind). */
const char *deck_enum_name(const char *section, const char *name, int value);

#endif
