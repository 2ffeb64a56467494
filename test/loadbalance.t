#!/bin/sh
# Load balancing: migration by formula (values, ghosts, empty ranks, message splitting), then
# hydro with periodic METIS rebalancing or shuffles: final dumps bit for bit those of the run
# without rebalancing (both transports, 2-4 ranks, Sod 3D and Sedov 2D), weight imbalance
# lowered, mass conserved, shuffle fraction, empty ranks, Arcane listing lines, restart, the
# MicroHydro decks and launch script.
. test/lib.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1

# ---- migration alone ----
for np in 1 2 3 4; do
    run_ok "migrate_mpi 3D on $np ranks, point to point" mpi $np "$BUILD/test/migrate_mpi" mesh.nx=9 mesh.ny=5 mesh.nz=4
    run_ok "migrate_mpi 2D on $np ranks, Alltoallv, 1 layer" mpi $np "$BUILD/test/migrate_mpi" --collective \
        mesh.dim=2 mesh.nx=13 mesh.ny=7 parallel.ghost_layers=1
done
run_ok "migrate_mpi gmsh hex block on 3 ranks, 2 layers" mpi 3 "$BUILD/test/migrate_mpi" mesh.kind=gmsh mesh.dim=3 \
    mesh.file=$top/inputs/meshes/hex_block.msh parallel.ghost_layers=2


# ---- bit for bit with and without rebalancing ----
# decide=threshold: rebalance at every check, so that every run migrates (the default decides by
# gain and cost, below); the set-up partition counting the cells, so that the first rebalance has
# the costly cells' imbalance to mend (weighed, sedov on 3 ranks started at 0.2-0.25 by timing)
lb="loadbalance.period=3 loadbalance.threshold=0 loadbalance.decide=threshold loadbalance.cost=region loadbalance.region_speed=150
    loadbalance.cost_factor=3 loadbalance.extra_cell_vars=3 loadbalance.extra_cell_array=4 loadbalance.setup=false"
sod="$top/inputs/sod_x.ini mesh.nx=30 mesh.ny=4 mesh.nz=4 run.max_cycles=12 output.listing_period=0"
sedov="$top/inputs/sedov_2d.ini mesh.nx=20 mesh.ny=20 run.max_cycles=12 output.listing_period=0"
for case in sod sedov; do
    eval "deck=\$$case"
    for np in 2 3 4; do
        hydro_in $case.$np.ref $np $deck
        ok $? "$case on $np ranks without rebalancing"
        for transport in p2p a2a; do
            if [ $transport = a2a ]; then
                export ARCANE_MESH_EXCHANGE_USE_COLLECTIVE=TRUE
            fi
            hydro_in $case.$np.$transport $np $deck $lb
            rc=$?
            unset ARCANE_MESH_EXCHANGE_USE_COLLECTIVE
            n=$(moved $case.$np.$transport)
            [ $rc -eq 0 ] && [ "$n" -gt 0 ]
            ok $? "$case on $np ranks, region cost, rebalance every 3 cycles ($transport): $n cells moved, padding intact"
            [ $rc -eq 0 ] || diag "$(cat $case.$np.$transport/err)"
            out=$(sh "$top/test/h5same.sh" --any-deck $case.$np.ref/checkpoints/hydro_000012.h5 \
                $case.$np.$transport/checkpoints/hydro_000012.h5)
            ok $? "$case on $np ranks ($transport): the final dump is bit for bit the one without rebalancing"
            [ -z "$out" ] || diag "$out"
        done
    done
