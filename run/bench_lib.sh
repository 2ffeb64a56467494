# Shared by the run/bench_*.sh scripts (sourced, POSIX sh): reading hydro listings and taking medians.

# median: the median of the numbers on stdin, one per line
median() { sort -g | awk '{v[NR] = $1} END {print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }
# timer FILE NAME: seconds of timer NAME in rank 0's table of a listing
timer() { awk -v t="$2" '/Rank 0 timers/ {g = 1} g && $2 == t {print $3; exit}' "$1"; }
# peak FILE: the largest rank's peak resident memory of a listing, MB
peak() { sed -n 's/.*Peak resident memory per rank: .* max \([0-9.]*\) MB.*/\1/p' "$1"; }
# cells_of FILE: the mesh's cells; cycles_of FILE: the last cycle the listing totals (the cycles done)
cells_of() { sed -n 's/.*D [a-z]*: \([0-9]*\) cells.*/\1/p' "$1"; }
cycles_of() { sed -n 's/.*Totals at cycle \([0-9]*\),.*/\1/p' "$1" | tail -n 1; }
# bytes_avg_of FILE: the bytes the synchronisations sent per cycle, averaged over ranks
bytes_avg_of() { sed -n 's/.*Bytes sent per cycle over ranks: min [0-9]* (rank [0-9]*) avg \([0-9.]*\) .*/\1/p' "$1"; }
# loop_max FILE, sync_max FILE: the slowest rank's loop and sync seconds, from the table over ranks
loop_max() { awk '/Timers over/ {g = 1} g && $2 == "loop" {print $6; exit}' "$1"; }
sync_max() { awk '/Timers over/ {g = 1} g && $2 == "sync" {print $6; exit}' "$1"; }
# sources_hash TOP: a checksum of the C sources and the Makefile under TOP (a build's, without git)
sources_hash() {
    (cd "$1" && find mesh physics io miniapp -name '*.[ch]' | LC_ALL=C sort | xargs cat Makefile | md5sum | cut -c1-12)
}
# close_dumps A B: whether two dumps' density, internal energy and velocity lie within a relative
# 1e-9 of each other (an accelerator may fuse a multiply and an add that the host rounds apart)
close_dumps() {
    for obj in /cells/density /cells/internal_energy /nodes/velocity; do
        h5diff -q -p 1e-9 "$1" "$2" "$obj" "$obj" > /dev/null 2>&1 || return 1
    done
}
