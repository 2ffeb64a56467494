#!/bin/sh
# Cell migration, point to point against MPI_Alltoallv, side by side: the MicroHydro lb8.1 deck
# (shuffles of whole subdomains every 5 cycles, 300 padding variables + a 50-wide array) on
# RANKS ranks, the two transports run interleaved; medians over every rebalance of every
# repeat of rank 0's Cell and Node transfer times (Arcane's total_time) and of its pack and
# rebuild seconds, with the bandwidth total_size / total_time.
# usage: run/bench_migration.sh [-n RANKS] [-r REPEATS] [section.key=value ...]
# env: MPIRUN (launcher, default "mpirun"), MPI_ARGS (extra launcher arguments), HYDRO (binary)
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
hydro=${HYDRO:-$top/build/hydro}
mpirun_cmd=${MPIRUN:-mpirun}
ranks=2
repeats=3
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
median() { sort -g | awk '{v[NR] = $1} END {print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }
for i in $(seq "$repeats"); do
    for t in p2p a2a; do
        if [ $t = a2a ]; then coll=TRUE; else coll=0; fi
        # shellcheck disable=SC2086
        ARCANE_MESH_EXCHANGE_USE_COLLECTIVE=$coll $mpirun_cmd ${MPI_ARGS:-} -np "$ranks" "$hydro" \
            "$top/inputs/bench/micro_hydro_lb8.1.ini" "$@" > "$tmp/out"
        for fam in Cell Node; do
            sed -n "s/.*ParallelExchanger $fam: ProcessExchange (end) total_time=//p" "$tmp/out" >> "$tmp/time_${t}_$fam"
            sed -n "s/.*ParallelExchanger $fam: ProcessExchange total_size=\([0-9]*\).*/\1/p" "$tmp/out" \
                >> "$tmp/size_${t}_$fam"
        done
        sed -n 's/.*seconds: .*pack \([0-9.]*\), transfer [0-9.]*, rebuild \([0-9.]*\)$/\1 \2/p' "$tmp/out" \
            >> "$tmp/phases_$t"
        grep '  loop:' "$tmp/out" | sed 's/.*loop: \([0-9.]*\).*/\1/' >> "$tmp/loop_$t"
    done
done
cells=$(sed -n 's/.*D hexes: \([0-9]*\) cells.*/\1/p' "$tmp/out")
n=$(wc -l < "$tmp/time_p2p_Cell")
echo "inputs/bench/micro_hydro_lb8.1.ini $*, $ranks ranks, $cells cells, $repeats interleaved repeats ($n migrations per transport), medians of rank 0's figures"
echo
echo "| transport | Cell MB | Cell total_time s | Cell MB/s | Node MB | Node total_time s | pack s | rebuild s | loop s |"
echo "|---|---|---|---|---|---|---|---|---|"
for t in p2p a2a; do
    cs=$(median < "$tmp/size_${t}_Cell") ct=$(median < "$tmp/time_${t}_Cell")
    ns=$(median < "$tmp/size_${t}_Node") nt=$(median < "$tmp/time_${t}_Node")
    pk=$(awk '{print $1}' "$tmp/phases_$t" | median) rb=$(awk '{print $2}' "$tmp/phases_$t" | median)
    name=$([ $t = p2p ] && echo "MPI_Isend/Irecv" || echo "MPI_Alltoallv")
    awk -v n="$name" -v cs="$cs" -v ct="$ct" -v ns="$ns" -v nt="$nt" -v pk="$pk" -v rb="$rb" -v lp="$(median < "$tmp/loop_$t")" \
        'BEGIN {printf "| %s | %.2f | %.4f | %.0f | %.2f | %.4f | %.4f | %.4f | %.3f |\n", n, cs / 1e6, ct, cs / 1e6 / ct, ns / 1e6, nt, pk, rb, lp}'
done
awk -v a="$(median < "$tmp/time_p2p_Cell")" -v b="$(median < "$tmp/time_a2a_Cell")" \
    'BEGIN {printf "| Alltoallv / Isend (Cell total_time) | | %.3f | | | | | | |\n", b / a}'
