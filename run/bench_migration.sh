#!/bin/sh
# Cell migration, point to point against MPI_Alltoallv, side by side: the MicroHydro lb8.1 deck
# (shuffles of whole subdomains every 5 cycles, 300 padding variables + a 50-wide array) on
# RANKS ranks, the two transports run interleaved; medians over every rebalance of every
# repeat of rank 0's Cell and Node transfer times (Arcane's total_time) and of its pack and
# rebuild seconds, with the bandwidth total_size / total_time. When build/bench/raw_p2p exists
# (make bench builds it), each repeat also times a raw MPI_Irecv/MPI_Isend exchange of the
# Cell and Node sizes rank 0 just sent (run/bench/raw_p2p.c), the bandwidth baseline, twice:
# each size exchanged back to back, its buffers left in cache by the previous exchange ("hot"),
# and the way a migration does it: caches flushed, every send buffer written, then Cell and Node
# one after the other ("cold", -c).
# usage: run/bench_migration.sh [-n RANKS] [-r REPEATS] [-o FILE] [section.key=value ...]
#   -o appends "key value" lines (mig_p2p_Cell_MBps, ..., raw_Cell_MBps, raw_cold_Cell_MBps, ...) to FILE
# env: MPIRUN (launcher, default "mpirun"), MPI_ARGS (extra launcher arguments), HYDRO (binary),
#      BENCH_BIN (directory of the raw programs, default build/bench)
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
hydro=${HYDRO:-$top/build/hydro}
mpirun_cmd=${MPIRUN:-mpirun}
raw_p2p=${BENCH_BIN:-$top/build/bench}/raw_p2p
ranks=2
repeats=3
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
warm=${BENCH_MIGRATION_WARMUP:-4} # migrations per run left out of the "after warm-up" medians
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$top/run/bench_lib.sh" # median, timer, peak
# raw MODE...: the baseline (hot: back to back; cold: as a migration), with the sizes the last
# point-to-point run sent; run between and after hydro's runs, so that it shares their minutes
raw() {
    [ -x "$raw_p2p" ] && [ "$ranks" -ge 2 ] || return 0
    for mode in "$@"; do
        # shellcheck disable=SC2086
        $mpirun_cmd ${MPI_ARGS:-} -np "$ranks" "$raw_p2p" -r 9 $([ $mode = cold ] && echo -c) \
            "$(tail -n 1 "$tmp/size_p2p_Cell")" "$(tail -n 1 "$tmp/size_p2p_Node")" > "$tmp/raw"
        awk 'NR == 1 {print $4 >> "'"$tmp/raw_${mode}_Cell"'"} NR == 2 {print $4 >> "'"$tmp/raw_${mode}_Node"'"}' "$tmp/raw"
    done
}
for i in $(seq "$repeats"); do
    for t in p2p a2a; do
        if [ $t = a2a ]; then coll=TRUE; else coll=0; fi
        # shellcheck disable=SC2086
        ARCANE_MESH_EXCHANGE_USE_COLLECTIVE=$coll $mpirun_cmd ${MPI_ARGS:-} -np "$ranks" "$hydro" \
            "$top/inputs/bench/micro_hydro_lb8.1.ini" "$@" > "$tmp/out"
        for fam in Cell Node; do
            sed -n "s/.*ParallelExchanger $fam: ProcessExchange (end) total_time=//p" "$tmp/out" >> "$tmp/time_${t}_$fam"
            # after the warm-up: the first migrations of a run fault in the pages of a growing heap
            sed -n "s/.*ParallelExchanger $fam: ProcessExchange (end) total_time=//p" "$tmp/out" |
                tail -n +$((warm + 1)) >> "$tmp/steady_${t}_$fam"
            sed -n "s/.*ParallelExchanger $fam: ProcessExchange total_size=\([0-9]*\).*/\1/p" "$tmp/out" \
                >> "$tmp/size_${t}_$fam"
        done
        sed -n 's/.*seconds: .*pack \([0-9.]*\), transfer [0-9.]*, rebuild \([0-9.]*\) (mesh .*$/\1 \2/p' "$tmp/out" \
            >> "$tmp/phases_$t"
        grep '  loop:' "$tmp/out" | sed 's/.*loop: \([0-9.]*\).*/\1/' >> "$tmp/loop_$t"
        if [ $t = p2p ]; then raw cold; else raw cold hot; fi
    done
