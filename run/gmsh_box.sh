#!/bin/sh
# Writes a box of NX x NY x NZ hexes on [0,1]^3 as a Gmsh MSH 4.1 ASCII file, as Gmsh would save
# it (one node block, boundary quads before the hexes, tags dense and ascending; physical tags
# 1-6 xmin xmax ymin ymax zmin zmax on the faces, 10 on the volume), for benchmarks of the Gmsh
# readers on meshes larger than the ones in inputs/meshes (no Gmsh needed).
# usage: run/gmsh_box.sh NX NY NZ FILE
set -eu
[ $# -eq 4 ] || { echo "usage: $0 NX NY NZ FILE" >&2; exit 2; }
awk -v nx="$1" -v ny="$2" -v nz="$3" '
function id(i, j, k) { return 1 + i + (nx + 1) * (j + (ny + 1) * k) }
function quad(a, b, c, d) { printf "%d %d %d %d %d\n", ++tag, a, b, c, d }
BEGIN {
    nn = (nx + 1) * (ny + 1) * (nz + 1)
    print "$MeshFormat\n4.1 0 8\n$EndMeshFormat\n$Entities\n0 0 6 1"
    for (s = 1; s <= 6; s++) printf "%d 0 0 0 1 1 1 1 %d 0\n", s, s
    print "1 0 0 0 1 1 1 1 10 0\n$EndEntities\n$Nodes"
    printf "1 %d 1 %d\n3 1 0 %d\n", nn, nn, nn
    for (t = 1; t <= nn; t++) print t
    for (k = 0; k <= nz; k++) for (j = 0; j <= ny; j++) for (i = 0; i <= nx; i++)
        printf "%.17g %.17g %.17g\n", i / nx, j / ny, k / nz
    nb = 2 * (ny * nz + nx * nz + nx * ny); nc = nx * ny * nz
    printf "$EndNodes\n$Elements\n7 %d 1 %d\n", nb + nc, nb + nc
    for (s = 0; s < 2; s++) { i = s * nx; printf "2 %d 3 %d\n", 1 + s, ny * nz
        for (k = 0; k < nz; k++) for (j = 0; j < ny; j++) quad(id(i, j, k), id(i, j, k + 1), id(i, j + 1, k + 1), id(i, j + 1, k)) }
    for (s = 0; s < 2; s++) { j = s * ny; printf "2 %d 3 %d\n", 3 + s, nx * nz
        for (k = 0; k < nz; k++) for (i = 0; i < nx; i++) quad(id(i, j, k), id(i + 1, j, k), id(i + 1, j, k + 1), id(i, j, k + 1)) }
    for (s = 0; s < 2; s++) { k = s * nz; printf "2 %d 3 %d\n", 5 + s, nx * ny
        for (j = 0; j < ny; j++) for (i = 0; i < nx; i++) quad(id(i, j, k), id(i, j + 1, k), id(i + 1, j + 1, k), id(i + 1, j, k)) }
    printf "3 1 5 %d\n", nc
    for (k = 0; k < nz; k++) for (j = 0; j < ny; j++) for (i = 0; i < nx; i++)
        printf "%d %d %d %d %d %d %d %d %d\n", ++tag, id(i, j, k), id(i + 1, j, k), id(i + 1, j + 1, k), id(i, j + 1, k),
            id(i, j, k + 1), id(i + 1, j, k + 1), id(i + 1, j + 1, k + 1), id(i, j + 1, k + 1)
    print "$EndElements"
}' > "$4"
