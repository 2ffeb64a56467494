#!/bin/sh
# The hydro scheme against exact solutions (Sod, Sedov, Noh), conservation, and bitwise
# identical dumps on 1-4 ranks for both synchronisation patterns, across restarts too.
. test/lib.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
I=$top/inputs
V=$BUILD/test/verify

# run NAME NP DECK ARGS...: run hydro in NAME/ (dumps in NAME/checkpoints), 0 on success
run() {
    name=$1 np=$2 deck=$3
    shift 3
    mkdir -p "$name"
    (cd "$name" && mpi "$np" "$HYDRO" "$deck" "$@" > log 2> err)
    rc=$?
    [ $rc -eq 0 ] || diag "$name: exit $rc: $(tail -5 "$name/err")"
    return $rc
}
last_dump() { ls "$1"/checkpoints/hydro_*.h5 | sort | tail -n 1; }
# metric FILE KEY: value of KEY=... in a verify line
metric() { sed -n "s/.*$2=\([^ ]*\).*/\1/p" "$1"; }
# check EXPR DESCRIPTION: awk condition on the shell variables substituted into EXPR
check() { awk "BEGIN { exit !($1) }"; ok $? "$2"; }

# ---- Sod, 1D strip, Euler remap and pure Lagrange: L1 error and order ----
for remap in euler none; do
    run sod100$remap 2 "$I/sod_x.ini" physics.remap=$remap
    run sod400$remap 2 "$I/sod_x.ini" physics.remap=$remap mesh.nx=400 mesh.ly=0.0025 mesh.lz=0.0025
    "$V" "$(last_dump sod100$remap)" sod 0 > v100
    "$V" "$(last_dump sod400$remap)" sod 0 > v400
    e1=$(metric v100 l1) e4=$(metric v400 l1)
    check "$e1 <= 0.010" "Sod remap=$remap, 100 cells: L1 density error $e1 <= 0.010"
    check "$e4 <= 0.0035" "Sod remap=$remap, 400 cells: L1 density error $e4 <= 0.0035"
    order=$(awk "BEGIN { print log($e1 / $e4) / log(4) }")
    check "$order >= 0.7" "Sod remap=$remap: observed order $order >= 0.7"
done
drift=$(grep 'Totals at cycle' sod400euler/log | tail -n 1 | sed 's/.*energy .*(drift \([^)]*\)).*/\1/')
mdrift=$(grep 'Totals at cycle' sod400euler/log | tail -n 1 | sed 's/.*mass [^ ]* (drift \([^)]*\)).*/\1/')
check "$drift <= 0.01 && $drift >= -0.01" "Sod 400 cells, t = 0.2: total energy drift $drift within 1%"
check "$mdrift <= 1e-12 && $mdrift >= -1e-12" "Sod 400 cells: mass drift $mdrift within 1e-12"
for lim in minmod superbee vanleer; do
    run range$lim 2 "$I/sod_x.ini" physics.limiter=$lim
    "$V" "$(last_dump range$lim)" totals > vr
    lo=$(metric vr rho_min) hi=$(metric vr rho_max)
    check "$lo >= 0.125 && $hi <= 1.0" "Sod with $lim: density stays within [0.125, 1] (no new extrema): [$lo, $hi]"
done

# ---- a 1D problem on a 2D or 3D mesh stays 1D (the limiter must not feed on round-off) ----
run sody 2 "$I/sod_2d_y.ini"
"$V" "$(last_dump sody)" sod 1 > vy
"$V" "$(last_dump sody)" spread 1 > vsp
e=$(metric vy l1) sp=$(metric vsp spread)
check "$e <= 0.010 && $sp <= 1e-10" "Sod along y in 2D (10 x 100): L1 $e, rows identical to $sp"
run sodz 2 "$I/sod_3d_z.ini"
"$V" "$(last_dump sodz)" sod 2 > vz
e=$(metric vz l1)
check "$e <= 0.010" "Sod along z in 3D on a perturbed mesh (8 x 8 x 80): L1 $e"

