#!/bin/sh
# The offload build (issue 18; make offload, physics/device.h): the kernels written with DEVICE_FOR,
# DEVICE_FOR_SUM and DEVICE_FOR_REDUCE run on clang's x86_64 offload plugin, an accelerator whose memory is apart from
# the host's (OMP_TARGET_OFFLOAD=MANDATORY: no silent fall-back to the host), and every case gives
# the dump of the ordinary build bit for bit: an array the accelerator's copies lack is NULL
# there (the run crashes), one not brought back to the host before a synchronisation sends it,
# or not taken over after it wrote its ghosts, leaves one side stale (the dumps differ). Sod 3D
# with the directional remap on 2 ranks (the whole cycle on the accelerator), the same with
# exchanges in flight over the remap's kernels (pattern minimal: ghosts over when finished), with
# pattern minimal without them on 3 ranks (groups refreshing some layers only) and on 2 threads,
# Sedov 2D with remap on 3 ranks, the triple point with three materials (their cells and remap on
# the host), Noh 2D Lagrange-only (walls copied at every cycle), the MicroHydro deck shuffling
# cells (copies made anew on each new mesh), a failing run naming the same cell and check, and
# the listing's lines; Lagrange-only Noh with pattern minimal (its end-of-cycle exchange), Sedov on
# the Gmsh quarter disc (walls from positions that changed there); dumps and listed totals between
# the fields' copies back; the load balancer's decisions (its weights read the fields). Two cases
# run with HYDRO_CHECK_GHOSTS=1, which also compares the ghosts placed on the device with the host's.
. test/lib.sh
OFFLOAD=${HYDRO_OFFLOAD_BUILD:-build-offload}
case $OFFLOAD in /*) ;; *) OFFLOAD=$top/$OFFLOAD ;; esac
if [ ! -x "$OFFLOAD/hydro" ]; then
    if [ "${CI:-}" = true ]; then
        echo "1..1"
        ok 1 "the offload build $OFFLOAD/hydro exists (make check builds it with clang and libomp-14-dev)"
        exit 1
    fi
    echo "1..0 # SKIP no offload build (make offload; it needs clang and libomp-14-dev, make deps)"
    exit 0
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
export OMP_WAIT_POLICY=passive OMP_NUM_THREADS=1
last_dump() { ls "$1"/checkpoints/hydro_*.h5 2> /dev/null | sort | tail -n 1; }
# run DIR BINARY NP ARGS...: hydro in DIR (listing in log, stderr and exit status in err)
run() {
    d=$1 bin=$2 np=$3
    shift 3
    mkdir -p "$d"
    (cd "$d" && OMP_TARGET_OFFLOAD=MANDATORY timeout "$TIMEOUT" $MPIRUN -x OMP_TARGET_OFFLOAD -np "$np" "$bin" "$@" \
        > log 2> err)
    echo "rc=$?" >> "$d/err"
}
# same NAME NP ARGS...: the offload build's dump bit for bit the ordinary build's
same() {
    name=$1 np=$2
    shift 2
    run "$name.host" "$HYDRO" "$np" "$@"
    run "$name.dev" "$OFFLOAD/hydro" "$np" "$@"
    a=$(last_dump "$name.host") b=$(last_dump "$name.dev")
    out=$(sh "$top/test/h5same.sh" --any-version "$a" "$b" 2>&1)
    rc=$?
    [ -n "$a" ] && grep -q 'rc=0' "$name.host/err" && grep -q 'rc=0' "$name.dev/err"
    ok $((rc | $?)) "$name on $np rank(s): the offload build's dump bit for bit the ordinary build's"
    [ $rc -eq 0 ] || diag "$out$(cat "$name.dev/err")"
}

echo "1..19"
# HYDRO_CHECK_GHOSTS=1: after each synchronisation the ghosts placed there are read back and
# compared with the host's (a ghost not placed fails the run even where no dump would change)
export HYDRO_CHECK_GHOSTS=1
same sod3d_split 2 "$top/inputs/bench/mahyco.ini" mesh.nx=40 mesh.ny=8 mesh.nz=8 run.max_cycles=12 \
    output.checkpoint_period=0
unset HYDRO_CHECK_GHOSTS
grep -q 'Offload: the kernels of the cycle on accelerator 0 .*on the host the synchronisations and nothing else' \
    sod3d_split.dev/log
ok $? "the listing says the whole cycle ran on the accelerator"
[ $? -eq 0 ] || diag "$(grep -i offload sod3d_split.dev/log)"
# exchanges left in flight over the remap's kernels (pattern minimal): their ghosts over when finished
same sod3d_overlap 2 "$top/inputs/bench/mahyco.ini" mesh.nx=40 mesh.ny=8 mesh.nz=8 run.max_cycles=12 \
    parallel.sync_pattern=minimal output.checkpoint_period=0
grep -q 'on the host the synchronisations and nothing else' sod3d_overlap.dev/log &&
    grep -q 'Overlap: [1-9][0-9.]* exchanges per cycle left in flight' sod3d_overlap.dev/log
ok $? "... and with exchanges in flight over the remap's kernels, the whole cycle there too"
# ... and with directional sweeps that all move cells (Noh 2D): the exchange left in flight between
# two sweeps, its ghosts over at the next sweep's finish
export HYDRO_CHECK_GHOSTS=1
same noh2d_directional_overlap 3 "$top/inputs/noh_2d.ini" physics.remap_split=directional \
    parallel.sync_pattern=minimal mesh.nx=40 mesh.ny=40 run.max_cycles=30 output.checkpoint_period=0
unset HYDRO_CHECK_GHOSTS
# pattern minimal without the overlap: groups that refresh some ghost layers only, on the device
same sod3d_minimal 3 "$top/inputs/bench/mahyco.ini" mesh.nx=60 mesh.ny=8 mesh.nz=8 run.max_cycles=12 \
    parallel.sync_pattern=minimal parallel.overlap=false output.checkpoint_period=0
OMP_NUM_THREADS=2
same sod3d_threads 1 "$top/inputs/bench/mahyco.ini" mesh.nx=40 mesh.ny=8 mesh.nz=8 run.max_cycles=12 \
    output.checkpoint_period=0
OMP_NUM_THREADS=1
same sedov2d 3 "$top/inputs/sedov_2d.ini" physics.remap=euler mesh.nx=40 mesh.ny=40 run.max_cycles=30 \
    output.checkpoint_period=0
same triple_point_3mat 2 "$top/inputs/triple_point_3mat.ini" run.max_cycles=30 output.checkpoint_period=0
same noh2d_lagrange 2 "$top/inputs/noh_2d.ini" physics.remap=none mesh.nx=40 mesh.ny=40 run.max_cycles=30 \
    output.checkpoint_period=0
# pattern minimal's end-of-cycle exchange of the Lagrange phase: its ghosts over to the accelerator
same noh2d_lagrange_minimal 3 "$top/inputs/noh_2d.ini" physics.remap=none parallel.sync_pattern=minimal \
    mesh.nx=40 mesh.ny=40 run.max_cycles=20 output.checkpoint_period=0
# Lagrange-only on a curved boundary: the walls, built on the host at every cycle, from the
# positions the accelerator moved
same sedov_gmsh_lagrange 2 "$top/inputs/sedov_gmsh.ini" physics.remap=none run.max_cycles=30 \
    output.checkpoint_period=0
same shuffled 2 "$top/inputs/bench/mahyco.ini" mesh.nx=40 mesh.ny=8 mesh.nz=8 run.max_cycles=12 \
    loadbalance.period=4 loadbalance.mode=shuffle output.checkpoint_period=0
# the fields stay on the accelerator between cycles and come back when the host reads them: every
# dump (here on cycles without a listing line) and every listed total (on cycles without a dump)
# the ordinary build's (one rank: the host gets nothing from the synchronisations)
set -- "$top/inputs/bench/mahyco.ini" mesh.nx=40 mesh.ny=8 mesh.nz=8 run.max_cycles=12 output.checkpoint_period=5 \
    output.listing_period=3
run every.host "$HYDRO" 1 "$@"
run every.dev "$OFFLOAD/hydro" 1 "$@"
n=0 bad=
for a in every.host/checkpoints/hydro_*.h5; do
    n=$((n + 1))
    sh "$top/test/h5same.sh" --any-version "$a" "every.dev/checkpoints/${a##*/}" > /dev/null 2>&1 || bad="$bad ${a##*/}"
done
[ $n -eq 3 ] && [ -z "$bad" ] && grep -q 'rc=0' every.dev/err
ok $? "dumps on cycles 5 and 10 and the last, between listing lines: bit for bit the ordinary build's ($n dumps)"
[ -z "$bad" ] || diag "differ:$bad"
grep 'Totals at' every.host/log | sed 's/^[^T]*//' > every.host/totals
grep 'Totals at' every.dev/log | sed 's/^[^T]*//' > every.dev/totals
[ "$(wc -l < every.host/totals)" -eq 4 ] && cmp -s every.host/totals every.dev/totals
rc=$?
ok $rc "the listing's totals on cycles 3, 6, 9 and 12, between dumps: the ordinary build's to the last digit"
[ $rc -eq 0 ] || diag "$(diff every.host/totals every.dev/totals)"
# the load balancer's weights read the fields (the shock's cost model) between listing lines: the
# same decisions, cells moved and weights
same decisions 2 "$top/inputs/noh_2d.ini" physics.remap=none mesh.nx=40 mesh.ny=40 run.max_cycles=7 \
    loadbalance.period=2 loadbalance.cost=shock loadbalance.weights=total loadbalance.decide=threshold \
    loadbalance.threshold=0 output.listing_period=100 output.checkpoint_period=0
said='Rebalance at cycle [0-9]* ([a-z]*): [0-9]* cells moved\|cell weights [0-9.]* -> [0-9.]*\|current one is kept'
grep -o "$said" decisions.host/log > decisions.host/said
grep -o "$said" decisions.dev/log > decisions.dev/said
[ -s decisions.host/said ] && cmp -s decisions.host/said decisions.dev/said
rc=$?
ok $rc "... its rebalances the ordinary build's: $(grep -c 'cells moved' decisions.host/said) of 3 checks moved cells"
[ $rc -eq 0 ] || diag "$(diff decisions.host/said decisions.dev/said)"
# a failure seen on the accelerator names the same cell and check as on the host
run fail.host "$HYDRO" 1 "$top/inputs/sod_x.ini" mesh.nx=4000 physics.cfl=1 physics.dt_init=0.01 physics.dt_growth=2
run fail.dev "$OFFLOAD/hydro" 1 "$top/inputs/sod_x.ini" mesh.nx=4000 physics.cfl=1 physics.dt_init=0.01 \
    physics.dt_growth=2
m1=$(grep -o 'cell [0-9]*.*' fail.host/err | head -n 1) m2=$(grep -o 'cell [0-9]*.*' fail.dev/err | head -n 1)
grep -q 'rc=1' fail.host/err && grep -q 'rc=1' fail.dev/err && [ -n "$m1" ] && [ "$m1" = "$m2" ]
ok $? "a blown-up run fails with exit 1 naming the same cell and check with the offload build ($m2)"
[ -n "$m1" ] && [ "$m1" = "$m2" ] || diag "host: $(cat fail.host/err) offload: $(cat fail.dev/err)"
# the same failure: the check's file and line as the host build says them
f1=$(grep -o 'lagrange.c:[0-9]*' fail.host/err | head -n 1) f2=$(grep -o 'lagrange.c:[0-9]*' fail.dev/err | head -n 1)
[ -n "$f1" ] && [ "$f1" = "$f2" ]
ok $? "... at the same check ($f2)"
exit $((tap_failed > 0))
