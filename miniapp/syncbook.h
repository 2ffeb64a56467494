/* The recorded synchronisations of a case: per point of its cycle, groups of registry variables
 * replayed one after the other or all together, with their statistics across rebalances. */
#ifndef HYDRO_SYNCBOOK_H
#define HYDRO_SYNCBOOK_H

#include <stddef.h>
#include <stdint.h>

struct inbox;
struct registry;
struct run;
struct sync_group;

struct sync_book {
    int npoints;
    const char *const *names; /* the points', for the listing */
    struct book_point {
        int together; /* 1: every group started, then every group finished; 0: one after the other */
        int ngroups, cap;
        struct sync_group **g;
        struct item_list {
            int32_t *items; /* NULL until first asked for (sync_book_point_items) */
            int n;
        } (*lists)[2]; /* per group, the items it receives [0] and sends [1], each once, in increasing order */
        double seconds; /* inside its synchronisations since the last reset: packing, sending, waiting
                         * for the slowest rank of the work before it, unpacking (kept across drops) */
    } *point;
    long long syncs, messages, bytes; /* done by the groups dropped so far (rebalances) */
    struct sync_tally {
        long long syncs, messages, bytes, recorded, arcane_bytes;
    } mat; /* the same for the groups of material variables, and their send requests recorded */
    int check;                       /* HYDRO_CHECK_GHOSTS=1: every synchronisation checked (ghostcheck.h) */
    long long checked, values;       /* synchronisations checked, ghost values compared on this rank */
    /* overlap: a point started with sync_book_start stays in flight until sync_book_finish when
     * its groups travel together (or it has one); one point at a time */
    int overlap;
    int in_flight;      /* that point, or -1 */
    long long overlapped; /* points left in flight since the last reset */
    double waited;      /* seconds finishing them (what had not arrived yet, and unpacking) */
    struct inbox *fetched; /* with check: per group of that point, its owners' values at the start */
};

void sync_book_init(struct sync_book *b, int npoints, const char *const *names);
/* Collective: records one more group at point, of the n registry variables ids (one centering:
 * the plan of their items), persistent or basic as the deck's [parallel] sync says. Every rank
 * records the same groups in the same order. Returns the group (sync_group_set_depth). */
struct sync_group *sync_book_group(struct sync_book *b, int point, struct run *run, const int *ids, int n);
void sync_book_together(struct sync_book *b, int point, int together);
/* Whether a point has no group (its synchronisation does nothing). */
int sync_book_empty(const struct sync_book *b, int point);
/* The point's synchronisations, inside TIMER_SYNC; nothing at all for a point of no group.
 * With HYDRO_CHECK_GHOSTS=1 in the environment, each group's ghosts are then checked against
 * their owners (outside the timer); a difference stops the run, naming the value. */
void sync_book_run(struct sync_book *b, struct run *run, int point);
/* The same in two halves: start packs and sends; with overlap it may return with the point in
 * flight (inside TIMER_SYNC, then TIMER_OVERLAP until finish); finish completes it. Finishing a
 * point not in flight does nothing. */
void sync_book_start(struct sync_book *b, struct run *run, int point);
void sync_book_finish(struct sync_book *b, struct run *run, int point);
/* fn(ctx, reg, ids, nids, items, n) for each of the point's groups that has such items: its
 * variables but the material ones (reg->v[ids[k]]) and the items it sends (sent) or receives (the
 * ghosts it writes), in the layers it refreshes, each once, in increasing order (listed at the
 * first call, kept until the groups are dropped). */
void sync_book_point_items(struct sync_book *b, int point, int sent,
                           void (*fn)(void *ctx, const struct registry *reg, const int *ids, int nids,
                                      const int32_t *items, int n),
                           void *ctx);
/* Drops the groups (before the mesh changes), keeping their statistics; record anew after. */
void sync_book_drop(struct sync_book *b);
/* Forget the synchronisations done so far (the set-up's, before the time loop counts). */
void sync_book_reset(struct sync_book *b);
/* This rank's totals since the last reset: synchronisations, messages and bytes sent. */
void sync_book_totals(const struct sync_book *b, long long *syncs, long long *messages, long long *bytes);
/* This rank's totals of the groups of material variables (part of sync_book_totals'). */
struct sync_tally sync_book_material(const struct sync_book *b);
/* The listing lines both cases print: messages and bytes per cycle, over ranks, and the seconds
 * spent in each point over ranks (where a rank waits for the others). Collective. */
void sync_book_report(const struct sync_book *b, struct run *run);
void sync_book_free(struct sync_book *b);

#endif
