#!/bin/sh
# Load balancing that pays (issue 17), side by side: the issue's 2-rank case (inputs/default.ini
# on 200 x 20 x 20 cells, 60 cycles, a slab of cells 4 x as costly, loadbalance.cost_units fixed
# so that every variant does the same work) without load balancing and with checks every 10
# cycles for each partitioner, deciding by gain and cost (the default) or rebalancing at every
# check (decide = threshold); the variants interleaved, REPEATS runs each. A partitioner's
# variants partition the set-up with it too ([parallel] partitioner; the set-up partition weighs
# the cells by the cost model, loadbalance.setup), and are measured against the run without load
# balancing from the same set-up partitioner ("none" for metis, "none.P" for the others). Prints
# per variant the median loop time and its ratio to that run, the rebalances, the new partitions
# kept out (judged no better by the phases), the largest measured imbalance at a check after a
# rebalance and at any check, and the median peak resident memory (largest rank) and its ratio. A
# run of uniform work (no remap, no cost model, checks that never rebalance), interleaved with
# them, gives the imbalance the machine alone adds (cores that run at different speeds: on a VM
# one core was for minutes 1.4 x slower than the other), beside which the imbalance after a
# rebalance is read.
# usage: run/bench_balance.sh [-n RANKS] [-r REPEATS] [-p "metis zoltan ptscotch"] [-d "gain threshold"] [-c] [-s]
#                             [-o FILE] [section.key=value ...]
#   -d the decide modes of each partitioner (default both)
#   -c also each variant with its set-up partition counting the cells (loadbalance.setup = false):
#      the variant's name ends in .counted
#   -s also each partitioner's weighed set-up partition alone (checks every 10 cycles that never rebalance,
#      threshold 1000): the variant P.setup, beside which P.gain shows what its rebalances add
#   -o appends "key value" lines (balance_<variant>_loop, ..._ratio, ..._peak (MB), ..._peak_ratio,
#      ..._kept (partitions kept out, the median run's count), ..._imb_checks (the largest measured
#      imbalance at a check) and ..._imb_after when the variant rebalanced; the variant's dots as
#      underscores) to FILE, and balance_machine_imb (the uniform run's largest imbalance at a check)
# env: MPIRUN (launcher, default "mpirun"), MPI_ARGS (extra launcher arguments), HYDRO (binary)
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
hydro=${HYDRO:-$top/build/hydro}
mpirun_cmd=${MPIRUN:-mpirun}
ranks=2
repeats=3
parts="metis zoltan ptscotch"
decides="gain threshold"
counted=
setup_only=
out=
while getopts n:r:p:d:cso: opt; do
    case $opt in
    n) ranks=$OPTARG ;;
    r) repeats=$OPTARG ;;
    p) parts=$OPTARG ;;
    d) decides=$OPTARG ;;
    c) counted=1 ;;
    s) setup_only=1 ;;
    o) out=$OPTARG ;;
    *) echo "usage: $0 [-n RANKS] [-r REPEATS] [-p PARTITIONERS] [-d DECIDES] [-c] [-s] [-o FILE] [section.key=value ...]" >&2
       exit 2 ;;
    esac
done
shift $((OPTIND - 1))
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$top/run/bench_lib.sh" # median
base="mesh.nx=200 mesh.ny=20 mesh.nz=20 run.max_cycles=60 output.checkpoint_period=-1 loadbalance.cost=region
      loadbalance.cost_factor=4 loadbalance.threshold=0.05 loadbalance.cost_units=110"
variants="machine none"
for p in $parts; do
    [ "$p" = metis ] || variants="$variants none.$p"
    [ -z "$setup_only" ] || variants="$variants $p.setup"
    for d in $decides; do
        case $d in gain | threshold) ;; *) echo "$0: -d: unknown decide mode '$d'" >&2; exit 2 ;; esac
        variants="$variants $p.$d"
        [ -z "$counted" ] || variants="$variants $p.$d.counted"
    done
