/* Command line, deck loading and the run context (see run.h). */
#include "run.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "comm.h"
#include "memest.h"
#include "setup.h"
#include "restart.h"
#include "version.h"

static void usage(FILE *out)
{
    fprintf(out,
            "usage: mpirun -np N hydro DECK [section.key=value ...]\n"
            "       mpirun -np N hydro --restart DUMP [section.key=value ...]\n"
            "       hydro --check DECK [section.key=value ...]\n"
            "       hydro --help | --version\n"
            "\n"
            "hydro: explicit Lagrange + remap hydrodynamics proxy application on unstructured\n"
            "quad/hex meshes, partitioned with METIS, with 1 to 3 ghost layers.\n"
            "\n"
            "options:\n"
            "  --help          this text and the deck reference\n"
            "  --version       version and source revision\n"
            "  --check         validate the deck, print it fully resolved (INI), exit\n"
            "  --restart DUMP  continue the run dumped in DUMP (any rank count); overrides may\n"
            "                  change [run], [output], [parallel] and [loadbalance] keys only\n"
            "  --deck-reference  the deck reference as Markdown (for the README)\n"
            "\n"
            "exit status: 0 success, 1 runtime or physics failure, 2 bad input\n"
            "\n"
            "environment:\n"
            "  ARCANE_PARALLEL_OUTPUT=1         every rank writes its listing to output<rank>\n"
            "  ARCANE_PARALLEL_OUTPUT_PREFIX=P  prefix of those files\n"
            "  ARCANE_MESH_EXCHANGE_USE_COLLECTIVE=TRUE (or 1)\n"
            "                                   cell migrations use MPI_Alltoallv instead of\n"
            "                                   MPI_Isend/MPI_Irecv\n"
            "\n"
            "timers of the listing (seconds; grind time = seconds / (owned cells x cycles)):\n");
    timers_print_help(out);
    fprintf(out, "\n"
                 "deck keys ([section] key type default (allowed) and meaning):\n");
    deck_print_reference(out, false);
}

_Noreturn void run_exit_collective(struct run *run, int status, const char *msg)
{
    if (msg && msg[0]) {
        char text[4 * 4096];
        text_escape(msg, text, sizeof text);
        fprintf(stderr, "%s\n", text);
        fflush(stderr);
    }
    fflush(stdout);
    reduction_finish(&run->stop.red); /* every rank leaves here together: no request left behind */
    listing_destroy(run->lst);
    run->lst = NULL;
    comm_finalize();
    exit(status);
}

struct run *run_create(MPI_Comm comm, int argc, char **argv, double t_start)
{
    struct run *run = xcalloc(1, sizeof *run);
    run->comm = comm;
    run->rank = comm_rank(comm);
    run->size = comm_size(comm);
    run->t_start = t_start;
    timers_init(&run->tm);
    run->tm.start[TIMER_INIT] = t_start; /* init covers the deck too */

    enum { RUN, CHECK } mode = RUN;
    int first = 1;
    char msg[1024] = "";
    if (argc > 1 && !strcmp(argv[1], "--help")) {
        if (run->rank == 0)
            usage(stdout);
        run_exit_collective(run, EXIT_OK, NULL);
    }
    if (argc > 1 && !strcmp(argv[1], "--version")) {
        if (run->rank == 0)
            printf("hydro %s (%s)\n", HYDRO_VERSION, HYDRO_REVISION);
        run_exit_collective(run, EXIT_OK, NULL);
    }
    if (argc > 1 && !strcmp(argv[1], "--deck-reference")) {
        if (run->rank == 0)
            deck_print_reference(stdout, true);
        run_exit_collective(run, EXIT_OK, NULL);
    }
    if (argc > 1 && !strcmp(argv[1], "--check")) {
        mode = CHECK;
        first = 2;
    }
    if (argc > 1 && !strcmp(argv[1], "--restart")) {
        if (argc < 3)
            run_exit_collective(run, EXIT_BADINPUT, run->rank == 0 ? "hydro: --restart needs a dump file" : NULL);
        run->restart = xcalloc(1, sizeof *run->restart);
        if (restart_open(comm, argv[2], run->restart, msg, sizeof msg))
            run_exit_collective(run, EXIT_BADINPUT, msg);
        first = 2;
    }
    if (argc <= first || argv[first][0] == '-') {
        if (argc > first)
            snprintf(msg, sizeof msg, "hydro: unknown option '%s' (see hydro --help)", argv[first]);
        else
            snprintf(msg, sizeof msg, "hydro: no deck given (usage: mpirun -np N hydro DECK [section.key=value ...])");
        run_exit_collective(run, EXIT_BADINPUT, run->rank == 0 ? msg : NULL);
    }
    run->deck_path = xmalloc(strlen(argv[first]) + 1);
    strcpy(run->deck_path, argv[first]);

