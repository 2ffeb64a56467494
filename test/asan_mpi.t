#!/bin/sh
# hydro and the MPI mesh test built with AddressSanitizer + UndefinedBehaviorSanitizer, on 2
# and 3 ranks: no memory error, no undefined behaviour, no leak from hydro's code (Open MPI's
# own leftovers are suppressed by test/lsan.supp, which names only Open MPI's libraries).
. test/lib.sh
sanitizer_env
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
run_ok "asan: hydro sync_only on 2 ranks" mpi 2 "$ASAN_BUILD/hydro" "$DECK" run.max_cycles=3 mesh.nx=20
run_ok "asan: hydro 2D block, basic sync, grouped, on 3 ranks" mpi 3 "$ASAN_BUILD/hydro" "$DECK" \
    run.max_cycles=3 mesh.dim=2 mesh.nx=30 mesh.ny=20 parallel.partitioner=block parallel.sync=basic case.grouped=true
run_ok "asan: mesh_mpi 3D on 3 ranks" mpi 3 "$ASAN_BUILD/test/mesh_mpi" mesh.nx=10 mesh.ny=6 mesh.nz=4
run_ok "asan: mesh_mpi gmsh quarter disc on 2 ranks, 2 layers" mpi 2 "$ASAN_BUILD/test/mesh_mpi" mesh.kind=gmsh \
    mesh.dim=2 mesh.file=$top/inputs/meshes/quarter_disc.msh parallel.ghost_layers=2
run_ok "asan: restart on 3 ranks from the 2-rank dump" mpi 3 "$ASAN_BUILD/hydro" --restart checkpoints/hydro_000003.h5 \
    run.max_cycles=5
run_ok "asan: hydro Sod 3D with directional remap, mahyco, 3 ranks" mpi 3 "$ASAN_BUILD/hydro" \
    "$top/inputs/bench/mahyco.ini" mesh.nx=20 mesh.ny=3 mesh.nz=3 run.max_cycles=5 output.checkpoint_period=0 \
    output.checkpoint_dir=sod
run_ok "asan: hydro restart of that run on 2 ranks, minimal pattern" mpi 2 "$ASAN_BUILD/hydro" --restart \
    sod/hydro_000005.h5 run.max_cycles=8 parallel.sync_pattern=minimal
run_ok "asan: migrate_mpi 3D on 3 ranks (empty ranks, split messages)" mpi 3 "$ASAN_BUILD/test/migrate_mpi" \
    mesh.nx=8 mesh.ny=4 mesh.nz=3
run_ok "asan: migrate_mpi 2D on 2 ranks with MPI_Alltoallv" mpi 2 "$ASAN_BUILD/test/migrate_mpi" --collective \
    mesh.dim=2 mesh.nx=9 mesh.ny=6
run_ok "asan: hydro Sod 3D rebalancing with METIS (region cost, padding) on 3 ranks" mpi 3 "$ASAN_BUILD/hydro" \
    "$top/inputs/sod_x.ini" mesh.nx=20 mesh.ny=3 mesh.nz=3 run.max_cycles=7 output.checkpoint_period=-1 \
    loadbalance.period=3 loadbalance.threshold=0 loadbalance.decide=threshold loadbalance.cost=region loadbalance.region_speed=150 \
    loadbalance.extra_cell_vars=2 loadbalance.extra_cell_array=3
run_ok "asan: hydro Sod 3D on 3 ranks, rank 0 a hundred times slower: a rebalance leaves it empty" mpi 3 \
    "$ASAN_BUILD/hydro" "$top/inputs/sod_x.ini" mesh.nx=20 mesh.ny=3 mesh.nz=3 run.max_cycles=7 \
    output.checkpoint_period=-1 loadbalance.period=3 loadbalance.threshold=0 loadbalance.decide=threshold \
    loadbalance.speeds=measured run.test_speed_rank0=0.01
for pt in zoltan ptscotch; do
    run_ok "asan: hydro Sod 3D partitioned and rebalanced by $pt on 3 ranks" mpi 3 "$ASAN_BUILD/hydro" \
        "$top/inputs/sod_x.ini" mesh.nx=20 mesh.ny=3 mesh.nz=3 run.max_cycles=5 output.checkpoint_period=-1 \
        parallel.partitioner=$pt loadbalance.mode=$pt loadbalance.period=2 loadbalance.threshold=0 \
        loadbalance.decide=threshold loadbalance.cost=region loadbalance.region_speed=150
