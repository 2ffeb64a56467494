/* The recorded synchronisations of a case: per point of its cycle, groups of registry variables
 * replayed one after the other or all together, with their statistics across rebalances. */
#ifndef HYDRO_SYNCBOOK_H
#define HYDRO_SYNCBOOK_H

struct run;
struct sync_group;

struct sync_book {
    int npoints;
    struct book_point {
        int together; /* 1: every group started, then every group finished; 0: one after the other */
        int ngroups, cap;
        struct sync_group **g;
    } *point;
    long long syncs, messages, bytes; /* done by the groups dropped so far (rebalances) */
};

void sync_book_init(struct sync_book *b, int npoints);
/* Collective: records one more group at point, of the n registry variables ids (one centering:
 * the plan of their items), persistent or basic as the deck's [parallel] sync says. Every rank
 * records the same groups in the same order. */
void sync_book_group(struct sync_book *b, int point, struct run *run, const int *ids, int n);
void sync_book_together(struct sync_book *b, int point, int together);
/* Whether a point has no group (its synchronisation does nothing). */
int sync_book_empty(const struct sync_book *b, int point);
/* The point's synchronisations, inside TIMER_SYNC; nothing at all for a point of no group. */
void sync_book_run(struct sync_book *b, struct run *run, int point);
/* Drops the groups (before the mesh changes), keeping their statistics; record anew after. */
void sync_book_drop(struct sync_book *b);
/* Forget the synchronisations done so far (the set-up's, before the time loop counts). */
void sync_book_reset(struct sync_book *b);
/* This rank's totals since the last reset: synchronisations, messages and bytes sent. */
void sync_book_totals(const struct sync_book *b, long long *syncs, long long *messages, long long *bytes);
/* The listing lines both cases print: messages and bytes per cycle, over ranks. Collective. */
void sync_book_report(const struct sync_book *b, struct run *run);
void sync_book_free(struct sync_book *b);

#endif
