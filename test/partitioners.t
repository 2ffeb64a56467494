#!/bin/sh
# Every graph partitioner (metis, zoltan, ptscotch) on 1-4 ranks: the set-up partition and the
# load balancer's repartitions give final dumps bit for bit those of one rank; with a distributed
# backend no rank holds more than its share of the generated box or of a Gmsh file before the
# partition (metis gathers it on rank 0); the listing names the partitioner, its quality and every decision; a
# restart on another rank count with another partitioner; one weight per cell or per phase; parts
# sized by the ranks' speeds; bad keys exit 2.
. test/lib.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1

# same REF DIR CYCLE WHAT: the dump of CYCLE in DIR is bit for bit REF's
same() {
    out=$(sh "$top/test/h5same.sh" --any-deck "$1/checkpoints/hydro_$3.h5" "$2/checkpoints/hydro_$3.h5" 2>&1)
    ok $? "$4"
    [ -z "$out" ] || diag "$out"
}
# totals DIR: the listing's totals lines
totals() { grep -E 'Totals at cycle|Materials at cycle' "$1/log" | sed 's/^[^ ]* *//'; }
# share DIR: the largest rank's cells before the partition against the average
share() { sed -n 's/.*Before the partition, the most a rank holds: [0-9]* cells (\([0-9.]*\) x the average).*/\1/p' "$1/log"; }

sod="$top/inputs/sod_x.ini mesh.nx=24 mesh.ny=4 mesh.nz=4 run.max_cycles=10 output.listing_period=0"
sedov="$top/inputs/sedov_2d.ini mesh.nx=16 mesh.ny=16 run.max_cycles=10 output.listing_period=0"
# (the set-up partition counting the cells, so that the first rebalance has an imbalance to mend)
lb="loadbalance.period=3 loadbalance.threshold=0 loadbalance.decide=threshold loadbalance.cost=region
    loadbalance.region_speed=150 loadbalance.cost_factor=20 loadbalance.extra_cell_vars=2 loadbalance.setup=false"

# ---- the set-up partition ----
for case in sod sedov; do
    eval "deck=\$$case"
    hydro_in $case.ref 1 $deck
    ok $? "$case on 1 rank (the reference)"
    for pt in metis zoltan ptscotch; do
        for np in 2 3 4; do
            d=$case.$pt.$np
            hydro_in $d $np $deck parallel.partitioner=$pt
            rc=$?
            [ $rc -eq 0 ] && grep -Eq "Partition $pt: owned cells per rank min [1-9][0-9]* .* imbalance [0-9.]+$" $d/log &&
                grep -Eq 'Partition edge cut: [0-9]+ faces' $d/log
            ok $? "$case, parallel.partitioner = $pt on $np ranks: every rank owns cells, the listing names the partitioner and its edge cut"
            [ $rc -eq 0 ] || diag "$(cat $d/err)"
            same $case.ref $d 000010 "$case, $pt on $np ranks: bit for bit 1 rank"
            [ -n "$(totals $d)" ] && [ "$(totals $d)" = "$(totals $case.ref)" ]
            ok $? "$case, $pt on $np ranks: the listing's totals are 1 rank's, drifts included (exact sums)"
            s=$(share $d)
            if [ $pt = metis ]; then
                [ "$s" = "$np.00" ]; ok $? "$case, metis on $np ranks: rank 0 generates the whole box ($s x the average)"
            else
                awk -v s="$s" 'BEGIN { exit !(s != "" && s <= 1.01) }'
                ok $? "$case, $pt on $np ranks: each rank generates only its share of the box ($s x the average)"
            fi
        done
    done
done