done
grep -q 'transport MPI_Alltoallv' sod.3.a2a/log && grep -q 'transport MPI_Isend/MPI_Irecv' sod.3.p2p/log
ok $? "the listing names the transport ARCANE_MESH_EXCHANGE_USE_COLLECTIVE selects"
hydro_in one 2 $sod $lb run.max_cycles=3 output.checkpoint_period=-1 2>/dev/null
(cd one && ARCANE_MESH_EXCHANGE_USE_COLLECTIVE=1 mpi 2 "$HYDRO" $sod $lb run.max_cycles=3 output.checkpoint_period=-1 > log1)
grep -q 'transport MPI_Alltoallv' one/log1 && grep -q 'transport MPI_Isend' one/log
ok $? "ARCANE_MESH_EXCHANGE_USE_COLLECTIVE=1 also selects MPI_Alltoallv"

# ---- what the listing reports ----
log=sod.3.p2p/log
nreb=$(grep -c 'Rebalance at cycle' $log)
[ "$nreb" -eq 4 ]; ok $? "4 rebalances in 12 cycles with period 3 ($nreb)"
for fam in Cell Node; do
    nb=$(grep -cE "^\*I-Mesh       ParallelExchanger $fam: ProcessExchange \(begin\) date=[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9:.]+$" $log)
    ns=$(grep -cE "^\*I-Mesh       ParallelExchanger $fam: ProcessExchange total_size=[0-9]+ nb_message=[0-9]+$" $log)
    ne=$(grep -cE "^\*I-Mesh       ParallelExchanger $fam: ProcessExchange \(end\) total_time=[0-9.e-]+$" $log)
    [ "$nb" -eq "$nreb" ] && [ "$ns" -eq "$nreb" ] && [ "$ne" -eq "$nreb" ]
    ok $? "Arcane's three ParallelExchanger $fam lines once per rebalance ($nb, $ns, $ne)"
done
[ "$(grep 'total_time=' $log | grep -c Cell)" -eq "$nreb" ]; ok $? "grep 'total_time=' | grep Cell works as in the Arcane README"
grep -Eq 'Rebalance at cycle 3 \(metis\): [0-9]+ cells moved; imbalance measured [0-9.]+, cell weights [0-9.]+ -> [0-9.]+; seconds: partition [0-9.]+ \(weights [0-9.]+, graph [0-9.]+, METIS [0-9.]+\), pack [0-9.]+, transfer [0-9.]+, rebuild [0-9.]+ \(mesh [0-9.]+, cells and values [0-9.]+, case [0-9.]+\)$' $log
ok $? "one summary line per rebalance: cells moved, imbalance, weights before and after, seconds per phase"
grep -q 'Cost model calibrated at cycle 2' $log; ok $? "the cost model is calibrated on the second cycle"
grep -Eq "Cycle 3: cost model: a cell's remap step with moving nodes costs [0-9]+\.[0-9]+ quiet cell-cycles \(measured\)$" $log
ok $? "each rebalance's weights count the measured cost of the cells' remap steps with moving nodes"
share=$(sed -n "s/.*Cycle 3: cost model: the Lagrange phase is \([0-9.]*\)% of a quiet cell-cycle (measured)$/\1/p" $log)
awk -v s="$share" 'BEGIN { exit !(s != "" && s > 0 && s <= 100) }'
ok $? "with one weight per phase, the Lagrange phase's share of a quiet cell-cycle is measured ($share%)"
spread=$(sed -n "s/.*Cycle 3: cost model: the moving cells' work spread over \([0-9.]*\) cells around them, as far as a wave goes in the \([0-9]*\) cycles a new partition serves$/\1 \2/p" $log)
awk -v s="$spread" 'BEGIN { split(s, f, " "); exit !(f[2] > 0 && f[1] == sprintf("%.1f", 0.3 * f[2])) }'
ok $? "the measured work spreads over cfl (0.3) x the cycles the partition serves, in cells ($spread)"

# ---- the region rebalance lowers the weight imbalance ----
for d in sod.2.p2p sod.3.p2p sod.4.a2a sedov.3.p2p; do
    w=$(sed -n 's/.*Rebalance at cycle 3 .*cell weights \([0-9.]*\) -> \([0-9.]*\);.*/\1 \2/p' $d/log)
    set -- $w
    awk -v b="$1" -v a="$2" 'BEGIN { exit !(b > 0.2 && a < b / 2) }'
    ok $? "$d: the first rebalance cuts the cell weight imbalance by half at least ($1 -> $2)"