# ---- an unstructured Gmsh hex mesh, and the stiffened gas (Newton energy update) ----
run hexb 2 "$I/sod_x.ini" mesh.kind=gmsh mesh.file="$I/meshes/hex_block.msh"
"$V" "$(last_dump hexb)" sod 0 > vh
e=$(metric vh l1)
md=$(grep 'Totals at cycle' hexb/log | tail -n 1 | sed 's/.*mass [^ ]* (drift \([^)]*\)).*/\1/')
check "$e <= 0.05 && $md <= 1e-12 && $md >= -1e-12" "Sod on the unstructured Gmsh hex block (about 12 cells along x): L1 $e, mass drift $md"
run stiff 2 "$I/sod_x.ini" physics.eos=stiffened physics.p_inf=0.5
ed=$(grep 'Totals at cycle' stiff/log | tail -n 1 | sed 's/.*energy .*(drift \([^)]*\)).*/\1/')
check "$ed <= 0.01 && $ed >= -0.01" "Sod with a stiffened gas (p_inf 0.5, Newton energy update): energy drift $ed"

# ---- Sedov 2D (t = 1): peak of the averaged density at r = 1 within 5%, peak >= 2.5 ----
run sedov 2 "$I/sedov_2d.ini"
"$V" "$(last_dump sedov)" sedov > vs
r=$(metric vs peak_r) peak=$(metric vs peak)
check "$r >= 0.95 && $r <= 1.05 && $peak >= 2.5" "Sedov 2D 60 x 60: peak density $peak at r = $r"
run sedovg 2 "$I/sedov_gmsh.ini"
"$V" "$(last_dump sedovg)" sedov > vg
r=$(metric vg peak_r) peak=$(metric vg peak)
check "$r >= 0.95 && $r <= 1.05 && $peak >= 2.5" "Sedov 2D on the Gmsh quarter disc: peak density $peak at r = $r"

# ---- Noh 2D (t = 0.6): shock at 0.2 within 5%, density 16 within 10% for 0.05 < r < 0.15 ----
run noh 2 "$I/noh_2d.ini"
"$V" "$(last_dump noh)" noh > vn
shock=$(metric vn shock) inner=$(metric vn inner)
check "$shock >= 0.19 && $shock <= 0.21" "Noh 2D 100 x 100: shock radius $shock"
check "$inner >= 14.4 && $inner <= 17.6" "Noh 2D: mean density $inner for 0.05 < r < 0.15"

