#!/bin/sh
# Distributed mesh on 1-4 ranks, 2D and 3D, 1-3 ghost layers, metis and block, generated,
# perturbed and Gmsh meshes (read whole on rank 0, or by shares for zoltan and ptscotch):
# ghosts against brute force, owners, faces, synchronisation.
. test/lib.sh
box3="mesh.dim=3 mesh.nx=12 mesh.ny=7 mesh.nz=5"
box2="mesh.dim=2 mesh.nx=21 mesh.ny=13"
for np in 1 2 3 4; do
    for layers in 1 2 3; do
        for part in metis block; do
            run_ok "np=$np 3D $part layers=$layers" mpi $np "$BUILD/test/mesh_mpi" $box3 \
                parallel.partitioner=$part parallel.ghost_layers=$layers
            run_ok "np=$np 2D $part layers=$layers" mpi $np "$BUILD/test/mesh_mpi" $box2 \
                parallel.partitioner=$part parallel.ghost_layers=$layers
        done
    done
    run_ok "np=$np 3D perturbed metis" mpi $np "$BUILD/test/mesh_mpi" $box3 mesh.perturb=0.3 mesh.seed=$np
    run_ok "np=$np 2D perturbed block layers=1" mpi $np "$BUILD/test/mesh_mpi" $box2 mesh.perturb=0.3 \
        parallel.partitioner=block parallel.ghost_layers=1
    run_ok "np=$np gmsh quarter disc (2D quads)" mpi $np "$BUILD/test/mesh_mpi" mesh.kind=gmsh mesh.dim=2 \
        mesh.file=inputs/meshes/quarter_disc.msh
    run_ok "np=$np gmsh hex block (3D) layers=2" mpi $np "$BUILD/test/mesh_mpi" mesh.kind=gmsh mesh.dim=3 \
        mesh.file=inputs/meshes/hex_block.msh parallel.ghost_layers=2
done
# a Gmsh file read by shares (distributed partitioners)
for pt in zoltan ptscotch; do
    run_ok "np=3 gmsh quarter disc (2D), read by shares, $pt" mpi 3 "$BUILD/test/mesh_mpi" mesh.kind=gmsh \
        mesh.dim=2 mesh.file=inputs/meshes/quarter_disc.msh parallel.partitioner=$pt
    run_ok "np=4 gmsh hex block (3D), read by shares, $pt, layers=3" mpi 4 "$BUILD/test/mesh_mpi" mesh.kind=gmsh \
        mesh.dim=3 mesh.file=inputs/meshes/hex_block.msh parallel.partitioner=$pt parallel.ghost_layers=3
done
# METIS may leave a rank without cells on tiny meshes: it must still work
run_ok "np=4 3D metis, 7 cells (a rank may own none)" mpi 4 "$BUILD/test/mesh_mpi" mesh.nx=7 mesh.ny=1 mesh.nz=1
run_ok "np=3 2D metis, 4 cells" mpi 3 "$BUILD/test/mesh_mpi" mesh.dim=2 mesh.nx=4 mesh.ny=1
done_testing
