#!/bin/sh
# Two hydro binaries side by side (a refactoring's before and after): grind time and peak memory
# on one rank (3D bisod_x of inputs/bench/mahyco.ini at 100 x 20 x 20, 2D Sedov with remap at
# 200 x 200) and memory and loop time on 2 ranks (mahyco.ini, 3 ghost layers), the binaries
# alternating run by run (which goes first alternates too), so that the machine's drift falls on
# both; medians over the repeats and the ratio B / A, printed as a Markdown table.
# usage: run/bench_compare.sh [-r REPEATS] [-c CYCLES] [-o FILE] HYDRO_A HYDRO_B
#   -o appends "key value" lines compare_<run>_<figure>_a, _b and _ratio (run: 3d 2d 2r; figure:
#      lagrange loop remap mem) to FILE
# env: MPIRUN (launcher, default "mpirun"), MPI_ARGS (extra launcher arguments)
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
mpirun_cmd=${MPIRUN:-mpirun}
repeats=5
cycles=20
out=
usage() { echo "usage: $0 [-r REPEATS] [-c CYCLES] [-o FILE] HYDRO_A HYDRO_B" >&2; exit 2; }
while getopts r:c:o: opt; do
    case $opt in
    r) repeats=$OPTARG ;;
    c) cycles=$OPTARG ;;
    o) out=$OPTARG ;;
    *) usage ;;
    esac
done
shift $((OPTIND - 1))
[ $# -eq 2 ] || usage
for n in "$repeats" "$cycles"; do case $n in "" | *[!0-9]* | 0) usage ;; esac; done
for h in "$1" "$2"; do [ -x "$h" ] || { echo "$0: $h is not an executable" >&2; exit 2; }; done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

. "$top/run/bench_lib.sh" # median, timer, peak, cells_of, cycles_of, bytes_avg_of

# one CASE run of binary number B (a or b): its figures appended to $tmp/B_<figure>
measure() {
    b=$1 case=$2 hydro=$3
    np=1
    case $case in
    3d) set -- "$top/inputs/bench/mahyco.ini" mesh.nx=100 ;;
    2d) set -- "$top/inputs/sedov_2d.ini" physics.remap=euler mesh.nx=200 mesh.ny=200 ;;
    2r) np=2 && set -- "$top/inputs/bench/mahyco.ini" ;;
    esac
    # shellcheck disable=SC2086
    $mpirun_cmd ${MPI_ARGS:-} -np $np "$hydro" "$@" run.max_cycles="$cycles" output.listing_period=0 \
        output.checkpoint_period=-1 > "$tmp/out" 2>&1 < /dev/null ||
        { echo "$0: $hydro failed on the $case run:" >&2; tail -n 5 "$tmp/out" >&2; exit 1; }
    own=$(sed -n 's/.*This rank: \([0-9]*\) owned cells.*/\1/p' "$tmp/out")
    n=$(cycles_of "$tmp/out")
    for t in lagrange remap loop; do
        awk -v s="$(timer "$tmp/out" $t)" -v c="$own" -v n="$n" 'BEGIN {print s / c / n * 1e9}' >> "$tmp/${b}_${case}_$t"
    done
    sed -n 's/.*; \([0-9]*\) bytes per owned cell.*/\1/p' "$tmp/out" >> "$tmp/${b}_${case}_mem"
}

for i in $(seq "$repeats"); do
    for case in 3d 2d 2r; do
        if [ $((i % 2)) -eq 1 ]; then
            measure a $case "$1"
            measure b $case "$2"
        else
            measure b $case "$2"
            measure a $case "$1"
        fi
    done
done

echo "A: $1"
echo "B: $2"
echo "$repeats repeats, A and B alternating (first alternating), $cycles cycles each, medians; ns per owned cell and cycle"
echo
echo "| run | figure | A | B | B / A |"
echo "|---|---|---|---|---|"
for case in 3d 2d 2r; do
    name=$(case $case in 3d) echo "1 rank, 3D bisod_x 40k cells" ;; 2d) echo "1 rank, 2D Sedov 40k cells" ;;
        2r) echo "2 ranks, mahyco.ini" ;; esac)
    for f in lagrange remap loop mem; do
        a=$(median < "$tmp/a_${case}_$f") b=$(median < "$tmp/b_${case}_$f")
        label=$([ $f = mem ] && echo "peak RSS B per owned cell" || echo "$f ns")
        awk -v n="$name" -v l="$label" -v a="$a" -v b="$b" \
            'BEGIN {printf "| %s | %s | %.0f | %.0f | %.3f |\n", n, l, a, b, (a > 0 ? b / a : 0)}'
        [ -z "$out" ] || awk -v k="compare_${case}_$f" -v a="$a" -v b="$b" \
            'BEGIN {printf "%s_a %s\n%s_b %s\n%s_ratio %.6f\n", k, a, k, b, k, (a > 0 ? b / a : 0)}' >> "$out"
    done
done