# ---- bitwise identical dumps on 1-4 ranks, both patterns ----
same_runs() { # LABEL DECK ARGS...
    label=$1 deck=$2
    shift 2
    for np in 1 2 3 4; do
        for pat in mahyco minimal; do
            run "$label$np$pat" $np "$deck" parallel.sync_pattern=$pat "$@" || return 1
        done
    done
    ref=$(last_dump ${label}1mahyco)
    bad=""
    for np in 1 2 3 4; do
        for pat in mahyco minimal; do
            sh "$top/test/h5same.sh" --any-deck "$ref" "$(last_dump $label$np$pat)" > /dev/null || bad="$bad $np/$pat"
        done
    done
    [ -z "$bad" ] || diag "differ:$bad"
    [ -z "$bad" ]
}
same_runs sod3 "$I/sod_3d_z.ini" mesh.nx=4 mesh.ny=4 mesh.nz=30 run.max_cycles=40
ok $? "Sod 3D (perturbed mesh): identical dumps on 1-4 ranks, mahyco and minimal"
same_runs sg "$I/sedov_gmsh.ini" run.max_cycles=40
ok $? "Sedov 2D on the Gmsh mesh: identical dumps on 1-4 ranks, mahyco and minimal"
same_runs bi "$I/bench/mahyco.ini" mesh.nx=30 mesh.ny=4 mesh.nz=4 run.max_cycles=20 output.checkpoint_period=0
ok $? "bisod_x (directional remap): identical dumps on 1-4 ranks, mahyco and minimal"
grep -q 'Synchronisations per cycle: 62.0 (pattern mahyco' bi3mahyco/log
ok $? "bisod_x, mahyco pattern: 62 synchronisations per 3D cycle, as MaHyCo"
grep -q 'Synchronisations per cycle: 9.0 (pattern minimal' bi3minimal/log
ok $? "bisod_x, minimal pattern: 9 synchronisations per cycle (cell and node groups of 2 points per directional step)"
# the seconds in each point over ranks: a line per point that synchronises something, min <= avg
# <= max, the ranks named, and their sum within 10% of the sync timer's (which also counts the
# set-up's synchronisation of the initial state, and excludes the timer calls themselves)
points_ok() { # LOG POINTS...
    log=$1
    shift
    for p in "$@"; do
        grep -Eq "^\*I-Sync       Point $p: seconds in it per rank min [0-9.]+ \(rank [0-9]\) avg [0-9.]+ max [0-9.]+ \(rank [0-9]\)$" "$log" ||
            { diag "no line for point $p"; return 1; }
    done
    awk '/Point [a-z_]+: seconds in it per rank/ { if (!($10 <= $14 && $14 <= $16)) bad = 1; n++; s += $14 }
         /^\*I-Timers       sync / && NF == 7 { sync = $5 }
         END { if (bad || n != NPOINTS || s < sync * 0.9 || s > sync * 1.1) { print n " points, avg sum " s ", sync avg " sync; exit 1 } }' \
        NPOINTS=$# "$log" > points.check || { diag "$(cat points.check)"; return 1; }
}
points_ok bi3mahyco/log save velocity position remap_values remap_slopes remap_cells remap_nodes step_end end_remap
ok $? "bisod_x on 3 ranks, mahyco: the seconds in each of its 9 synchronisation points, over ranks"

# ---- the remap skips the items a step cannot change: the same bits as computing them ----
# (HYDRO_REMAP_ALL=1 computes every cell and node; a cell through which nothing flows keeps its
# values either way)
all_same() { # LABEL NP DECK ARGS...: a run with and without skipping, dumps compared
    label=$1 np=$2 deck=$3
    shift 3
    run "$label" "$np" "$deck" "$@" && HYDRO_REMAP_ALL=1 run "${label}all" "$np" "$deck" "$@" &&
        sh "$top/test/h5same.sh" "$(last_dump $label)" "$(last_dump ${label}all)" > /dev/null
}
all_same ab1 1 "$I/bench/mahyco.ini" mesh.nx=30 mesh.ny=4 mesh.nz=4 run.max_cycles=20 output.checkpoint_period=0
ok $? "bisod_x (directional sweeps), 1 rank: skipping the cells at rest gives the dump of computing them"
all_same ab3 3 "$I/bench/mahyco.ini" mesh.nx=30 mesh.ny=4 mesh.nz=4 run.max_cycles=20 output.checkpoint_period=0 \
    parallel.sync_pattern=minimal
ok $? "bisod_x, 3 ranks, minimal: the same"
all_same asg 2 "$I/sedov_gmsh.ini" run.max_cycles=40
ok $? "Sedov 2D on the Gmsh mesh, 2 ranks, mahyco (one remap step per cycle): the same"
all_same atp 2 "$I/triple_point_3mat.ini" mesh.nx=28 mesh.ny=12 run.max_cycles=60 output.checkpoint_period=0 \
    physics.remap_split=directional
ok $? "three-material triple point, 2 ranks: the same"
all_same awa 2 "$I/water_air.ini" mesh.nx=200 mesh.ly=0.005 run.max_cycles=100 output.checkpoint_period=0
ok $? "water against air (stiffened gases), 2 ranks: the same"
# the listing says how much of the mesh the remap computed: a part here, all of it with HYDRO_REMAP_ALL
part=$(sed -n 's/.*Remap: \([0-9.]*\)% of the owned cells computed per step.*/\1/p' ab1/log)
whole=$(sed -n 's/.*Remap: \([0-9.]*\)% of the owned cells computed per step.*/\1/p' ab1all/log)
check "$part > 0 && $part < 100 && $whole == 100" "the listing's Remap line: $part% of the cells computed per step, $whole% with HYDRO_REMAP_ALL"

