#!/bin/sh
# SimGrid SMPI build (make smpi, run/smpirun.sh): skipped without smpicc or build-smpi/hydro (a
# failure under CI=true: test/lib.sh's skip_all); make check builds build-smpi/hydro when smpicc is there. A tiny
# deck on 4 simulated ranks gives the real build's results, the SMPI notes and scaled times, with
# measured or modelled compute and with the flow or the latency-only network; 12 ranks with
# migrations (the exchange's windows) give the real build's totals; run/smpi_msgcost.sh runs.
. test/lib.sh
SMPI_BUILD=${HYDRO_SMPI_BUILD:-build-smpi}
case $SMPI_BUILD in /*) ;; *) SMPI_BUILD=$top/$SMPI_BUILD ;; esac
command -v smpicc >/dev/null 2>&1 || skip_all "smpicc not installed (make smpi installs SimGrid)"
[ -x "$SMPI_BUILD/hydro" ] || skip_all "$SMPI_BUILD/hydro not built (make smpi)"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
export SMPI_BUILD
LAUNCH=$top/run/smpirun.sh
# 30 cycles of Sod along x with the remap on a 64 x 4 x 4 mesh: totals listed every 10 cycles.
set -- $top/inputs/sod_x.ini mesh.nx=64 mesh.ny=4 mesh.nz=4 run.max_cycles=30 output.listing_period=10 \
    output.checkpoint_period=-1 physics.remap=euler
# loop_time FILE: the simulated loop seconds of a listing.
loop_time() { sed -n 's/.*  loop: *\([0-9.e+-]*\) .*/\1/p' "$1"; }

timeout "$TIMEOUT" sh "$LAUNCH" -n 4 "$@" > sim.out 2> sim.err
rc=$?
ok $rc "run/smpirun.sh -n 4 runs a deck"
[ $rc -eq 0 ] || diag "$(cat sim.err)"
grep -q '^\*I-Internal   TotalReel = .*  loop: ' sim.out; ok $? "the listing on stdout has the TotalReel loop line"
grep -q 'SMPI build.*blocking MPI_Allreduce' sim.out; ok $? "the listing says the SMPI build's reductions are blocking"
grep -q ', 4 ranks x 1 thread, ' sim.out; ok $? "hydro ran on 4 simulated ranks, one thread each"
! grep -q '^\[' sim.out; ok $? "SimGrid's messages stay off stdout"

# Same code, same reductions: the totals printed by the simulated run are those of a real run.
if [ -x "$HYDRO" ]; then
    mpi 4 "$HYDRO" "$@" > real.out 2> real.err
    grep '^\*I-Hydro      Totals' real.out > real.tot
    grep '^\*I-Hydro      Totals' sim.out > sim.tot
    [ -s real.tot ] && cmp -s real.tot sim.tot; ok $? "mass and energy totals equal the real build's, digit for digit"
    [ -s real.tot ] || diag "$(cat real.err)"
    # two materials (the Arcane-size bench decks' ZG_mat and ZD_mat): mixed cells in SMPI too;
    # smpirun splits its arguments at blanks, so the lists are written with commas
    timeout "$TIMEOUT" sh "$LAUNCH" -n 4 "$@" case.materials=ZG,ZD materials.names=ZG,ZD materials.eos=perfect,perfect \
        materials.gamma=1.4,1.4 > simm.out 2> simm.err
    mat="case.materials=ZG ZD"
    mpi 4 "$HYDRO" "$@" "$mat" "materials.names=ZG ZD" "materials.eos=perfect perfect" "materials.gamma=1.4 1.4" \
        > realm.out 2> realm.err
    grep '^\*I-Hydro      \(Totals\|Materials\)' realm.out > realm.tot
    grep '^\*I-Hydro      \(Totals\|Materials\)' simm.out > simm.tot
    [ -s realm.tot ] && grep -q Materials realm.tot && cmp -s realm.tot simm.tot
    ok $? "two materials (lists with commas): totals and each material's mass as the real build's (blanks), digit for digit"
    [ -s simm.tot ] || diag "$(cat simm.err)"