done

# ---- deciding by gain and cost (the default) ----
gain_lb="loadbalance.period=3 loadbalance.threshold=0 loadbalance.cost=region loadbalance.region_speed=150
         loadbalance.cost_factor=200"
hydro_in gain 3 $sod $gain_lb
rc=$? # (costly cells 200 x a plain one: the first check usually pays, later ones often not)
# every check: both figures, and the decision they give; a "rebalance" is done at that cycle. The
# gain from the line's own figures: the slowest rank's excess over the mean (ms per cycle) times the
# horizon; where that excess grew cycle by cycle since the last check (fitted over those 3 cycles,
# less the partition's first), from its fitted value now (the excess plus the growth times the 1
# cycle from the middle to the end), the growth carried on for as many cycles as the partition has
# served, then held (print rounding allowed: figures at 0.001 ms, the growth at 0.0001 ms, the gain
# at 1e-6 s)
awk 'function abs(x) { return x < 0 ? -x : x }
     /Balance +Cycle [0-9]+: no gain expected/ { k = $3; sub(":", "", k); kept[k] = 1 }
     /Balance +Cycle [0-9]+: imbalance measured [0-9.]+ \(/ {
        n++; c = $3; sub(":", "", c)
        if (!match($0, /expected gain [0-9.]+ s over the next [0-9]+ cycles, rebalance cost [0-9.]+ s \((estimated from the set-up.s partition less its graph, ghosts and plans|the rebalance at cycle [0-9]+)\): (no rebalance|rebalance)$/)) { print "bad line: " $0; bad = 1; next }
        split(substr($0, RSTART), f, " "); gain = f[3]; horizon = f[8]; cost = f[12]
        if (!match($0, /avg [0-9.]+ max [0-9.]+ \(rank [0-9]+\)\)/)) { print "no figures: " $0; bad = 1; next }
        split(substr($0, RSTART, RLENGTH), m, /[ )]/); ex = m[4] - m[2]
        served = c - part; grow = 0; now = ex; tol_now = 0.001
        if (match($0, /grows by [0-9.]+ ms per cycle each cycle \(fitted over cycles [0-9]+-[0-9]+\), [0-9.]+ ms per cycle now, assumed to grow on so for [0-9]+ cycles/)) {
            split(substr($0, RSTART, RLENGTH), q, /[ ),-]+/); grow = q[3]; now = q[14]; tol_now = 0.0005
            first = c - 2 + (c - 3 == part) # the 3 cycles since the last check, less the first on a new partition
            if (q[12] != first || q[13] != c || q[25] != served || kept[c] || grow <= 0 ||
                abs(now - (ex + grow)) > 0.0021) {
                print "cycle " c ": growth " grow " over cycles " q[12] "-" q[13] " (want " first "-" c "), now " now \
                      " (excess " ex "), for " q[25] " cycles (served " served ")" (kept[c] ? ", kept" : ""); bad = 1 }
        }
        k = horizon < served ? horizon : served; held = horizon > served ? (horizon - served) * served : 0
        want = horizon * now + grow * (k * (k + 1) / 2 + held)
        tol = tol_now * horizon + 0.00005 * (k * (k + 1) / 2 + held) + 0.001
        if (!kept[c] && abs(1000 * gain - want) > tol) { print "cycle " c ": gain " 1000 * gain " ms, the figures give " want; bad = 1 }
        want = gain + 0 > cost + 0 ? "rebalance" : "no rebalance"
        got = $0; sub(/.*\): /, "", got)
        if (got != want) { print "cycle " c ": gain " gain ", cost " cost ", yet " got; bad = 1 }
        if (got == "rebalance") pending = c
        want_h = 12 - c < 15 ? 12 - c : 15 # horizon: 5 checks of 3 cycles, never past the last cycle
        if (horizon != want_h) { print "cycle " c ": horizon " horizon ", not " want_h; bad = 1 }
        if (n == 1 && $0 !~ /estimated from the set-up/) { print "first check: " $0; bad = 1 }
        if (done && $0 !~ /the rebalance at cycle/) { print "after a rebalance: " $0; bad = 1 } }
     /Rebalance at cycle/ { r = $5; if (r != pending) { print "rebalance at " r " without a decision"; bad = 1 }; done = 1; part = r }
     END { if (n != 4) { print n " checks"; bad = 1 }; exit bad }' gain/log > gain.check
