#!/bin/sh
# What is refused before any work, and what --check reports: --check reads and validates the
# mesh as the run does (tetrahedra, a truncated file, binary MSH: exit 2 with the run's message;
# cells, nodes and dimension of a good one; mesh.dim taken from a Gmsh file when not given, a
# mismatch an error), and the memory estimate (close to the measured peak; a deck sized from this
# machine's available memory, or beyond run.memory_limit, refused at once with one line).
. test/lib.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
M=$top/inputs/meshes

# ---- --check reads the mesh ----
# check NAME MESH_FILE [overrides]: --check and a 2-rank run of a Gmsh deck on MESH_FILE
check() {
    name=$1 file=$2
    shift 2
    printf '[mesh]\nkind = gmsh\nfile = %s\n[case]\nname = sod\n' "$file" > "$name.ini"
    $HYDRO --check "$name.ini" "$@" > "$name.check" 2> "$name.check.err"
    crc=$?
    mpi 2 $HYDRO "$name.ini" run.max_cycles=1 output.checkpoint_period=-1 "$@" > "$name.run" 2> "$name.run.err"
    rrc=$?
}
# bad meshes: --check exits 2 with the very line the run prints
sed 's/^3 1 5 726$/3 1 4 726/' "$M/hex_block.msh" > "$tmp/tets.msh" # the volume block as tetrahedra (type 4)
awk '/\$Elements/ { e = 1 } e && ++n > 40 { exit } { print }' "$M/hex_block.msh" > "$tmp/truncated.msh"
sed '2s/4.1 0 8/4.1 1 8/' "$M/box_2d.msh" > "$tmp/binary.msh"
for bad in tets truncated binary; do
    check $bad "$tmp/$bad.msh"
    msg=$(head -n 1 "$bad.check.err")
    [ $crc -eq 2 ] && [ $rrc -eq 2 ] && [ -n "$msg" ] && grep -qxF "$msg" "$bad.run.err" &&
        printf '%s' "$msg" | grep -q "^$tmp/$bad.msh:[0-9]*: "
    ok $? "--check of a $bad mesh: exit 2 with the run's FILE:LINE message ($msg)"
done
grep -q 'unsupported 3D element type 4' tets.check.err; ok $? "tetrahedra are named as such"
grep -q 'binary MSH is not supported' binary.check.err; ok $? "a binary file is named as such"

# a good mesh: its dimension, cells and nodes; dim from the file when not given
check disc "$M/quarter_disc.msh"
[ $crc -eq 0 ] && grep -q '^dim = 2$' disc.check &&
    grep -qxF "; mesh: $M/quarter_disc.msh: 2D quads, 1500 cells, 1573 nodes" disc.check
ok $? "--check of a 2D Gmsh mesh, mesh.dim not given: dim = 2 from the file, its cells and nodes"
[ $rrc -eq 0 ] && grep -q '2D quads: 1500 cells, 1573 nodes' disc.run; ok $? "the run reads the same mesh, in 2D"
check hex "$M/hex_block.msh"
[ $crc -eq 0 ] && grep -q '^dim = 3$' hex.check && grep -q '; mesh: .*: 3D hexes, ' hex.check
ok $? "a 3D Gmsh mesh: dim = 3 from the file"
check mismatch "$M/quarter_disc.msh" mesh.dim=3
[ $crc -eq 2 ] && [ $rrc -eq 2 ] && grep -q 'quarter_disc.msh:[0-9]*: ' mismatch.check.err
ok $? "mesh.dim given and not the file's: exit 2, FILE:LINE (--check and run)"
$HYDRO --check "$top/inputs/sod_x.ini" > box.check 2>&1
grep -qxF '; mesh: cartesian box: 3D hexes, 100 cells, 404 nodes' box.check
ok $? "--check of a generated box: its cells and nodes"
mpi 3 $HYDRO --check "$top/inputs/sod_x.ini" mesh.nx=2 mesh.ny=1 mesh.nz=1 parallel.partitioner=block > split.out 2>&1
[ $? -eq 2 ] && grep -q 'cannot split 2 x 1 x 1 cells into 3 blocks' split.out
ok $? "--check on 3 ranks: a box the block partitioner cannot split is refused as the run refuses it"

