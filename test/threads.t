#!/bin/sh
# OpenMP threads (issue 18): every case gives the same dump bit for bit on 1 rank with 1, 2 and 3
# threads and on 2 ranks with 2 threads each, against one rank and one thread: Sod 3D with the
# directional remap (both patterns), Sedov 2D with remap, the triple point with one and three
# materials (mixed cells appear and vanish: their slots change after the threaded loops), Noh
# 2D Lagrange-only (walls every cycle), the MicroHydro deck with shuffled cells, a restart on
# another thread count, a failing run naming the same cell; the listing's ranks x threads and
# its warning when a rank is bound to fewer cores than threads. Meshes are large enough that
# every kernel's loop runs threaded (mesh/par.h: PAR_MIN_ITEMS items at least).
. test/lib.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
# threads may use every core (mpirun binds a rank to one core otherwise), and wait without
# spinning: 2 ranks x 3 threads oversubscribe this machine's 2 cores
export OMP_WAIT_POLICY=passive
TMPI="$MPIRUN --bind-to none"
last_dump() { ls "$1"/checkpoints/hydro_*.h5 2> /dev/null | sort | tail -n 1; }
# run DIR NP THREADS ARGS...: hydro in DIR with THREADS threads per rank
run() {
    d=$1 np=$2 t=$3
    shift 3
    mkdir -p "$d"
    (cd "$d" && OMP_NUM_THREADS=$t timeout "$TIMEOUT" $TMPI -np "$np" "$HYDRO" "$@" > log 2> err)
    echo "rc=$?" >> "$d/err"
}
# same NAME ARGS...: 1 x 1 against 1 x 2, 1 x 3 and 2 x 2 (ranks x threads)
same() {
    name=$1
    shift
    run "$name.1x1" 1 1 "$@"
    ref=$(last_dump "$name.1x1")
    for v in 1x2 1x3 2x2; do
        run "$name.$v" "${v%x*}" "${v#*x}" "$@"
        out=$(sh "$top/test/h5same.sh" "$ref" "$(last_dump "$name.$v")" 2>&1)
        rc=$?
        [ -n "$ref" ] && grep -q 'rc=0' "$name.$v/err"
        ok $((rc | $?)) "$name: ${v%x*} rank(s) x ${v#*x} threads, dump bit for bit 1 x 1's"
        [ $rc -eq 0 ] || diag "$out$(cat "$name.$v/err")"
    done
}

same sod3d_mahyco "$top/inputs/default.ini" mesh.nx=60 mesh.ny=12 mesh.nz=12 run.max_cycles=12
same sod3d_minimal "$top/inputs/default.ini" mesh.nx=60 mesh.ny=12 mesh.nz=12 run.max_cycles=12 \
    parallel.sync_pattern=minimal
same sedov2d "$top/inputs/sedov_2d.ini" physics.remap=euler mesh.nx=64 mesh.ny=64 run.max_cycles=30
same triple_point "$top/inputs/triple_point.ini" run.max_cycles=60
same triple_point_3mat "$top/inputs/triple_point_3mat.ini" run.max_cycles=40
same noh2d_lagrange "$top/inputs/noh_2d.ini" mesh.nx=60 mesh.ny=60 run.max_cycles=40
same microhydro_shuffle "$top/inputs/bench/micro_hydro_lb8.1.ini" mesh.nx=120 mesh.ny=8 mesh.nz=8 \
    run.max_cycles=12 loadbalance.period=4 loadbalance.extra_cell_vars=2 output.checkpoint_period=0

vals() { # the dataset's values, one per line (its first DATA block)
    h5dump -y -m %.17g -d "$1" "$2" 2> /dev/null | awk '/DATA {/ { on = 1; next } on && /}/ { exit } on' |
        tr ',' '\n' | sed -n 's/^ *\([-0-9][-0-9.e+]*\) *$/\1/p'
}
mixed=$(vals /materials/count "$(last_dump triple_point_3mat.1x3)" | awk '$1 >= 2' | wc -l)
[ "$mixed" -gt 0 ]
ok $? "the three-material triple point on 3 threads ends with $mixed mixed cells (slots taken after the loops)"

