#!/bin/sh
# The raw baselines of make bench (run/bench/*.c) build, run on tiny inputs (2 ranks, seconds),
# reject bad usage, and print the "key value" lines run/bench_report.sh parses. No timing is
# asserted: only that every figure is a positive number and the data arrived intact.
. test/lib.sh
bb=$BUILD/bench
out=$(make --no-print-directory BUILD="$BUILD" "$bb/raw_sync" "$bb/raw_matsync" "$bb/raw_p2p" "$bb/raw_write" "$bb/raw_mem" \
    2>&1)
rc=$?
ok $rc "the raw benchmark programs build"
[ $rc -eq 0 ] || diag "$out"
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

# positive KEY FILE: the line "KEY number" is there with a number > 0
positive() { awk -v k="$1" '$1 == k && $2 + 0 > 0 {f = 1} END {exit !f}' "$2"; }

# raw_sync: the sync_only deck on a small box; every mode checks every ghost itself (exit 1)
mpi 2 "$bb/raw_sync" -r 3 -k 2 "$DECK" mesh.nx=16 mesh.ny=5 mesh.nz=5 > "$scratch/sync" 2>&1
rc=$?
ok $rc "raw_sync runs on 2 ranks"
[ $rc -eq 0 ] || diag "$(cat "$scratch/sync")"
grep -qx 'ghosts_checked ok' "$scratch/sync"
ok $? "raw_sync: persistent, basic and raw exchanges fill every ghost with its owner's value"
st=0
for k in persistent_s basic_s raw_s raw_mpi_s bytes_per_set_max messages_per_set_max; do
    positive $k "$scratch/sync" || st=1
done
ok $st "raw_sync prints positive seconds for the 4 modes, bytes and messages"
grep -qx 'neighbours_max 1' "$scratch/sync" && grep -qx 'variables 7' "$scratch/sync"
ok $? "raw_sync: 2 ranks of a box are one neighbour each; 5 cell + 2 node variables"
mpi 2 "$bb/raw_sync" -r 1 > /dev/null 2>&1
ok $(($? != 2)) "raw_sync without a deck: exit 2"
mpi 2 "$bb/raw_sync" "$DECK" case.grouped=true > /dev/null 2>&1
ok $(($? != 2)) "raw_sync with grouped synchronisations: exit 2"

# raw_matsync: material variables on the same deck, mixed cells in the middle band; every mode
# checks every ghost, and the raw messages hydro's lengths and bytes, itself (exit 1)
mpi 2 "$bb/raw_matsync" -r 3 -k 2 "$DECK" mesh.nx=16 mesh.ny=5 mesh.nz=5 > "$scratch/matsync" 2>&1
rc=$?
ok $rc "raw_matsync runs on 2 ranks"
[ $rc -eq 0 ] || diag "$(cat "$scratch/matsync")"
grep -qx 'ghosts_checked ok' "$scratch/matsync" && grep -qx 'same_messages ok' "$scratch/matsync"
ok $? "raw_matsync: every mode fills every ghost with its owner's materials; the raw messages are hydro's bytes"
st=0
for k in persistent_s basic_s raw_s raw_mpi_s bytes_per_set_max messages_per_set_max mixed_cells; do
    positive $k "$scratch/matsync" || st=1
done
ok $st "raw_matsync prints positive seconds for the 4 modes, bytes, messages and mixed cells"
# 16 x 5 x 5 cells cut in the middle in x (block), a band of 4 columns mixed: per group each rank sends
# 3 columns of 25 cells, 2 of them mixed: (1 + 1) per cell + 1 per pure and 2 per mixed cell = 275
# doubles, 4 groups
mpi 2 "$bb/raw_matsync" -r 1 -k 2 "$DECK" mesh.nx=16 mesh.ny=5 mesh.nz=5 parallel.partitioner=block \
    > "$scratch/matblock" 2>&1
rc=$?
[ $rc -eq 0 ] || diag "$(cat "$scratch/matblock")"
grep -qx 'mixed_cells 100' "$scratch/matblock" && grep -qx 'mixed_sent_cells_max 50' "$scratch/matblock" &&
    grep -qx 'bytes_per_set_max 8800' "$scratch/matblock" && grep -qx 'messages_per_set_max 4' "$scratch/matblock" &&
    grep -qx 'recorded_max 4' "$scratch/matblock"
