#!/bin/sh
# The Gmsh reader by shares (mesh/gmsh_share.c, for the distributed partitioners) on 1-4 ranks
# against the whole read: the same cells, nodes, positions and boundary tags, each rank holding
# its share; files whose tags are not dense nor in order, more ranks than cells, tags below 1;
# bad files give gmsh_read's message, from rank 0 only, and every rank fails
# (test/mpi/gmsh_mpi.c).
. test/lib.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
m=inputs/meshes
# tags renumbered: nodes scattered over 1..100003, elements descending from 3e9 (tag histograms)
cat > "$tmp/scramble.awk" <<'AWK'
function nt(t) { return sprintf("%.0f", (t * 7919) % 100003 + 1) }
function et(t) { return sprintf("%.0f", 3000000000 - t * 131) }
/^\$Nodes/ { sec = "n"; hdr = 1; print; next }
/^\$Elements/ { sec = "e"; hdr = 1; print; next }
/^\$End/ { sec = ""; print; next }
sec == "n" && hdr { hdr = 0; print; blk = 1; next }
sec == "n" && blk { left = $4; coords = $4; blk = ($4 == 0); print; next }
sec == "n" && left > 0 { print nt($1); left--; next }
sec == "n" && coords > 0 { print; coords--; if (coords == 0) blk = 1; next }
sec == "e" && hdr { hdr = 0; print; blk = 1; next }
sec == "e" && blk { left = $4; blk = (left == 0); print; next }
sec == "e" && left > 0 { s = et($1); for (i = 2; i <= NF; i++) s = s " " nt($i); print s; left--; blk = (left == 0); next }
{ print }
AWK
awk -f "$tmp/scramble.awk" $m/hex_block.msh > "$tmp/hex_scrambled.msh"
awk -f "$tmp/scramble.awk" $m/quarter_disc.msh > "$tmp/disc_scrambled.msh"
grep -q '^2999999869 ' "$tmp/hex_scrambled.msh"; ok $? "the scrambled file has the renumbered element tags"
for np in 1 2 3 4; do
    for f in "2 $m/box_2d.msh" "3 $m/box_3d.msh" "2 $m/quarter_disc.msh" "3 $m/hex_block.msh" \
             "3 $tmp/hex_scrambled.msh" "2 $tmp/disc_scrambled.msh"; do
        run_ok "np=$np $f" mpi $np "$BUILD/test/gmsh_mpi" $f
    done
done

# more ranks than cells, and tags below 1 (a rank whose share is empty keeps nothing)
printf '$MeshFormat\n4.1 0 8\n$EndMeshFormat\n$Nodes\n1 6 1 6\n2 1 0 6\n1\n2\n3\n4\n5\n6\n0 0 0\n1 0 0\n2 0 0\n0 1 0\n1 1 0\n2 1 0\n$EndNodes\n$Elements\n1 2 -5 7\n2 1 3 2\n-5 1 2 5 4\n7 2 3 6 5\n$EndElements\n' > "$tmp/two.msh"
for np in 3 4; do
    run_ok "np=$np two quads of tags -5 and 7" mpi $np "$BUILD/test/gmsh_mpi" 2 "$tmp/two.msh" untagged
done

# bad files: one change to box_2d.msh each (line: sed command)
bad() {
    name=$1 np=$2
    shift 2
    sed "$@" $m/box_2d.msh > "$tmp/$name.msh"
    cmp -s $m/box_2d.msh "$tmp/$name.msh" && { ok 1 "$name: the change applies"; return; }
    run_ok "np=$np bad file: $name" mpi $np "$BUILD/test/gmsh_mpi" 2 "$tmp/$name.msh" bad
}
bad undefined_node 3 '140s/.*/28 23 26 16 99/'
bad twisted 4 '137s/.*/25 5 24 6 21/'
bad stray_boundary 2 '110s/.*/2 5 24/'
bad boundary_node 3 '112s/.*/4 7 99/'
bad duplicate_element 4 '141s/.*/22 6 7 27 24/'
bad duplicate_node 3 '30,105s/^10$/11/'
bad syntax 2 '28s/.*/0 x 0/'
bad non_conforming 3 -e '132s/.*/2 1 3 25/' -e '156a 45 23 26 16 17' # a second cell 28
run_ok "np=3 bad file: a 2D mesh read as 3D has no hexahedra" mpi 3 "$BUILD/test/gmsh_mpi" 3 $m/box_2d.msh bad
done_testing
