#!/bin/sh
# The SMPI build with Zoltan (make smpi-zoltan: Zoltan from Debian's Trilinos source built with
# smpicc, run/smpi_zoltan.sh): skipped without it (a failure under CI=true, where make deps-all
# builds Zoltan and make check this build). Simulated ranks get Zoltan's partitions of the real
# build (each rank its own copy of Zoltan's globals: without it PHG fails), rebalance with it,
# and give the real build's totals; the SMPI build without Zoltan refuses it, saying how to get it.
. test/lib.sh
ZBUILD=${HYDRO_SMPI_ZOLTAN_BUILD:-build-smpi-zoltan}
case $ZBUILD in /*) ;; *) ZBUILD=$top/$ZBUILD ;; esac
command -v smpicc >/dev/null 2>&1 || skip_all "smpicc not installed (make smpi installs SimGrid)"
[ -x "$ZBUILD/hydro" ] || skip_all "$ZBUILD/hydro not built (make smpi-zoltan)"
[ -x "$HYDRO" ] || skip_all "$HYDRO not built (make)"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
LAUNCH=$top/run/smpirun.sh
set -- "$top/inputs/default.ini" mesh.nx=40 mesh.ny=12 mesh.nz=12 run.max_cycles=6 output.checkpoint_period=-1 \
    parallel.partitioner=zoltan
partition() { grep -E '^\*I-Mesh       Partition (zoltan|edge cut)' "$1"; }

# The set-up's partition on 6 ranks: Zoltan's PHG, the same graph, the same seed.
SMPI_BUILD=$ZBUILD timeout "$TIMEOUT" sh "$LAUNCH" -n 6 "$@" > sim6.out 2> sim6.err
rc=$?
ok $rc "run/smpirun.sh -n 6 runs the Zoltan build with parallel.partitioner = zoltan"
[ $rc -eq 0 ] || diag "$(cat sim6.err)"
mpi 6 "$HYDRO" "$@" > real6.out 2> real6.err
partition real6.out > real6.part
partition sim6.out > sim6.part
[ "$(wc -l < real6.part)" -eq 2 ] && cmp -s real6.part sim6.part
ok $? "the simulated ranks' Zoltan partition is the real build's (cells per rank, edge cut)"
[ -s real6.part ] || diag "$(cat real6.err)"
cmp -s real6.part sim6.part || diag "real: $(cat real6.part) simulated: $(cat sim6.part)"

# Rebalancing with Zoltan at every second cycle: cells move, the totals stay the real build's (the
# set-up partition counting the cells, so that the first check has the costly cells to move).
lb="loadbalance.mode=zoltan loadbalance.period=2 loadbalance.decide=threshold loadbalance.threshold=0 \
loadbalance.cost=region loadbalance.cost_factor=4 loadbalance.setup=false"
# shellcheck disable=SC2086 # $lb holds separate keys
SMPI_BUILD=$ZBUILD timeout "$TIMEOUT" sh "$LAUNCH" -n 4 "$@" $lb > simlb.out 2> simlb.err
rc=$?
ok $rc "run/smpirun.sh -n 4 rebalances with zoltan"
[ $rc -eq 0 ] || diag "$(cat simlb.err)"
grep -q '^\*I-Balance    Rebalance at cycle 2 (zoltan): [1-9][0-9]* cells moved' simlb.out
ok $? "the listing reports the simulated Zoltan rebalance and the cells it moved"
# shellcheck disable=SC2086
mpi 4 "$HYDRO" "$@" $lb > reallb.out 2> reallb.err
grep '^\*I-Hydro      Totals' reallb.out > real.tot
grep '^\*I-Hydro      Totals' simlb.out > sim.tot
[ -s real.tot ] && cmp -s real.tot sim.tot; ok $? "mass and energy totals equal the real build's, digit for digit"
[ -s real.tot ] || diag "$(cat reallb.err)"

# The SMPI build without Zoltan refuses it and says how to build one with it.
SMPI=${HYDRO_SMPI_BUILD:-build-smpi}
case $SMPI in /*) ;; *) SMPI=$top/$SMPI ;; esac
if [ -x "$SMPI/hydro" ]; then
    SMPI_BUILD=$SMPI timeout "$TIMEOUT" sh "$LAUNCH" -n 2 "$@" > plain.out 2> plain.err
    rc=$?
    [ $rc -eq 2 ] && grep -q 'parallel.partitioner: this build has no zoltan .*make smpi-zoltan' plain.err
    ok $? "the SMPI build without Zoltan refuses parallel.partitioner = zoltan with exit 2, naming make smpi-zoltan"
    [ $rc -eq 2 ] || diag "exit $rc: $(cat plain.err)"
else
    skip 1 "$SMPI/hydro not built (make smpi)"
fi

done_testing
