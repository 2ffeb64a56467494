#!/bin/sh
# Materials declared in the deck (issue 16, first step: pure cells, pure Lagrange): each region
# of a case takes a material with its own equation of state. Water against air (Saurel &
# Abgrall) against the exact solution of the Riemann problem for two stiffened gases
# (test/exact/exact.h); the three-material triple point; bit for bit on 1-4 ranks, both sync
# patterns, rebalancing on both transports and a restart on another rank count; every deck
# mistake is DECK:LINE with exit 2.
. test/lib.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
V=$BUILD/test/verify
WA=$top/inputs/water_air.ini
last_dump() { ls "$1"/checkpoints/hydro_*.h5 2> /dev/null | sort | tail -n 1; }
metric() { sed -n "s/.*$2=\([^ ]*\).*/\1/p" "$1"; }

# ---- water-air against the exact solution, 200, 400 and 800 cells ----
for n in 200 400 800; do
    mkdir wa$n
    (cd wa$n && mpi 2 $HYDRO "$WA" mesh.nx=$n mesh.ly=$(awk -v n=$n 'BEGIN { print 1 / n }') > out 2> err)
    echo "rc=$?" >> wa$n/err
    $V "$(last_dump wa$n)" water_air > wa$n.v 2>&1
done
grep -q 'rc=0' wa400/err && [ "$(metric wa400.v time)" = 0.000229 ]
ok $? "water-air on 400 cells runs to 229 us with no failing cell"
[ -s wa400.v ] || diag "$(cat wa400/err)"
l200=$(metric wa200.v l1) l400=$(metric wa400.v l1) l800=$(metric wa800.v l1)
awk -v e="$l400" 'BEGIN { exit !(e > 0 && e <= 0.015) }'
ok $? "water-air, 400 cells: L1 density error / 1000 = $l400 (at most 0.015)"
order=$(awk -v a="$l200" -v b="$l800" 'BEGIN { printf "%.2f", log(a / b) / log(4) }')
awk -v o="$order" 'BEGIN { exit !(o >= 0.5) }'
ok $? "water-air: observed order $order from 200 to 800 cells (L1 $l200, $l400, $l800; at least 0.5)"
c=$(metric wa400.v contact) x=$(metric wa400.v exact_contact)
awk -v c="$c" -v x="$x" 'BEGIN { d = c - x; if (d < 0) d = -d; exit !(d <= 2 * 1.0 / 400) }'
ok $? "water-air, 400 cells: the interface at $c, the exact contact at $x (within 2 cells)"
mass0=$(sed -n 's/.*Totals at cycle 0,.*mass \([^ ]*\) .*/\1/p' wa400/out)
massN=$(sed -n 's/.*Totals at cycle [1-9][0-9]*, time 2.290000e-04: mass \([^ ]*\) .*/\1/p' wa400/out | tail -n 1)
[ -n "$massN" ] && [ "$massN" = "$(sed -n 's/.*Totals at cycle [0-9]*,.*mass \([^ ]*\) .*/\1/p' wa400/out | head -n 1)" ]
ok $? "water-air: each cell keeps its material and mass (total mass $massN unchanged)"
h5dump -d /cells/material "$(last_dump wa400)" > mat.txt 2>&1 &&
    [ "$(grep -o ' 0,\| 1,\| 0$\| 1$' mat.txt | wc -l)" -eq 400 ]
ok $? "the dump holds /cells/material (0 water, 1 air), readable with h5dump"

# ---- the same run whatever the ranks, the sync pattern, rebalancing, a restart ----
short="physics.final_time=2e-5 output.checkpoint_period=0"
mkdir ref && (cd ref && mpi 1 $HYDRO "$WA" $short > out 2>&1)
ref=$(last_dump ref)
same() { # same NAME NP ARGS...: the run's last dump is ref's bit for bit
    name=$1 np=$2
    shift 2
    mkdir "$name" && (cd "$name" && mpi "$np" $HYDRO "$WA" $short "$@" > out 2>&1)
    d=$(last_dump "$name")
    [ -n "$d" ] && sh "$top/test/h5same.sh" --any-deck "$ref" "$d" > "$name.diff" 2>&1
    ok $? "water-air, $np ranks $*: bit for bit the 1-rank run"
    [ -s "$name.diff" ] && diag "$(head -5 "$name.diff")"
}
same r2 2
same r3 3
same r4 4 parallel.sync_pattern=minimal
same lb2 2 loadbalance.period=3 loadbalance.mode=shuffle loadbalance.shuffle_fraction=0.3
ARCANE_MESH_EXCHANGE_USE_COLLECTIVE=TRUE
export ARCANE_MESH_EXCHANGE_USE_COLLECTIVE
same lb3 3 loadbalance.period=4 loadbalance.mode=shuffle loadbalance.shuffle_fraction=0.2
unset ARCANE_MESH_EXCHANGE_USE_COLLECTIVE
mkdir rs && (cd rs && mpi 2 $HYDRO "$WA" $short output.checkpoint_period=7 output.checkpoint_keep=0 > out 2>&1 &&
    mpi 3 $HYDRO --restart checkpoints/hydro_000007.h5 output.checkpoint_period=0 > out2 2>&1)