# ---- the memory estimate ----
# estimate FILE: the listing's estimate in MB; peak FILE: the largest rank's peak RSS in MB
estimate() { sed -n 's/.*Estimate: about \([0-9.]*\) \(MB\|GB\).*/\1 \2/p' "$1" | awk '{print $2 == "GB" ? $1 * 1000 : $1}'; }
peak() { sed -n 's/.*Peak resident memory per rank: .* max \([0-9.]*\) MB.*/\1/p' "$1"; }
for args in "1 mesh.nx=200" "2 mesh.nx=200 mesh.ny=40 mesh.nz=40 parallel.partitioner=block" \
            "4 mesh.nx=200 mesh.ny=40 mesh.nz=40 parallel.partitioner=block" "2 mesh.dim=2 mesh.nx=300 mesh.ny=300"; do
    set -- $args
    np=$1
    shift
    mpi $np $HYDRO "$top/inputs/bench/mahyco.ini" run.max_cycles=2 output.listing_period=0 \
        output.checkpoint_period=-1 "$@" > est.out 2>&1
    e=$(estimate est.out) p=$(peak est.out)
    awk -v e="$e" -v p="$p" 'BEGIN { exit !(e > 0 && p > 0 && e >= 0.8 * p && e <= 1.25 * p) }'
    ok $? "the estimate ($e MB) is within 20% of the measured peak ($p MB), $np ranks, $*"
done

# a deck sized from this machine's available memory: twice what each of 2 ranks may have
avail=$(sed -n 's/^MemAvailable: *\([0-9]*\) kB/\1/p' /proc/meminfo)
nx=$(awk -v a="$avail" 'BEGIN { printf "%d", 2 * a * 1024 / 600 / 10000 }') # 600 B per 3D cell, 100 x 100 section
start=$(date +%s)
mpi 2 $HYDRO "$top/inputs/bench/mahyco.ini" mesh.nx=$nx mesh.ny=100 mesh.nz=100 parallel.partitioner=block \
    > big.out 2> big.err
rc=$? took=$(($(date +%s) - start))
[ $rc -eq 2 ] && [ "$(grep -c 'this run needs about' big.err)" -eq 1 ] &&
    grep -q 'use about [0-9]* ranks or more' big.err && [ $took -lt 30 ]
ok $? "a mesh of twice the available memory ($nx x 100 x 100 on 2 ranks): exit 2 in ${took}s, one line saying what to change"
[ $rc -eq 2 ] || diag "exit $rc: $(cat big.err)"
$HYDRO --check "$top/inputs/bench/mahyco.ini" mesh.nx=$nx mesh.ny=100 mesh.nz=100 parallel.partitioner=block > big.check 2>&1
grep -q '^; memory estimate on 1 rank: about .*: TOO LARGE' big.check; ok $? "--check says the estimate is too large"

# run.memory_limit: a limit given in the deck
mpi 2 $HYDRO "$top/inputs/bench/mahyco.ini" run.memory_limit=5 > lim.out 2> lim.err
[ $? -eq 2 ] && grep -q 'this run needs about .* but run.memory_limit is 5 MB per rank' lim.err
ok $? "run.memory_limit = 5 (MB) refuses the bench deck, naming the limit"
mpi 2 $HYDRO "$top/inputs/bench/mahyco.ini" run.memory_limit=1000 run.max_cycles=1 output.checkpoint_period=-1 \
    > lim2.out 2> lim2.err
ok $? "run.memory_limit = 1000 lets it run"

# the advice is computed: the rank count it names fits, one fewer does not (limits given, so the
# machine's free memory cannot move the boundary)
box="mesh.nx=400 mesh.ny=100 mesh.nz=100 parallel.partitioner=block run.memory_limit=1000"
mpi 2 $HYDRO "$top/inputs/bench/mahyco.ini" $box > adv.out 2> adv.err
n=$(sed -n 's/.*use about \([0-9]*\) ranks or more (on more nodes), a smaller mesh, or set.*/\1/p' adv.err)
if [ -n "$n" ] && [ "$n" -gt 2 ] && [ "$n" -le 16 ]; then
    mpi "$n" $HYDRO --check "$top/inputs/bench/mahyco.ini" $box > adv.n 2>&1
    mpi $((n - 1)) $HYDRO --check "$top/inputs/bench/mahyco.ini" $box > adv.n1 2>&1
    grep -q '^; memory estimate on .* per rank$' adv.n && grep -q 'TOO LARGE' adv.n1