done
run_ok "asan: gmsh_mpi, hex block read by shares on 3 ranks" mpi 3 "$ASAN_BUILD/test/gmsh_mpi" 3 \
    "$top/inputs/meshes/hex_block.msh"
awk '/^\$Elements/ { e = 1 } e && NF == 5 && $1 ~ /^[0-9]+$/ && $1 > 100 { $1 = $1 * 977 } { print }' \
    "$top/inputs/meshes/quarter_disc.msh" > sparse.msh
run_ok "asan: gmsh_mpi, sparse element tags (tag histograms) on 2 ranks" mpi 2 "$ASAN_BUILD/test/gmsh_mpi" 2 sparse.msh
sed '140s/.*/28 23 26 16 99/' "$top/inputs/meshes/box_2d.msh" > bad.msh
run_ok "asan: gmsh_mpi, a bad file read by shares on 3 ranks" mpi 3 "$ASAN_BUILD/test/gmsh_mpi" 2 bad.msh bad
run_ok "asan: hydro Sedov on the Gmsh quarter disc read by shares, ptscotch, 3 ranks" mpi 3 "$ASAN_BUILD/hydro" \
    "$top/inputs/sedov_gmsh.ini" mesh.file="$top/inputs/meshes/quarter_disc.msh" run.max_cycles=3 \
    output.checkpoint_period=-1 parallel.partitioner=ptscotch
run_ok "asan: three materials with mixed cells (triple point, directional remap, shuffles) on 3 ranks" mpi 3 \
    "$ASAN_BUILD/hydro" "$top/inputs/triple_point.ini" mesh.nx=21 mesh.ny=9 run.max_cycles=12 \
    physics.remap_split=directional "case.materials=a b c" "materials.names=a b c" \
    "materials.eos=perfect stiffened perfect" "materials.gamma=1.5 1.4 1.5" "materials.p_inf=0 0.05 0" \
    loadbalance.period=4 loadbalance.mode=shuffle output.checkpoint_period=6
run_ok "asan: its restart on 2 ranks, minimal pattern" mpi 2 "$ASAN_BUILD/hydro" --restart \
    checkpoints/hydro_000006.h5 parallel.sync_pattern=minimal output.checkpoint_period=-1
# threads: this build threads every loop, however short (PAR_MIN_ITEMS=1), so that a race between
# threads that ASan can see (a slot of the material store taken in a threaded loop, a buffer
# reallocated under another thread) shows on these small meshes
run_ok "asan: three materials with mixed cells and shuffles, 2 ranks x 2 threads" env OMP_NUM_THREADS=2 \
    OMP_WAIT_POLICY=passive $MPIRUN --bind-to none -np 2 "$ASAN_BUILD/hydro" "$top/inputs/triple_point.ini" \
    mesh.nx=21 mesh.ny=9 run.max_cycles=12 "case.materials=a b c" "materials.names=a b c" \
    "materials.eos=perfect stiffened perfect" "materials.gamma=1.5 1.4 1.5" "materials.p_inf=0 0.05 0" \
    loadbalance.period=4 loadbalance.mode=shuffle output.checkpoint_period=-1
run_ok "asan: Sod 3D, directional remap, 1 rank x 3 threads" env OMP_NUM_THREADS=3 OMP_WAIT_POLICY=passive \
    $MPIRUN --bind-to none -np 1 "$ASAN_BUILD/hydro" "$top/inputs/bench/mahyco.ini" mesh.nx=20 mesh.ny=3 mesh.nz=3 \
    run.max_cycles=5 output.checkpoint_period=-1
run_ok "asan: sync_only shuffles with MPI_Alltoallv on 2 ranks" env ARCANE_MESH_EXCHANGE_USE_COLLECTIVE=TRUE \
    $MPIRUN -np 2 "$ASAN_BUILD/hydro" "$DECK" mesh.nx=12 run.max_cycles=4 loadbalance.period=2 \
    loadbalance.mode=shuffle loadbalance.shuffle_fraction=0.5 output.checkpoint_period=-1
out=$(mpi 2 "$ASAN_BUILD/hydro" "$DECK" mesh.nx=0 2>&1); rc=$?
[ $rc -eq 2 ] && ! printf '%s' "$out" | grep -q Sanitizer; ok $? "asan: a bad deck exits 2 with nothing for the sanitizers"
[ $rc -eq 2 ] || diag "$out"
done_testing
