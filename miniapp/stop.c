/* Stop requests (see stop.h). */
#include "stop.h"

#include <signal.h>
#include <string.h>

/* A signal handler can only reach static storage: these two flags are the process's only
 * mutable globals, written by the handlers and read (and cleared) by stop_poll. */
static volatile sig_atomic_t got_term, got_usr1;

static void on_signal(int sig)
{
    if (sig == SIGTERM)
        got_term = 1;
    else
        got_usr1 = 1;
}

void stop_create(struct stop *s, MPI_Comm comm, double walltime, double t_start)
{
    memset(s, 0, sizeof *s);
    s->comm = comm;
    s->walltime = walltime;
    s->t_start = t_start;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESTART;
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGUSR1, &sa, NULL);
}

enum stop_request stop_poll(struct stop *s, double now, double cycle_s, double dump_s)
{
    enum stop_request agreed = STOP_NONE;
    if (s->red.active) {
        reduction_finish(&s->red);
        agreed = (enum stop_request)(int)(-s->red.out[0]);
    }
    s->cycle_worst = cycle_s > s->cycle_worst ? cycle_s : s->cycle_worst;
    s->dump_worst = dump_s > s->dump_worst ? dump_s : s->dump_worst;
    enum stop_request mine = STOP_NONE;
    if (got_usr1) {
        got_usr1 = 0;
        mine = STOP_DUMP;
    }
    if (stop_walltime_near(now - s->t_start, s->walltime, s->cycle_worst, s->dump_worst))
        mine = STOP_WALLTIME;
    if (got_term)
        mine = STOP_TERM;
    double v = -(double)mine; /* the strongest request wins: a minimum of negatives */
    reduction_start(s->comm, &s->red, &v, 1, 1);
    return agreed;
}

int stop_walltime_near(double elapsed, double walltime, double cycle_worst, double dump_worst)
{
    return walltime > 0 && elapsed + 2 * cycle_worst + 1.5 * dump_worst + 1.0 >= walltime;
}

void stop_destroy(struct stop *s)
{
    reduction_finish(&s->red);
    signal(SIGTERM, SIG_DFL);
    signal(SIGUSR1, SIG_DFL);
}

const char *stop_reason(enum stop_request r)
{
    switch (r) {
    case STOP_DUMP:
        return "SIGUSR1";
    case STOP_WALLTIME:
        return "output.walltime";
    case STOP_TERM:
        return "SIGTERM";
    default:
        return "none";
    }
}