else
    false
fi
ok $? "a 4M-cell run with 1000 MB per rank: 'use about $n ranks', and --check on $n ranks fits, on $((n - 1)) it does not"
[ -n "$n" ] || diag "$(cat adv.err)"
# rank 0's set-up with METIS too large but the time loop fits: block is advised, not more ranks
mpi 2 $HYDRO --check "$top/inputs/bench/mahyco.ini" mesh.nx=100 mesh.ny=100 mesh.nz=100 > setup.check 2>&1
mid=$(sed -n 's/.*about \([0-9.]*\) MB per rank at most.*set-up \([0-9.]*\) MB;.*/\1 \2/p' setup.check |
      awk '{ printf "%d", ($1 + $2) / 2 }')
mpi 2 $HYDRO "$top/inputs/bench/mahyco.ini" mesh.nx=100 mesh.ny=100 mesh.nz=100 run.memory_limit=${mid:-1} \
    > setup.out 2> setup.err
[ $? -eq 2 ] && grep -q 'rank 0 holds the whole mesh at set-up.*: use parallel.partitioner = block, a smaller mesh, or set' setup.err &&
    ! grep -q 'ranks or more' setup.err
ok $? "rank 0's METIS set-up above run.memory_limit = $mid MB, the loop below: the advice is parallel.partitioner = block"
[ -n "$mid" ] || diag "$(cat setup.check)"
# a limit below what the process itself takes: no rank count or mesh would do
mpi 2 $HYDRO "$top/inputs/bench/mahyco.ini" run.memory_limit=5 parallel.partitioner=block > fix.out 2> fix.err
[ $? -eq 2 ] && grep -q 'run.memory_limit is 5 MB per rank (the process alone takes about [0-9.]* MB): raise run.memory_limit' fix.err &&
    ! grep -q 'ranks or more\|smaller mesh' fix.err
ok $? "a limit below the process's own memory: the line says so and advises no rank count"

# a memory cgroup's limit (a batch job's or a container's) counts as what there is
# (v1 where the memory controller is mounted alone, as on this VM; else the unified v2 tree)
if [ -d /sys/fs/cgroup/memory ]; then
    cg=/sys/fs/cgroup/memory/hydro-precheck.$$ limit=memory.limit_in_bytes
else
    cg=/sys/fs/cgroup/hydro-precheck.$$ limit=memory.max
fi
if [ "$(id -u)" = 0 ] && mkdir "$cg" 2> /dev/null && echo 400000000 > "$cg/$limit"; then
    sh -c "echo \$\$ > $cg/cgroup.procs && exec $HYDRO --check '$top/inputs/bench/mahyco.ini' mesh.nx=100 mesh.ny=100 mesh.nz=100" \
        > cg.check 2>&1
    usage=$(cat "$cg/memory.usage_in_bytes" "$cg/memory.current" 2> /dev/null | head -n 1)
    # the MPI singleton's helper outlives hydro by a moment, and rmdir finds the group busy until
    # it is gone (the groups were left behind)
    for i in $(seq 50); do
        rmdir "$cg" 2> /dev/null && break
        sleep 0.1
    done
    a=$(sed -n 's/.*available \([0-9.]*\) MB per rank.*/\1/p' cg.check)
    awk -v a="$a" 'BEGIN { exit !(a > 300 && a <= 400) }' && grep -q 'TOO LARGE' cg.check
    r=$?
    ok $r "in a memory cgroup of 400 MB ($cg), --check gives each rank what the group still allows ($a MB): too large"
    [ $r -eq 0 ] || diag "the group's usage after the run: $usage bytes; --check said: $(cat cg.check)"
else
    rmdir "$cg" 2> /dev/null
    skip 1 "no memory cgroup can be created here (needs root and a writable /sys/fs/cgroup)"
fi
done_testing