# ---- Gmsh meshes: read by shares for the distributed backends (whole on rank 0 for metis) ----
# nshare DIR: the largest rank's nodes before the partition against the mesh's nodes per rank
nshare() { sed -n 's/.*Before the partition, the most a rank holds: .* nodes (\([0-9.]*\) x).*/\1/p' "$1/log"; }
for mesh in "3 hex_block sod_x" "2 quarter_disc sedov_gmsh"; do
    set -- $mesh
    gm="$top/inputs/$3.ini mesh.kind=gmsh mesh.dim=$1 mesh.file=$top/inputs/meshes/$2.msh run.max_cycles=6 output.listing_period=0"
    hydro_in gmsh.$2.ref 1 $gm
    for pt in metis zoltan ptscotch; do
        for np in 2 4; do
            d=gmsh.$2.$pt.$np
            hydro_in $d $np $gm parallel.partitioner=$pt
            ok $? "gmsh $2, $pt on $np ranks"
            same gmsh.$2.ref $d 000006 "gmsh $2, $pt on $np ranks: bit for bit 1 rank"
            s=$(share $d) n=$(nshare $d)
            if [ $pt = metis ]; then
                [ "$s" = "$np.00" ] && [ "$n" = "$np.00" ]
                ok $? "gmsh $2, metis on $np ranks: rank 0 reads the whole file ($s x the cells per rank, $n x the nodes)"
            else
                awk -v s="$s" -v n="$n" 'BEGIN { exit !(s != "" && s <= 1.01 && n != "" && n <= 2.5) }'
                ok $? "gmsh $2, $pt on $np ranks: each rank reads only its share ($s x the cells per rank, $n x the nodes)"
            fi
        done
    done
done

# ---- the load balancer's repartitions ----
for pt in metis zoltan ptscotch; do
    for np in 2 3 4; do
        d=lb.$pt.$np
        hydro_in $d $np $sod $lb loadbalance.mode=$pt
        rc=$?
        n=$(moved $d)
        [ $rc -eq 0 ] && [ "$n" -gt 0 ] && grep -Eq "Rebalance at cycle 3 \\($pt\\): [0-9]+ cells moved; imbalance measured [0-9.]+, cell weights [0-9.]+ -> [0-9.]+; seconds" $d/log
        ok $? "loadbalance.mode = $pt on $np ranks: $n cells moved, one summary line per rebalance naming $pt"
        grep -Eq 'Cycle 3: partition now: owned cells per rank min [0-9]+ avg [0-9.]+ max [0-9]+, edge cut [0-9]+ faces' $d/log
        ok $? "loadbalance.mode = $pt on $np ranks: the new partition's cells per rank and edge cut"
        [ $rc -eq 0 ] || diag "$(cat $d/err)"
        same sod.ref $d 000010 "loadbalance.mode = $pt on $np ranks: bit for bit 1 rank without rebalancing"
    done
    w=$(sed -n 's/.*Rebalance at cycle 3 .*cell weights \([0-9.]*\) -> \([0-9.]*\);.*/\1 \2/p' lb.$pt.3/log)
    set -- $w
    awk -v b="$1" -v a="$2" 'BEGIN { exit !(b > 0.2 && a < b / 2) }'
    ok $? "loadbalance.mode = $pt: the first rebalance cuts the weight imbalance by half at least ($1 -> $2)"
done
# one weight per cell with Zoltan: PHG's REPARTITION (with several, RCB phases above)
hydro_in lb.total.zoltan 3 $sod $lb loadbalance.weights=total loadbalance.mode=zoltan
rc=$?
[ $rc -eq 0 ] && [ "$(moved lb.total.zoltan)" -gt 0 ] && grep -q "zoltan above the threshold, one weight per cell, cost" lb.total.zoltan/log
ok $? "loadbalance.weights = total, zoltan (PHG's repartition): $(moved lb.total.zoltan) cells moved"
[ $rc -eq 0 ] || diag "$(cat lb.total.zoltan/err)"
same sod.ref lb.total.zoltan 000010 "loadbalance.weights = total, zoltan: bit for bit 1 rank"
# one weight per phase and one for the region's extra work, which METIS and Zoltan balance each
for pt in metis zoltan; do
    hydro_in lb.phases.$pt 3 $sod $lb loadbalance.weights=phases loadbalance.mode=$pt
    rc=$?
    [ $rc -eq 0 ] && [ "$(moved lb.phases.$pt)" -gt 0 ] &&
        grep -q "one weight per phase and one for the cost model's extra work" lb.phases.$pt/log
    ok $? "loadbalance.weights = phases, $pt: three weights (a region cost), $(moved lb.phases.$pt) cells moved"
    same sod.ref lb.phases.$pt 000010 "loadbalance.weights = phases, $pt: bit for bit 1 rank"