ok $(($? || rc)) "raw_matsync: 100 mixed cells, 8800 bytes in 4 messages per set, each persistent send recorded once"
mpi 2 "$bb/raw_matsync" -r 1 > /dev/null 2>&1
ok $(($? != 2)) "raw_matsync without a deck: exit 2"
mpi 2 "$bb/raw_matsync" -w x "$DECK" > /dev/null 2>&1
ok $(($? != 2)) "raw_matsync with a bad band width: exit 2"
mpi 2 "$bb/raw_matsync" "$DECK" case.name=sod > /dev/null 2>&1
ok $(($? != 2)) "raw_matsync on another case's deck: exit 2"

# raw_p2p: one line per size, in order, the size echoed
mpi 2 "$bb/raw_p2p" -r 3 1000 300000 > "$scratch/p2p" 2>&1
rc=$?
ok $rc "raw_p2p runs on 2 ranks"
[ $rc -eq 0 ] || diag "$(cat "$scratch/p2p")"
awk 'NR == 1 && $1 == "size" && $2 == 1000 && $3 == "seconds" && $4 > 0 && $5 == "MBps" && $6 > 0 {a = 1}
     NR == 2 && $2 == 300000 && $4 > 0 {b = 1} END {exit !(a && b && NR == 2)}' "$scratch/p2p"
ok $? "raw_p2p: 'size N seconds S MBps B' for each size"
mpi 2 "$bb/raw_p2p" -r 2 -c 1000 300000 > "$scratch/p2pc" 2>&1
rc=$?
[ $rc -eq 0 ] || diag "$(cat "$scratch/p2pc")"
awk 'NR == 1 && $2 == 1000 && $4 > 0 && $6 > 0 {a = 1} NR == 2 && $2 == 300000 && $4 > 0 {b = 1}
     END {exit !(a && b && NR == 2)}' "$scratch/p2pc"
ok $(($? || rc)) "raw_p2p -c (as a migration: flushed caches, sizes in order): the same lines, the received bytes checked"
mpi 1 "$bb/raw_p2p" 1000 > /dev/null 2>&1
ok $(($? != 2)) "raw_p2p on one rank: exit 2"
mpi 2 "$bb/raw_p2p" 12x > /dev/null 2>&1
ok $(($? != 2)) "raw_p2p with a bad size: exit 2"

# raw_write: the byte count, and no file left behind
"$bb/raw_write" -r 2 "$scratch" 300000 > "$scratch/write" 2>&1
rc=$?
ok $rc "raw_write runs"
awk '$1 == "bytes" && $2 == 300000 && $3 == "seconds" && $4 > 0 && $5 == "GBps" && $6 > 0 {f = 1} END {exit !f}' \
    "$scratch/write"
ok $? "raw_write: 'bytes N seconds S GBps B'"
[ ! -e "$scratch/.raw_write.tmp" ]
ok $? "raw_write removes its file"
"$bb/raw_write" "$scratch/missing/dir" 1000 > /dev/null 2>&1
ok $(($? != 1)) "raw_write into a missing directory: exit 1"
"$bb/raw_write" "$scratch" -5 > /dev/null 2>&1
ok $(($? != 2)) "raw_write with a bad byte count: exit 2"

# raw_mem: a bare MPI process holds some MB
mpi 2 "$bb/raw_mem" > "$scratch/mem" 2>&1
awk '$1 == "peak_rss_bytes" && $2 > 1e6 {f = 1} END {exit !f}' "$scratch/mem"
ok $? "raw_mem prints the peak RSS of a bare MPI process"

# bench_grind.sh on tiny meshes: grind times, memory per cell, and the memory of each further cell
HYDRO="$BUILD/hydro" MPIRUN="$MPIRUN" sh run/bench_grind.sh -r 1 -c 2 -s 20 -o "$scratch/grind" > "$scratch/grind.md" 2>&1
rc=$?
st=$rc
for k in grind3d_loop_ns grind2d_loop_ns mem3d_bytes_per_cell mem2d_bytes_per_cell mem3d_marginal_bytes_per_cell \
    mem3d_marginal_from_cells mem3d_fixed_bytes; do
    positive $k "$scratch/grind" || { st=1; diag "no positive $k"; }
