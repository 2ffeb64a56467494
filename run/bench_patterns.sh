#!/bin/sh
# MaHyCo bench deck (inputs/bench/mahyco.ini, 50 cycles) with the mahyco and minimal
# synchronisation patterns, and minimal without the overlap of its exchanges with interior work
# (parallel.overlap=false), measured side by side (runs interleaved); medians of the loop time,
# of the sync and overlap timers and of the peak memory per owned cell (3 ghost layers, about
# 19.5k owned cells per rank on 2).
# usage: run/bench_patterns.sh [-n RANKS] [-r REPEATS] [-o FILE] [section.key=value ...]
#   -o appends "key value" lines (loop_mahyco_s, ..., mem_mahyco_bytes_per_cell, ...; the variant
#   without overlap is minimal_nooverlap) to FILE
# env: MPIRUN (launcher, default "mpirun"), MPI_ARGS (extra launcher arguments), HYDRO (binary)
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
hydro=${HYDRO:-$top/build/hydro}
mpirun_cmd=${MPIRUN:-mpirun}
ranks=2
repeats=5
out=
while getopts n:r:o: opt; do
    case $opt in
    n) ranks=$OPTARG ;;
    r) repeats=$OPTARG ;;
    o) out=$OPTARG ;;
    *) echo "usage: $0 [-n RANKS] [-r REPEATS] [-o FILE] [section.key=value ...]" >&2; exit 2 ;;
    esac
done
shift $((OPTIND - 1))
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
overlap_avg() { awk '/Timers over/ {g = 1} g && $2 == "overlap" {print $5; exit}' "$1"; }
variants="mahyco minimal minimal_nooverlap"
. "$top/run/bench_lib.sh" # median, timer, peak, cells_of, cycles_of, bytes_avg_of, loop_max, sync_max
for i in $(seq "$repeats"); do
    for p in $variants; do
        # shellcheck disable=SC2086
        $mpirun_cmd ${MPI_ARGS:-} -np "$ranks" "$hydro" "$top/inputs/bench/mahyco.ini" parallel.sync_pattern=${p%_*} \
            parallel.overlap=$([ "$p" = minimal_nooverlap ] && echo false || echo true) "$@" > "$tmp/out"
        loop_max "$tmp/out" >> "$tmp/loop_$p"
        sync_max "$tmp/out" >> "$tmp/sync_$p"
        overlap_avg "$tmp/out" >> "$tmp/overlap_$p"
        grep 'Synchronisations per cycle' "$tmp/out" | sed 's/.*cycle: \([0-9.]*\).*/\1/' > "$tmp/n_$p"
        grep 'This rank sent per cycle' "$tmp/out" | sed 's/.*cycle: [0-9]* messages, \([0-9]*\) bytes/\1/' > "$tmp/b_$p"
        sed -n 's/.*; \([0-9]*\) bytes per owned cell.*/\1/p' "$tmp/out" >> "$tmp/mem_$p"
        cycles_of "$tmp/out" > "$tmp/cycles"
    done
done
cells=$(sed -n 's/.*D hexes: \([0-9]*\) cells.*/\1/p' "$tmp/out")
owned=$(sed -n 's/.*owned cells per rank min [0-9]* (rank [0-9]*) avg \([0-9.]*\).*/\1/p' "$tmp/out")
echo "inputs/bench/mahyco.ini (bisod_x, directional remap)${*:+ $*}, $ranks ranks, $cells cells, $(cat "$tmp/cycles") cycles, $repeats interleaved repeats, medians of the slowest rank"
echo
echo "| pattern | syncs/cycle | bytes/cycle (rank 0) | loop s | sync s (max) | overlap s (avg) | peak RSS bytes per owned cell |"
echo "|---|---|---|---|---|---|---|"
for p in $variants; do
    name=$([ "$p" = minimal_nooverlap ] && echo "minimal, overlap = false" || echo "$p")
    echo "| $name | $(cat "$tmp/n_$p") | $(cat "$tmp/b_$p") | $(median < "$tmp/loop_$p") | $(median < "$tmp/sync_$p") |" \
        "$(median < "$tmp/overlap_$p") | $(median < "$tmp/mem_$p") |"
    if [ -n "$out" ]; then
        {
            echo "loop_${p}_s $(median < "$tmp/loop_$p")"
            echo "sync_${p}_s $(median < "$tmp/sync_$p")"
            echo "overlap_${p}_s $(median < "$tmp/overlap_$p")"
            echo "mem_${p}_bytes_per_cell $(median < "$tmp/mem_$p")"
        } >> "$out"
    fi
done
[ -z "$out" ] || printf 'patterns_owned_per_rank %s\npatterns_cycles %s\n' "$owned" "$(cat "$tmp/cycles")" >> "$out"
awk -v a="$(median < "$tmp/loop_mahyco")" -v b="$(median < "$tmp/loop_minimal")" \
    'BEGIN {printf "| minimal / mahyco (loop) | | | %.3f | | | |\n", b / a}'
awk -v a="$(median < "$tmp/loop_minimal_nooverlap")" -v b="$(median < "$tmp/loop_minimal")" \
    -v sa="$(median < "$tmp/sync_minimal_nooverlap")" -v sb="$(median < "$tmp/sync_minimal")" \
    'BEGIN {printf "| minimal, overlap / without (loop; sync) | | | %.3f | %.3f | | |\n", b / a, sb / sa}'