done
# a partitioner of one weight (ptscotch: the phases' sum) on the issue's case in small: its partition,
# judged by the phases, is kept out, and the next check expects no gain of it; METIS balances each
# weight, Zoltan each in its own RCB phase. Without the remap, no weight is measured (Lagrange 1,
# remap the floor, the region's work): the same weights, so the same partitions, in every run
issue="$top/inputs/default.ini mesh.nx=48 mesh.ny=6 mesh.nz=6 run.max_cycles=10 output.checkpoint_period=-1 physics.remap=none
    loadbalance.cost=region loadbalance.cost_factor=4 loadbalance.cost_units=20 loadbalance.threshold=0
    loadbalance.period=5 loadbalance.decide=threshold"
for pt in ptscotch zoltan metis; do
    hydro_in judge.$pt 2 $issue loadbalance.mode=$pt loadbalance.setup=false
    rc=$?
    set -- $(sed -n 's/.*Cycle 5: .*phases \([0-9.]*\) -> \([0-9.]*\) x the balanced time.*/\1 \2/p' judge.$pt/log) 0 0
    if [ $pt = ptscotch ]; then
        [ $rc -eq 0 ] && grep -q "Cycle 5: imbalance measured [0-9.]*, but PT-Scotch's partition is no better" judge.$pt/log &&
            awk -v b="$1" -v a="$2" 'BEGIN { exit !(b > 1.1 && a > b) }' && [ "$(moved judge.$pt)" -eq 0 ] &&
            grep -q 'Cycle 10: no gain expected until cycle 30: PT-Scotch.s partition at cycle 5 was no better' judge.$pt/log &&
            grep -Eq 'Cycle 10: imbalance measured .* expected gain 0.000000 s' judge.$pt/log
        ok $? "ptscotch, the weights' sum against 3 phases: phases $1 -> $2 x the balanced time, kept out; no gain expected next"
    else
        [ $rc -eq 0 ] && grep -q "Rebalance at cycle 5 ($pt)" judge.$pt/log &&
            awk -v b="$1" -v a="$2" 'BEGIN { exit !(b > 1.1 && a < 1.05) }'
        ok $? "$pt, 3 weights: phases $1 -> $2 x the balanced time, rebalanced"
    fi
    [ $rc -eq 0 ] || diag "$(cat judge.$pt/err)"
done
# the set-up partition weighed by the cost model (loadbalance.setup = true, the default): where the
# partitioner balances one weight per phase, the first check finds the phases balanced, which the
# cells counted leave 1.1 x out of balance at least (above); PT-Scotch, which balances their sum,
# and one weight per cell count the cells
for pt in metis zoltan; do
    for np in 2 3; do
        d=setup.$pt.$np
        hydro_in $d $np $issue parallel.partitioner=$pt loadbalance.mode=$pt
        rc=$?
        set -- $(sed -n 's/.*Cycle 5: .*phases \([0-9.]*\) -> \([0-9.]*\) x the balanced time.*/\1 \2/p' $d/log) 9 9
        [ $rc -eq 0 ] && grep -q "Set-up partition: the cells weighed by the cost model over the 10 cycles it is expected to serve (extra work 0.75 x the cells' own), one weight per cell and one for the extra work" $d/log &&
            awk -v b="$1" 'BEGIN { exit !(b < 1.05) }'
        ok $? "loadbalance.setup, $pt on $np ranks: the set-up partition weighed, the first check's phases $1 x the balanced time"
        [ $rc -eq 0 ] || diag "$(cat $d/err)"
        set -- $(sed -n "s/.*Set-up partition: the largest rank's weight against the mean \([0-9.]*\) (the cells' own work), \([0-9.]*\) (the extra work).*/\1 \2/p" $d/log) 9 9
        awk -v a="$1" -v b="$2" 'BEGIN { exit !(a < 1.05 && b < 1.05) }'
        ok $? "loadbalance.setup, $pt on $np ranks: the listing gives each weight's balance ($1, $2)"
    done