done
awk '$1 == "mem3d_marginal_from_cells" {a = $2} $1 == "mem3d_marginal_to_cells" {b = $2} END {exit !(b == 4 * a)}' \
    "$scratch/grind" || st=1
ok $st "bench_grind.sh: grind, memory and per-further-cell memory figures (the larger run has 4 times the cells)"
[ $st -eq 0 ] || diag "$(cat "$scratch/grind.md")"

# bench_materials.sh on a tiny mesh: both variants' figures, the table
HYDRO="$BUILD/hydro" MPIRUN="$MPIRUN" sh run/bench_materials.sh -r 1 -c 2 -s 10 -o "$scratch/mat" > "$scratch/mat.md" 2>&1
st=$?
for v in one two; do
    for k in loop lagrange remap mem bytes; do
        positive mat_${v}_$k "$scratch/mat" || { st=1; diag "no positive mat_${v}_$k"; }
    done
done
grep -q '^| memory per further cell, bytes | [0-9]* | [0-9]* | [0-9.]* |$' "$scratch/mat.md" || st=1
ok $st "bench_materials.sh: two materials against one, grind, memory and bytes, with their ratios"
[ $st -eq 0 ] || diag "$(cat "$scratch/mat.md")"
sh run/bench_materials.sh -r x > /dev/null 2>&1
ok $(($? != 2)) "bench_materials.sh -r x: exit 2"

# bench_threads.sh on a tiny mesh: 1 x 1, 1 x 2 and 2 x 1, each variant's figures and the table
HYDRO="$BUILD/hydro" MPIRUN="$MPIRUN" OMP_WAIT_POLICY=passive sh run/bench_threads.sh -t 2 -r 1 -c 2 -s 10 \
    -o "$scratch/thr" > "$scratch/thr.md" 2>&1
st=$?
for v in 1x1 1xT Tx1; do
    for k in loop_s ns mb; do
        positive threads_${v}_$k "$scratch/thr" || { st=1; diag "no positive threads_${v}_$k"; }
    done
done
positive threads_Tx1_bytes "$scratch/thr" || st=1
awk '$1 == "threads_1xT_bytes" && $2 == 0 {f = 1} END {exit !f}' "$scratch/thr" || st=1
[ "$(grep -c '^| [12] x [12] | [0-9.]* | [0-9]* | [0-9.]* | [0-9]* | [0-9.]* |$' "$scratch/thr.md")" -eq 3 ] || st=1
ok $st "bench_threads.sh: 1 rank x 2 threads against 1 x 1 and 2 x 1: loop, grind, speed-up, bytes (none on one rank), memory"
[ $st -eq 0 ] || diag "$(cat "$scratch/thr.md")"
sh run/bench_threads.sh -t 1 > /dev/null 2>&1
ok $(($? != 2)) "bench_threads.sh -t 1: exit 2 (nothing to compare)"

# bench_weak.sh: 1 rank, 2 ranks and 2 independent 1-rank runs, the efficiency and the ceiling
HYDRO="$BUILD/hydro" MPIRUN="$MPIRUN" sh run/bench_weak.sh -r 1 -o "$scratch/weak" run.max_cycles=2 \
    > "$scratch/weak.md" 2>&1
st=$?
for k in weak_loop_1_s weak_loop_n_s weak_loop_indep_s weak_eff weak_ceiling; do
    positive $k "$scratch/weak" || { st=1; diag "no positive $k"; }
done
grep -q '^| 2 independent 1-rank runs at once (the ceiling) | [0-9.]* | [0-9.]* |$' "$scratch/weak.md" || st=1
ok $st "bench_weak.sh: 1 and 2 ranks and 2 independent runs: loops, efficiency, ceiling"
[ $st -eq 0 ] || diag "$(cat "$scratch/weak.md")"
sh run/bench_weak.sh -n 1 > /dev/null 2>&1
ok $(($? != 2)) "bench_weak.sh -n 1: exit 2 (nothing to compare)"
# -s cube: every rank the same block, the box's ly and lz per rank count, keys ending in _cube
HYDRO="$BUILD/hydro" MPIRUN="$MPIRUN" sh run/bench_weak.sh -r 1 -s cube -o "$scratch/weakc" run.max_cycles=2 \
    > "$scratch/weakc.md" 2>&1