ok $? "decide = gain: each of the 4 checks prints the expected gain (its figures' excess and its fitted growth over the horizon) and the rebalance cost and follows them ($(moved gain) cells moved, exit $rc)"
[ -s gain.check ] && diag "$(cat gain.check)"
# the cost model's extra work has its own timer, outside the two phases' (rank 0's table), and a
# run without a cost model times none
awk '/Rank 0 timers/ {t = 1} /Timers over/ {t = 0} t && $2 == "extra" {e = $3; n = $4}
     END { exit !(e > 0 && n > 0) }' gain/log &&
    awk '/Rank 0 timers/ {t = 1} /Timers over/ {t = 0} t && $2 == "extra" {n = $4} END { exit !(n == 0) }' sod.2.ref/log
ok $? "the extra timer: the cost model's extra work, timed on its own; none without a cost model"
# the first estimate leaves out the set-up's dual graph, timed inside partition (rank 0's table)
awk '/Rank 0 timers/ {t = 1} /Timers over/ {t = 0} t && $2 == "partition" {p = $3} t && $2 == "graph" {g = $3; n = $4}
     END { exit !(p > 0 && g > 0 && g < p && n == 1) }' gain/log
ok $? "the graph timer: the set-up's dual graph, one call, inside partition"
sh "$top/test/h5same.sh" --any-deck sod.3.ref/checkpoints/hydro_000012.h5 gain/checkpoints/hydro_000012.h5
ok $? "decide = gain: bit for bit the run without rebalancing, whatever it decided"
# a check below the threshold prints the compute it measured too, which gives its imbalance
# (the largest rank's over the smallest's, less 1; print rounding allowed)
hydro_in below 2 $sod loadbalance.period=3 loadbalance.threshold=1000 run.max_cycles=9
rc=$?
awk '/Balance +Cycle [0-9]+: imbalance [0-9.]+ below threshold/ {
        n++; imb = $5
        if (!match($0, /\(compute ms per cycle: min [0-9.]+ avg [0-9.]+ max [0-9.]+ \(rank [0-9]+\)\), no rebalance$/)) {
            print "no figures: " $0; bad = 1; next }
        split(substr($0, RSTART, RLENGTH), f, " "); lo = f[6]; av = f[8]; hi = f[10]
        top = lo > 0.0005 ? (hi - lo + 0.001) / (lo - 0.0005) + 0.0005 : 1e9
        bottom = (hi - lo - 0.001) / (lo + 0.0005) - 0.0005
        if (!(lo > 0 && lo <= av && av <= hi) || imb > top || imb < bottom) {
            print "figures " lo " " av " " hi " against imbalance " imb; bad = 1 } }
     END { if (n != 3) { print n " checks"; bad = 1 }; exit bad }' below/log > below.check