    /* rank 0 reads and validates; the others receive the result (the same bytes) */
    char *resolved = NULL;
    if (run->rank == 0 && run->restart) { /* the dump's deck is the base */
        if (deck_parse(run->restart->deck_text, run->deck_path, argc - first - 1, argv + first + 1, DECK_RESTART,
                       &run->cfg, msg, sizeof msg) == 0)
            resolved = deck_to_text(&run->cfg);
    } else if (run->rank == 0) {
        char *text = deck_read_file(run->deck_path, msg, sizeof msg);
        if (text && deck_parse(text, run->deck_path, argc - first - 1, argv + first + 1, DECK_CHECK_FILES | DECK_FILE, &run->cfg,
                               msg, sizeof msg) == 0)
            resolved = deck_to_text(&run->cfg);
        free(text);
    }
    run->deck_text = comm_bcast_text(comm, resolved, 0);
    free(resolved);
    if (!run->deck_text)
        run_exit_collective(run, EXIT_BADINPUT, run->rank == 0 ? msg : NULL);
    comm_bcast_bytes(comm, &run->cfg, sizeof run->cfg, 0);
#ifdef HYDRO_SMPI
    if (run->cfg.checkpoint_period >= 0) /* io/smpi/noio.c: no HDF5 in the SimGrid build */
        run_exit_collective(run, EXIT_BADINPUT, run->rank == 0 ? "hydro: output.checkpoint_period: this SMPI "
                            "(SimGrid) build has no HDF5 output; set output.checkpoint_period = -1" : NULL);
#endif

    if (mode == CHECK) { /* the deck, then what the run would find, as comments (the output stays a deck) */
        char summary[2 * DECK_STRING_MAX + 128];
        if (!run->restart && setup_check_mesh(comm, &run->cfg, summary, sizeof summary, msg, sizeof msg))
            run_exit_collective(run, EXIT_BADINPUT, run->rank == 0 ? msg : NULL);
        if (run->rank == 0) {
            fputs(run->deck_text, stdout);
            if (!run->restart)
                printf("\n; mesh: %s\n", summary);
        }
        mem_print_check(run);
        run_exit_collective(run, EXIT_OK, NULL);
    }

    run->lst = listing_create(run->rank, msg, sizeof msg);
    if (!run->lst)
        hydro_fatal(comm, EXIT_RUNTIME, "%s", msg);
#ifdef HYDRO_SMPI
    listing_printf(run->lst, "Internal", "SMPI build (SimGrid, simulated time): no HDF5 output; the dt and totals "
                   "reductions are a blocking MPI_Allreduce where their result is needed (timer reduce), not an "
                   "MPI_Iallreduce overlapped with the last synchronisation");
#endif
    return run;
}

void run_destroy(struct run *run)
{
    if (!run)
        return;
    listing_destroy(run->lst);
    if (run->restart)
        restart_close(run->restart);
    free(run->restart);
    free(run->deck_path);
    free(run->deck_text);
    free(run);
}
