/* The cases and the calls through their interface (see case.h). */
#include "case.h"

#include "cases.h"
#include "run.h"

/* [case] name values -> the implementation that runs them (deck.h: sync_only, then the hydro
 * cases of physics/cases.h). */
static const struct {
    int first, count;
    const struct case_ops *ops;
} cases[] = {
    {CASE_SYNC_ONLY, 1, &sync_only_ops},
    {CASE_HYDRO, HCASE_COUNT, &hydro_case_ops},
};

static const struct case_ops *ops_of(int case_name)
{
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++)
        if (case_name >= cases[i].first && case_name < cases[i].first + cases[i].count)
            return cases[i].ops;
    return NULL; /* the deck admits no other value */
}

void case_create(struct run *run)
{
    run->case_ops = ops_of(run->cfg.case_name);
    run->case_self = run->case_ops->create(run);
}

void case_detach(struct run *run) { run->case_ops->detach(run->case_self); }
void case_attach(struct run *run) { run->case_ops->attach(run->case_self, run); }
void case_restored(struct run *run) { run->case_ops->restored(run->case_self, run); }
int case_cycle(struct run *run) { return run->case_ops->cycle(run->case_self, run); }
int case_finished(const struct run *run) { return run->case_ops->finished(run->case_self, run); }
void case_listing(struct run *run) { run->case_ops->listing(run->case_self, run); }
void case_report(struct run *run) { run->case_ops->report(run->case_self, run); }

void case_diagnostics(struct run *run, struct dump_meta *meta)
{
    run->case_ops->diagnostics(run->case_self, run, meta);
}

void case_to_host(struct run *run)
{
    if (run->case_ops->to_host)
        run->case_ops->to_host(run->case_self);
}

int case_burns(const struct run *run) { return run->case_ops->burn_seconds != NULL; }
double case_burn_seconds(struct run *run, long n) { return run->case_ops->burn_seconds(run->case_self, n); }

double case_active_work(struct run *run, long cycles, double *extra, double *lagrange_share, double *spread)
{
    if (run->case_ops->active_work)
        return run->case_ops->active_work(run->case_self, run, cycles, extra, lagrange_share, spread);
    for (int32_t c = 0; c < run->mesh->ncells_owned; c++)
        extra[c] = 0;
    *lagrange_share = 0.5;
    *spread = 0;
    return 0;
}

void case_destroy(struct run *run)
{
    if (run->case_ops && run->case_self)
        run->case_ops->destroy(run->case_self);
    run->case_self = NULL;
}
