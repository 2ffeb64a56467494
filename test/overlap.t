#!/bin/sh
# Overlap of ghost exchanges with interior work (issue 18; [parallel] overlap, sync_pattern
# minimal): every case gives the same dump bit for bit with the overlap and without, every ghost
# equals its owner after each exchange (HYDRO_CHECK_GHOSTS=1), the kernel report counts the same
# calls and items (a kernel called in two parts counts once), a failure names the same cell, and
# the listing says how many exchanges per cycle stayed in flight: per remap step one (the new
# cell values, over the inner nodes and cells), between two steps one (over the next step's
# targets and inner values), at the end of the cycle one (over the dt candidate).
. test/lib.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
export OMP_WAIT_POLICY=passive
last_dump() { ls "$1"/checkpoints/hydro_*.h5 2> /dev/null | sort | tail -n 1; }
# run DIR NP THREADS ARGS...: hydro in DIR (listing in log, stderr and exit status in err)
run() {
    d=$1 np=$2 t=$3
    shift 3
    mkdir -p "$d"
    (cd "$d" && OMP_NUM_THREADS=$t HYDRO_KERNEL_REPORT=kernels.txt timeout "$TIMEOUT" $MPIRUN --bind-to none \
        -np "$np" "$HYDRO" "$@" > log 2> err)
    echo "rc=$?" >> "$d/err"
}
# pair NAME NP THREADS PER_CYCLE ARGS...: minimal with and without the overlap on NP ranks x
# THREADS, the overlapped run checking every ghost; PER_CYCLE exchanges in flight per cycle
pair() {
    name=$1 np=$2 t=$3 per=$4
    shift 4
    HYDRO_CHECK_GHOSTS=1 run "$name.on" "$np" "$t" "$@" parallel.sync_pattern=minimal output.checkpoint_period=0
    run "$name.off" "$np" "$t" "$@" parallel.sync_pattern=minimal parallel.overlap=false output.checkpoint_period=0
    a=$(last_dump "$name.on") b=$(last_dump "$name.off")
    out=$(sh "$top/test/h5same.sh" --any-deck "$a" "$b" 2>&1)
    rc=$?
    [ -n "$a" ] && grep -q 'rc=0' "$name.on/err" && grep -q 'rc=0' "$name.off/err"
    ok $((rc | $?)) "$name on $np rank(s) x $t thread(s): dump with the overlap bit for bit the one without"
    [ $rc -eq 0 ] || diag "$out$(cat "$name.on/err" "$name.off/err")"
    checked=$(sed -n 's/.*HYDRO_CHECK_GHOSTS: \([0-9]*\) synchronisations checked.*/\1/p' "$name.on/log")
    [ "${checked:-0}" -gt 0 ]
    ok $? "$name: every ghost equals its owner after each of the $checked exchanges (overlap on)"
    got=$(sed -n 's/.*Overlap: \([0-9.]*\) exchanges per cycle left in flight.*/\1/p' "$name.on/log")
    [ "$got" = "$per" ] && ! grep -q 'Overlap:' "$name.off/log"
    ok $? "$name: the listing counts $per exchanges per cycle in flight (got ${got:-none}), none without"
    # calls, items and active items of every kernel: the same whether called whole or in parts
    cut -d' ' -f1-4 "$name.on/kernels.txt" | grep -v '^#' > "$name.k.on"
    cut -d' ' -f1-4 "$name.off/kernels.txt" | grep -v '^#' > "$name.k.off"
    [ -s "$name.k.on" ] && cmp -s "$name.k.on" "$name.k.off"
    ok $? "$name: the kernel report counts the same calls and items with the overlap and without"
}

# 3D directional remap: 3 steps (3 + 2 + 1 exchanges)
pair sod3d_split 3 1 6.0 "$top/inputs/bench/mahyco.ini" mesh.nx=60 mesh.ny=12 mesh.nz=12 run.max_cycles=12
pair sod3d_split_threads 2 2 6.0 "$top/inputs/bench/mahyco.ini" mesh.nx=60 mesh.ny=12 mesh.nz=12 \
    run.max_cycles=12
