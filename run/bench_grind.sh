#!/bin/sh
# Grind time on one rank (ns per cell and cycle, Lagrange and remap phases and the whole loop)
# and peak memory per cell: 3D bisod_x (inputs/bench/mahyco.ini, 100 x 20 x 20 hexes) and 2D
# Sedov with Euler remap (inputs/sedov_2d.ini on 200 x 200 quads), the two run interleaved;
# medians over the repeats, printed as a Markdown table. Then one 3D run with 4 times the cells
# gives the memory each further cell costs (the difference of peak RSS over the difference of
# cells), which leaves out the fixed cost of the MPI process and its libraries.
# usage: run/bench_grind.sh [-r REPEATS] [-c CYCLES] [-s SCALE] [-o FILE]
#   -c cycles per run (default 20), -s divides each mesh's nx (quick checks), -o appends
#   "key value" lines (grind3d_lagrange_ns, ..., mem3d_bytes_per_cell, mem3d_marginal_*) to FILE.
# env: MPIRUN (launcher, default "mpirun"), MPI_ARGS (extra launcher arguments), HYDRO (binary)
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
hydro=${HYDRO:-$top/build/hydro}
mpirun_cmd=${MPIRUN:-mpirun}
repeats=5
cycles=20
scale=1
out=
usage() { echo "usage: $0 [-r REPEATS] [-c CYCLES] [-s SCALE] [-o FILE]" >&2; exit 2; }
help() { sed -n '2,/^set -eu/p' "$0" | sed -e '$d' -e 's/^# \{0,1\}//'; exit 0; }
while getopts r:c:s:o:h opt; do
    case $opt in
    r) repeats=$OPTARG ;;
    c) cycles=$OPTARG ;;
    s) scale=$OPTARG ;;
    o) out=$OPTARG ;;
    h) help ;;
    *) usage ;;
    esac
done
shift $((OPTIND - 1))
for n in "$repeats" "$cycles" "$scale"; do case $n in "" | *[!0-9]* | 0) usage ;; esac; done
[ $# -eq 0 ] || usage
[ -x "$hydro" ] || { echo "$0: $hydro not found: build it with make" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

. "$top/run/bench_lib.sh" # median, timer, peak, cells_of, cycles_of, bytes_avg_of

for i in $(seq "$repeats"); do
    for d in 3d 2d; do
        if [ $d = 3d ]; then
            set -- "$top/inputs/bench/mahyco.ini" mesh.nx=$((100 / scale))
        else
            set -- "$top/inputs/sedov_2d.ini" physics.remap=euler mesh.nx=$((200 / scale)) mesh.ny=200
        fi
        # shellcheck disable=SC2086
        $mpirun_cmd ${MPI_ARGS:-} -np 1 "$hydro" "$@" run.max_cycles="$cycles" output.listing_period=0 \
            output.checkpoint_period=-1 > "$tmp/out"
        cells=$(cells_of "$tmp/out")
        echo "$cells" > "$tmp/cells_$d"
        n=$(cycles_of "$tmp/out")
        [ "${n:-0}" -gt 0 ] || { echo "$0: no cycle done in the $d run" >&2; exit 1; }
        for t in lagrange remap loop; do
            secs=$(timer "$tmp/out" $t)
            [ -n "$secs" ] || { echo "$0: no '$t' timer in the listing of the $d run" >&2; exit 1; }
            awk -v s="$secs" -v c="$cells" -v n="$n" 'BEGIN {print s / c / n * 1e9}' >> "$tmp/${t}_$d"
        done
        echo "$n" > "$tmp/cycles_$d"
        sed -n 's/.*; \([0-9]*\) bytes per owned cell.*/\1/p' "$tmp/out" >> "$tmp/mem_$d"
    done
done

# peak RSS (bytes) and cells of a 3D run of nx cells along x, 2 cycles
rss_3d() {
    # shellcheck disable=SC2086
    $mpirun_cmd ${MPI_ARGS:-} -np 1 "$hydro" "$top/inputs/bench/mahyco.ini" mesh.nx="$1" run.max_cycles=2 \
        output.listing_period=0 output.checkpoint_period=-1 > "$tmp/out"
    c=$(cells_of "$tmp/out")
    b=$(sed -n 's/.*; \([0-9]*\) bytes per owned cell.*/\1/p' "$tmp/out")
    [ -n "$c" ] && [ -n "$b" ] || { echo "$0: no cells or memory in the listing of the nx=$1 run" >&2; exit 1; }
    echo "$c $((c * b))"
}
small=$(rss_3d $((100 / scale)))
large=$(rss_3d $((400 / scale)))
marginal=$(echo "$small $large" | awk '{printf "%.0f", ($4 - $2) / ($3 - $1)}')
cells_small=${small% *} cells_large=${large% *}
fixed=$(echo "$small $marginal" | awk '{printf "%.0f", $2 - $3 * $1}') # what the first cell costs

echo "one rank, $repeats interleaved repeats, $cycles cycles each, medians; ns per cell and cycle"
echo
echo "| case | cells | cycles | Lagrange ns | remap ns | loop (total) ns | peak RSS bytes per cell |"
echo "|---|---|---|---|---|---|---|"
for d in 3d 2d; do
    name=$([ $d = 3d ] && echo "3D bisod_x (mahyco.ini)" || echo "2D Sedov, Euler remap")
    printf '| %s | %s | %s | %.0f | %.0f | %.0f | %.0f |\n' "$name" "$(cat "$tmp/cells_$d")" "$(cat "$tmp/cycles_$d")" \
        "$(median < "$tmp/lagrange_$d")" "$(median < "$tmp/remap_$d")" "$(median < "$tmp/loop_$d")" \
        "$(median < "$tmp/mem_$d")"
    if [ -n "$out" ]; then
        [ $d = 2d ] || {
            echo "mem3d_marginal_bytes_per_cell $marginal"
            echo "mem3d_marginal_from_cells $cells_small"
            echo "mem3d_marginal_to_cells $cells_large"
            echo "mem3d_fixed_bytes $fixed"
        } >> "$out"
        {
            echo "grind${d}_cells $(cat "$tmp/cells_$d")"
            echo "grind${d}_cycles $(cat "$tmp/cycles_$d")"
            for t in lagrange remap loop; do echo "grind${d}_${t}_ns $(median < "$tmp/${t}_$d")"; done
            echo "mem${d}_bytes_per_cell $(median < "$tmp/mem_$d")"
        } >> "$out"
    fi
done
echo
echo "3D memory per further cell: peak RSS of $cells_large cells minus that of $cells_small, over the"
echo "$((cells_large - cells_small)) cells between (2 cycles each): $marginal bytes per cell, plus a fixed"
echo "$(awk -v f="$fixed" 'BEGIN {printf "%.1f", f / 1e6}') MB (the MPI process, libraries and what does not grow with the mesh)."
