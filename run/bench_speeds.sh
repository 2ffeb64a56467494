#!/bin/sh
# Load balancing on ranks of different speeds (issue 17): the issue's 2-rank case (as
# run/bench_balance.sh runs it: inputs/default.ini on 200 x 20 x 20 cells, 60 cycles, a slab of
# cells 4 x as costly, cost_units fixed, checks every 10 cycles deciding by gain) with a busy loop
# sharing rank 0's core (ranks bound to cores, the loop pinned to core CORE), or without it (-n):
# no load balancing, METIS with equal shares (loadbalance.speeds = equal) and METIS with parts
# sized by the measured speeds (speeds = measured), interleaved. Prints per variant the median
# loop time, its ratio to the run without load balancing, the rebalances, and the largest
# measured imbalance at a check after a rebalance.
# usage: run/bench_speeds.sh [-r REPEATS] [-c CORE] [-n] [-o FILE] [section.key=value ...]
#   -o appends "key value" lines (speeds_<variant>_loop, speeds_<variant>_ratio, and
#      speeds_<variant>_imb_after when the variant rebalanced) to FILE
# env: MPIRUN (launcher, default "mpirun"), MPI_ARGS (extra launcher arguments), HYDRO (binary)
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
hydro=${HYDRO:-$top/build/hydro}
mpirun_cmd=${MPIRUN:-mpirun}
repeats=3
core=0
busy=1
out=
while getopts r:c:no: opt; do
    case $opt in
    r) repeats=$OPTARG ;;
    c) core=$OPTARG ;;
    n) busy=0 ;;
    o) out=$OPTARG ;;
    *) echo "usage: $0 [-r REPEATS] [-c CORE] [-n] [-o FILE] [section.key=value ...]" >&2; exit 2 ;;
    esac
done
shift $((OPTIND - 1))
case $repeats in "" | *[!0-9]* | 0) echo "$0: -r needs a positive count" >&2; exit 2 ;; esac
[ -x "$hydro" ] || { echo "$0: $hydro not found: build it with make" >&2; exit 1; }
command -v taskset > /dev/null || { echo "$0: taskset (util-linux) is needed to pin the busy loop" >&2; exit 1; }
tmp=$(mktemp -d)
loop_pid=
cleanup() { [ -z "$loop_pid" ] || kill "$loop_pid" 2> /dev/null || true; rm -rf "$tmp"; }
trap cleanup EXIT
trap 'exit 143' TERM HUP # dash runs the EXIT trap on exit, not on a signal: the busy loop must not stay
trap 'exit 130' INT
. "$top/run/bench_lib.sh" # median, loop_max
base="mesh.nx=200 mesh.ny=20 mesh.nz=20 run.max_cycles=60 output.checkpoint_period=-1 loadbalance.cost=region
      loadbalance.cost_factor=4 loadbalance.threshold=0.05 loadbalance.cost_units=110"
if [ $busy = 1 ]; then # at most an hour, whatever happens to this script
    timeout 3600 taskset -c "$core" sh -c 'while :; do :; done' &
    loop_pid=$!
    sleep 0.2
    kill -0 "$loop_pid" 2> /dev/null || { echo "$0: the busy loop did not start on core $core" >&2; exit 1; }
fi
# the largest imbalance measured at a check after the first rebalance
imb_after() {
    awk '/Rebalance at cycle/ {r = 1; next}
         r && /imbalance (measured )?[0-9.]+/ {sub(/.*imbalance (measured )?/, ""); v = $1 + 0; if (v > m) m = v; n++}
         END {print n ? m : "-"}' "$1"
}
variants="none equal measured"
for i in $(seq "$repeats"); do
    for v in $variants; do
        case $v in
        none) keys="loadbalance.period=0" ;;
        *) keys="loadbalance.period=10 loadbalance.speeds=$v" ;;
        esac
        # shellcheck disable=SC2086
        $mpirun_cmd ${MPI_ARGS:-} --bind-to core -np 2 "$hydro" "$top/inputs/default.ini" $base $keys "$@" > "$tmp/out" 2>&1 ||
            { tail -n 5 "$tmp/out" >&2; exit 1; }
        loop_max "$tmp/out" >> "$tmp/loop.$v"
        grep -c 'Rebalance at cycle' "$tmp/out" | tr '\n' ',' >> "$tmp/reb.$v" || true
        imb_after "$tmp/out" >> "$tmp/imb.$v"
    done
done
ref=$(median < "$tmp/loop.none")
echo "issue 17's case on 2 ranks, $([ $busy = 1 ] && echo "a busy loop sharing core $core (rank 0's)" || echo "no busy loop"); medians of $repeats interleaved runs"
printf '%-10s %8s %7s %12s %12s\n' variant "loop s" ratio rebalances "imb. after"
for v in $variants; do
    l=$(median < "$tmp/loop.$v")
    imb=$(grep -v '^-$' "$tmp/imb.$v" | sort -g | tail -n 1)
    ratio=$(awk -v a="$l" -v b="$ref" 'BEGIN {print a / b}')
    printf '%-10s %8.3f %7.3f %12s %12s\n' "$v" "$l" "$ratio" "$(sed 's/,$//' "$tmp/reb.$v")" "${imb:--}"
    if [ -n "$out" ]; then
        printf 'speeds_%s_loop %s\nspeeds_%s_ratio %s\n' "$v" "$l" "$v" "$ratio" >> "$out"
        [ -z "$imb" ] || printf 'speeds_%s_imb_after %s\n' "$v" "$imb" >> "$out"
    fi
done