# one remap step: 1 + 1
pair sedov2d 4 1 2.0 "$top/inputs/sedov_2d.ini" physics.remap=euler mesh.nx=48 mesh.ny=48 run.max_cycles=30
pair triple_point_3mat 3 1 2.0 "$top/inputs/triple_point_3mat.ini" run.max_cycles=40
# Lagrange only: the end of the cycle
pair noh2d_lagrange 3 1 1.0 "$top/inputs/noh_2d.ini" physics.remap=none mesh.nx=40 mesh.ny=40 run.max_cycles=30

# minimal's exchanges refresh only the ghost layers and the fields the kernels read before the
# next one (sync_points.c). as_one NAME NP WHAT ARGS...: the case on NP ranks gives 1 rank's dump
# bit for bit
as_one() {
    one=$1 ranks=$2 what=$3 # not run's names: it sets d, np and t
    shift 3
    run "$one.1" 1 1 "$@" parallel.sync_pattern=minimal output.checkpoint_period=0
    run "$one.$ranks" "$ranks" 1 "$@" parallel.sync_pattern=minimal output.checkpoint_period=0
    a=$(last_dump "$one.1") b=$(last_dump "$one.$ranks")
    out=$(sh "$top/test/h5same.sh" "$a" "$b" 2>&1)
    rc=$?
    [ -n "$a" ] && grep -q 'rc=0' "$one.1/err" && grep -q 'rc=0' "$one.$ranks/err" &&
        grep -q "^\*I-Internal.* $ranks ranks" "$one.$ranks/log"
    ok $((rc | $?)) "minimal, exchanges stopping at the layers read: $what on $ranks ranks = 1 rank, bit for bit"
    [ $rc -eq 0 ] || diag "$out$(cat "$one.1/err" "$one.$ranks/err")"
}
# 2D Sedov with directional sweeps, long enough for the blast to cross the ranks' boundaries
# (exchanges one layer shallower, between the steps or at the end of the cycle, fail it)
as_one sedov_dir 3 "directional 2D Sedov" "$top/inputs/sedov_2d.ini" physics.remap=euler \
    physics.remap_split=directional mesh.nx=40 mesh.ny=40 run.max_cycles=400
# three materials (a pure cell's material values are its cell's: the mass travels between the
# steps, the pressure goes with the materials'; leaving out the masses fails it)
as_one tp_dir 4 "directional triple point (3 materials)" "$top/inputs/triple_point_3mat.ini" \
    physics.remap_split=directional run.max_cycles=150

# the mahyco pattern synchronises where MaHyCo does: nothing stays in flight
run mahyco 2 1 "$top/inputs/bench/mahyco.ini" mesh.nx=30 mesh.ny=6 mesh.nz=6 run.max_cycles=3
grep -q 'rc=0' mahyco/err && ! grep -q 'Overlap:' mahyco/log && grep -q 'overlap = true' mahyco/log
ok $? "sync_pattern mahyco: no exchange left in flight, the key at its default"

# a failure names the same cell with the overlap and without
for o in true false; do
    run fail.$o 2 1 "$top/inputs/sod_x.ini" mesh.nx=4000 physics.cfl=1 physics.dt_init=1e-4 physics.dt_growth=2 \
        parallel.sync_pattern=minimal parallel.overlap=$o
done
m1=$(grep -o 'cell [0-9]*.*' fail.true/err | head -n 1) m2=$(grep -o 'cell [0-9]*.*' fail.false/err | head -n 1)
grep -q 'rc=1' fail.true/err && grep -q 'rc=1' fail.false/err && [ -n "$m1" ] && [ "$m1" = "$m2" ]
ok $? "a blown-up run fails with exit 1 naming the same cell with the overlap and without ($m1)"
[ -n "$m1" ] && [ "$m1" = "$m2" ] || diag "on: $(cat fail.true/err) off: $(cat fail.false/err)"

# a bad value is refused as every key's
printf '[parallel]\noverlap = sometimes\n' > bad.ini
run bad 1 1 "$tmp/bad.ini"
grep -q 'rc=2' bad/err && grep -q 'bad.ini:2:' bad/err
rc=$?
ok $rc "overlap = sometimes: FILE:LINE error, exit 2"
[ $rc -eq 0 ] || diag "$(cat bad/err)"

done_testing
