#!/bin/sh
# The offload build on an accelerator against the ordinary build (issue 18): the 3D bench deck
# (inputs/bench/mahyco.ini, NX x 20 x 20 cells, one rank, CYCLES cycles), the offload build with
# OMP_TARGET_OFFLOAD=MANDATORY (it stops rather than fall back to the host) against the ordinary
# build on 1 thread and on THREADS, alternated, REPEATS runs each. Prints per variant the median
# loop time and ns per cell-cycle, the copies per cycle the offload build's listing reports,
# whether each final dump is the 1-thread run's bit for bit, and else whether its density,
# internal energy and velocity lie within a relative 1e-9 of it (on a GPU the driver may fuse a
# multiply and an add that the host rounds apart: GCC 12 emits no rounding mode on them); then the
# device the listing names.
# For a GPU: make offload OFFLOAD=nvptx OFFLOAD_BUILD=build-nvptx, then
#   HYDRO_GPU=build-nvptx/hydro sh run/offload_gpu.sh
# (HYDRO_GPU=build-offload/hydro runs clang's host offload plugin: its figures are the copies' cost
# on the host, not an accelerator's).
# usage: run/offload_gpu.sh [-r REPEATS] [-c CYCLES] [-t THREADS] [-n NX]
# env: HYDRO (ordinary build, default build/hydro), HYDRO_GPU (offload build, default build-nvptx/hydro),
#      MPIRUN (launcher, default "mpirun"), OMP_TARGET_OFFLOAD (default MANDATORY)
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
hydro=${HYDRO:-$top/build/hydro}
gpu=${HYDRO_GPU:-$top/build-nvptx/hydro}
mpirun_cmd=${MPIRUN:-mpirun}
repeats=3 cycles=20 nx=100
offload=${OMP_TARGET_OFFLOAD:-MANDATORY}
threads=$(nproc)
while getopts r:c:t:n: opt; do
    case $opt in
    r) repeats=$OPTARG ;;
    c) cycles=$OPTARG ;;
    t) threads=$OPTARG ;;
    n) nx=$OPTARG ;;
    *) echo "usage: $0 [-r REPEATS] [-c CYCLES] [-t THREADS] [-n NX]" >&2; exit 2 ;;
    esac
done
case $hydro in /*) ;; *) hydro=$(pwd)/$hydro ;; esac
case $gpu in /*) ;; *) gpu=$(pwd)/$gpu ;; esac
for b in "$hydro" "$gpu"; do
    [ -x "$b" ] || { echo "$0: no executable $b" >&2; exit 2; }
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$top/run/bench_lib.sh" # median, close_dumps
cells=$((nx * 400))
keys="mesh.nx=$nx run.max_cycles=$cycles output.checkpoint_period=$cycles"
# run VARIANT: one run in $tmp/VARIANT.N, its loop seconds appended to $tmp/VARIANT.loop
run() {
    v=$1 i=$2
    d=$tmp/$v.$i
    mkdir -p "$d"
    case $v in
    cpu1) bin=$hydro t=1 ;;
    cpuN) bin=$hydro t=$threads ;;
    device) bin=$gpu t=$threads ;;
    esac
    # shellcheck disable=SC2086
    (cd "$d" && OMP_TARGET_OFFLOAD=$offload OMP_NUM_THREADS=$t OMP_WAIT_POLICY=passive \
        $mpirun_cmd --bind-to none -x OMP_TARGET_OFFLOAD -x OMP_NUM_THREADS -x OMP_WAIT_POLICY -np 1 "$bin" \
        "$top/inputs/bench/mahyco.ini" $keys > log 2> err) || { echo "$0: $v failed:" >&2; tail -5 "$d/err" >&2; exit 1; }
    sed -n 's/.*TotalReel = .*loop: \([0-9.e+-]*\) ).*/\1/p' "$d/log" >> "$tmp/$v.loop"
}
for i in $(seq "$repeats"); do
    for v in cpu1 cpuN device; do run $v "$i"; done
done
ref=$(ls "$tmp"/cpu1.1/checkpoints/hydro_*.h5 | tail -n 1)
printf '| variant | loop s | ns per cell-cycle | MB copied per cycle (to / back) | dumps bit for bit 1 thread'"'"'s | within 1e-9 |\n|---|---:|---:|---|---|---|\n'
for v in cpu1 cpuN device; do
    loop=$(median < "$tmp/$v.loop")
    ns=$(awk -v l="$loop" -v c="$cells" -v n="$cycles" 'BEGIN { printf "%.0f", l / (c * n) * 1e9 }')
    copies=$(sed -n 's/.*Offload: this rank copied \([0-9.]*\) MB per cycle to accelerator [0-9]* and \([0-9.]*\) MB back.*/\1 \/ \2/p' \
        "$tmp/$v.1/log")
    same=yes close=yes
    for i in $(seq "$repeats"); do
        dump=$(ls "$tmp/$v.$i"/checkpoints/hydro_*.h5 | tail -n 1)
        sh "$top/test/h5same.sh" --any-version "$ref" "$dump" > /dev/null 2>&1 || same=no
        close_dumps "$ref" "$dump" || close=no
    done
    name=$(case $v in cpu1) echo "host, 1 thread" ;; cpuN) echo "host, $threads threads" ;;
        device) echo "offload build ($(basename "$gpu"))" ;; esac)
    echo "| $name | $loop | $ns | ${copies:--} | $same | $close |"
done
echo "(median of $repeats alternated runs, 1 rank, $cells cells, $cycles cycles)"
grep -h 'Offload' "$tmp/device.1/log" | sed 's/^\*I-[A-Za-z]* *//' | head -n 2