d=$(last_dump rs)
[ -n "$d" ] && sh "$top/test/h5same.sh" --any-deck "$ref" "$d" > rs.diff 2>&1
ok $? "water-air restarted from cycle 7 on 3 ranks (written by 2): bit for bit the uninterrupted run"

# ---- three materials: the triple point (gammas 1.5, 1.4, 1.5), pure Lagrange ----
tp() { # tp NP ARGS...
    np=$1
    shift
    mpi "$np" $HYDRO "$top/inputs/triple_point.ini" mesh.nx=56 mesh.ny=24 physics.remap=none physics.final_time=0.3 \
        "case.materials=inner bottom top" "materials.names=inner bottom top" "materials.eos=perfect perfect perfect" \
        "materials.gamma=1.5 1.4 1.5" "$@" > out 2>&1
}
mkdir tp1 tp4
(cd tp1 && tp 1)
(cd tp4 && tp 4 parallel.sync_pattern=minimal)
a=$(last_dump tp1) b=$(last_dump tp4)
[ -n "$a" ] && [ -n "$b" ] && sh "$top/test/h5same.sh" --any-deck "$a" "$b" > tp.diff 2>&1
ok $? "triple point with three materials: 4 ranks (minimal) bit for bit 1 rank"
[ -n "$a" ] || diag "$(tail -5 tp1/out)"
# the sound speed is that of each cell's own material: c^2 = gamma_k p / rho in every cell
vals() { # the dataset's values, one per line (its first DATA block: the attributes follow)
    h5dump -y -m %.17g -d "$1" "$2" 2> /dev/null | awk '/DATA {/ { on = 1; next } on && /}/ { exit } on' |
        tr ',' '\n' | sed -n 's/^ *\([-0-9][-0-9.e+]*\) *$/\1/p'
}
for d in material pressure density sound_speed; do vals /cells/$d "$a" > $d.col; done
paste material.col pressure.col density.col sound_speed.col | awk '
    BEGIN { g[0] = 1.5; g[1] = 1.4; g[2] = 1.5 }
    { e = $4 * $4 / (g[$1] * $2 / $3) - 1; if (e < 0) e = -e; if (e > 1e-12) bad++; seen[$1]++; n++ }
    END { exit !(n == 56 * 24 && bad == 0 && seen[0] && seen[1] && seen[2]) }'
ok $? "triple point: every cell's sound speed is that of its own material's gamma ($(wc -l < material.col) cells)"

# ---- deck mistakes: FILE:LINE and exit 2 ----
cat > bad.ini << 'EOF'
[case]
name = sod
materials = gas1 nowhere
[materials]
names = gas1 gas2
eos = perfect perfect
gamma = 1.4 1.5
[physics]
remap = none
EOF
refuse() { # refuse DESCRIPTION PATTERN OVERRIDES...
    desc=$1 pat=$2
    shift 2
    mpi 1 $HYDRO bad.ini "$@" > r.out 2> r.err
    rc=$?
    [ $rc -eq 2 ] && grep -q -- "$pat" r.err
    ok $? "$desc: $(head -n 1 r.err | cut -c 1-150)"
}
refuse "an unknown material" "^bad.ini:3: case.materials: unknown material 'nowhere' for region 'right'"
refuse "a region without a material" "command line: case.materials: the case's region 'right' has no material" \
    case.materials=gas1
refuse "a material in no region" "bad.ini:5: materials.names: material 'gas2' is in no region" "case.materials=gas1 gas1"
refuse "one gamma too few" "command line: materials.gamma: 1 value for 2 materials" "case.materials=gas1 gas2" \
    materials.gamma=1.4
refuse "an unknown equation of state" "materials.eos: 'ideal' (material gas2) is not perfect or stiffened" \
    "case.materials=gas1 gas2" "materials.eos=perfect ideal"
refuse "physics.gamma beside declared materials" "physics.gamma: materials are declared" "case.materials=gas1 gas2" \
    physics.gamma=1.3
refuse "a perfect gas with a p_inf" "material gas1 is a perfect gas: its p_inf is 0" "case.materials=gas1 gas2" \
    "materials.p_inf=1 0"
refuse "two materials with the Euler remap (mixed cells not built yet)" "physics.remap: euler with 2 materials" \
    "case.materials=gas1 gas2" physics.remap=euler
refuse "materials for sync_only" "materials.names: sync_only has no materials" case.name=sync_only
refuse "materials.eos without materials.names" "bad.ini:6: materials.eos: needs materials.names" materials.names=
printf '[case]\nname = sod\nmaterials = gas\n' > bad.ini
refuse "case.materials without declared materials" "bad.ini:3: case.materials: names materials, but materials.names declares none"
done_testing