ok $? "a check below the threshold prints the compute it measured, which gives its imbalance (exit $rc)"
[ -s below.check ] && diag "$(cat below.check)"
hydro_in units 2 $sod $lb loadbalance.cost_units=40 run.max_cycles=4 output.checkpoint_period=-1
rc=$?
[ $rc -eq 0 ] && ! grep -q 'Cost model calibrated' units/log && [ "$(grep -c 'Rebalance at cycle' units/log)" -eq 1 ]
ok $? "loadbalance.cost_units fixes the extra work: no calibration, and the run rebalances as before (exit $rc)"
real=$(sed -n 's/.*Cost model checked at cycle 2 (cost_units 40 fixed): a plain cell computes [0-9.e+-]* us per cycle, an EOS evaluation [0-9.e+-]* ns, so a costly cell.s 80 more evaluations make it cost \([0-9.]*\) plain cells against its weight of 3.*/\1/p' units/log)
awk -v r="$real" 'BEGIN { exit !(r != "" && r >= 1) }'
ok $? "with cost_units fixed, the second cycle measures what a costly cell really costs beside its weight ($real plain cells, weight 3)"
out=$(mpi 2 "$HYDRO" "$DECK" loadbalance.cost_units=-1 2>&1); rc=$?
[ $rc -eq 2 ] && printf '%s' "$out" | grep -q 'loadbalance.cost_units'; ok $? "a negative loadbalance.cost_units exits 2"
# the horizon: 1 check, then 2 checks (the last cycle binds at the end only)
hydro_in horizon1 3 $sod $gain_lb loadbalance.horizon=1 run.max_cycles=9
rc=$?
[ $rc -eq 0 ] && grep -q "when the gain over 1 check exceeds the cost, one weight per phase and one for the cost model's extra work," horizon1/log &&
    [ "$(grep -o 'expected gain [0-9.]* s over the next [0-9]* cycles' horizon1/log | awk '{print $8}' | tr '\n' ' ')" = "3 3 0 " ]
ok $? "loadbalance.horizon = 1 counts the gain until the next check only (3, 3, 0 cycles); 3 ranks, a region cost: one weight per phase and one for its extra work (exit $rc)"
hydro_in horizon2 2 $sod $gain_lb loadbalance.horizon=2
rc=$?
[ $rc -eq 0 ] && grep -q 'when the gain over 2 checks exceeds the cost' horizon2/log &&
    [ "$(grep -o 'expected gain [0-9.]* s over the next [0-9]* cycles' horizon2/log | awk '{print $8}' | tr '\n' ' ')" = "6 6 3 0 " ]
ok $? "loadbalance.horizon = 2: 6, 6, 3 then 0 cycles, never past the last one (exit $rc)"
hydro_in wtotal 2 $sod loadbalance.period=3 loadbalance.weights=total run.max_cycles=3
rc=$?
[ $rc -eq 0 ] && grep -q 'one weight per cell' wtotal/log; ok $? "loadbalance.weights = total: the listing says one weight per cell (exit $rc)"
hydro_in wzoltan 2 $sod loadbalance.period=3 loadbalance.mode=zoltan run.max_cycles=3
rc=$?
[ $rc -eq 0 ] && grep -q "one weight per phase, by Zoltan's RCB, one phase per weight," wzoltan/log
ok $? "loadbalance.weights = auto with zoltan on 2 ranks: one weight per phase, cut by RCB phases (exit $rc)"
hydro_in wsphases 2 $sod loadbalance.period=3 loadbalance.mode=ptscotch loadbalance.weights=phases run.max_cycles=3
rc=$?
[ $rc -eq 0 ] && grep -q 'one weight per phase, summed by PT-Scotch,' wsphases/log
ok $? "loadbalance.weights = phases with ptscotch (which balances one weight): the listing says PT-Scotch sums them (exit $rc)"
out=$(mpi 2 "$HYDRO" "$DECK" loadbalance.horizon=0 2>&1); rc=$?
[ $rc -eq 2 ] && printf '%s' "$out" | grep -q 'loadbalance.horizon'; ok $? "loadbalance.horizon = 0 exits 2 and names the key"
out=$(mpi 2 "$HYDRO" "$DECK" loadbalance.decide=sometimes 2>&1); rc=$?
[ $rc -eq 2 ] && printf '%s' "$out" | grep -q 'loadbalance.decide'; ok $? "an unknown loadbalance.decide exits 2 and names the key"

