#!/bin/sh
# hydro (the normal -O3 -g build) under valgrind memcheck: short runs on 1 rank (Open MPI
# singleton) and 2 ranks, with HDF5 dumps and restarts, report no error and no definite leak from
# hydro's code (test/valgrind.supp hides only Open MPI's, PMIx's and libevent's own noise).
. test/lib.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
if ! command -v valgrind > /dev/null; then
    ok 1 "valgrind is installed (make deps)"
    done_testing
    exit 1
fi
# --num-callers: deep enough that the suppressions reach MPI_Init; --keep-debuginfo: frames of
# the plug-ins Open MPI unloads at MPI_Finalize keep their names
vg="valgrind --tool=memcheck --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite
    --show-leak-kinds=definite --num-callers=50 --keep-debuginfo=yes --suppressions=$top/test/valgrind.supp
    --log-file=vg.%p.log"
small="output.listing_period=1 output.checkpoint_dir=dumps"

# vg_ok DESC DIR NP ARGS...: hydro ARGS under valgrind in DIR (created) on NP ranks (1: no
# mpirun); passes when it exits 0 and each rank's valgrind log ends with 0 errors (definite
# leaks count as errors)
vg_ok() {
    desc=$1 d=$2 np=$3
    shift 3
    mkdir -p "$d"
    if [ "$np" -eq 1 ]; then
        (cd "$d" && timeout "$TIMEOUT" $vg "$HYDRO" "$@" > log 2> err)
    else
        (cd "$d" && mpi "$np" $vg "$HYDRO" "$@" > log 2> err)
    fi
    rc=$?
    n=0 bad=
    for f in "$d"/vg.*.log; do
        [ -f "$f" ] || continue
        # a log without a summary is a child forked by Open MPI that exec'd its daemon (singleton
        # start): it must show no error stack either
        if grep -q 'ERROR SUMMARY:' "$f"; then
            n=$((n + 1))
            grep -q 'ERROR SUMMARY: 0 errors from 0 contexts' "$f" || bad="$bad $f"
        elif grep -q '^==[0-9]*== *at 0x' "$f"; then
            bad="$bad $f"
        fi
    done
    [ $rc -eq 0 ] && [ $n -eq "$np" ] && [ -z "$bad" ]
    ok $? "memcheck: $desc"
    [ $rc -eq 0 ] || diag "exit $rc: $(cat "$d/err")"
    [ $n -eq "$np" ] || diag "$n valgrind logs for $np ranks"
    for f in $bad; do diag "$(errors "$f")"; done
}
# errors LOG: valgrind's error reports in LOG, their first frames, then its summary line
errors() {
    awk '/^==[0-9]+== *$/ { n = 0; next }
         { n++ }
         n == 1 { keep = $0 !~ /(Memcheck,|Copyright|Using Valgrind|Command:|Parent PID|SUMMARY|track-origins|in use at exit|heap usage|lost:|reachable:|suppressed:|Reachable|To see them|rerun with|hwloc)/ }
         keep && n <= 8' "$1"
    grep 'ERROR SUMMARY' "$1"
}

# the suppressions name no function of hydro nor its executable (nor a pattern matching one)
own=$(nm -P --defined-only "$HYDRO" | awk '$2 ~ /^[TtWw]$/ { print $1 }')
hits=
set -f # the patterns are valgrind's, not file names
for pat in $(sed -n 's/^ *fun://p' "$top/test/valgrind.supp"); do
    for f in $own; do
        case $f in $pat) hits="$hits $pat=$f" ;; esac
    done
done
for pat in $(sed -n 's/^ *obj://p' "$top/test/valgrind.supp"); do
    case $HYDRO in $pat) hits="$hits $pat=$HYDRO" ;; esac
done
set +f
[ -n "$own" ] && [ -z "$hits" ]; ok $? "test/valgrind.supp names none of hydro's functions"
[ -z "$hits" ] || diag "suppression frames matching hydro's functions:$hits"

vg_ok "Sedov 2D on 1 rank, dump at cycle 5" one 1 "$top/inputs/sedov_2d.ini" mesh.nx=12 mesh.ny=12 \
    run.max_cycles=5 $small
vg_ok "restart of that dump on 1 rank to cycle 8" one_r 1 --restart ../one/dumps/hydro_000005.h5 run.max_cycles=8
vg_ok "restart of the 1-rank dump on 2 ranks to cycle 7" one2 2 --restart ../one/dumps/hydro_000005.h5 \
    run.max_cycles=7
vg_ok "Sod 3D on 2 ranks, cells migrating every 2 cycles, directional remap, dumps every 3 cycles" sod 2 \
    "$top/inputs/sod_3d_z.ini" mesh.nx=3 mesh.ny=3 mesh.nz=12 run.max_cycles=6 loadbalance.period=2 \
    loadbalance.mode=shuffle loadbalance.shuffle_fraction=0.5 physics.remap_split=directional \
    output.checkpoint_period=3 $small
[ -f one_r/dumps/hydro_000008.h5 ] && [ -f one2/dumps/hydro_000007.h5 ] && [ -f sod/dumps/hydro_000006.h5 ]
ok $? "the runs under valgrind wrote their final dumps"
done_testing
