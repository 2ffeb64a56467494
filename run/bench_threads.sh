#!/bin/sh
# Threads against ranks on one mesh: the 3D bisod_x grind (inputs/bench/mahyco.ini, 100 x 20 x 20
# hexes) on 1 rank x 1 thread, 1 rank x T threads and T ranks x 1 thread, interleaved; medians
# over the repeats of the loop time, ns per cell-cycle, the speed-up over 1 x 1, the bytes the
# synchronisations send per cycle (all ranks) and the peak resident memory (all ranks), printed
# as a Markdown table. Ranks and threads run unbound (mpirun --bind-to none), so that a rank's
# threads may use every core.
# usage: run/bench_threads.sh [-t THREADS] [-r REPEATS] [-c CYCLES] [-s SCALE] [-o FILE]
#   -t threads (and ranks) of the parallel variants (default 2), -c cycles per run (default 20),
#   -s divides nx (quick checks), -o appends "key value" lines (threads_t, threads_<v>_loop_s,
#   threads_<v>_ns, threads_<v>_bytes, threads_<v>_mb for v in 1x1 1xT Tx1) to FILE.
# env: MPIRUN (launcher, default "mpirun"), MPI_ARGS (extra launcher arguments), HYDRO (binary)
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
hydro=${HYDRO:-$top/build/hydro}
mpirun_cmd=${MPIRUN:-mpirun}
threads=2
repeats=5
cycles=20
scale=1
out=
usage() { echo "usage: $0 [-t THREADS] [-r REPEATS] [-c CYCLES] [-s SCALE] [-o FILE]" >&2; exit 2; }
help() { sed -n '2,/^set -eu/p' "$0" | sed -e '$d' -e 's/^# \{0,1\}//'; exit 0; }
while getopts t:r:c:s:o:h opt; do
    case $opt in
    t) threads=$OPTARG ;;
    r) repeats=$OPTARG ;;
    c) cycles=$OPTARG ;;
    s) scale=$OPTARG ;;
    o) out=$OPTARG ;;
    h) help ;;
    *) usage ;;
    esac
done
shift $((OPTIND - 1))
for n in "$threads" "$repeats" "$cycles" "$scale"; do case $n in "" | *[!0-9]* | 0) usage ;; esac; done
[ "$threads" -ge 2 ] || { echo "$0: -t needs at least 2 threads (the comparison is against one)" >&2; exit 2; }
[ $# -eq 0 ] || usage
[ -x "$hydro" ] || { echo "$0: $hydro not found: build it with make" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

. "$top/run/bench_lib.sh" # median, timer, peak, cells_of, cycles_of, bytes_avg_of

T=$threads
variants="1x1 1x$T ${T}x1"
for i in $(seq "$repeats"); do
    for v in $variants; do
        np=${v%x*} nt=${v#*x}
        # shellcheck disable=SC2086
        OMP_NUM_THREADS=$nt $mpirun_cmd --bind-to none ${MPI_ARGS:-} -np "$np" "$hydro" "$top/inputs/bench/mahyco.ini" \
            mesh.nx=$((100 / scale)) run.max_cycles="$cycles" output.checkpoint_period=-1 > "$tmp/out"
        grep -q "$np ranks x $nt thread" "$tmp/out" || { echo "$0: the $v run does not say $np ranks x $nt threads" >&2; exit 1; }
        cells=$(cells_of "$tmp/out") n=$(cycles_of "$tmp/out")
        loop=$(timer "$tmp/out" loop)
        [ -n "$loop" ] && [ "${n:-0}" -gt 0 ] || { echo "$0: no loop timer or cycle in the $v run" >&2; exit 1; }
        echo "$loop" >> "$tmp/loop_$v"
        awk -v s="$loop" -v c="$cells" -v n="$n" 'BEGIN {print s / c / n * 1e9}' >> "$tmp/ns_$v"
        bytes_avg_of "$tmp/out" | awk -v np="$np" '{print $1 * np}' >> "$tmp/bytes_$v"
        [ -s "$tmp/bytes_$v" ] || echo 0 >> "$tmp/bytes_$v" # one rank sends nothing
        sed -n 's/.*Peak resident memory per rank: .* avg \([0-9.]*\) MB.*/\1/p' "$tmp/out" |
            awk -v np="$np" '{print $1 * np}' >> "$tmp/mb_$v"
        echo "$cells" > "$tmp/cells"
    done
done

echo "| ranks x threads | loop s | ns per cell-cycle | speed-up over 1 x 1 | sync bytes per cycle (all ranks) | peak MB (all ranks) |"
echo "|---|---:|---:|---:|---:|---:|"
base=$(median < "$tmp/loop_1x1")
for v in $variants; do
    l=$(median < "$tmp/loop_$v") ns=$(median < "$tmp/ns_$v") b=$(median < "$tmp/bytes_$v") mb=$(median < "$tmp/mb_$v")
    awk -v v="$v" -v l="$l" -v ns="$ns" -v b="$b" -v mb="$mb" -v base="$base" 'BEGIN {
        split(v, p, "x"); printf "| %d x %d | %.3f | %.0f | %.2f | %.0f | %.1f |\n", p[1], p[2], l, ns, base / l, b, mb }'
    key=$(echo "$v" | sed "s/$T/T/g")
    if [ -n "$out" ]; then
        {
            echo "threads_${key}_loop_s $l"
            echo "threads_${key}_ns $ns"
            echo "threads_${key}_bytes $b"
            echo "threads_${key}_mb $mb"
        } >> "$out"
    fi
done
[ -z "$out" ] || { echo "threads_t $T"; echo "threads_cells $(cat "$tmp/cells")"; } >> "$out"
echo
echo "$(cat "$tmp/cells") cells, $cycles cycles, $repeats interleaved repeats, medians; mpirun --bind-to none, OMP_NUM_THREADS per variant."
