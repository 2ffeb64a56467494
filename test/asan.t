#!/bin/sh
# The unit tests again, built with AddressSanitizer + UndefinedBehaviorSanitizer (leaks included).
. test/lib.sh
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=0:halt_on_error=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
for t in deck_test mesh_test physics_test exact_test stop_test crc_test kernels_test xsum_test balance_test; do
    run_ok "asan+ubsan: $t" "$ASAN_BUILD/test/$t"
done
done_testing
