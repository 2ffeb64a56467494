/* The hydro scheme's synchronisation patterns as data: for each named point of the cycle the
 * groups of fields it synchronises, and how far into the ghost layers each kernel computes. */
#ifndef HYDRO_SYNC_POINTS_H
#define HYDRO_SYNC_POINTS_H

#include <stdint.h>

#include "cycle.h"
#include "hydro_fields.h"
#include "syncbook.h"

struct run;

/* Records into b (sync_book_init(b, SP_COUNT) once) the groups of every point of pattern
 * ([parallel] sync_pattern) that runs with or without the remap, from the fields' registry ids.
 * Collective. */
void sync_points_record(struct sync_book *b, struct run *run, int pattern, int remap, const int id[F_COUNT]);
/* The items each kernel computes under pattern with nmat materials on mesh m: n[k] for struct
 * hydro. */
void sync_points_ranges(int pattern, int nmat, const struct mesh *m, int32_t n[K_COUNT]);
/* NULL, or what is wrong with the pattern's kernel depths with nmat materials and nlayers ghost
 * layers (a kernel reading what another did not compute that far). */
const char *sync_points_check(int pattern, int nmat, int nlayers);
/* Whether the pattern leaves exchanges in flight over interior work ([parallel] overlap):
 * minimal does; mahyco finishes each where MaHyCo does. */
int sync_points_overlap(int pattern);
/* The pattern's name, for the listing. */
const char *sync_points_name(int pattern);

#endif
