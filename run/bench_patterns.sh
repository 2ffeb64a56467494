#!/bin/sh
# MaHyCo bench deck (inputs/bench/mahyco.ini, 50 cycles) with the mahyco and minimal
# synchronisation patterns, measured side by side (runs interleaved); medians of the loop time.
# usage: run/bench_patterns.sh [-n RANKS] [-r REPEATS] [section.key=value ...]
# env: MPIRUN (launcher, default "mpirun"), MPI_ARGS (extra launcher arguments), HYDRO (binary)
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
hydro=${HYDRO:-$top/build/hydro}
mpirun_cmd=${MPIRUN:-mpirun}
ranks=2
repeats=5
while getopts n:r: opt; do
    case $opt in
    n) ranks=$OPTARG ;;
    r) repeats=$OPTARG ;;
    *) echo "usage: $0 [-n RANKS] [-r REPEATS] [section.key=value ...]" >&2; exit 2 ;;
    esac
done
shift $((OPTIND - 1))
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
loop_max() { awk '/Timers over/ {g = 1} g && $2 == "loop" {print $6; exit}' "$1"; }
sync_max() { awk '/Timers over/ {g = 1} g && $2 == "sync" {print $6; exit}' "$1"; }
median() { sort -g | awk '{v[NR] = $1} END {print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }
for i in $(seq "$repeats"); do
    for p in mahyco minimal; do
        # shellcheck disable=SC2086
        $mpirun_cmd ${MPI_ARGS:-} -np "$ranks" "$hydro" "$top/inputs/bench/mahyco.ini" parallel.sync_pattern=$p "$@" \
            > "$tmp/out"
        loop_max "$tmp/out" >> "$tmp/loop_$p"
        sync_max "$tmp/out" >> "$tmp/sync_$p"
        grep 'Synchronisations per cycle' "$tmp/out" | sed 's/.*cycle: \([0-9.]*\).*/\1/' > "$tmp/n_$p"
        grep 'This rank sent per cycle' "$tmp/out" | sed 's/.*cycle: [0-9]* messages, \([0-9]*\) bytes/\1/' > "$tmp/b_$p"
    done
done
cells=$(sed -n 's/.*D hexes: \([0-9]*\) cells.*/\1/p' "$tmp/out")
echo "inputs/bench/mahyco.ini (bisod_x, directional remap), $ranks ranks, $cells cells, 50 cycles, $repeats interleaved repeats, medians of the slowest rank"
echo
echo "| pattern | syncs/cycle | bytes/cycle (rank 0) | loop s | sync s |"
echo "|---|---|---|---|---|"
for p in mahyco minimal; do
    echo "| $p | $(cat "$tmp/n_$p") | $(cat "$tmp/b_$p") | $(median < "$tmp/loop_$p") | $(median < "$tmp/sync_$p") |"
done
awk -v a="$(median < "$tmp/loop_mahyco")" -v b="$(median < "$tmp/loop_minimal")" \
    'BEGIN {printf "| minimal / mahyco (loop) | | | %.3f | |\n", b / a}'
