/* libFuzzer harness of the checkpoint validation: restart_open must accept a dump file or refuse it with a message. */
#include <hdf5.h>
#include <math.h>
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "restart.h"

static void finalize(void)
{
    int up = 0, down = 0;
    MPI_Initialized(&up);
    MPI_Finalized(&down);
    if (up && !down)
        MPI_Finalize();
}

/* restart_open is collective: MPI must be up, and MPI_Init may run once per process, so it
 * happens here (MPI keeps that state, not this file) and MPI_Finalize at exit. */
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    int up = 0;
    MPI_Initialized(&up);
    if (!up && MPI_Init(NULL, NULL) != MPI_SUCCESS)
        abort();
    atexit(finalize);
    return 0;
}

/* Read by AddressSanitizer at start-up (unused without it). A corrupt object header makes HDF5
 * ask malloc for petabytes: HDF5 checks for NULL and fails the open, which is the behaviour to
 * test, so ASan must return NULL instead of reporting. hydro's own xmalloc still ends the
 * process on NULL, and libFuzzer reports any exit from an input as a crash. */
const char *__asan_default_options(void);
const char *__asan_default_options(void) { return "allocator_may_return_null=1"; }

/* Read by LeakSanitizer with test/lsan.supp (unused without it). HDF5 1.10 leaks the entry it
 * was loading into its metadata cache (H5C_protect) when that entry is corrupt; such stacks
 * hold only HDF5 code below hydro's call. Objects HDF5 holds for hydro's open handles stay
 * reachable, and hydro's own allocations never pass through H5C_protect: nothing of hydro's
 * is suppressed. */
const char *__lsan_default_suppressions(void);
const char *__lsan_default_suppressions(void) { return "leak:H5C_protect\n"; }

static _Noreturn void bad(const char *path, const char *what)
{
    fprintf(stderr, "fuzz_checkpoint: restart_open accepted %s with %s\n", path, what);
    abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char path[4096];
    if (fuzz_write_temp("checkpoint", data, size, path, sizeof path)) {
        perror("fuzz_checkpoint: cannot write the temporary dump");
        abort();
    }
    struct restart_file rf;
    char err[2048] = "";
    if (restart_open(MPI_COMM_SELF, path, &rf, err, sizeof err) == 0) {
        /* what restart.h promises of a valid dump, and what the restart then relies on */
        if (!rf.deck_text)
            bad(path, "no deck");
        if (rf.dim != 2 && rf.dim != 3)
            bad(path, "a bad dimension");
        if (rf.ncells < 1 || rf.nnodes < 1 || rf.nvars < 0 || (rf.nvars > 0 && !rf.vars))
            bad(path, "bad sizes");
        if (rf.cycle < 0 || !(rf.dt > 0) || !(rf.dt_old > 0) || !isfinite(rf.time))
            bad(path, "a bad time-stepping state");
        for (int i = 0; i < rf.nvars; i++)
            if (!memchr(rf.vars[i].name, '\0', sizeof rf.vars[i].name) || rf.vars[i].ncomp < 1)
                bad(path, "a bad variable");
        restart_close(&rf);
    } else if (strncmp(err, path, strlen(path)) || !err[strlen(path)]) {
        fprintf(stderr, "fuzz_checkpoint: a refused dump must give 'PATH: what is wrong', got '%s'\n", err);
        abort();
    }
    unlink(path);
    /* HDF5 keeps freed blocks on free lists: give them back, so that libFuzzer's per-input
     * malloc/free balance stays even and it runs LeakSanitizer only when something leaked */
    H5garbage_collect();
    return 0;
}
