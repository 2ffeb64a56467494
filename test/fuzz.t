#!/bin/sh
# The fuzz corpus (test/fuzz/corpus/) and every crash file make fuzz ever found
# (test/fuzz/crashes/) replayed through the harnesses built with ASan + UBSan: no crash, no
# sanitizer report, no leak from hydro's code (Open MPI's are suppressed by test/lsan.supp).
. test/lib.sh
sanitizer_env
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export TMPDIR=$tmp # the harnesses' temporary files
for h in deck gmsh checkpoint; do
    bin=$ASAN_BUILD/test/fuzz_${h}_replay
    set -- "$top/test/fuzz/corpus/$h"
    [ -d "$top/test/fuzz/crashes/$h" ] && set -- "$@" "$top/test/fuzz/crashes/$h"
    # under mpirun: as a singleton (MPI_Init without mpirun) with TMPDIR set, Open MPI's threads
    # make LeakSanitizer's own tracer crash at exit ("Tracer caught signal 11"), every time here
    out=$(mpi 1 "$bin" "$@" 2>&1)
    rc=$?
    n=$(printf '%s\n' "$out" | grep -c '^ok ')
    # a replayer that ran nothing proves nothing; sanitizer reports fail even with exit 0
    [ $rc -eq 0 ] && [ "$n" -gt 0 ] && ! printf '%s' "$out" | grep -q -e 'ERROR: [A-Za-z]*Sanitizer' -e 'SUMMARY: ' -e 'runtime error'
    pass=$?
    ok $pass "fuzz: $h harness replays $n inputs (corpus and crash files) under ASan + UBSan"
    [ $pass -eq 0 ] || printf 'exit %s:\n%s\n' "$rc" "$out" | tail -n 60 >&2 # shown by prove, also in CI logs
done
# The replayer's own failure path (every real input passes once its bug is fixed).
out=$("$ASAN_BUILD/test/fuzz_deck_replay" "$tmp/no such input" 2>&1)
[ $? -ne 0 ] && printf '%s' "$out" | grep -q '^not ok'
ok $? "fuzz: the replayer fails on an input it cannot read"
done_testing
