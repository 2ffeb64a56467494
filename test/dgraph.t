#!/bin/sh
# The distributed dual graph (mesh/dgraph.c) on 1-4 ranks against a brute-force serial graph,
# 2D and 3D, perturbed and Gmsh meshes, and the METIS backend's parts from a scattered graph
# against those of the whole graph on rank 0 (test/mpi/dgraph_mpi.c).
. test/lib.sh
for np in 1 2 3 4; do
    run_ok "np=$np 3D box" mpi $np "$BUILD/test/dgraph_mpi" mesh.dim=3 mesh.nx=9 mesh.ny=5 mesh.nz=4
    run_ok "np=$np 2D perturbed box" mpi $np "$BUILD/test/dgraph_mpi" mesh.dim=2 mesh.nx=17 mesh.ny=11 \
        mesh.perturb=0.3
    run_ok "np=$np gmsh quarter disc (2D)" mpi $np "$BUILD/test/dgraph_mpi" mesh.kind=gmsh mesh.dim=2 \
        mesh.file=inputs/meshes/quarter_disc.msh
    run_ok "np=$np gmsh hex block (3D)" mpi $np "$BUILD/test/dgraph_mpi" mesh.kind=gmsh mesh.dim=3 \
        mesh.file=inputs/meshes/hex_block.msh
done
run_ok "np=3, 2 cells (a rank holds none)" mpi 3 "$BUILD/test/dgraph_mpi" mesh.dim=2 mesh.nx=2 mesh.ny=1
done_testing