done
for i in $(seq "$repeats"); do
    for v in $variants; do
        p=${v%%.*} rest=${v#*.} # partitioner, then decide mode (and .counted)
        case $v in
        none) keys="loadbalance.period=0" ;;
        none.*) keys="parallel.partitioner=$rest loadbalance.period=0" ;;
        machine) keys="loadbalance.period=10 loadbalance.cost=uniform loadbalance.threshold=1000 physics.remap=none" ;;
        *.setup) keys="parallel.partitioner=$p loadbalance.period=10 loadbalance.mode=$p" ;; # threshold: last, below
        *) keys="parallel.partitioner=$p loadbalance.period=10 loadbalance.mode=$p loadbalance.decide=${rest%.counted}"
           [ "${v%.counted}" = "$v" ] || keys="$keys loadbalance.setup=false" ;;
        esac
        last= # after the caller's keys: what the variant is
        [ "${v%.setup}" = "$v" ] || last=loadbalance.threshold=1000
        # shellcheck disable=SC2086
        $mpirun_cmd ${MPI_ARGS:-} -np "$ranks" "$hydro" "$top/inputs/default.ini" $base $keys "$@" $last > "$tmp/out"
        if [ "$v" = machine ]; then # the measured imbalance at every check, none above the threshold
            sed -n 's/.*Balance *Cycle [0-9]*: imbalance \([0-9.]*\) below threshold.*/\1/p' "$tmp/out" >> "$tmp/imb_machine"
            continue
        fi
        sed -n 's/.*TotalReel = .*loop: \([0-9.e+-]*\) ).*/\1/p' "$tmp/out" >> "$tmp/loop_$v"
        sed -n 's/.*Peak resident memory per rank: .* max \([0-9.]*\) MB.*/\1/p' "$tmp/out" >> "$tmp/peak_$v"
        grep -c 'Rebalance at cycle' "$tmp/out" >> "$tmp/reb_$v" || true
        grep -c 'partition is no better' "$tmp/out" >> "$tmp/kept_$v" || true
        # the measured imbalance at every check, and at each check that follows a rebalance
        sed -n 's/.*Balance *Cycle [0-9]*: imbalance \(measured \)\{0,1\}\([0-9.]*\)[ ,].*/\2/p' "$tmp/out" \
            >> "$tmp/imbc_$v"
        awk '/Rebalance at cycle/ {after = 1; next}
             after && /Balance +Cycle [0-9]+: imbalance/ { s = $0; sub(/.*imbalance (measured )?/, "", s); sub(/[ ,].*/, "", s)
                                                          print s; after = 0 }' "$tmp/out" >> "$tmp/imb_$v"
    done
done
printf '%-24s %9s %7s %11s %9s %11s %11s %9s %7s\n' variant "loop s" ratio rebalances "kept out" "imb. after" \
    "imb. checks" "peak MB" ratio
for v in $variants; do
    [ "$v" != machine ] || continue
    case $v in none | metis.*) ref=none ;; none.*) ref=$v ;; *) ref=none.${v%%.*} ;; esac
    loop0=$(median < "$tmp/loop_$ref" | awk '{printf "%.3f", $1}') peak0=$(median < "$tmp/peak_$ref")
    l=$(median < "$tmp/loop_$v" | awk '{printf "%.3f", $1}') p=$(median < "$tmp/peak_$v")
    r=$(sort -n "$tmp/reb_$v" | tr '\n' ' ' | sed 's/ $//;s/ /,/g')
    kept=$(sort -n "$tmp/kept_$v" | tr '\n' ' ' | sed 's/ $//;s/ /,/g')
    imb=$( [ -s "$tmp/imb_$v" ] && sort -g "$tmp/imb_$v" | tail -n 1 || echo -)
    imbc=$( [ -s "$tmp/imbc_$v" ] && sort -g "$tmp/imbc_$v" | tail -n 1 || echo -)
    lr=$(awk -v a="$l" -v b="$loop0" 'BEGIN { printf "%.3f", a / b }')
    pr=$(awk -v a="$p" -v b="$peak0" 'BEGIN { printf "%.3f", a / b }')
    printf '%-24s %9s %7s %11s %9s %11s %11s %9s %7s\n' "$v" "$l" "$lr" "$r" "$kept" "$imb" "$imbc" "$p" "$pr"
    if [ -n "$out" ]; then
        k=$(echo "$v" | tr . _)
        printf 'balance_%s_loop %s\nbalance_%s_ratio %s\nbalance_%s_peak_ratio %s\n' "$k" "$l" "$k" "$lr" "$k" "$pr" >> "$out"
        printf 'balance_%s_peak %s\n' "$k" "$p" >> "$out"
        printf 'balance_%s_kept %s\n' "$k" "$(median < "$tmp/kept_$v")" >> "$out"
        [ "$imb" = - ] || printf 'balance_%s_imb_after %s\n' "$k" "$imb" >> "$out"
        [ "$imbc" = - ] || printf 'balance_%s_imb_checks %s\n' "$k" "$imbc" >> "$out"
    fi
done
mach=$( [ -s "$tmp/imb_machine" ] && sort -g "$tmp/imb_machine" | tail -n 1 || echo -)
echo "(medians of $repeats interleaved runs on $ranks ranks, each variant's ratios against the run without load balancing"
echo " from the same set-up partitioner; rebalances, kept out: each run's count; imb. after: the largest measured"
echo " imbalance at a check after a rebalance; imb. checks: at any check)"
echo "machine alone: the largest imbalance measured at a check with uniform work (no remap, no cost model, no rebalance): $mach"
if [ -n "$out" ] && [ "$mach" != - ]; then
    printf 'balance_machine_imb %s\n' "$mach" >> "$out"
fi