done
for keys in "parallel.partitioner=ptscotch loadbalance.mode=ptscotch" "loadbalance.weights=total" \
    "loadbalance.setup=false" "loadbalance.period=0" "loadbalance.cost=shock"; do
    hydro_in setup.off 2 $issue $keys
    rc=$?
    [ $rc -eq 0 ] && ! grep -q 'Set-up partition:' setup.off/log
    ok $? "$keys: the set-up partition counts the cells"
    rm -rf setup.off
done
# beyond 8 ranks, weights = auto gives a rebalance one weight per cell, and the set-up counts the
# cells; weights = phases weighs them (Zoltan's RCB in phases)
for w in auto phases; do
    hydro_in setup.9.$w 9 $issue run.max_cycles=2 parallel.partitioner=zoltan loadbalance.mode=zoltan loadbalance.weights=$w
    rc=$?
    n=$(grep -c 'Set-up partition: the cells weighed' setup.9.$w/log)
    [ $rc -eq 0 ] && [ "$n" -eq "$([ $w = phases ] && echo 1 || echo 0)" ]
    ok $? "zoltan on 9 ranks, loadbalance.weights = $w: the set-up partition $([ $w = phases ] && echo weighed || echo counted)"
    [ $rc -eq 0 ] || diag "$(cat setup.9.$w/err)"
done
hydro_in setup.sod 3 $sod loadbalance.period=3 loadbalance.cost=region loadbalance.cost_factor=20 output.checkpoint_period=5
rc=$?
(cd setup.sod && mpi 2 "$HYDRO" --restart checkpoints/hydro_000005.h5 > log2 2> err2)
rc2=$?
[ $rc -eq 0 ] && [ $rc2 -eq 0 ] && grep -q 'Set-up partition: the cells weighed by the cost model over the 10 cycles' setup.sod/log &&
    grep -q 'Set-up partition: the cells weighed by the cost model over the 5 cycles' setup.sod/log2
ok $? "loadbalance.setup: the set-up partition weighed on 3 ranks, and the restart's on 2"
same sod.ref setup.sod 000010 "loadbalance.setup, across a restart from 3 to 2 ranks: bit for bit 1 rank"

# ranks of different speeds (loadbalance.speeds = measured; the test key gives rank 0 a speed of
# 0.25 and rank 1 one of 1 instead of measuring them): every backend sizes the parts by the speeds,
# so that the imbalance of the ranks' times (weight over speed) drops by half at least, and the
# results stay bit for bit; speeds = equal (the default) measures nothing
for pt in metis zoltan ptscotch; do
    d=speeds.$pt
    hydro_in $d 2 $sod loadbalance.period=3 loadbalance.threshold=0 loadbalance.decide=threshold loadbalance.mode=$pt \
        loadbalance.speeds=measured run.test_speed_rank0=0.25
    rc=$?
    set -- $(sed -n 's/.*Rebalance at cycle 3 .*cell weights over speeds \([0-9.]*\) -> \([0-9.]*\);.*/\1 \2/p' $d/log) 0 0
    [ $rc -eq 0 ] && grep -q "Cycle 3: ranks' speeds (the share of its core each got in its compute since the last check): min 0.250 (rank 0), max 1.000 (rank 1), max / min 4.000: shares in proportion" $d/log &&
        awk -v b="$1" -v a="$2" 'BEGIN { exit !(b > 0.5 && a < b / 2) }'
    ok $? "loadbalance.speeds = measured, $pt, rank 0 four times slower: parts by the speeds (times' imbalance $1 -> $2)"
    [ $rc -eq 0 ] || diag "$(cat $d/err)"
    same sod.ref $d 000010 "loadbalance.speeds = measured, $pt: bit for bit 1 rank without rebalancing"
