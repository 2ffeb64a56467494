#!/bin/sh
# Kernel accounting of the real build (HYDRO_KERNEL_REPORT), the calibration script
# run/smpi_calibrate.sh, and the compute-model variables refused outside the SMPI build.
. test/lib.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
# 3D Sod along x with the directional remap (three sweeps a cycle), minimal pattern, 6 cycles.
set -- "$top/inputs/bench/mahyco.ini" mesh.nx=24 mesh.ny=6 mesh.nz=6 run.max_cycles=6 \
    parallel.sync_pattern=minimal output.checkpoint_period=-1
kernels="lagrange_save lagrange_geometry lagrange_forces lagrange_velocity lagrange_positions lagrange_cells
lagrange_dt remap_targets remap_values remap_swept remap_slopes remap_material_slopes remap_cells
remap_nodes remap_finish remap_move"

HYDRO_KERNEL_REPORT=$tmp/k2.txt mpi 2 "$HYDRO" "$@" > k2.out 2> k2.err
rc=$?
[ $rc -eq 0 ] && grep -q "Kernel costs of rank 0 written to $tmp/k2.txt" k2.out
ok $? "HYDRO_KERNEL_REPORT: the listing names the file (exit $rc)"
[ $rc -eq 0 ] || diag "$(cat k2.err)"
# every kernel once, 7 fields, calls: 6 per Lagrange kernel, 18 (3 sweeps x 6) per remap kernel
awk -v want="$(echo $kernels)" '
    BEGIN { n = split(want, w, " "); for (i = 1; i <= n; i++) need[w[i]] = 1 }
    /^#/ { next }
    NF != 7 { print "bad line: " $0; bad = 1; next }
    !($1 in need) || ($1 in seen) { print "unexpected " $1; bad = 1 }
    { seen[$1] = 1; calls = ($1 ~ /^remap_/) ? 18 : 6
      if ($2 != calls) { print $1 ": " $2 " calls"; bad = 1 }
      if ($1 == "remap_material_slopes" && $3 != 0) { print "one material, yet material slopes: " $0; bad = 1 }
      else if ($1 != "remap_material_slopes" && !($3 > 0)) { print "no items: " $0; bad = 1 }
      if ($4 > $3 || $5 < 0 || $6 < 0 || $7 < 0) { print "bad values: " $0; bad = 1 } }
    END { for (k in need) if (!(k in seen)) { print "missing " k; bad = 1 }; exit bad }' k2.txt > k2.check
ok $? "the report has the 16 kernels, their calls (6 per Lagrange kernel, 18 per remap kernel), items (none for the material slopes with one material) and costs >= 0"
[ -s k2.check ] && diag "$(cat k2.check)"
# rank 0 of 2: the minimal pattern saves owned cells and ghost layers 1-2 (the third is only read)
cells=$(sed -n 's/.*This rank: \([0-9]*\) owned cells, [0-9]* ghost cells (layers \([0-9]*\)\/\([0-9]*\)\/[0-9]*).*/\1 \2 \3/p' k2.out | head -n 1)
items=$(awk '$1 == "lagrange_save" { print $3 }' k2.txt)
awk -v c="$cells" -v i="$items" 'BEGIN { n = split(c, a, " "); exit !(n == 3 && i == 6 * (a[1] + a[2] + a[3])) }'
ok $? "lagrange_save items = 6 cycles x (owned + layers 1-2) of rank 0 ($items; owned, layer 1, layer 2: $cells)"
awk '$1 == "remap_swept" && $4 > 0 && $4 < $3 { f = 1 } END { exit !f }' k2.txt
ok $? "the remap counts fewer active cells than cells (only the cells near the waves move)"
# every kernel's seconds add up to (at most) the listing's lagrange + remap of rank 0
awk '/^#/ { next } { s += $5 } END { print s }' k2.txt > sum
lr=$(awk '$1 == "*I-Timers" && ($2 == "lagrange" || $2 == "remap") && NF == 4 { s += $3 } END { print s }' k2.out)
awk -v s="$(cat sum)" -v l="$lr" 'BEGIN { exit !(s > 0 && s <= l * 1.001 + 1e-6) }'
ok $? "kernel seconds ($(cat sum) s) are within the lagrange + remap timers ($lr s)"
[ ! -e k2.txt.0 ] && [ ! -e k2.txt.1 ]
ok $? "without ARCANE_PARALLEL_OUTPUT only rank 0 writes its report"
# with ARCANE_PARALLEL_OUTPUT, as every rank writes its listing, every rank writes its report too
# (3 blocks along x: the middle one has ghosts on both sides, so its items are not rank 0's)
mkdir par && (cd par && ARCANE_PARALLEL_OUTPUT=1 HYDRO_KERNEL_REPORT=$tmp/par/k.txt mpi 3 "$HYDRO" "$@" \
    parallel.partitioner=block > out 2> err)