# ---- restart on another rank count ends identical to the uninterrupted run ----
run ru 2 "$I/sedov_gmsh.ini" run.max_cycles=60
run rs 3 "$I/sedov_gmsh.ini" run.max_cycles=30
(cd rs && mpi 4 "$HYDRO" --restart checkpoints/hydro_000030.h5 run.max_cycles=60 > log2 2> err2)
ok $? "Sedov (Gmsh mesh): restart at cycle 30 on 4 ranks (written by 3)"
sh "$top/test/h5same.sh" "$(last_dump ru)" "$(last_dump rs)"; ok $? "30 + 30 cycles across a restart = 60 cycles uninterrupted"
run bu 2 "$I/bench/mahyco.ini" mesh.nx=30 mesh.ny=4 mesh.nz=4 run.max_cycles=20 output.checkpoint_period=0
run bs 1 "$I/bench/mahyco.ini" mesh.nx=30 mesh.ny=4 mesh.nz=4 run.max_cycles=10 output.checkpoint_period=0
(cd bs && mpi 3 "$HYDRO" --restart checkpoints/hydro_000010.h5 run.max_cycles=20 parallel.sync_pattern=minimal \
    > log2 2> err2)
sh "$top/test/h5same.sh" --any-deck "$(last_dump bu)" "$(last_dump bs)"
ok $? "bisod_x: 10 cycles on 1 rank + restart on 3 ranks (minimal) = 20 cycles on 2 ranks (mahyco)"

# ---- pure Lagrange on curved walls: nodes stay on the arc, restarts continue identically ----
run arc 2 "$I/sod_x.ini" mesh.kind=gmsh mesh.dim=2 mesh.file="$I/meshes/quarter_disc.msh" physics.remap=none \
    physics.final_time=0.15
"$V" "$(last_dump arc)" arc > va
dev=$(metric va arc)
check "$dev <= 2e-3" "pure Lagrange on the quarter disc: wall nodes stay on the arc (largest |r - 1| $dev)"
run lu 2 "$I/sedov_gmsh.ini" physics.remap=none run.max_cycles=40
run ls 3 "$I/sedov_gmsh.ini" physics.remap=none run.max_cycles=20
(cd ls && mpi 2 "$HYDRO" --restart checkpoints/hydro_000020.h5 run.max_cycles=40 > log2 2> err2)
ok $? "pure Lagrange restart on a moved, curved mesh (cycle 20, 3 then 2 ranks)"
sh "$top/test/h5same.sh" "$(last_dump lu)" "$(last_dump ls)"; ok $? "... ends identical to the uninterrupted run"

# ---- time step logic ----
run tiny 2 "$I/sod_x.ini" physics.final_time=1e-6
t=$(h5dump -a /time "$(last_dump tiny)" | sed -n 's/.*(0): //p')
check "$t == 1e-6" "final_time below dt_init: the first step is shortened, the run ends at t = $t"
run sliver 2 "$I/sod_x.ini" physics.dt_init=1e-3 physics.dt_max=1e-3 physics.final_time=0.0105 physics.dt_min=6e-4
t=$(h5dump -a /time "$(last_dump sliver)" | sed -n 's/.*(0): //p')
check "$t == 0.0105" "a last step shorter than dt_min, only to land on final_time, is no failure (t = $t)"
mkdir -p dtx && (cd dtx && mpi 2 "$HYDRO" "$I/sod_x.ini" physics.dt_init=0.05 > log 2> err); rc=$?
[ $rc -eq 2 ] && grep -qF "command line: physics.dt_init: must not exceed physics.dt_max" dtx/err; ok $? "dt_init above dt_max is refused"
mkdir -p sedx && (cd sedx && mpi 2 "$HYDRO" "$I/sedov_2d.ini" mesh.x0=-0.6 > log 2> err); rc=$?
[ $rc -eq 2 ] && grep -q "case sedov: the mesh must be the quarter plane" sedx/err; ok $? "Sedov off the corner of its quarter plane is refused"

