#!/bin/sh
# Two materials against one, side by side: the 3D bench deck (inputs/bench/mahyco.ini, bisod_x
# on 100 x 20 x 20 hexes) with its one gas, and with the same gas declared as the two materials
# ZG and ZD of Arcane's deck (mixed cells along the contact). Interleaved runs; medians over the
# repeats of the grind time on one rank (ns per cell and cycle: loop, Lagrange, remap), of the
# peak memory per cell of a run with 4 times the cells minus the base run's (what each further
# cell costs), and of the bytes the ranks send per cycle on 2 ranks. Printed as a Markdown table,
# then the material synchronisations' bytes against Arcane's packing of the same values (3
# doubles per pure cell and 5 per two-material cell for each material variable).
# usage: run/bench_materials.sh [-r REPEATS] [-c CYCLES] [-s SCALE] [-o FILE]
#   -s divides the mesh's nx (quick checks); -o appends "key value" lines (mat_one_loop,
#   mat_two_loop, mat_*_lagrange, mat_*_remap in ns, mat_*_mem in bytes per cell, mat_*_bytes
#   sent per cycle) to FILE.
# env: MPIRUN (launcher, default "mpirun"), MPI_ARGS (extra launcher arguments), HYDRO (binary)
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
hydro=${HYDRO:-$top/build/hydro}
mpirun_cmd=${MPIRUN:-mpirun}
repeats=3
cycles=20
scale=1
out=
usage() { echo "usage: $0 [-r REPEATS] [-c CYCLES] [-s SCALE] [-o FILE]" >&2; exit 2; }
while getopts r:c:s:o:h opt; do
    case $opt in
    r) repeats=$OPTARG ;;
    c) cycles=$OPTARG ;;
    s) scale=$OPTARG ;;
    o) out=$OPTARG ;;
    h) sed -n '2,/^set -eu/p' "$0" | sed -e '$d' -e 's/^# \{0,1\}//'; exit 0 ;;
    *) usage ;;
    esac
done
shift $((OPTIND - 1))
for n in "$repeats" "$cycles" "$scale"; do case $n in "" | *[!0-9]* | 0) usage ;; esac; done
[ $# -eq 0 ] || usage
[ -x "$hydro" ] || { echo "$0: $hydro not found: build it with make" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

deck=$top/inputs/bench/mahyco.ini
. "$top/run/bench_lib.sh" # median, timer, peak, cells_of, cycles_of, bytes_avg_of
# hy NP VARIANT ARGS...: one run of the variant (one: the deck's gas; two: ZG and ZD)
hy() {
    np=$1 variant=$2
    shift 2
    if [ "$variant" = two ]; then
        set -- "$@" "case.materials=ZG ZD" "materials.names=ZG ZD" "materials.eos=perfect perfect" \
            "materials.gamma=1.4 1.4"
    fi
    # shellcheck disable=SC2086
    $mpirun_cmd ${MPI_ARGS:-} -np "$np" "$hydro" "$deck" mesh.nx=$((100 / scale)) run.max_cycles="$cycles" \
        output.listing_period=0 output.checkpoint_period=-1 "$@"
}

for i in $(seq "$repeats"); do
    for v in one two; do
        hy 1 $v > "$tmp/out"
        cells=$(cells_of "$tmp/out") n=$(cycles_of "$tmp/out")
        [ "${n:-0}" -gt 0 ] || { echo "$0: no cycle done ($v)" >&2; exit 1; }
        for t in loop lagrange remap; do
            awk -v s="$(timer "$tmp/out" $t)" -v c="$cells" -v n="$n" 'BEGIN {print s / c / n * 1e9}' >> "$tmp/${t}_$v"
        done
        p1=$(peak "$tmp/out")
        hy 1 $v mesh.nx=$((400 / scale)) > "$tmp/big"
        awk -v a="$p1" -v b="$(peak "$tmp/big")" -v c="$cells" 'BEGIN {print (b - a) * 1e6 / (3 * c)}' >> "$tmp/mem_$v"
        hy 2 $v > "$tmp/two"
        bytes_avg_of "$tmp/two" >> "$tmp/bytes_$v"
    done
done
row() { # row LABEL FILE_STEM FORMAT
    a=$(median < "$tmp/$2_one") b=$(median < "$tmp/$2_two")
    [ -z "$out" ] || printf 'mat_one_%s %s\nmat_two_%s %s\n' "$2" "$a" "$2" "$b" >> "$out"
    awk -v l="$1" -v a="$a" -v b="$b" -v f="$3" 'BEGIN {printf "| %s | " f " | " f " | %.3f |\n", l, a, b, b / a}'
}
echo "| per cell and cycle (medians of $repeats, interleaved) | one material | two materials | ratio |"
echo "|---|---|---|---|"
row "loop ns (1 rank, $cycles cycles)" loop "%.1f"
row "Lagrange ns" lagrange "%.1f"
row "remap ns" remap "%.1f"
row "memory per further cell, bytes" mem "%.0f"
row "bytes sent per cycle per rank (2 ranks)" bytes "%.0f"
# the material synchronisations of the last two-material run on 2 ranks (rank 0's listing; the
# same every run): hydro's messages against Arcane's packing of the same values
set -- $(sed -n 's/.*Material synchronisations per cycle: \([0-9.]*\); this rank sent per cycle: \([0-9]*\) messages, \([0-9]*\) bytes (Arcane.s packing of the same values: \([0-9]*\)).*/\1 \2 \3 \4/p' "$tmp/two")
if [ $# -eq 4 ]; then
    [ -z "$out" ] || printf 'mat_syncs %s\nmat_sync_bytes %s\nmat_arcane_bytes %s\n' "$1" "$3" "$4" >> "$out"
    echo
    echo "| material synchronisations, 2 ranks, rank 0, per cycle | hydro | Arcane's packing | ratio |"
    echo "|---|---|---|---|"
    echo "| synchronisations / messages | $1 / $2 | $1 / $2 | - |"
    awk -v a="$3" -v b="$4" 'BEGIN {printf "| bytes | %.0f | %.0f | %.3f |\n", a, b, a / b}'
fi
