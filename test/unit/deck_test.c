/* Unit tests of the deck schema: every rule and every bad-input class, overrides, round trip. */
#include <stdlib.h>
#include <string.h>

#include "cases.h"
#include "deck.h"
#include "tap.h"

static struct tap t;

/* Parse text with overrides; expect failure with exactly want (or success when want is NULL). */
static void expect(const char *text, int nov, char *const *ov, const char *want, const char *what)
{
    struct config cfg;
    char err[1024] = "";
    int rc = deck_parse(text, "d.ini", nov, ov, DECK_CHECK_FILES, &cfg, err, sizeof err);
    if (!want)
        tap_ok(&t, rc == 0, "%s: accepted%s%s", what, rc ? ", but: " : "", rc ? err : "");
    else
        tap_ok(&t, rc == -1 && !strcmp(err, want), "%s: '%s' (got rc %d: '%s')", what, want, rc, err);
}

static void expect_deck(const char *text, const char *want, const char *what) { expect(text, 0, NULL, want, what); }

int main(void)
{
    struct config cfg;
    char err[1024];

    /* defaults come from the table */
    tap_ok(&t, deck_parse("", "d.ini", 0, NULL, DECK_CHECK_FILES, &cfg, err, sizeof err) == 0, "empty deck takes every default");
    tap_ok(&t, cfg.mesh_kind == MESH_CARTESIAN && cfg.dim == 3 && cfg.nx == 100 && cfg.ghost_layers == 3 &&
               cfg.partitioner == PART_METIS && cfg.sync == SYNC_PERSISTENT && cfg.max_cycles == 50 &&
               cfg.verify && !cfg.grouped && cfg.ly == 0.1,
           "defaults: cartesian 3D, nx 100, 3 ghost layers, metis, persistent, 50 cycles");

    /* types and values */
    expect_deck("[mesh]\nnx = 12\nlx = 2.5e-1\nkind = cartesian\n[case]\ngrouped = yes\n", NULL, "good values");
    deck_parse("[mesh]\nnx = 12\nlx = 2.5e-1\n[case]\ngrouped = ON\nverify = 0\n", "d.ini", 0, NULL, DECK_CHECK_FILES, &cfg, err,
               sizeof err);
    tap_ok(&t, cfg.nx == 12 && cfg.lx == 0.25 && cfg.grouped && !cfg.verify, "values land in the config");
    expect_deck("[mesh]\nnx = abc\n", "d.ini:2: mesh.nx: 'abc' is not an integer", "int: not a number");
    expect_deck("[mesh]\nnx = 1.5\n", "d.ini:2: mesh.nx: '1.5' is not an integer", "int: fraction");
    expect_deck("[mesh]\nnx = 0\n", "d.ini:2: mesh.nx: 0 is out of range [1, 1000000000]", "int: below min");
    expect_deck("[parallel]\nghost_layers = 4\n", "d.ini:2: parallel.ghost_layers: 4 is out of range [1, 3]",
                "int: above max");
    expect_deck("[mesh]\nnx = 99999999999999999999\n", "d.ini:2: mesh.nx: '99999999999999999999' is not an integer",
                "int: overflow");
    expect_deck("[mesh]\nlx = 1x\n", "d.ini:2: mesh.lx: '1x' is not a finite number", "double: junk");
    expect_deck("[mesh]\nlx = nan\n", "d.ini:2: mesh.lx: 'nan' is not a finite number", "double: nan");
    expect_deck("[mesh]\nlx = 1e999\n", "d.ini:2: mesh.lx: '1e999' is not a finite number", "double: overflow");
    expect_deck("[mesh]\nlx = -1\n", "d.ini:2: mesh.lx: -1 is out of range [1e-30, 1e+30]", "double: below min");
    expect_deck("[mesh]\nperturb = 0.35\n", "d.ini:2: mesh.perturb: 0.35 is out of range [0, 0.3]", "double: above max");
    expect_deck("[mesh]\nlx = 1e-400\n", "d.ini:2: mesh.lx: '1e-400' is out of the range of a double", "double: underflow");
    expect_deck("[mesh]\nkind = cube\n", "d.ini:2: mesh.kind: 'cube' is not one of: cartesian | gmsh", "enum: unknown");
    expect_deck("[mesh]\nkind = Cartesian\n", "d.ini:2: mesh.kind: 'Cartesian' is not one of: cartesian | gmsh",
                "enum: case matters");
    expect_deck("[case]\ngrouped = maybe\n", "d.ini:2: case.grouped: 'maybe' is not a boolean (true | false)",
                "bool: junk");
    expect_deck("[mesh]\nnx =\n", "d.ini:2: mesh.nx: missing value", "missing value");
    {
        char long_value[600] = "[mesh]\nkind = gmsh\nfile = ";
        size_t n = strlen(long_value);
        memset(long_value + n, 'a', 250);
        strcpy(long_value + n + 250, "\n");
        expect_deck(long_value, "d.ini:3: line longer than 198 characters", "line too long") ;
    }

    /* structure */
    expect_deck("nx = 3\n", "d.ini:1: key 'nx' outside any section", "key outside any section");
    expect_deck("[mesh]\nnx = 3\n[physic]\ncfl = 1\n", "d.ini:3: unknown section [physic] (known: mesh, case, physics, materials, parallel, "
                "loadbalance, output, run)", "unknown section");
    expect_deck("[mesh]\nnxx = 3\n", "d.ini:2: unknown key 'nxx' in section [mesh] (known: kind, dim, nx, ny, nz, x0, "
                "y0, z0, lx, ly, lz, perturb, seed, file)", "unknown key");
    expect_deck("[mesh]\nnx = 3\n\nnx = 4\n", "d.ini:4: mesh.nx: duplicate key (first set at line 2)", "duplicate key");
    expect_deck("[mesh]\nnx = 3\n[run]\n[mesh]\nnx = 5\n", "d.ini:5: mesh.nx: duplicate key (first set at line 2)",
                "duplicate key in a repeated section");
    expect_deck("[mesh]\nnx 3\n", "d.ini:2: syntax error: expected [section] or key = value", "syntax: no '='");
    expect_deck("[mesh\nnx = 3\n", "d.ini:1: syntax error: expected [section] or key = value", "syntax: open section");
    expect_deck("[mesh]\nnx = abc\nny = 0\n", "d.ini:2: mesh.nx: 'abc' is not an integer", "first error wins");
    {
        char long_comment[600] = "; ";
        memset(long_comment + 2, 'c', 400);
        strcpy(long_comment + 402, "\n[mesh]\nnx = 3\n");
        expect_deck(long_comment, NULL, "a comment line of any length");
    }
    char *ov_hash[] = {"mesh.file=a #b.msh"};
    expect("", 1, ov_hash, "command line: mesh.file: 'a #b.msh' contains a comment marker (' #')",
           "string: comment marker refused (would not read back)");
    {
        char long_path[400] = "mesh.file=/";
        memset(long_path + 11, 'p', 200);
        char *ov_long[] = {long_path};
        expect("", 1, ov_long, "command line: mesh.file: value longer than 191 characters",
               "string: longer than a deck line refused (would not read back)");
    }
    expect_deck("; comment\n# comment\n[mesh]   ; trailing\n  nx = 7   # inline\n\tny = 3 ; inline\n", NULL,
                "comments and indentation");
    deck_parse("[mesh]\n  nx = 7   # inline\n\tny = 3 ; inline\r\n", "d.ini", 0, NULL, DECK_CHECK_FILES, &cfg, err, sizeof err);
    tap_ok(&t, cfg.nx == 7 && cfg.ny == 3, "indented keys are keys, not continuation lines; CRLF accepted");

    /* overrides */
    char *ov1[] = {"mesh.nx=17", "parallel.sync=basic"};
    tap_ok(&t, deck_parse("[mesh]\nnx = 3\n", "d.ini", 2, ov1, DECK_CHECK_FILES, &cfg, err, sizeof err) == 0 && cfg.nx == 17 &&
               cfg.sync == SYNC_BASIC,
           "overrides replace deck values");
    char *ov2[] = {"mesh.nq=1"};
    expect("", 1, ov2, "command line: mesh.nq: unknown key", "override: unknown key");
    char *ov3[] = {"mesh.nx=-3"};
    expect("", 1, ov3, "command line: mesh.nx: -3 is out of range [1, 1000000000]", "override: out of range");
    char *ov4[] = {"nx=3"};
    expect("", 1, ov4, "command line: 'nx=3': expected section.key=value", "override: no section");
    char *ov5[] = {"mesh.nx"};
    expect("", 1, ov5, "command line: 'mesh.nx': expected section.key=value", "override: no value");
    char *ov6[] = {"mesh.nx=12", "mesh.nx=13"};
    tap_ok(&t, deck_parse("", "d.ini", 2, ov6, DECK_CHECK_FILES, &cfg, err, sizeof err) == 0 && cfg.nx == 13,
           "later override wins");

    /* cross-key rules */
    expect_deck("[mesh]\nkind = gmsh\n", "d.ini:2: mesh.kind: gmsh needs mesh.file", "gmsh without file");
    expect_deck("[mesh]\nkind = gmsh\nfile = /nonexistent/x.msh\n",
                "d.ini:3: mesh.file: cannot open '/nonexistent/x.msh': No such file or directory", "gmsh file missing");
    char *ov7[] = {"mesh.file=nothere.msh"};
    expect("[mesh]\nkind = gmsh\nfile = a.msh\n", 1, ov7,
           "command line: mesh.file: cannot open 'nothere.msh': No such file or directory",
           "gmsh file missing, from the command line");
    expect_deck("[mesh]\nkind = gmsh\nfile = inputs/meshes/box_3d.msh\n[parallel]\npartitioner = block\n",
                "d.ini:5: parallel.partitioner: block needs mesh.kind = cartesian", "block needs cartesian");
    expect_deck("[mesh]\nkind = gmsh\nfile = inputs/meshes/box_3d.msh\nperturb = 0.1\n",
                "d.ini:4: mesh.perturb: applies to mesh.kind = cartesian only", "perturb needs cartesian");
    expect_deck("[mesh]\nnx = 100000\nny = 100000\nnz = 1000\n",
                "d.ini:2: mesh.nx: metis handles at most 2147483647 cells (this mesh has 1e+13): use "
                "parallel.partitioner = block",
                "metis cell limit");
    deck_parse("[mesh]\nkind = gmsh\nfile = meshes/box_3d.msh\n", "inputs/deck.ini", 0, NULL, DECK_CHECK_FILES, &cfg, err,
               sizeof err);
    tap_ok(&t, cfg.mesh_file[0] == '/' && strstr(cfg.mesh_file, "/inputs/meshes/box_3d.msh"),
           "mesh file is relative to the deck and resolved to an absolute path (%s)", cfg.mesh_file);

    /* round trip: the resolved deck parses back to the same text */
    char *ov8[] = {"mesh.lx=0.30000000000000004", "mesh.perturb=0.125", "case.grouped=true", "mesh.dim=2"};
    deck_parse("[mesh]\nnx = 33\n", "d.ini", 4, ov8, DECK_CHECK_FILES, &cfg, err, sizeof err);
    char *a = deck_to_text(&cfg);
    struct config back;
    int rc = deck_parse(a, "resolved", 0, NULL, DECK_CHECK_FILES, &back, err, sizeof err);
    char *b = deck_to_text(&back);
    tap_ok(&t, rc == 0 && !strcmp(a, b) && back.lx == cfg.lx && !memcmp(&back, &cfg, sizeof cfg),
           "--check output parses back to the same configuration, doubles exact");
    free(a);
    free(b);

    /* a deck file with no section is refused (an empty file would run every default) */
    tap_ok(&t, deck_parse("", "e.ini", 0, NULL, DECK_FILE, &cfg, err, sizeof err) == -1 &&
               !strcmp(err, "e.ini: empty deck (no section)"), "an empty deck file: 'e.ini: empty deck (no section)' (%s)", err);
    tap_ok(&t, deck_parse("; only\n# comments\n\n", "c.ini", 0, NULL, DECK_FILE, &cfg, err, sizeof err) == -1 &&
               !strcmp(err, "c.ini: empty deck (no section)"), "a deck of comments only is refused (%s)", err);
    tap_ok(&t, deck_parse("[mesh]\n", "m.ini", 0, NULL, DECK_FILE, &cfg, err, sizeof err) == 0,
           "a deck with one empty section is a deck of defaults");

    /* every bound the schema enforces is in the generated reference, as set_value reports it */
    {
        char *ref = NULL;
        size_t len = 0;
        FILE *f = open_memstream(&ref, &len);
        deck_print_reference(f, true);
        fclose(f);
        int missing = 0;
        for (int k = 0; k < deck_nkeys; k++) {
            const struct deck_key *d = &deck_keys[k];
            if (d->type != KEY_INT && d->type != KEY_DOUBLE)
                continue;
            char row[256], bounds[128], head[96];
            snprintf(row, sizeof row, "| `%s` |", d->name);
            snprintf(bounds, sizeof bounds, "| %.15g .. %.15g |", d->min, d->max);
            snprintf(head, sizeof head, "#### `[%s]`", d->section); /* names repeat across sections */
            const char *sec = strstr(ref, head), *at = sec ? strstr(sec, row) : NULL;
            char line[1024] = "";
            if (at)
                snprintf(line, sizeof line, "%.*s", (int)strcspn(at, "\n"), at);
            if (!at || !strstr(line, bounds)) {
                printf("# %s.%s: '%s' not in its reference row\n", d->section, d->name, bounds);
                missing++;
            }
        }
        free(ref);
        tap_ok(&t, missing == 0, "the reference shows both bounds of every numeric key (%d missing)", missing);
    }

    /* the deck's physics choices are the physics enums: every value has its name */
    static const struct {
        const char *section, *key;
        int first, count;
    } enums[] = {{"case", "name", CASE_HYDRO, HCASE_COUNT}, {"physics", "eos", 0, EOS_COUNT},
                 {"physics", "limiter", 0, LIMITER_COUNT}, {"physics", "dt_control", 0, DT_COUNT},  {"physics", "length", 0, LENGTH_COUNT},
                 {"loadbalance", "cost", 0, COST_COUNT}};
    for (size_t e = 0; e < sizeof enums / sizeof *enums; e++) {
        int named = 1;
        for (int v = enums[e].first; v < enums[e].first + enums[e].count; v++)
            named &= deck_enum_name(enums[e].section, enums[e].key, v) != NULL;
        tap_ok(&t, named && !deck_enum_name(enums[e].section, enums[e].key, enums[e].first + enums[e].count),
               "%s.%s: one deck choice for each value of its physics enum", enums[e].section, enums[e].key);
    }
    tap_ok(&t, !strcmp(deck_enum_name("case", "name", CASE_HYDRO + HCASE_TRIPLE_POINT), "triple_point") &&
               !strcmp(deck_enum_name("physics", "eos", EOS_STIFFENED), "stiffened") &&
               !strcmp(deck_enum_name("physics", "length", LENGTH_FACES), "faces"),
           "deck choices are named by the physics enum constants");

    return tap_done(&t);
}