st=$?
for k in weak_loop_1_s_cube weak_loop_n_s_cube weak_eff_cube weak_ceiling_cube; do
    positive $k "$scratch/weakc" || { st=1; diag "no positive $k"; }
done
c1='1 rank: mesh.nx=30 mesh.ny=26 mesh.nz=25 mesh.ly=0.866.* (19500 cells)'
c2='2 ranks: mesh.nx=60 mesh.ny=26 mesh.nz=25 mesh.ly=0.433.* (39000 cells)'
grep -q "mesh rule cube.*$c1, $c2" "$scratch/weakc.md" || st=1
ok $st "bench_weak.sh -s cube: one 30 x 26 x 25 block per rank, the box shrinking across, keys _cube"
[ $st -eq 0 ] || diag "$(cat "$scratch/weakc.md")"
sh run/bench_weak.sh -s sphere > /dev/null 2>&1
ok $(($? != 2)) "bench_weak.sh -s sphere: exit 2"

# load balancing and partition benchmarks (issue 17), on tiny meshes: every variant's figures
HYDRO=$BUILD/hydro MPI_ARGS=--oversubscribe sh run/bench_balance.sh -r 1 -p "metis zoltan" -o "$scratch/bal" \
    mesh.nx=24 mesh.ny=6 mesh.nz=6 run.max_cycles=20 > "$scratch/bal.txt" 2>&1
st=$?
for v in none metis_gain metis_threshold zoltan_gain zoltan_threshold; do
    positive balance_${v}_loop "$scratch/bal" && positive balance_${v}_peak_ratio "$scratch/bal" &&
        positive balance_${v}_peak "$scratch/bal" || { st=1; diag "no balance_$v"; }
done
# forced (above the threshold), a check rebalances or keeps its new partition out
awk '$1 ~ /\.threshold$/ { if ($4 + $5 < 1) bad = 1; n++ } END { exit bad || n != 2 }' "$scratch/bal.txt" || st=1
grep -Eq '^metis.threshold +[0-9.]+ +[0-9.]+ +[1-9]' "$scratch/bal.txt" || st=1
grep -q '^balance_metis_threshold_imb_after [0-9.]' "$scratch/bal" || st=1
grep -q '^balance_zoltan_threshold_kept [0-9]' "$scratch/bal" || st=1
grep -q '^balance_machine_imb [0-9.]' "$scratch/bal" && grep -q '^machine alone: .*: [0-9.]' "$scratch/bal.txt" || st=1
ok $st "bench_balance.sh: loop, ratio and peak of every variant, the rebalances and partitions kept out of forced checks, the imbalance after them and the machine's own"
[ $st -eq 0 ] || diag "$(cat "$scratch/bal.txt")"
HYDRO=$BUILD/hydro MPI_ARGS=--oversubscribe sh run/bench_balance.sh -r 1 -p metis -d gain -s -o "$scratch/bal1" \
    mesh.nx=24 mesh.ny=6 mesh.nz=6 run.max_cycles=12 loadbalance.threshold=0 loadbalance.decide=threshold \
    > "$scratch/bal1.txt" 2>&1
st=$?
[ "$(awk '$1 ~ /_loop$/' "$scratch/bal1" | wc -l)" -eq 3 ] && grep -q '^balance_metis_gain_loop ' "$scratch/bal1" || st=1
# -s: the weighed set-up alone, whose checks never rebalance (its threshold of 1000 after the caller's
# keys, which make every other variant rebalance at every check)
grep -Eq '^metis.setup +[0-9.]+ +[0-9.]+ +0 +0 +- +[0-9.]+ ' "$scratch/bal1.txt" && grep -q '^balance_metis_setup_loop ' "$scratch/bal1" || st=1
sh run/bench_balance.sh -d sometimes > /dev/null 2>&1
[ $? -eq 2 ] || st=1
ok $st "bench_balance.sh -d gain -s: only the gain variant and the weighed set-up alone (no rebalance) beside the run without; an unknown decide mode exits 2"
[ $st -eq 0 ] || diag "$(cat "$scratch/bal1.txt")"
HYDRO=$BUILD/hydro MPI_ARGS=--oversubscribe sh run/bench_speeds.sh -r 1 mesh.nx=24 mesh.ny=6 mesh.nz=6 run.max_cycles=20 \
    > "$scratch/speeds.txt" 2>&1
