#!/bin/sh
# Unit tests (pure functions: deck schema, elements, generator, Gmsh reader, id map, packing,
# exact sums, a rebalance's expected gain).
. test/lib.sh
for t in deck_test mesh_test physics_test exact_test stop_test crc_test kernels_test xsum_test balance_test; do
    run_ok "unit: $t" "$BUILD/test/$t"
done
done_testing