done
cells=$(sed -n 's/.*D hexes: \([0-9]*\) cells.*/\1/p' "$tmp/out")
n=$(wc -l < "$tmp/time_p2p_Cell")
echo "inputs/bench/micro_hydro_lb8.1.ini${*:+ $*}, $ranks ranks, $cells cells, $repeats interleaved repeats ($n migrations per transport), medians of rank 0's figures"
echo
echo "| transport | Cell MB | Cell total_time s | Cell MB/s | Node MB | Node total_time s | pack s | rebuild s | loop s |"
echo "|---|---|---|---|---|---|---|---|---|"
[ -s "$tmp/steady_p2p_Cell" ] || warm=0
for t in p2p a2a; do
    cs=$(median < "$tmp/size_${t}_Cell") ct=$(median < "$tmp/time_${t}_Cell")
    ns=$(median < "$tmp/size_${t}_Node") nt=$(median < "$tmp/time_${t}_Node")
    pk=$(awk '{print $1}' "$tmp/phases_$t" | median) rb=$(awk '{print $2}' "$tmp/phases_$t" | median)
    name=$([ $t = p2p ] && echo "MPI_Isend/Irecv" || echo "MPI_Alltoallv")
    awk -v n="$name" -v cs="$cs" -v ct="$ct" -v ns="$ns" -v nt="$nt" -v pk="$pk" -v rb="$rb" -v lp="$(median < "$tmp/loop_$t")" \
        'BEGIN {printf "| %s | %.2f | %.4f | %.0f | %.2f | %.6f | %.4f | %.4f | %.3f |\n", n, cs / 1e6, ct, cs / 1e6 / ct, ns / 1e6, nt, pk, rb, lp}'
    [ -z "$out" ] || awk -v t="$t" -v cs="$cs" -v ct="$ct" -v ns="$ns" -v nt="$nt" 'BEGIN {
        printf "mig_%s_Cell_bytes %s\nmig_%s_Cell_s %s\nmig_%s_Cell_MBps %.2f\n", t, cs, t, ct, t, cs / 1e6 / ct
        printf "mig_%s_Node_bytes %s\nmig_%s_Node_s %s\nmig_%s_Node_MBps %.2f\n", t, ns, t, nt, t, ns / 1e6 / nt}' >> "$out"
    if [ "$warm" -gt 0 ]; then
        sct=$(median < "$tmp/steady_${t}_Cell") snt=$(median < "$tmp/steady_${t}_Node")
        awk -v n="$name" -v cs="$cs" -v ct="$sct" -v ns="$ns" -v nt="$snt" -v w="$warm" \
            'BEGIN {printf "| %s, after %d warm-up migrations per run | %.2f | %.4f | %.0f | %.2f | %.6f | | | |\n", n, w, cs / 1e6, ct, cs / 1e6 / ct, ns / 1e6, nt}'
        [ -z "$out" ] || awk -v t="$t" -v cs="$cs" -v ct="$sct" -v ns="$ns" -v nt="$snt" 'BEGIN {
            printf "mig_%s_Cell_steady_MBps %.2f\nmig_%s_Node_steady_MBps %.2f\n", t, cs / 1e6 / ct, t, ns / 1e6 / nt}' >> "$out"
    fi
done
for mode in hot cold; do
    [ -f "$tmp/raw_${mode}_Cell" ] || continue
    cs=$(median < "$tmp/size_p2p_Cell") ct=$(median < "$tmp/raw_${mode}_Cell")
    ns=$(median < "$tmp/size_p2p_Node") nt=$(median < "$tmp/raw_${mode}_Node")
    name=$([ $mode = hot ] && echo "back to back" || echo "as a migration, -c")
    awk -v n="$name" -v cs="$cs" -v ct="$ct" -v ns="$ns" -v nt="$nt" \
        'BEGIN {printf "| raw MPI_Irecv/Isend (run/bench/raw_p2p.c, %s) | %.2f | %.4f | %.0f | %.2f | %.6f | | | |\n", n, cs / 1e6, ct, cs / 1e6 / ct, ns / 1e6, nt}'
    key=$([ $mode = hot ] && echo raw || echo raw_cold)
    [ -z "$out" ] || awk -v k="$key" -v cs="$cs" -v ct="$ct" -v ns="$ns" -v nt="$nt" 'BEGIN {
        printf "%s_Cell_s %s\n%s_Cell_MBps %.2f\n%s_Node_s %s\n%s_Node_MBps %.2f\n", k, ct, k, cs / 1e6 / ct, k, nt, k, ns / 1e6 / nt}' >> "$out"
done
awk -v a="$(median < "$tmp/time_p2p_Cell")" -v b="$(median < "$tmp/time_a2a_Cell")" \
    'BEGIN {printf "| Alltoallv / Isend (Cell total_time) | | %.3f | | | | | | |\n", b / a}'