done
# 3 ranks, rank 0 slower: the parts sized for ranks 1 and 2 may go to either (the fewest cells move)
hydro_in speeds3 3 $sod loadbalance.period=3 loadbalance.threshold=0 loadbalance.decide=threshold \
    loadbalance.speeds=measured run.test_speed_rank0=0.25
rc=$?
set -- $(sed -n 's/.*Rebalance at cycle 3 .*cell weights over speeds \([0-9.]*\) -> \([0-9.]*\);.*/\1 \2/p' speeds3/log) 0 0
[ $rc -eq 0 ] && awk -v b="$1" -v a="$2" 'BEGIN { exit !(b > 0.5 && a < b / 2) }'
ok $? "loadbalance.speeds = measured, metis on 3 ranks, rank 0 four times slower: times' imbalance $1 -> $2"
same sod.ref speeds3 000010 "loadbalance.speeds = measured on 3 ranks: bit for bit 1 rank without rebalancing"
# a rank a hundred times slower: METIS leaves it no cell, which the phases judge better (about 57
# -> 1.0 x the balanced time) though the weights' imbalance is then infinite; the rebalance is
# taken (a partitioner may leave a rank empty: Zoltan's PHG did on 256 simulated ranks), the empty
# rank goes on stepping, checking and rebalancing with the others, and the results stay bit for bit
hydro_in empty 3 $sod loadbalance.period=3 loadbalance.threshold=0 loadbalance.decide=threshold \
    loadbalance.speeds=measured run.test_speed_rank0=0.01
rc=$?
set -- $(sed -n 's/.*Cycle 3: phases \([0-9.]*\) -> \([0-9.]*\) x the balanced time.*/\1 \2/p' empty/log) 0 0
[ $rc -eq 0 ] && grep -q 'Rebalance at cycle 3 (metis): .* -> inf (a rank holds none)' empty/log &&
    grep -q 'Cycle 3: partition now: owned cells per rank min 0 ' empty/log &&
    grep -q 'Rebalance at cycle 6 (metis)\|Cycle 6: .*the current one is kept' empty/log &&
    awk -v b="$1" -v a="$2" 'BEGIN { exit !(b > 10 && a < 1.05) }'
ok $? "a rank 100 times slower: METIS leaves it empty, the phases ($1 -> $2) take the rebalance, the run goes on"
[ $rc -eq 0 ] || diag "$(cat empty/err)"
same sod.ref empty 000010 "a rank left empty by a rebalance: bit for bit 1 rank"
# deciding by gain: by the speeds the first check expects the gain of a partition that empties the
# slow rank; once it is empty no partition can move what it still does (its own loops at its
# speed), so the next checks expect none and do not call the partitioner (they did each time
# while the gain was the measured times' max less their mean, which the empty rank pulls down)
hydro_in emptygain 3 $sod loadbalance.period=3 loadbalance.threshold=0 loadbalance.speeds=measured \
    run.test_speed_rank0=0.01
rc=$?
by_speeds='by the ranks. speeds: slowest [0-9.]+ \(rank [0-9]+\), balanced [0-9.]+\)'
no_gain='expected gain 0.000000 s .*: no rebalance$'
[ $rc -eq 0 ] && grep -Eq "Cycle 3: imbalance measured .*; $by_speeds.*: rebalance\$" emptygain/log &&
    grep -q 'Rebalance at cycle 3 (metis): .* -> inf (a rank holds none)' emptygain/log &&
    [ "$(grep -Ec "Cycle (6|9): imbalance measured .* $no_gain" emptygain/log)" -eq 2 ] &&
    [ "$(grep -c 'Rebalance at cycle\|the current one is kept' emptygain/log)" -eq 1 ]