fi

timeout "$TIMEOUT" sh "$LAUNCH" -s 8 -n 4 "$@" > sim8.out 2> sim8.err
t1=$(loop_time sim.out) t8=$(loop_time sim8.out)
awk -v a="$t1" -v b="$t8" 'BEGIN { exit !(a > 0 && b > 3 * a) }'
ok $? "-s 8 makes the simulated loop longer (loop $t1 s, with -s 8: $t8 s)"

# The compute model (-m): kernel costs from a real 1-rank run; simulated times then depend on the
# work only, so two runs give the same times to the last digit, whatever the machine's load.
if [ -x "$HYDRO" ]; then
    HYDRO_KERNEL_REPORT=$tmp/costs.txt mpi 1 "$HYDRO" "$@" > cal.out 2>&1
    timeout "$TIMEOUT" sh "$LAUNCH" -m costs.txt -s 8 -n 4 "$@" > m1.out 2> m1.err
    rc=$?
    [ $rc -eq 0 ] && grep -q "SMPI compute model $tmp/costs.txt: .* owned items x 8, ghost items x 4;" m1.out
    ok $? "-m runs with the model, owned work x 8 and ghost work x 4 (exit $rc)"
    [ $rc -eq 0 ] || diag "$(cat m1.err)"
    timeout "$TIMEOUT" sh "$LAUNCH" -m costs.txt -s 8 -n 4 "$@" > m2.out 2> m2.err
    grep '^\*I-Timers ' m1.out > m1.tim
    grep '^\*I-Timers ' m2.out > m2.tim
    [ -s m1.tim ] && cmp -s m1.tim m2.tim; ok $? "two model runs: every timer identical"
    grep '^\*I-Hydro      Totals' m1.out > m1.tot
    [ -s m1.tot ] && cmp -s m1.tot sim.tot; ok $? "the model changes times only: totals as the measured run's"
    awk '$1 == "lagrange_geometry" { $6 = "x" } { print }' costs.txt > broken.txt
    timeout "$TIMEOUT" sh "$LAUNCH" -m broken.txt -n 2 "$@" > b.out 2> b.err
    [ $? -eq 2 ] && grep -q "broken.txt:.*expected 'kernel calls items active_items seconds a b'" b.err
    ok $? "a damaged costs file is refused with FILE:LINE and exit 2"
    # -l: latency-only network (SimGrid's Constant model): the same results, every message SECONDS
    timeout "$TIMEOUT" sh "$LAUNCH" -m costs.txt -s 8 -l 2.1e-6 -n 4 "$@" > l1.out 2> l1.err
    rc=$?
    grep '^\*I-Hydro      Totals' l1.out > l1.tot
    [ $rc -eq 0 ] && [ -s l1.tot ] && cmp -s l1.tot sim.tot && grep -q 'latency-only network, 2.1e-6 s per message' l1.err
    ok $? "-l runs on a latency-only network with the same totals (exit $rc)"
    [ $rc -eq 0 ] || diag "$(cat l1.err)"
    timeout "$TIMEOUT" sh "$LAUNCH" -m costs.txt -s 8 -l 1e-3 -n 4 "$@" > l2.out 2> l2.err
    a=$(loop_time l1.out) b=$(loop_time l2.out)
    awk -v a="$a" -v b="$b" 'BEGIN { exit !(a > 0 && b > a + 30 * 1e-3) }'
    ok $? "-l sets the message time: 1 ms per message adds more than 1 ms per cycle (loop $a s, then $b s)"
    sh "$LAUNCH" -l fast -n 2 "$@" > /dev/null 2> b.err
    [ $? -eq 2 ] && grep -q "'fast' is not a positive number" b.err; ok $? "-l with a bad value exits 2"
    sh "$LAUNCH" -m nonexistent.txt -n 2 "$@" > /dev/null 2> b.err
    [ $? -eq 2 ] && grep -q "costs file 'nonexistent.txt' not readable" b.err; ok $? "-m with a missing file exits 2"
