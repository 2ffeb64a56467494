#!/bin/sh
# Command line and bad input: --help/--version/--check, every bad-deck class gives one
# "DECK:LINE: message" from rank 0 and exit 2 on all ranks; bad meshes exit 2; good runs pass.
. test/lib.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1

out=$($HYDRO --help 2>&1); rc=$?
missing=""
for key in $($HYDRO --deck-reference | sed -n 's/^| `\([a-z_0-9]*\)` .*/\1/p'); do
    printf '%s\n' "$out" | grep -q "^  $key " || missing="$missing $key"
done
[ $rc -eq 0 ] && [ -z "$missing" ]; ok $? "--help exits 0 and lists every deck key${missing:+ (missing:$missing)}"
$HYDRO --version | grep -Eq '^hydro [0-9]+\.[0-9]+\.[0-9]+ \(.+\)$'; ok $? "--version prints 'hydro X.Y.Z (revision)'"

$HYDRO --check $DECK > "$tmp/resolved.ini"; rc=$?
$HYDRO --check "$tmp/resolved.ini" > "$tmp/again.ini"
# the memory estimate's comment names the memory available now, which other processes change
[ $rc -eq 0 ] && grep -v '^; memory estimate' "$tmp/resolved.ini" > "$tmp/r1" && grep -v '^; memory estimate' "$tmp/again.ini" > "$tmp/r2" &&
    cmp -s "$tmp/r1" "$tmp/r2"; ok $? "--check prints a resolved deck that reads back identically"
$HYDRO --check $DECK mesh.nx=77 parallel.sync=basic | grep -q '^nx = 77$'; ok $? "--check applies overrides"
mpi 2 $HYDRO --check $DECK > "$tmp/two.ini" 2>&1
grep -v '^; memory estimate' "$tmp/two.ini" > "$tmp/two.deck"; grep -v '^; memory estimate' "$tmp/resolved.ini" > "$tmp/one.deck"
cmp -s "$tmp/two.deck" "$tmp/one.deck" && grep -q '^; memory estimate on 2 ranks: ' "$tmp/two.ini"
ok $? "--check on 2 ranks prints the deck once, with its memory estimate for 2 ranks"

# bad_deck NAME CONTENT EXPECTED [OVERRIDES...]: 2 ranks, exit 2, exactly one line EXPECTED.
bad_deck() {
    name=$1 content=$2 want=$3
    shift 3
    printf '%b' "$content" > "$tmp/$name.ini"
    mpi 2 $HYDRO "$tmp/$name.ini" "$@" > "$tmp/out" 2> "$tmp/err"
    rc=$?
    n=$(grep -cxF "$want" "$tmp/err")
    [ $rc -eq 2 ] && [ "$n" -eq 1 ] && ! grep -q 'MPI_ABORT' "$tmp/err" && [ ! -s "$tmp/out" ]
    ok $? "bad input ($name): exit 2 and once: $want"
    [ $rc -eq 2 ] && [ "$n" -eq 1 ] || diag "exit $rc; stderr: $(cat "$tmp/err")"
}
bad_deck section '[mesh]\nnx = 4\n[meshh]\n' "$tmp/section.ini:3: unknown section [meshh] (known: mesh, case, physics, materials, parallel, loadbalance, output, run)"
bad_deck key '[mesh]\nnxx = 4\n' "$tmp/key.ini:2: unknown key 'nxx' in section [mesh] (known: kind, dim, nx, ny, nz, x0, y0, z0, lx, ly, lz, perturb, seed, file)"
bad_deck type '[run]\nmax_cycles = ten\n' "$tmp/type.ini:2: run.max_cycles: 'ten' is not an integer"
bad_deck range '\n[parallel]\nghost_layers = 0\n' "$tmp/range.ini:3: parallel.ghost_layers: 0 is out of range [1, 3]"
bad_deck duplicate '[mesh]\nnx = 4\nny = 4\nnx = 5\n' "$tmp/duplicate.ini:4: mesh.nx: duplicate key (first set at line 2)"
bad_deck enum '[parallel]\nsync = fast\n' "$tmp/enum.ini:2: parallel.sync: 'fast' is not one of: persistent | basic"
bad_deck meshfile '[mesh]\nkind = gmsh\nfile = nothere.msh\n' "$tmp/meshfile.ini:3: mesh.file: cannot open '$tmp/nothere.msh': No such file or directory"
bad_deck override '[mesh]\nnx = 4\n' "command line: mesh.ny: 'x' is not an integer" mesh.ny=x
bad_deck override2 '[mesh]\nnx = 4\n' "command line: 'nx': expected section.key=value" nx
bad_deck remaplayers '[case]\nname = sod\n[parallel]\nghost_layers = 1\n' "$tmp/remaplayers.ini:4: parallel.ghost_layers: the Euler remap needs at least 2 ghost layers (its fluxes use the neighbours' slopes)"
bad_deck minimal2 '[case]\nname = sod\n[parallel]\nghost_layers = 2\nsync_pattern = minimal\n' "$tmp/minimal2.ini:5: parallel.sync_pattern: minimal computes on the ghost layers and needs 3 of them"
bad_deck syntax '[mesh]\nnx 4\n' "$tmp/syntax.ini:2: syntax error: expected [section] or key = value"