st=$?
for v in none equal measured; do
    grep -Eq "^$v +[0-9.]+ +[0-9.]+ +[0-9]+ +([0-9.]+|-)\$" "$scratch/speeds.txt" || st=1
done
grep -q 'a busy loop sharing core 0' "$scratch/speeds.txt" || st=1
sh run/bench_speeds.sh -r 0 > /dev/null 2>&1
[ $? -eq 2 ] || st=1
ok $st "bench_speeds.sh: loop, ratio, rebalances and imbalance after of the three variants beside a busy loop; -r 0 exits 2"
[ $st -eq 0 ] || diag "$(cat "$scratch/speeds.txt")"
HYDRO=$BUILD/hydro MPI_ARGS=--oversubscribe sh run/bench_partition.sh -n 2 -c 1000 > "$scratch/part.txt" 2>&1
st=$?
for p in metis zoltan ptscotch; do
    grep -Eq "^\| 1000 \| $p \| [0-9.]+ \(rank [01]\) \| [0-9.]+ \| [0-9.]+ \| [0-9.]+ \| [0-9]+ \| [0-9.]+ \|$" "$scratch/part.txt" || st=1
done
ok $st "bench_partition.sh: one row per partitioner with memory, times, edge cut and imbalance"
[ $st -eq 0 ] || diag "$(cat "$scratch/part.txt")"
HYDRO=$BUILD/hydro MPI_ARGS=--oversubscribe sh run/bench_partition.sh -g -n 2 -c 1000 > "$scratch/gpart.txt" 2>&1
st=$?
for p in metis zoltan ptscotch; do
    grep -Eq "^\| 1000 \| $p \| [0-9.]+ \(rank [01]\) \| [0-9.]+ \| [0-9.]+ \| [0-9.]+ \| [0-9]+ \| [0-9.]+ \|$" "$scratch/gpart.txt" || st=1
done
grep -q "a Gmsh file" "$scratch/gpart.txt" || st=1
ok $st "bench_partition.sh -g (a Gmsh file of the cube): one row per partitioner"
[ $st -eq 0 ] || diag "$(cat "$scratch/gpart.txt")"

# bench_compare.sh (make bench's comparison with the code issue 18 started from): a binary against
# itself, one repeat of 2 cycles; every figure of every run in the -o file, the ratios positive
MPI_ARGS=--oversubscribe sh run/bench_compare.sh -r 1 -c 2 -o "$scratch/cmp.kv" "$BUILD/hydro" "$BUILD/hydro" \
    > "$scratch/cmp.txt" 2>&1
st=$?
for run in 3d 2d 2r; do
    for f in lagrange remap loop mem; do
        for x in a b ratio; do positive "compare_${run}_${f}_$x" "$scratch/cmp.kv" || st=1; done
    done
done
grep -Eq '^\| 1 rank, 3D bisod_x 40k cells \| loop ns \| [0-9]+ \| [0-9]+ \| [0-9.]+ \|$' "$scratch/cmp.txt" || st=1
ok $st "bench_compare.sh -o: the A, B and B / A figures of the three runs, and the table"
[ $st -eq 0 ] || diag "$(cat "$scratch/cmp.txt")"
sh run/bench_compare.sh -r 0 "$BUILD/hydro" "$BUILD/hydro" > /dev/null 2>&1
ok $(($? != 2)) "bench_compare.sh -r 0: exit 2"

# the report's driver refuses bad usage before running anything
sh run/bench_report.sh -n 1 > /dev/null 2>&1
ok $(($? != 2)) "bench_report.sh -n 1: exit 2"
done_testing