# ---- mass is conserved across migrations ----
drift=$(grep 'Totals at cycle' sedov.4.a2a/log | tail -n 1 | sed 's/.*mass [^(]*(drift \([^)]*\)).*/\1/')
awk -v d="$drift" 'BEGIN { exit !(d <= 1e-13 && d >= -1e-13) }'
ok $? "sedov on 4 ranks with 4 rebalances: total mass drift $drift within 1e-13"
[ -n "$drift" ] || diag "$(tail -5 sedov.4.a2a/log)"

# ---- shock cost, the pure Lagrange scheme and the minimal pattern ----
hydro_in shock.ref 3 $sod physics.remap=none parallel.sync_pattern=minimal
hydro_in shock 3 $sod physics.remap=none parallel.sync_pattern=minimal $lb loadbalance.cost=shock
rc=$?
[ $rc -eq 0 ] && [ "$(moved shock)" -gt 0 ]; ok $? "shock cost, Lagrange only, minimal pattern: $(moved shock) cells moved"
sh "$top/test/h5same.sh" --any-deck shock.ref/checkpoints/hydro_000012.h5 shock/checkpoints/hydro_000012.h5
ok $? "shock cost: bit for bit the run without rebalancing"

# ---- shuffle moves the requested fraction ----
# block partition of 12 x 4 x 3 cells on 3 ranks: 48 cells each, ceil(f * 48) leave each rank
for f in 0.25 0.1 1; do
    want=$(awk -v f="$f" 'BEGIN { n = f * 48; c = int(n); if (c < n) c++; print 3 * c }')
    hydro_in shuf$f 3 "$DECK" mesh.nx=12 mesh.ny=4 mesh.nz=3 parallel.partitioner=block run.max_cycles=6 \
        loadbalance.period=2 loadbalance.mode=shuffle loadbalance.shuffle_fraction=$f loadbalance.extra_cell_vars=2
    rc=$?
    got=$(sed -n 's/.*Rebalance at cycle [0-9]* (shuffle): \([0-9]*\) cells moved.*/\1/p' shuf$f/log | sort -u | tr '\n' ' ')
    [ $rc -eq 0 ] && [ "$got" = "$want " ]
    ok $? "shuffle fraction $f moves $want cells at every period (got: $got)"
done

# ---- ranks without cells (METIS leaves one of 4 ranks empty with 7 cells in a row) ----
tiny="mesh.nx=7 mesh.ny=1 mesh.nz=1 run.max_cycles=6"
hydro_in tiny.ref 4 $sod $tiny
grep -q 'owned cells per rank min 0' tiny.ref/log; ok $? "7 cells on 4 ranks: a rank starts with no cells"
hydro_in tiny 4 $sod $tiny loadbalance.period=2 loadbalance.mode=shuffle loadbalance.shuffle_fraction=1 \
    loadbalance.extra_cell_vars=1
rc=$?
[ $rc -eq 0 ] && [ "$(moved tiny)" -eq 21 ]; ok $? "shuffles pass the empty subdomain around the ranks: 3 x 7 cells moved"
[ $rc -eq 0 ] || diag "$(cat tiny/err)"
sh "$top/test/h5same.sh" --any-deck tiny.ref/checkpoints/hydro_000006.h5 tiny/checkpoints/hydro_000006.h5
ok $? "7 cells on 4 ranks: the shuffled run's dump equals the plain one"
hydro_in tinys 4 "$DECK" $tiny loadbalance.period=2 loadbalance.mode=shuffle loadbalance.shuffle_fraction=0.5
ok $? "sync_only, 7 cells on 4 ranks, half of each rank shuffled: ghosts verified after every migration"
# (with two weights METIS fills it): the weights' imbalance stays infinite, the phases decide
hydro_in tinym 4 $sod $tiny $lb loadbalance.cost_factor=50 loadbalance.weights=total
rc=$?
set -- $(sed -n 's/.*Cycle 3: phases \([0-9.]*\) -> \([0-9.]*\) x the balanced time.*/\1 \2/p' tinym/log) 0 0
[ $rc -eq 0 ] && grep -q "Rebalance at cycle 3 (metis): .*cell weights inf (a rank holds none) -> inf (a rank holds none)" \
    tinym/log && awk -v b="$1" -v a="$2" 'BEGIN { exit !(a < b) }'
