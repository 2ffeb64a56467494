#!/bin/sh
# make fuzz: runs each libFuzzer harness FUZZ_SECONDS on its seed corpus, one after the other.
# Usage: FUZZ_SECONDS=60 sh test/fuzz/campaign.sh FUZZ_BUILD HARNESS...
# New interesting inputs go to FUZZ_BUILD/corpus/<harness>/ (kept between campaigns, never in
# git); a crash, leak, timeout or out-of-memory file is copied into test/fuzz/crashes/<harness>/
# (replayed by make check from then on) and the campaign fails. Prints the executions per harness.
set -u
build=$1
shift
seconds=${FUZZ_SECONDS:-60}
top=$(pwd)
if [ "$(id -u)" = 0 ]; then
    export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
fi
# Open MPI's own leftovers after MPI_Init are suppressed, nothing of hydro's (test/lsan.supp).
export ASAN_OPTIONS=detect_leaks=1:fast_unwind_on_malloc=0
export LSAN_OPTIONS=suppressions=$top/test/lsan.supp:print_suppressions=0
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
summary=""
failed=0
for h in "$@"; do
    extra=
    case $h in
    deck) max_len=4096 ;;  # decks are short text; lines stop at 198 characters
    gmsh) max_len=16384 ;; # the seed meshes are under 5 KB
    checkpoint)
        max_len=32768 # the seed dumps are about 12 KB
        # A corrupt header makes HDF5 malloc gigabytes it never touches (it then finds the file
        # short and fails): only resident memory (-rss_limit_mb) counts as running out.
        extra=-malloc_limit_mb=1048576
        ;;
    *) max_len=8192 ;;
    esac
    work=$build/corpus/$h
    art=$build/artifacts/$h
    rm -rf "$art"
    mkdir -p "$work" "$art"
    log=$build/fuzz_$h.log
    echo "make fuzz: $h for $seconds s (log: $log)"
    # First directory: where libFuzzer adds inputs; the seeds are read only.
    "$build/fuzz/fuzz_$h" -max_total_time="$seconds" -max_len="$max_len" -timeout=10 -rss_limit_mb=2048 \
        -print_final_stats=1 -artifact_prefix="$art/" $extra "$work" "test/fuzz/corpus/$h" > "$log" 2>&1
    rc=$?
    execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
    found=$(ls "$art" 2>/dev/null)
    if [ -n "$found" ] || [ $rc -ne 0 ]; then
        failed=1
        mkdir -p "test/fuzz/crashes/$h"
        for f in $found; do
            cp "$art/$f" "test/fuzz/crashes/$h/$f"
            echo "make fuzz: $h: new regression input test/fuzz/crashes/$h/$f"
        done
        grep -E '^(==[0-9]+==ERROR|SUMMARY|fuzz_)|runtime error' "$log" | head -n 5
        summary="$summary$h: ${execs:-?} executions, FAILED (exit $rc, see $log)
"
    else
        summary="$summary$h: $execs executions, nothing found
"
    fi
done
printf 'make fuzz: %s s per harness\n%s' "$seconds" "$summary"
exit $failed
