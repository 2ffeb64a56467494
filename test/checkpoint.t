#!/bin/sh
# HDF5 dumps and restart: layout, identical files on 1-4 ranks, restart on another rank count
# ends bit for bit as the uninterrupted run, atomic dumps under SIGKILL, XDMF, bad files.
. test/lib.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
small="mesh.nx=10 mesh.ny=4 mesh.nz=3 case.cell_vars=2 case.node_vars=1 case.components=3 output.listing_period=0"

# layout, attributes, listing
hydro_in lay 2 "$DECK" mesh.dim=2 mesh.nx=5 mesh.ny=3 case.cell_vars=1 case.node_vars=1 case.components=3 \
    run.max_cycles=4
ok $? "2D dump run exits 0"
sh "$top/test/h5layout.sh" lay/checkpoints/hydro_000004.h5 > layout.txt
diff layout.txt "$top/test/expected/layout_2d.txt" > layout.diff; ok $? "h5dump -H shows exactly the documented layout"
[ -s layout.diff ] && diag "$(cat layout.diff)"
h5dump -a /cycle lay/checkpoints/hydro_000004.h5 | grep -q '(0): 4$'; ok $? "h5dump -a /cycle gives 4"
h5dump -a /nranks_written lay/checkpoints/hydro_000004.h5 | grep -q '(0): 2$'; ok $? "h5dump -a /nranks_written gives 2"
h5dump -a /deck lay/checkpoints/hydro_000004.h5 | grep -q 'max_cycles = 4'; ok $? "the deck attribute holds the resolved deck"
h5dump -a /cells/sync_cell_0/centering lay/checkpoints/hydro_000004.h5 | grep -q '"cell"'; ok $? "variables carry their centering"
grep -Eq '^\*I-Checkpoint Dump checkpoints/hydro_000004.h5: cycle 4, [0-9.]+ MB in [0-9.]+ s \([0-9.]+ GB/s\)$' lay/log
ok $? "the listing reports the dump: path, size, seconds, GB/s"

# the same run on 1-4 ranks gives the same files
for np in 1 2 3 4; do
    hydro_in r$np $np "$DECK" $small run.max_cycles=6 output.checkpoint_period=3
    ok $? "3D run with dumps every 3 cycles on $np ranks"
done
for np in 2 3 4; do
    for c in 3 6; do
        out=$(sh "$top/test/h5same.sh" r1/checkpoints/hydro_00000$c.h5 r$np/checkpoints/hydro_00000$c.h5)
        ok $? "cycle $c dump: 1 rank and $np ranks hold the same data"
        [ -z "$out" ] || diag "$out"
    done
done
hydro_in b2 2 "$DECK" $small run.max_cycles=6 parallel.partitioner=block output.checkpoint_period=3
hydro_in b1 1 "$DECK" $small run.max_cycles=6 parallel.partitioner=block output.checkpoint_period=3
sh "$top/test/h5same.sh" b1/checkpoints/hydro_000006.h5 b2/checkpoints/hydro_000006.h5
ok $? "block partition: 1 and 2 ranks hold the same data"
h5diff -q --exclude-path /cells/rank b1/checkpoints/hydro_000006.h5 b2/checkpoints/hydro_000006.h5 > /dev/null
[ $? -eq 1 ]; ok $? "h5same is not blind: plain h5diff sees nranks_written differ"