ok $? "a rank 100 times slower, decide = gain: rebalanced once, then no gain expected and no partitioner called"
[ $rc -eq 0 ] || diag "$(grep Balance emptygain/log; cat emptygain/err)"
same sod.ref emptygain 000010 "decide = gain with a rank left empty: bit for bit 1 rank"
! grep -q "ranks' speeds" lb.metis.2/log; ok $? "loadbalance.speeds = equal (the default): no speeds measured"
out=$(mpi 2 "$HYDRO" $sod loadbalance.speeds=fast 2>&1); rc=$?
[ $rc -eq 2 ] && printf '%s' "$out" | grep -q 'loadbalance.speeds'; ok $? "an unknown loadbalance.speeds exits 2"
out=$(mpi 2 "$HYDRO" $sod run.test_speed_rank0=0 2>&1); rc=$?
[ $rc -eq 2 ] && printf '%s' "$out" | grep -q 'run.test_speed_rank0'; ok $? "run.test_speed_rank0 = 0 exits 2"
out=$(mpi 2 "$HYDRO" $sod loadbalance.weights=each 2>&1); rc=$?
[ $rc -eq 2 ] && printf '%s' "$out" | grep -q 'loadbalance.weights'; ok $? "an unknown loadbalance.weights exits 2"
# weights whose total exceeds 2^31 (31360 cells of weight 80000): scaled, not wrapped
hydro_in big 2 "$top/inputs/sod_x.ini" mesh.nx=160 mesh.ny=14 mesh.nz=14 run.max_cycles=2 output.checkpoint_period=-1 \
    loadbalance.period=2 loadbalance.threshold=0 loadbalance.decide=threshold loadbalance.cost=region \
    loadbalance.cost_factor=10000 loadbalance.cost_units=1 loadbalance.region_width=1
rc=$?
# (wrapped, METIS put every cell in one part: "cell weights 0.002 -> inf (a rank holds none)")
[ $rc -eq 0 ] && grep -Eq 'Cycle 2: .*cell weights [0-9.]+ -> [0-9.]+[;)]' big/log && ! grep -q 'holds none' big/log
ok $? "cell weights totalling 2.5e9 are scaled below METIS's 32-bit sums: its partition fills both ranks"
[ $rc -eq 0 ] || diag "$(cat big/err)"
# both keys, by gain and cost: every check prints its figures and decision
hydro_in gain 3 $sod parallel.partitioner=zoltan loadbalance.mode=zoltan loadbalance.period=3 loadbalance.threshold=0 \
    loadbalance.cost=region loadbalance.region_speed=150 loadbalance.cost_factor=200
rc=$?
n=$(grep -cE 'Cycle [0-9]+: imbalance measured .* expected gain [0-9.]+ s over the next [0-9]+ cycles, rebalance cost [0-9.]+ s .*: (no rebalance|rebalance)$' gain/log)
[ $rc -eq 0 ] && [ "$n" -eq 3 ]; ok $? "zoltan for both, decide = gain: 3 checks, each with its gain, cost and decision ($n)"
same sod.ref gain 000010 "zoltan for both, decide = gain: bit for bit 1 rank"

# ---- restart on another rank count with another partitioner ----
hydro_in rs 3 $sod parallel.partitioner=ptscotch $lb loadbalance.mode=ptscotch run.max_cycles=5 output.checkpoint_period=5
(cd rs && mpi 4 "$HYDRO" --restart checkpoints/hydro_000005.h5 run.max_cycles=10 parallel.partitioner=zoltan \
    loadbalance.mode=zoltan > log2 2> err2)
rc=$?
[ $rc -eq 0 ] && grep -q 'Partition zoltan' rs/log2 && grep -q 'Rebalance at cycle 6 (zoltan)' rs/log2
ok $? "ptscotch on 3 ranks, restarted on 4 with zoltan for both"
[ $rc -eq 0 ] || diag "$(cat rs/err2)"
same sod.ref rs 000010 "5 + 5 cycles across the restart, two partitioners, rebalanced = 10 cycles on 1 rank"

# ---- bad keys ----
for kv in parallel.partitioner=parmetis loadbalance.mode=scotch; do
    out=$(mpi 2 "$HYDRO" $sod loadbalance.period=2 $kv 2>&1); rc=$?
    key=${kv%%=*}
    [ $rc -eq 2 ] && printf '%s' "$out" | grep -q "$key" && printf '%s' "$out" | grep -q 'zoltan'
    ok $? "$kv exits 2, naming the key and the choices"
    [ $rc -eq 2 ] || diag "exit $rc: $out"
done
done_testing