fi

# 12 ranks, more than the 8 ring distances the SMPI build's exchange posts at a time (mesh/comm.c),
# and cells shuffled between ranks every 10 cycles: set-up and migrations through several windows
if [ -x "$HYDRO" ]; then
    lb="loadbalance.mode=shuffle loadbalance.period=10"
    timeout "$TIMEOUT" sh "$LAUNCH" -n 12 "$@" $lb > w.out 2> w.err
    rc=$?
    mpi 12 "$HYDRO" "$@" $lb > wreal.out 2> wreal.err
    grep '^\*I-Hydro      Totals' wreal.out > wreal.tot
    grep '^\*I-Hydro      Totals' w.out > w.tot
    [ $rc -eq 0 ] && [ -s wreal.tot ] && cmp -s wreal.tot w.tot && grep -q 'Rebalance at cycle 20 (shuffle)' w.out
    ok $? "12 simulated ranks with migrations: totals equal the real build's, digit for digit (exit $rc)"
    [ $rc -eq 0 ] || diag "$(tail -5 w.err)"
fi

# A simulation that SimGrid stops on a deadlock is a failure (SimGrid itself exits 0): a program
# in place of hydro whose two ranks each wait for the other's message first.
mkdir -p dead
cat > dead/dead.c <<'EOF2'
#include <mpi.h>
int main(int argc, char **argv)
{
    int r, v = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &r);
    MPI_Recv(&v, 1, MPI_INT, 1 - r, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Send(&v, 1, MPI_INT, 1 - r, 0, MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
EOF2
smpicc -o dead/hydro dead/dead.c 2> dead/cc.err
SMPI_BUILD=$tmp/dead timeout "$TIMEOUT" sh "$LAUNCH" -n 2 "$@" > dead.out 2> dead.err
rc=$?
[ $rc -eq 1 ] && grep -q 'Deadlock detected' dead.err && grep -q 'smpirun.sh: SimGrid found the simulated ranks blocked' dead.err
ok $? "a simulation SimGrid stops on a deadlock exits 1, saying so (exit $rc)"
[ $rc -eq 1 ] || diag "$(tail -5 dead.err; cat dead/cc.err)"

# run/smpi_msgcost.sh: SimGrid's cost per message, no hydro code
timeout "$TIMEOUT" sh "$top/run/smpi_msgcost.sh" -l -k 2 -m 400 4 8 > mc.out 2> mc.err
rc=$?
[ $rc -eq 0 ] && [ "$(grep -c ' ranks .* messages .* us per message$' mc.out)" -eq 2 ]
ok $? "run/smpi_msgcost.sh prints one line per rank count (exit $rc)"
[ $rc -eq 0 ] || diag "$(cat mc.err)"
timeout "$TIMEOUT" sh "$top/run/smpi_msgcost.sh" -l -k 4 -m 400 4 > /dev/null 2> mc.err
[ $? -eq 1 ] && grep -q 'usage: msgcost' mc.err; ok $? "run/smpi_msgcost.sh: as many neighbours as ranks fails, saying why"
sh "$top/run/smpi_msgcost.sh" -k 0 4 > /dev/null 2> mc.err
[ $? -eq 2 ] && grep -q '^usage: run/smpi_msgcost.sh' mc.err; ok $? "run/smpi_msgcost.sh: a bad number gets the usage and exit 2"
timeout "$TIMEOUT" sh "$top/run/smpi_msgcost.sh" -l -k 2 -m 400 -c smpi/send-is-detached-thresh:0 4 > mc.out 2> mc.err
rc=$?
[ $rc -eq 0 ] && [ "$(grep -c ' ranks .* messages .* us per message$' mc.out)" -eq 1 ]
ok $? "run/smpi_msgcost.sh -c: small messages by rendezvous (exit $rc)"
timeout "$TIMEOUT" sh "$top/run/smpi_msgcost.sh" -l -k 2 -m 400 -c smpi/no-such-option:1 4 > /dev/null 2> mc.err
[ $? -eq 1 ] && grep -q '4 ranks failed' mc.err; ok $? "run/smpi_msgcost.sh -c: an option SimGrid does not know reaches it and fails"
sh "$top/run/smpi_msgcost.sh" -c 'a b' 4 > /dev/null 2> mc.err
[ $? -eq 2 ] && grep -q '^usage: run/smpi_msgcost.sh' mc.err; ok $? "run/smpi_msgcost.sh -c: a malformed option gets the usage and exit 2"

timeout "$TIMEOUT" sh "$LAUNCH" -n 2 "$@" output.checkpoint_period=5 > dump.out 2> dump.err
rc=$?
[ $rc -eq 2 ] && grep -q 'no HDF5 output; set output.checkpoint_period = -1' dump.err
ok $? "a deck asking for dumps is refused with exit 2"
[ $rc -eq 2 ] || diag "exit $rc: $(cat dump.err)"
timeout "$TIMEOUT" sh "$LAUNCH" -n 2 "$@" loadbalance.period=5 loadbalance.speeds=measured > speeds.out 2> speeds.err
rc=$?
[ $rc -eq 2 ] && grep -q 'loadbalance.speeds: measured needs CPU clocks' speeds.err
ok $? "loadbalance.speeds = measured is refused with exit 2 (the SMPI build's clocks are the simulated one)"

sh "$LAUNCH" -n 0 "$top/inputs/sod_x.ini" > /dev/null 2> usage.err
[ $? -eq 2 ]; ok $? "bad usage exits 2"
sh "$LAUNCH" -n 4096 "$top/inputs/sod_x.ini" > /dev/null 2> usage.err
[ $? -eq 2 ] && grep -q 'hosts' usage.err; ok $? "more ranks than platform hosts is refused"
sh "$LAUNCH" -h | grep -q '^usage: run/smpirun.sh'; ok $? "-h prints the usage"

# TERM to run/smpirun.sh alone (a `kill`, or a timeout that signals no process group) stops the
# simulation (hydro's SIGTERM stop, as on a real run): it ran to its end while the script, in the
# foreground, deferred its trap. The deck would run for hours (10^8 cycles, no final time, cells
# near cubes); this run's simulation is the smpimain whose command line has its own copy of it.
cp "$top/inputs/sod_x.ini" "$tmp/forever.ini"
running() { pgrep -f "smpimain .*$tmp/forever.ini" > /dev/null; }
gone() { ! running && ! kill -0 $w 2> /dev/null; } # the simulation and the script
mkdir sig
TMPDIR=$tmp/sig sh "$LAUNCH" -n 4 "$tmp/forever.ini" mesh.nx=203 mesh.ny=2 mesh.nz=2 run.max_cycles=100000000 \
    physics.final_time=1e9 output.checkpoint_period=-1 > sig.out 2> sig.err &
w=$!
poll 600 running
sleep 1
running; started=$?
kill -TERM $w
poll 200 gone
running; stopped=$?
# the failure's leftovers go, so that the test never hangs
[ $stopped -ne 0 ] || pkill -KILL -f "smpimain .*$tmp/forever.ini"
kill -0 $w 2> /dev/null && kill -KILL $w
wait $w
rc=$?
[ $started -eq 0 ] && [ $stopped -ne 0 ] && [ $rc -eq 143 ] && ! ls sig | grep -q hydro-smpi &&
    grep -q '^\*I-Stop .*SIGTERM at cycle [0-9]* .*; ending$' sig.out && ! grep -q 'Stopped:' sig.out
r=$?
ok $r "TERM to run/smpirun.sh alone reaches hydro (it stops) within 20 s, removes its files, exits 143"
[ $r -eq 0 ] || diag "started $started, stopped $stopped, exit $rc, left: $(ls sig); $(tail -n 3 sig.out sig.err)"

done_testing