ok $? "METIS leaves a rank empty again: the listing says so, the phases ($1 -> $2) take the partition"
[ $rc -eq 0 ] || diag "$(cat tinym/err)"
sh "$top/test/h5same.sh" --any-deck tiny.ref/checkpoints/hydro_000006.h5 tinym/checkpoints/hydro_000006.h5
ok $? "7 cells on 4 ranks, rebalanced with a rank empty: the dump equals the plain one"

# ---- restart after rebalancing, on another rank count, with rebalancing again ----
hydro_in rs 3 $sod $lb run.max_cycles=6 output.checkpoint_period=6
(cd rs && mpi 2 "$HYDRO" --restart checkpoints/hydro_000006.h5 run.max_cycles=12 loadbalance.period=4 > log2 2> err2)
rc=$?
[ $rc -eq 0 ] && grep -q 'Rebalance at cycle 8' rs/log2; ok $? "restart of a rebalanced run on 2 ranks, rebalancing every 4 cycles"
[ $rc -eq 0 ] || diag "$(cat rs/err2)"
sh "$top/test/h5same.sh" --any-deck sod.2.ref/checkpoints/hydro_000012.h5 rs/checkpoints/hydro_000012.h5
ok $? "6 + 6 cycles across a restart, rebalanced on both sides = 12 cycles without rebalancing"

# ---- bad [loadbalance] input ----
out=$(mpi 2 "$HYDRO" "$DECK" loadbalance.mode=random 2>&1); rc=$?
[ $rc -eq 2 ] && printf '%s' "$out" | grep -q 'loadbalance.mode'; ok $? "an unknown loadbalance.mode exits 2 and names the key"
out=$(mpi 2 "$HYDRO" "$DECK" loadbalance.shuffle_fraction=1.5 2>&1); rc=$?
[ $rc -eq 2 ]; ok $? "a shuffle fraction above 1 exits 2"

# ---- the MicroHydro decks and the launch script ----
for d in lb8.1 lb32.1 lb512.1 lb512.2; do
    "$HYDRO" --check "$top/inputs/bench/micro_hydro_$d.ini" > check.$d 2>&1
    ok $? "inputs/bench/micro_hydro_$d.ini is a valid deck"
done
grep -q '^nx = 480' check.lb512.2 && grep -q '^extra_cell_vars = 600' check.lb512.2 && grep -q '^extra_cell_array = 50' check.lb512.2
ok $? "lb512.2: 480 x 64 x 64 cells, 600 padding variables and a 50-wide array"
mkdir -p launch && (cd launch && HYDRO=$HYDRO MPIRUN="$MPIRUN" timeout "$TIMEOUT" sh "$top/run/launch_micro_hydro_lb8.1.sh" \
    mesh.nx=120 run.max_cycles=10 > result1.txt 2> err)
rc=$?
n=$(grep 'total_time=' launch/result1.txt | grep -c Cell)
[ $rc -eq 0 ] && [ "$n" -eq 2 ]; ok $? "sh run/launch_micro_hydro_lb8.1.sh > result1.txt; grep 'total_time=' | grep Cell: 2 lines in 10 cycles"
[ $rc -eq 0 ] || diag "$(cat launch/err)"
grep -q 'Cell: ProcessExchange total_size=' launch/result1.txt && grep -q '300 padding variables + an array of 50' launch/result1.txt
ok $? "the launch script runs the deck on 8 ranks with its padding"
done_testing
