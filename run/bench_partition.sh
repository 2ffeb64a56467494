#!/bin/sh
# Set-up partition against mesh size, per partitioner (issue 17): the sync_only deck on a cube of
# about CELLS hexes, one cycle, on RANKS ranks; per run the peak resident memory of the largest
# and smallest ranks (with metis, rank 0 generates the whole box and gathers the dual graph; with
# zoltan and ptscotch every rank generates its share and the graph stays distributed), the
# partition timer (graph build, partitioner, cells sent to their ranks), the set-up time (mesh
# generation + partition + ghost layers) and the partition's edge cut and imbalance. With -g the
# cube is a Gmsh file (run/gmsh_box.sh) that rank 0 reads whole for metis and every rank reads
# by shares for zoltan and ptscotch; the set-up time then includes the reading.
# usage: run/bench_partition.sh [-g] [-n RANKS] [-c "1000000 4000000"] [-p "metis zoltan ptscotch"] [section.key=value ...]
# env: MPIRUN (launcher, default "mpirun"), MPI_ARGS (extra launcher arguments), HYDRO (binary)
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
hydro=${HYDRO:-$top/build/hydro}
mpirun_cmd=${MPIRUN:-mpirun}
ranks=4
sizes="1000000 4000000"
parts="metis zoltan ptscotch"
gmsh=0
while getopts gn:c:p: opt; do
    case $opt in
    g) gmsh=1 ;;
    n) ranks=$OPTARG ;;
    c) sizes=$OPTARG ;;
    p) parts=$OPTARG ;;
    *) echo "usage: $0 [-g] [-n RANKS] [-c CELLS...] [-p PARTITIONERS] [section.key=value ...]" >&2; exit 2 ;;
    esac
done
shift $((OPTIND - 1))
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
timer() { awk -v t="$2" '/Rank 0 timers/ {g = 1} g && $2 == t {print $3; exit}' "$1"; }
printf '| cells | partitioner | peak MB, largest rank | peak MB, smallest rank | partition s | set-up s | edge cut | imbalance |\n'
printf '|---:|---|---|---:|---:|---:|---:|---:|\n'
for n in $sizes; do
    side=$(awk -v n="$n" 'BEGIN { printf "%d", n ^ (1 / 3) + 0.5 }')
    meshargs="mesh.nx=$side mesh.ny=$side mesh.nz=$side"
    if [ $gmsh = 1 ]; then
        sh "$top/run/gmsh_box.sh" "$side" "$side" "$side" "$tmp/box.msh"
        meshargs="mesh.kind=gmsh mesh.dim=3 mesh.file=$tmp/box.msh"
    fi
    for p in $parts; do
        # shellcheck disable=SC2086
        if ! $mpirun_cmd ${MPI_ARGS:-} -np "$ranks" "$hydro" "$top/inputs/sync_only.ini" $meshargs \
            run.max_cycles=1 output.checkpoint_period=-1 parallel.partitioner=$p "$@" > "$tmp/out" 2>&1; then
            printf '| %d | %s | failed: %s |\n' $((side * side * side)) "$p" "$(grep -m 1 -E 'hydro:|rror' "$tmp/out" || tail -n 1 "$tmp/out")"
            continue
        fi
        big=$(sed -n 's/.*Peak resident memory per rank: .* max \([0-9.]* MB (rank [0-9]*)\).*/\1/p' "$tmp/out" | sed 's/ MB//')
        small=$(sed -n 's/.*Peak resident memory per rank: min \([0-9.]*\) MB.*/\1/p' "$tmp/out")
        part=$(timer "$tmp/out" partition) mesh=$(timer "$tmp/out" mesh) ghosts=$(timer "$tmp/out" ghosts)
        setup=$(awk -v a="$part" -v b="$mesh" -v c="$ghosts" 'BEGIN { printf "%.2f", a + b + c }')
        cut=$(sed -n 's/.*Partition edge cut: \([0-9]*\) faces.*/\1/p' "$tmp/out")
        imb=$(sed -n 's/.*Partition [a-z]*: owned cells .*imbalance \([0-9.]*\)$/\1/p' "$tmp/out")
        printf '| %d | %s | %s | %s | %.2f | %s | %s | %s |\n' $((side * side * side)) "$p" "$big" "$small" "$part" \
            "$setup" "$cut" "$imb"
    done
done
echo "($ranks ranks; sync_only deck, one cycle; $([ $gmsh = 1 ] && echo "a Gmsh file" || echo "the generator"))"