# restart on other rank counts ends where the uninterrupted run ends
hydro_in u 1 "$DECK" $small run.max_cycles=12 output.checkpoint_period=6
hydro_in s 2 "$DECK" $small run.max_cycles=6 output.checkpoint_period=6
(cd s && mpi 3 "$HYDRO" --restart checkpoints/hydro_000006.h5 run.max_cycles=12 > log3 2> err3); rc=$?
[ $rc -eq 0 ] && grep -q 'Restart from checkpoints/hydro_000006.h5: cycle 6' s/log3; ok $? "restart from cycle 6 on 3 ranks (written by 2)"
[ $rc -eq 0 ] || diag "$(cat s/err3)"
sh "$top/test/h5same.sh" u/checkpoints/hydro_000012.h5 s/checkpoints/hydro_000012.h5; ok $? "6 + 6 cycles across a restart (2 then 3 ranks) = 12 cycles uninterrupted"
hydro_in s4 2 "$DECK" $small run.max_cycles=6 output.checkpoint_period=6
(cd s4 && mpi 4 "$HYDRO" --restart checkpoints/hydro_000006.h5 run.max_cycles=9 > log 2>&1 &&
    mpi 1 "$HYDRO" --restart checkpoints/hydro_000009.h5 run.max_cycles=12 > log2 2>&1); ok $? "restart twice: 2 -> 4 -> 1 ranks"
sh "$top/test/h5same.sh" u/checkpoints/hydro_000012.h5 s4/checkpoints/hydro_000012.h5; ok $? "6 + 3 + 3 cycles across two restarts = 12 uninterrupted"
hydro_in ub 2 "$DECK" $small run.max_cycles=12 parallel.partitioner=block output.checkpoint_period=6
(cd s && mpi 4 "$HYDRO" --restart checkpoints/hydro_000006.h5 run.max_cycles=12 parallel.partitioner=block \
    output.checkpoint_dir=blk > logb 2>&1); ok $? "restart repartitioned with blocks on 4 ranks"
# the decks differ in checkpoint_dir only; every dataset is the same
sh "$top/test/h5same.sh" --any-deck ub/checkpoints/hydro_000012.h5 s/blk/hydro_000012.h5
ok $? "block restart on 4 ranks ends with the block run's data"