rc=$?
cells1=$(sed -n 's/.*This rank: \([0-9]*\) owned cells, [0-9]* ghost cells (layers \([0-9]*\)\/\([0-9]*\)\/[0-9]*).*/\1 \2 \3/p' \
    par/output1 | head -n 1)
items1=$(awk '$1 == "lagrange_save" { print $3 }' par/k.txt.1 2> /dev/null)
items0=$(awk '$1 == "lagrange_save" { print $3 }' par/k.txt 2> /dev/null)
[ $rc -eq 0 ] && cmp -s par/k.txt par/k.txt.0 && grep -q '^# .*(rank 1 of 3, 6 cycles, measured)' par/k.txt.1 &&
    [ -s par/k.txt.2 ] && [ "$items1" != "$items0" ] &&
    [ "$(grep -vc '^#' par/k.txt.1)" -eq 16 ] && grep -q "Kernel costs of rank 1 written to $tmp/par/k.txt.1" par/output1 &&
    awk -v c="$cells1" -v i="$items1" 'BEGIN { n = split(c, a, " "); exit !(n == 3 && i == 6 * (a[1] + a[2] + a[3])) }'
ok $? "ARCANE_PARALLEL_OUTPUT=1: each rank writes its own report to the name followed by .rank, named in its listing; rank 1's counts its own items ($items1 against rank 0's $items0; $cells1)"
[ $rc -eq 0 ] || diag "$(cat par/err)"

# The calibration script: medians of 2 runs, the format the model reads.
HYDRO=$HYDRO MPIRUN=$(echo "$MPIRUN" | awk '{ print $1 }') MPI_ARGS=$(echo "$MPIRUN" | cut -s -d' ' -f2-) \
    "$top/run/smpi_calibrate.sh" -r 2 -o costs.txt "$@" > cal.out 2> cal.err
rc=$?
[ $rc -eq 0 ] && grep -q '^# hydro kernel costs for run/smpirun.sh -m: medians over 2 real 1-rank runs' costs.txt &&
    [ "$(grep -vc '^#' costs.txt)" -eq 16 ]
ok $? "run/smpi_calibrate.sh -r 2 writes 16 kernel costs (exit $rc)"
[ $rc -eq 0 ] || diag "$(cat cal.err)"
awk '!/^#/ && ($1 == "lagrange_save" && $2 != 6 || $1 == "remap_move" && $2 != 18) { exit 1 }' costs.txt
ok $? "its counts are one 1-rank run's (6 and 18 calls)"
"$top/run/smpi_calibrate.sh" -o x.txt /nonexistent.ini > /dev/null 2> bad.err
[ $? -eq 2 ] && grep -q "deck '/nonexistent.ini' not readable" bad.err && [ ! -e x.txt ]
ok $? "run/smpi_calibrate.sh: a missing deck exits 2 and writes nothing"
MPIRUN=$(echo "$MPIRUN" | awk '{ print $1 }') MPI_ARGS=$(echo "$MPIRUN" | cut -s -d' ' -f2-) \
    "$top/run/smpi_calibrate.sh" -r 1 -o x.txt "$@" mesh.nx=0 > /dev/null 2> bad.err
[ $? -eq 1 ] && grep -q "run 1 of .* failed" bad.err && [ ! -e x.txt ]
ok $? "run/smpi_calibrate.sh: a failing run exits 1 and writes nothing"
"$top/run/smpi_calibrate.sh" "$@" > /dev/null 2>&1
[ $? -eq 2 ]; ok $? "run/smpi_calibrate.sh without -o exits 2"

# The model belongs to the SMPI build: the real build refuses it, on every rank, with exit 2.
HYDRO_COMPUTE_MODEL=costs.txt mpi 2 "$HYDRO" "$@" > m.out 2> m.err
rc=$?
[ $rc -eq 2 ] && [ "$(grep -c 'HYDRO_COMPUTE_MODEL: the compute model is for the SMPI build only' m.err)" -eq 1 ]
ok $? "HYDRO_COMPUTE_MODEL in the real build: one message, exit 2 ($rc)"
HYDRO_COMPUTE_SCALE=zero mpi 1 "$HYDRO" "$@" > m.out 2> m.err
[ $? -eq 2 ] && grep -q "HYDRO_COMPUTE_SCALE: 'zero' is not a positive number" m.err
ok $? "a bad HYDRO_COMPUTE_SCALE exits 2"
HYDRO_KERNEL_REPORT=/nonexistent/dir/k.txt mpi 2 "$HYDRO" "$@" > m.out 2> m.err
rc=$?
[ $rc -ne 0 ] && grep -q "HYDRO_KERNEL_REPORT: cannot write '/nonexistent/dir/k.txt'" m.err
ok $? "an unwritable report file is a runtime error naming it (exit $rc)"

done_testing