mpi 2 $HYDRO /dev/zero > "$tmp/out" 2> "$tmp/err"; rc=$?
[ $rc -eq 2 ] && grep -qxF "/dev/zero: not a deck: not a regular file" "$tmp/err"; ok $? "a device as deck: exit 2 at once"
bad_deck devmesh '[mesh]\nkind = gmsh\nfile = /dev/zero\n' "$tmp/devmesh.ini:3: mesh.file: '/dev/zero' is not a regular file"
bad_deck dirmesh '[mesh]\nkind = gmsh\nfile = /tmp\n' "$tmp/dirmesh.ini:3: mesh.file: '/tmp' is not a regular file"
mpi 2 $HYDRO "$tmp/nothere.ini" > "$tmp/out" 2> "$tmp/err"; rc=$?
[ $rc -eq 2 ] && [ "$(grep -c "cannot open deck" "$tmp/err")" -eq 1 ]; ok $? "missing deck file: exit 2, one message"
mpi 2 $HYDRO > "$tmp/out" 2> "$tmp/err"; rc=$?
[ $rc -eq 2 ] && grep -q "no deck given" "$tmp/err"; ok $? "no deck: exit 2 with usage"
$HYDRO --frobnicate > "$tmp/out" 2> "$tmp/err"; rc=$?
[ $rc -eq 2 ] && grep -q "unknown option '--frobnicate'" "$tmp/err"; ok $? "unknown option: exit 2"

# an inverted cell is reported once, by rank 0, with the smallest bad id whatever the partition
printf '$MeshFormat\n4.1 0 8\n$EndMeshFormat\n$Nodes\n1 6 1 6\n2 1 0 6\n1\n2\n3\n4\n5\n6\n0 0 0\n1 0 0\n2 0 0\n0 1 0\n1 1 0\n2 1 0\n$EndNodes\n$Elements\n1 2 1 2\n2 1 3 2\n1 1 2 5 4\n2 2 3 6 5\n$EndElements\n' > "$tmp/two.msh"
printf '[mesh]\nkind = gmsh\ndim = 2\nfile = two.msh\n' > "$tmp/two.ini"
mpi 2 $HYDRO "$tmp/two.ini" run.max_cycles=1 > "$tmp/out" 2> "$tmp/err"; ok $? "two-quad Gmsh mesh on 2 ranks runs"

# bad meshes: the message names the file and line (Gmsh) or the problem, exit 2 on all ranks
printf '$MeshFormat\n4.1 0 8\n$EndMeshFormat\n$Nodes\n1 4 1 4\n2 1 0 4\n1\n2\n3\n4\n0 0 0\n1 0 0\n1 1 0\n0 1 0\n$EndNodes\n$Elements\n1 1 1 1\n2 1 3 1\n7 1 3 2 4\n$EndElements\n' > "$tmp/twisted.msh"
printf '[mesh]\nkind = gmsh\ndim = 2\nfile = twisted.msh\n' > "$tmp/twisted.ini"
mpi 3 $HYDRO "$tmp/twisted.ini" > "$tmp/out" 2> "$tmp/err"; rc=$?
[ $rc -eq 2 ] && grep -qxF "$tmp/twisted.msh:19: element 7 is degenerate or twisted (a corner Jacobian is not positive)" "$tmp/err"
ok $? "twisted Gmsh element: exit 2 naming file, line and element"
[ $rc -eq 2 ] || diag "exit $rc: $(cat "$tmp/err")"
mpi 2 $HYDRO $DECK mesh.nx=1 mesh.ny=1 mesh.nz=1 > "$tmp/out" 2> "$tmp/err"; rc=$?
[ $rc -eq 2 ] && grep -q "the mesh has 1 cells, fewer than the 2 ranks" "$tmp/err"; ok $? "metis: fewer cells than ranks gives exit 2"
mpi 3 $HYDRO $DECK mesh.nx=2 mesh.ny=2 mesh.nz=2 parallel.partitioner=block > "$tmp/out" 2> "$tmp/err"; rc=$?
[ $rc -eq 2 ] && [ "$(grep -c "cannot split 2 x 2 x 2 cells into 3 blocks" "$tmp/err")" -eq 1 ]; ok $? "block: impossible split gives exit 2, one message"

# an empty deck, or one of comments only, is refused (it would run every default)
: > "$tmp/empty.ini"
printf '; nothing\n# at all\n' > "$tmp/comments.ini"
for d in empty comments; do
    mpi 2 $HYDRO "$tmp/$d.ini" > "$tmp/out" 2> "$tmp/err"; rc=$?
    [ $rc -eq 2 ] && [ "$(grep -cxF "$tmp/$d.ini: empty deck (no section)" "$tmp/err")" -eq 1 ]
    ok $? "a deck with no section ($d): exit 2, one line"
done

# bytes that are not UTF-8 are echoed escaped, so the message stays text
printf '[mesh]\nnx = 10\377\n' > "$tmp/byte.ini"
$HYDRO --check "$tmp/byte.ini" > "$tmp/out" 2> "$tmp/err"; rc=$?
[ $rc -eq 2 ] && grep -qxF "$tmp/byte.ini:2: mesh.nx: '10\\xFF' is not an integer" "$tmp/err"
ok $? "a stray byte in a deck value is shown as \\xFF"
[ $rc -eq 2 ] || diag "exit $rc: $(cat "$tmp/err")"

# good runs of the sync_only case, verified ghost by ghost
for np in 1 2 3 4; do
    for extra in "" "parallel.sync=basic" "case.grouped=true case.components=3" \
                 "mesh.dim=2 mesh.nx=40 mesh.ny=30 parallel.ghost_layers=1" "parallel.partitioner=block"; do
        mpi $np $HYDRO $DECK run.max_cycles=5 mesh.nx=30 $extra > "$tmp/out" 2> "$tmp/err"; rc=$?
        [ $rc -eq 0 ] && grep -q "Ghost values verified: yes" "$tmp/out"
        ok $? "sync_only np=$np ${extra:-defaults}: exit 0, ghosts verified"
        [ $rc -eq 0 ] || diag "exit $rc: $(cat "$tmp/err")"
    done
done
done_testing
