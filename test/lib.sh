# Shared helpers of the shell tests (TAP producers run by prove from the repository root).
# Absolute paths, so that a test can run hydro from a scratch directory (dumps land there).
top=$(pwd)
BUILD=${HYDRO_BUILD:-build}
ASAN_BUILD=${HYDRO_ASAN_BUILD:-build-asan}
case $BUILD in /*) ;; *) BUILD=$top/$BUILD ;; esac
case $ASAN_BUILD in /*) ;; *) ASAN_BUILD=$top/$ASAN_BUILD ;; esac
MPIRUN=${HYDRO_MPIRUN:-mpirun --oversubscribe}
HYDRO=$BUILD/hydro
DECK=$top/inputs/sync_only.ini
# A run that hangs is a failure, not a stuck CI job.
TIMEOUT=${HYDRO_TEST_TIMEOUT:-120}
tap_n=0
tap_failed=0

# sanitizer_env: the options of every run of an ASan + UBSan build: stop at the first report,
# leaks included, Open MPI's own leftovers suppressed (test/lsan.supp names only its libraries).
sanitizer_env() {
    export ASAN_OPTIONS=detect_leaks=1:fast_unwind_on_malloc=0:halt_on_error=1
    export LSAN_OPTIONS=suppressions=$top/test/lsan.supp:print_suppressions=0
    export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
}

# ok STATUS DESCRIPTION: STATUS 0 is a pass.
ok() {
    tap_n=$((tap_n + 1))
    if [ "$1" -eq 0 ]; then
        echo "ok $tap_n - $2"
    else
        echo "not ok $tap_n - $2"
        tap_failed=$((tap_failed + 1))
    fi
}

# diag TEXT: TAP comment lines (the last 40 lines of TEXT).
diag() { printf '%s\n' "$1" | tail -n 40 | sed 's/^/# /'; }

# run_ok DESCRIPTION COMMAND...: passes when COMMAND exits 0 within the timeout.
run_ok() {
    desc=$1
    shift
    if [ "$1" = mpi ]; then # a shell function, which applies the timeout itself
        out=$("$@" 2>&1)
    else
        out=$(timeout "$TIMEOUT" "$@" 2>&1)
    fi
    rc=$?
    ok $rc "$desc"
    [ $rc -eq 0 ] || diag "exit $rc: $out"
}

# mpi NP ARGS...: hydro-style MPI launch used by the tests.
mpi() {
    np=$1
    shift
    timeout "$TIMEOUT" $MPIRUN -np "$np" "$@"
}

# hydro_in DIR NP ARGS...: run hydro in DIR (created), listing in DIR/log, stderr in DIR/err
hydro_in() {
    d=$1 np=$2
    shift 2
    mkdir -p "$d"
    (cd "$d" && mpi "$np" "$HYDRO" "$@" > log 2> err)
}
# moved DIR: cells moved in all rebalances of the run in DIR
moved() { sed -n 's/.*Rebalance at cycle [0-9]* ([a-z]*): \([0-9]*\) cells moved.*/\1/p' "$1/log" | awk '{s += $1} END {print s + 0}'; }

# skip_all REASON: this whole test cannot run here (a package or a build missing). Under CI=true
# (.ci/run, after make deps-all) nothing may be missing, so there it is a failure instead.
skip_all() {
    if [ "${CI:-}" = true ]; then
        echo "not ok 1 - $1 (CI=true: a skip is a failure; make deps-all installs what the tests need)"
        echo "1..1"
        exit 1
    fi
    echo "1..0 # SKIP $1"
    exit 0
}

# skip N REASON: the next N tests cannot run here; a failure under CI=true, as for skip_all.
skip() {
    for i in $(seq "$1"); do
        if [ "${CI:-}" = true ]; then
            ok 1 "$2 (CI=true: a skip is a failure)"
        else
            tap_n=$((tap_n + 1))
            echo "ok $tap_n # skip $2"
        fi
    done
}

# poll TRIES CMD [ARG...]: runs CMD every 0.1 s until it succeeds (status 0), at most TRIES
# times (then status 1): for a state another process reaches, never longer than that.
poll() {
    poll_n=$1
    shift
    poll_i=1
    until "$@"; do
        [ $poll_i -ge "$poll_n" ] && return 1
        poll_i=$((poll_i + 1))
        sleep 0.1
    done
}

done_testing() {
    echo "1..$tap_n"
    [ "$tap_failed" -eq 0 ]
}