# a restart on another thread count ends as the uninterrupted run
run full 1 2 "$top/inputs/triple_point.ini" run.max_cycles=40
run part 1 2 "$top/inputs/triple_point.ini" run.max_cycles=20
run rest 2 3 --restart "$tmp/$(last_dump part)" run.max_cycles=40
sh "$top/test/h5same.sh" --any-deck "$(last_dump full)" "$(last_dump rest)" > same.out 2>&1
ok $? "triple point stopped at cycle 20 on 1 x 2, restarted on 2 x 3: the final dump bit for bit the uninterrupted run's"
[ -s same.out ] && diag "$(cat same.out)"

# a failure names the same cell and exits 1 whatever the thread count
for t in 1 3; do
    run fail$t 1 $t "$top/inputs/sod_x.ini" mesh.nx=4000 physics.cfl=1 physics.dt_init=0.01 physics.dt_growth=2
done
m1=$(grep -o 'cell [0-9]*.*' fail1/err | head -n 1) m3=$(grep -o 'cell [0-9]*.*' fail3/err | head -n 1)
grep -q 'rc=1' fail1/err && grep -q 'rc=1' fail3/err && [ -n "$m1" ] && [ "$m1" = "$m3" ]
ok $? "a blown-up run fails with exit 1 naming the same cell on 1 and 3 threads ($m1)"
[ -n "$m1" ] && [ "$m1" = "$m3" ] || diag "1 thread: $(cat fail1/err) 3 threads: $(cat fail3/err)"

grep -q '1 ranks x 3 threads' triple_point.1x3/log && grep -q '2 ranks x 2 threads' triple_point.2x2/log &&
    grep -q '1 ranks x 1 thread,' triple_point.1x1/log
ok $? "the listing prints ranks x threads"
# unbound, a rank may use every core: a warning only for more threads than the machine has
warn3=0
[ "$(nproc)" -ge 3 ] || warn3=1
! grep -q 'Warning: .* threads per rank' triple_point.1x2/log &&
    [ "$(grep -c 'Warning: 3 threads per rank' triple_point.1x3/log)" -eq $warn3 ]
ok $? "unbound ranks (--bind-to none): no binding warning on 2 threads; on 3, one exactly when this machine has fewer cores ($(nproc))"
mkdir bound
(cd bound && OMP_NUM_THREADS=2 timeout "$TIMEOUT" $MPIRUN --bind-to core -np 1 "$HYDRO" "$top/inputs/sod_x.ini" \
    run.max_cycles=1 output.checkpoint_period=-1 > log 2>&1)
grep -q 'Warning: 2 threads per rank, but rank 0 may run on 1 core only' bound/log
ok $? "a rank bound to one core with 2 threads is warned, with the launcher options that fix it"
[ -s bound/log ] && grep -q Warning bound/log || diag "$(head -n 5 bound/log)"
# 2 ranks x 2 threads spinning on fewer than 4 cores: the listing says what to set
(cd bound && env -u OMP_WAIT_POLICY OMP_NUM_THREADS=2 timeout "$TIMEOUT" $TMPI -np 2 "$HYDRO" "$top/inputs/sod_x.ini" \
    run.max_cycles=1 output.checkpoint_period=-1 > log2 2>&1)
spin=0
[ "$(nproc)" -ge 4 ] || spin=1
[ "$(grep -c 'Warning: 2 ranks x 2 threads on a node of .*set OMP_WAIT_POLICY=passive' bound/log2)" -eq $spin ] &&
    ! grep -q 'OMP_WAIT_POLICY' triple_point.2x2/log
ok $? "2 ranks x 2 threads: a warning to set OMP_WAIT_POLICY=passive exactly when the node has fewer than 4 cores ($(nproc)); none once it is set"
(unset OMP_NUM_THREADS; cd bound && timeout "$TIMEOUT" $MPIRUN -np 1 "$HYDRO" "$top/inputs/sod_x.ini" run.max_cycles=1 \
    output.checkpoint_period=-1 > log1 2>&1)
grep -q '1 ranks x 1 thread,' bound/log1
ok $? "without OMP_NUM_THREADS a rank runs one thread (N ranks on N cores do not oversubscribe)"
done_testing