# ---- failures stop every rank with exit 1 after a dump, naming the cell and the cycle ----
mkdir -p fail && (cd fail && mpi 2 "$HYDRO" "$I/sod_x.ini" physics.cfl=1 physics.dt_init=0.01 physics.dt_growth=2 \
    > log 2> err); rc=$?
[ $rc -eq 1 ] && grep -Eq '^hydro: rank [0-9]+: physics/[a-z]+\.c:[0-9]+: cycle [0-9]+: cell [0-9]+: ' fail/err && ls fail/checkpoints/hydro_*.h5 > /dev/null 2>&1
ok $? "an unstable step stops the run (exit 1) naming cycle and cell, after a dump: $(head -c 120 fail/err)"
mkdir -p dtmin && (cd dtmin && mpi 2 "$HYDRO" "$I/sod_x.ini" physics.dt_min=0.005 > log 2> err); rc=$?
[ $rc -eq 1 ] && grep -Eq 'below dt_min 0.005 \(limited by cell [0-9]+\)' dtmin/err && ls dtmin/checkpoints/hydro_*.h5 > /dev/null 2>&1
ok $? "a time step below dt_min stops the run (exit 1) after a dump, naming the limiting cell"
# an injected NaN ([run] test_nan_*, for tests only), on 3 ranks
mkdir -p nan && (cd nan && mpi 3 "$HYDRO" "$I/sod_3d_z.ini" run.test_nan_cycle=4 run.test_nan_cell=1234 \
    output.checkpoint_period=0 > log 2> err); rc=$?
[ $rc -eq 1 ] && [ "$(grep -c '^hydro: ' nan/err)" -eq 1 ] && grep -Eq '^hydro: rank [0-2]: physics/lagrange\.c:[0-9]+: cycle 4: cell 1234: .*NaN' nan/err &&
    [ "$(h5dump -a /cycle nan/checkpoints/hydro_000004.h5 | sed -n 's/.*(0): //p')" = 4 ]
ok $? "an injected NaN stops the run (exit 1): one line naming cycle 4 and cell 1234, after the cycle-4 dump"
[ $rc -eq 1 ] || diag "exit $rc: $(cat nan/err)"
# the failure dump is one state: the remap is finished in every cell, not only up to the first
# bad one (its new masses are written before; a NaN in cell 0 fails the remap on rank 1 at once)
mkdir -p nan0 && (cd nan0 && mpi 2 "$HYDRO" "$I/default.ini" run.test_nan_cycle=5 run.test_nan_cell=0 \
    output.checkpoint_period=0 > log 2> err); rc=$?
column() { h5dump -d "$2" -m %.17g -y -w 0 "$1" | awk '/DATA \{/ {on = 1; next} on && /^ *\}/ {exit} on {gsub(/[ ,]+/, "\n"); print}' | grep -v '^$'; }
for v in mass density volume; do column nan0/checkpoints/hydro_000005.h5 /cells/$v > nan0/$v; done
paste nan0/mass nan0/density nan0/volume | awk '{d = $1 - $2 * $3; if (d < 0) d = -d; a = $1 < 0 ? -$1 : $1
    if (!(d <= 1e-12 * a)) bad++; n++} END {print n, bad + 0; exit !(n == 10000 && bad == 0)}' > nan0/consistent
st=$?
[ $rc -eq 1 ] && [ $st -eq 0 ]
ok $? "the failure dump is one state: mass = density x volume in every cell (exit $rc; $(cat nan0/consistent): cells, mismatches)"
done_testing