# keep and XDMF
hydro_in k 2 "$DECK" $small run.max_cycles=10 output.checkpoint_period=2 output.checkpoint_keep=2
[ "$(cd k/checkpoints && ls hydro_*.h5 | tr '\n' ' ')" = "hydro_000008.h5 hydro_000010.h5 " ]; ok $? "checkpoint_keep = 2 keeps the last two dumps"
[ "$(grep -c '<Grid Name="hydro_' k/checkpoints/hydro.xmf)" -eq 2 ]; ok $? "hydro.xmf is a temporal collection of the kept dumps"
xml_ok=0 refs=0 missing=""
for x in k/checkpoints/*.xmf r3/checkpoints/*.xmf; do
    xmllint --noout "$x" || xml_ok=1
    for ref in $(sed -n 's/.*>\(hydro_[0-9]*\.h5\):\([^<]*\)<.*/\1\2/p' "$x"); do
        refs=$((refs + 1))
        h5ls "$(dirname "$x")/$ref" > /dev/null 2>&1 || missing="$missing $ref"
    done
done
ok $xml_ok "every .xmf is well-formed XML (xmllint)"
[ -z "$missing" ] && [ $refs -gt 20 ]; ok $? "every dataset an .xmf names exists ($refs references${missing:+, missing:$missing})"
grep -q 'TopologyType="Hexahedron"' r3/checkpoints/hydro_000006.xmf && grep -q 'TopologyType="Quadrilateral"' \
    lay/checkpoints/hydro_000004.xmf && grep -q 'AttributeType="Vector" Center="Node"' r3/checkpoints/hydro_000006.xmf
ok $? "XDMF topology, geometry and attribute kinds"

# bad dumps: one clear message naming the file, exit 2
good=r1/checkpoints/hydro_000006.h5
echo "not a dump" > text.h5
head -c 20000 $good > trunc.h5
cp $good nofmt.h5 && "$BUILD/test/h5mutate" nofmt.h5 drop-root-attr format
cp $good nomesh.h5 && "$BUILD/test/h5mutate" nomesh.h5 drop-dataset /mesh/cell_nodes
cp $good short.h5 && "$BUILD/test/h5mutate" short.h5 resize-dataset /cells/rank -1
cp $good novar.h5 && "$BUILD/test/h5mutate" novar.h5 drop-dataset /cells/sync_cell_1
cp $good deck.h5 && "$BUILD/test/h5mutate" deck.h5 deck-replace "nx = 10" "nx = 5"
cp $good cycle.h5 && "$BUILD/test/h5mutate" cycle.h5 set-i64 cycle -5
hydro_in nn 2 "$DECK" $small case.node_vars=0 run.max_cycles=2
cp nn/checkpoints/hydro_000002.h5 gap.h5 && "$BUILD/test/h5mutate" gap.h5 resize-dataset /mesh/node_coords 1
cp $good values.h5 && "$BUILD/test/h5mutate" values.h5 scale-dataset /nodes/sync_node_0 2
bad_dump() {
    mpi 2 "$HYDRO" --restart "$1" output.checkpoint_period=-1 > out 2> err
    rc=$?
    [ $rc -eq 2 ] && [ "$(grep -cF "$2" err)" -eq 1 ]; ok $? "restart from $1: exit 2 and '$2'"
    [ $rc -eq 2 ] || diag "exit $rc: $(cat err)"
}
bad_dump text.h5 "text.h5: not a readable HDF5 file (H5Fopen(): unable to open file ... H5F__super_read(): file signature not found)"
bad_dump trunc.h5 "trunc.h5: not a readable HDF5 file (H5Fopen(): unable to open file ... H5F__super_read(): truncated file"
bad_dump nofmt.h5 'nofmt.h5: not a hydro checkpoint (no format = "hydro-checkpoint" attribute)'
bad_dump nomesh.h5 "nomesh.h5: lacks dataset /mesh/cell_nodes"
bad_dump short.h5 "short.h5: dataset /cells/rank has the wrong type or size (expected integer [120])"
bad_dump novar.h5 "novar.h5: lacks dataset /cells/sync_cell_1"
bad_dump nothere.h5 "nothere.h5: cannot open: No such file or directory"
bad_dump deck.h5 "deck.h5: its deck (3D, mesh.nx * ny * nz cells) does not describe its mesh (3D, 120 cells)"
bad_dump cycle.h5 "cycle.h5: bad time-stepping state (cycle -5, time 6, dt 1)"
bad_dump gap.h5 "gap.h5: node 220 of /mesh/node_coords belongs to no cell"
mpi 2 "$HYDRO" --restart values.h5 output.checkpoint_period=-1 > out 2> err; rc=$?
[ $rc -eq 1 ] && grep -q "cycle 6: node [0-9]* of variable sync_node_0 component 0 holds [0-9]*, its owner wrote [0-9]*$" err
ok $? "restored values are checked: a dump with wrong data stops the restart (exit 1)"
[ $rc -eq 1 ] || diag "exit $rc: $(cat err)"
# one byte changed inside a dataset's data, as a disk or a copy might: the checksum names it
# flip FILE DATASET BYTE: add 1 to byte BYTE of DATASET's data in FILE (offset from h5dump -p)
flip() {
    off=$(h5dump -p -H -d "$2" "$1" | sed -n 's/.*OFFSET \([0-9]*\).*/\1/p')
    [ -n "$off" ] || return 1
    off=$((off + $3))
    b=$(od -An -tu1 -j "$off" -N1 "$1" | tr -d ' ')
    printf "\\$(printf %o $(((b + 1) % 256)))" | dd of="$1" bs=1 seek="$off" conv=notrunc status=none
}
for spec in /cells/sync_cell_0:13 /mesh/node_coords:0 /mesh/cell_nodes:200 /nodes/sync_node_0:57 /cells/rank:7; do
    ds=${spec%:*}
    cp $good crc.h5 && flip crc.h5 "$ds" "${spec#*:}" || diag "could not damage $ds"
    bad_dump crc.h5 "crc.h5: dataset $ds does not match its checksum"
done
cp $good nocrc.h5 && "$BUILD/test/h5mutate" nocrc.h5 drop-attr /cells/sync_cell_0 crc32
bad_dump nocrc.h5 "nocrc.h5: dataset /cells/sync_cell_0 has no crc32 checksum attribute"
h5dump -a /cells/sync_cell_1/crc32 "$good" | grep -q 'H5T_STD_U32LE'; ok $? "every dataset carries its crc32 (uint32) attribute"
# damaged metadata: HDF5's own checksums (file format 1.10) refuse it; hydro says so and exits 2
cp $good meta.h5 && printf 'X' | dd of=meta.h5 bs=1 seek=60 conv=notrunc status=none
mpi 2 "$HYDRO" --restart meta.h5 output.checkpoint_period=-1 > out 2> err; rc=$?
[ $rc -eq 2 ] && grep -q "^meta.h5: " err; ok $? "a byte changed in the metadata: one line naming the file, exit 2"
[ $rc -eq 2 ] || diag "exit $rc: $(cat err)"
cp $good extra.h5 && "$BUILD/test/h5mutate" extra.h5 drop-dataset /cells/sync_cell_1
! sh "$top/test/h5same.sh" $good extra.h5 > /dev/null; ok $? "h5same sees a dataset missing from one file"
mpi 2 "$HYDRO" --restart $good mesh.nx=4 > out 2> err; rc=$?
[ $rc -eq 2 ] && grep -qxF "command line: mesh.nx: a restart continues the dumped run: only [run], [output], [parallel] and [loadbalance] keys may change" err
ok $? "restart refuses to change a key that is not run control"

# file-system and HDF5 failures stop every rank with exit 1, naming the path
mpi 2 "$HYDRO" "$DECK" $small run.max_cycles=1 output.checkpoint_dir=/dev/null/x > out 2> err; rc=$?
[ $rc -eq 1 ] && grep -q "cannot create checkpoint directory '/dev/null/x': Not a directory" err; ok $? "unusable checkpoint_dir: exit 1 with the reason"
mkdir -p hf/checkpoints/.hydro_000001.h5.tmp
(cd hf && mpi 2 "$HYDRO" "$DECK" $small run.max_cycles=1 > out 2> err); rc=$?
[ $rc -eq 1 ] && grep -q "checkpoints/.hydro_000001.h5.tmp: H5Fcreate(.*) failed: H5Fcreate(): unable to create file" hf/err
ok $? "an HDF5 failure (file name taken by a directory) ends the run with exit 1 naming file and HDF5 error"
[ $rc -eq 1 ] || diag "exit $rc: $(cat hf/err)"
[ ! -e hf/checkpoints/hydro_000001.h5 ]; ok $? "no dump published after the failure"

# a sidecar that cannot be written: one line in hydro's form, the listing's Dump line says so
mkdir -p sc/checkpoints/hydro_000001.xmf # a directory where the sidecar goes
(cd sc && mpi 2 "$HYDRO" "$DECK" $small run.max_cycles=1 > out 2> err); rc=$?
[ $rc -eq 1 ] && [ "$(grep -c '^hydro: ' sc/err)" -eq 1 ] &&
    grep -q "^hydro: rank 0: io/xdmf.c:[0-9]*: cannot write 'checkpoints/hydro_000001.xmf': Is a directory$" sc/err &&
    grep -q "Dump checkpoints/hydro_000001.h5: cycle 1, failed: hydro: rank 0: io/xdmf.c" sc/out
ok $? "a sidecar that cannot be written: exit 1, one line 'hydro: rank 0: io/xdmf.c:LINE: ...', a failed Dump line"
[ $rc -eq 1 ] || diag "exit $rc: $(cat sc/err)"
# a full disk (a small tmpfs, where this machine lets the test mount one): the sidecar, then the dump
mkdir -p full/fs
if mount -t tmpfs -o size=1m tmpfs full/fs 2> /dev/null; then
    (cd full && mpi 2 "$HYDRO" "$DECK" $small run.max_cycles=1 output.checkpoint_dir=ref > /dev/null 2>&1)
    pages=$(( ($(stat -c %s full/ref/hydro_000001.h5) + 4095) / 4096 ))
    dd if=/dev/zero of=full/fs/filler bs=4096 count=$((256 - pages)) 2> /dev/null # room for the dump alone
    (cd full && mpi 2 "$HYDRO" "$DECK" $small run.max_cycles=1 output.checkpoint_dir=fs/ck > out 2> err); rc=$?
    [ $rc -eq 1 ] && [ "$(grep -c '^hydro: ' full/err)" -eq 1 ] &&
        grep -q "^hydro: rank 0: io/xdmf.c:[0-9]*: cannot write 'fs/ck/hydro_000001.xmf': No space left on device$" full/err &&
        grep -q 'Dump fs/ck/hydro_000001.h5: cycle 1, failed: ' full/out
    ok $? "a disk full at the sidecar: exit 1, one line in hydro's form, a failed Dump line"
    rm -rf full/fs/ck full/fs/filler
    dd if=/dev/zero of=full/fs/filler bs=4096 count=300 2> /dev/null # the disk full: the dump itself fails
    for np in 2 3; do
        (cd full && mpi $np "$HYDRO" "$DECK" $small run.max_cycles=1 output.checkpoint_dir=fs/ck > out 2> err); rc=$?
        [ $rc -eq 1 ] && [ "$(grep -c '^hydro: ' full/err)" -eq 1 ] && grep -q '^hydro: rank 0: io/' full/err &&
            ! ls full/fs/ck/hydro_*.h5 > /dev/null 2>&1
        ok $? "a disk full during the HDF5 write on $np ranks: exit 1, one line for the job (rank 0's), no dump published"
        [ $rc -eq 1 ] || diag "exit $rc: $(cat full/err)"
        rm -rf full/fs/ck
    done
    umount full/fs
else # the disk-full cases need a mount (root, or a container that allows it); CI must run them
    skip 3 "no tmpfs could be mounted here: the disk-full sidecar and dump cases"
fi

# SIGKILL during a dump: every published dump is complete, the newest restarts
killed_mid_write=1
for attempt in 1 2 3 4 5; do
    rm -rf kill && mkdir kill && cd kill || exit 1
    $MPIRUN -np 2 "$HYDRO" "$DECK" mesh.nx=60 mesh.ny=30 mesh.nz=30 case.cell_vars=30 case.verify=false \
        run.max_cycles=100000 output.checkpoint_period=1 output.checkpoint_keep=3 output.listing_period=0 > log 2>&1 &
    pid=$!
    n=0 # wait for two published dumps, then kill the ranks as soon as a dump is being written
    while { [ "$(ls checkpoints/hydro_*.h5 2> /dev/null | wc -l)" -lt 2 ] ||
        ! ls checkpoints/.hydro_*.tmp > /dev/null 2>&1; } && [ $n -lt 12000 ]; do
        sleep 0.005
        n=$((n + 1))
    done
    pkill -KILL -f "^$HYDRO $DECK mesh.nx=60"
    wait $pid 2> /dev/null
    cd .. || exit 1
    if ls kill/checkpoints/.hydro_*.tmp > /dev/null 2>&1; then
        killed_mid_write=0
        break
    fi
done
ok $killed_mid_write "SIGKILL landed during a dump (a temporary file is left) within 5 tries"
complete=0
for f in kill/checkpoints/hydro_*.h5; do
    h5dump -H "$f" > /dev/null 2>&1 || complete=1
done
ok $complete "every published dump is complete ($(ls kill/checkpoints/hydro_*.h5 | wc -l) of them)"
newest=$(ls kill/checkpoints/hydro_*.h5 | sort | tail -n 1)
cycle=$(h5dump -a /cycle "$newest" | sed -n 's/.*(0): //p')
(cd kill && mpi 3 "$HYDRO" --restart "checkpoints/$(basename "$newest")" run.max_cycles=$((cycle + 1)) > rlog 2>&1)
ok $? "the newest dump ($(basename "$newest"), cycle $cycle) restarts on 3 ranks"
[ ! -e kill/checkpoints/.hydro_*.tmp ] 2> /dev/null; ok $? "the restarted run removed the leftover temporary file"
done_testing
