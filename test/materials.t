#!/bin/sh
# Materials (issue 16): each region of a case takes a material with its own equation of state;
# with the Euler remap, mixed cells appear along the interfaces (MaHyCo's model: per-material
# fractions, masses and energies, frozen fractions in the Lagrange phase, partial volumes,
# masses and energies through the remap). Verified against exact solutions (test/exact/exact.h:
# the Riemann problem for two stiffened gases): water against air (Saurel & Abgrall) and the
# bi-material Sod; each material's mass conserved; the three-material triple point; bit for bit
# on 1-4 ranks with both sync patterns, rebalancing on both transports and a restart on another
# rank count; every deck mistake is DECK:LINE with exit 2.
. test/lib.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
V=$BUILD/test/verify
WA=$top/inputs/water_air.ini
last_dump() { ls "$1"/checkpoints/hydro_*.h5 2> /dev/null | sort | tail -n 1; }
metric() { sed -n "s/\(^\|.* \)$2=\([^ ]*\).*/\2/p" "$1"; } # metric FILE KEY: KEY=VALUE's value
within() { awk -v a="$1" -v b="$2" -v tol="$3" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(a != "" && d <= tol) }'; }
# drifts FILE: the largest |drift| of the last Materials line (each material's mass, what the
# threshold removed added back, against t = 0)
drifts() {
    grep 'Materials at' "$1" | tail -n 1 | grep -o 'drift [-+0-9.e]*' |
        awk '{ d = $2 < 0 ? -$2 : $2; if (d > m) m = d } END { printf "%.3g", NR ? m : 1 }'
}
vals() { # the dataset's values, one per line (its first DATA block: the attributes follow)
    h5dump -y -m %.17g -d "$1" "$2" 2> /dev/null | awk '/DATA {/ { on = 1; next } on && /}/ { exit } on' |
        tr ',' '\n' | sed -n 's/^ *\([-0-9][-0-9.e+]*\) *$/\1/p'
}
# conserved FILE: each material's mass is conserved to 1e-10 relative there (the issue's bound);
# the largest drift in $d
conserved() { d=$(drifts "$1"); awk -v d="$d" 'BEGIN { exit !(d <= 1e-10) }'; }

# ---- water against air, with the remap, 200, 400 and 800 cells ----
for n in 200 400 800; do
    mkdir wa$n
    (cd wa$n && mpi 2 $HYDRO "$WA" mesh.nx=$n mesh.ly=$(awk -v n=$n 'BEGIN { print 1 / n }') > out 2> err)
    echo "rc=$?" >> wa$n/err
    $V "$(last_dump wa$n)" water_air > wa$n.v 2>&1
done
grep -q 'rc=0' wa400/err && [ "$(metric wa400.v time)" = 0.000229 ] && ! grep -q 'hydro:' wa200/err wa800/err
ok $? "water-air with mixed cells on 200, 400 and 800 cells runs to 229 us with no failing cell"
[ -s wa400.v ] || diag "$(cat wa400/err)"
l200=$(metric wa200.v l1) l400=$(metric wa400.v l1) l800=$(metric wa800.v l1)
awk -v e="$l400" 'BEGIN { exit !(e > 0 && e <= 0.015) }'
ok $? "water-air, 400 cells: L1 density error / 1000 = $l400 (at most 0.015)"
order=$(awk -v a="$l200" -v b="$l800" 'BEGIN { printf "%.2f", log(a / b) / log(4) }')
awk -v o="$order" 'BEGIN { exit !(o >= 0.5) }'
ok $? "water-air: observed order $order from 200 to 800 cells (L1 $l200, $l400, $l800; at least 0.5)"
c=$(metric wa400.v contact) x=$(metric wa400.v exact_contact)
within "$c" "$x" "$(awk 'BEGIN { print 2.0 / 400 }')"
ok $? "water-air, 400 cells: the water ends at $c, the exact contact at $x (within 2 cells)"
conserved wa400/out
ok $? "water-air: each material's mass conserved to $d relative, the mass removed below the threshold counted"
grep 'Materials at' wa400/out | tail -n 1 | grep -q 'water .*removed [0-9.e+-]*); air .*removed'
ok $? "the listing prints each material's mass and what left cells below the threshold"
# /materials: count [cells], then material and each material variable [entries], in global cell id order
d4=$(last_dump wa400)
vals /materials/count "$d4" > wa.count
vals /materials/material "$d4" > wa.mat
vals /materials/material_fraction "$d4" > wa.frac
ne=$(wc -l < wa.mat)
awk '{ s += $1; if ($1 < 1 || $1 > 2) bad++; if ($1 == 2) mixed++ } END {
         print mixed + 0 > "wa.mixed"; exit !(NR == 400 && bad == 0 && s == '"$ne"' && mixed > 0) }' wa.count &&
    [ "$(wc -l < wa.frac)" = "$ne" ] && h5dump -A -g /materials "$d4" | grep -q '"water air"'
ok $? "the dump's /materials holds a count per cell (400, $(cat wa.mixed) of them mixed), then $ne entries: material index and each material variable"
# the entries expand to the dense /cells/volume_fractions [cells][2] (0 where absent)
vals /cells/volume_fractions "$d4" > wa.vf
awk 'FILENAME == ARGV[1] { n[NR] = $1; next } FILENAME == ARGV[2] { m[FNR] = $1; next }
     FILENAME == ARGV[3] { f[FNR] = $1; next } { v[FNR] = $1 }
     END { j = 0; for (c = 1; c <= 400; c++) { row[0] = 0; row[1] = 0
               for (k = 0; k < n[c]; k++) { j++; row[m[j]] = f[j] }
               if (v[2 * c - 1] != row[0] || v[2 * c] != row[1]) bad++ }
           exit !(bad == 0 && j == '"$ne"' && j > 400 && FNR == 800) }' wa.count wa.mat wa.frac wa.vf
ok $? "/cells/volume_fractions is the entries' fractions cell by cell, 0 for an absent material"
x4=$(echo "$d4" | sed 's/\.h5$/.xmf/')
grep -q 'Name="volume_fraction_water"' "$x4" && grep -q 'Name="volume_fraction_air"' "$x4" &&
    ! grep -q 'Name="material_' "$x4"
ok $? "the XDMF file gives ParaView each material's volume fraction as a cell field (volume_fraction_water, _air)"
# pure Lagrange: every cell keeps its material
mkdir wap && (cd wap && mpi 2 $HYDRO "$WA" physics.remap=none > out 2>&1)
$V "$(last_dump wap)" water_air > wap.v 2>&1
lp=$(metric wap.v l1) cp=$(metric wap.v contact) xp=$(metric wap.v exact_contact)
awk -v e="$lp" 'BEGIN { exit !(e > 0 && e <= 0.002) }' && within "$cp" "$xp" 1e-4 && [ "$(drifts wap/out)" = 0 ]
ok $? "water-air, pure Lagrange: L1 / 1000 = $lp, interface at $cp (exact $xp), masses exact"

# materials.relax = pressure: mixed cells reach one pressure (each material pays its p dV)
mkdir war && (cd war && mpi 2 $HYDRO "$WA" materials.relax=pressure > out 2>&1)
$V "$(last_dump war)" water_air > war.v 2>&1
lr=$(metric war.v l1)
awk -v e="$lr" -v f="$l400" 'BEGIN { exit !(e > 0 && e <= 0.015 && e < f) }' && [ "$(metric war.v time)" = 0.000229 ]
ok $? "water-air with pressure relaxation, 400 cells: L1 / 1000 = $lr (frozen fractions: $l400)"
vals /materials/count "$(last_dump war)" > war.n
vals /materials/material_pressure "$(last_dump war)" > war.p
awk 'FILENAME == ARGV[1] { n[NR] = $1; next } { p[FNR] = $1 }
     END { j = 0; for (c = 1; c in n; c++) { if (n[c] == 2) { m++; d = p[j + 1] - p[j + 2]; if (d < 0) d = -d
                                                          s = p[j + 1] < 0 ? -p[j + 1] : p[j + 1]
                                                          if (d > 1e-9 * s + 1e-6) bad++ }
                                          j += n[c] }
           print m + 0 > "war.mixed"; exit !(m > 0 && bad == 0) }' war.n war.p
ok $? "after the relaxation both materials of each of the $(cat war.mixed) mixed cells have one pressure"
conserved war/out
ok $? "with the relaxation each material's mass is conserved to $d relative"

# ---- bi-material Sod (inputs/sod_2mat.ini: the same gas on both sides), 1D strip with the remap ----
two="case.materials=ZG ZD"
for n in 100 400; do
    h=$(awk -v n=$n 'BEGIN { print 1 / n }')
    mkdir bs$n && (cd bs$n && mpi 2 $HYDRO "$top/inputs/sod_2mat.ini" mesh.nx=$n mesh.ly=$h mesh.lz=$h > out 2>&1)
    $V "$(last_dump bs$n)" sod 0 > bs$n.v 2>&1
done
b100=$(metric bs100.v l1) b400=$(metric bs400.v l1)
awk -v a="$b100" -v b="$b400" 'BEGIN { exit !(a > 0 && a <= 0.0080 && b > 0 && b <= 0.0027) }'
ok $? "bi-material Sod: L1 density error $b100 at 100 cells (at most 0.0080), $b400 at 400 (at most 0.0027)"
c=$(metric bs400.v contact) x=$(metric bs400.v exact_contact)
within "$c" "$x" "$(awk 'BEGIN { print 2.0 / 400 }')"
ok $? "bi-material Sod, 400 cells: ZG ends at $c, the exact contact at $x (within 2 cells)"
conserved bs400/out
ok $? "bi-material Sod: each material's mass conserved to $d relative"

# ---- the same run whatever the ranks, the sync pattern, rebalancing, a restart ----
# same DECK NAME NP ARGS...: the run's last dump is the 1-rank run's ($ref; $label names it) bit for bit
same() {
    deck=$1 name=$2 np=$3
    shift 3
    mkdir "$name" && (cd "$name" && mpi "$np" $HYDRO $deck "$@" > out 2>&1)
    d=$(last_dump "$name")
    [ -n "$d" ] && sh "$top/test/h5same.sh" --any-deck "$ref" "$d" > "$name.diff" 2>&1
    ok $? "$label, $np ranks $(echo "$*" | sed 's/output.checkpoint_period=[0-9]*//'): bit for bit the 1-rank run"
    [ -s "$name.diff" ] && diag "$(head -5 "$name.diff")"
}
restarted() { # restarted NAME NP1 NP2 DECK ARGS...: dumps every 15 cycles on NP1 ranks, restart from the first on NP2
    name=$1 np1=$2 np2=$3
    shift 3
    mkdir "$name" && (cd "$name" && mpi "$np1" $HYDRO "$@" output.checkpoint_period=15 output.checkpoint_keep=0 > out 2>&1 &&
        mpi "$np2" $HYDRO --restart checkpoints/hydro_000015.h5 output.checkpoint_period=0 output.checkpoint_dir=after \
            > out2 2>&1)
    d=$(ls "$name"/after/hydro_*.h5 2> /dev/null | sort | tail -n 1)
    [ -n "$d" ] && sh "$top/test/h5same.sh" --any-deck "$ref" "$d" > "$name.diff" 2>&1
    ok $? "$label restarted at cycle 15 on $np2 ranks (written by $np1): bit for bit the uninterrupted run"
}
short="physics.final_time=2e-5 output.checkpoint_period=0"
label="water-air"
mkdir ref && (cd ref && mpi 1 $HYDRO "$WA" $short > out 2>&1)
ref=$(last_dump ref)
grep 'Materials at' ref/out | tail -n 1 | grep -q 'removed [1-9]' || diag "no material left a cell in the short run"
same "$WA" w2 2 $short
same "$WA" w3 3 $short parallel.sync_pattern=minimal
same "$WA" w4 4 $short loadbalance.period=3 loadbalance.mode=shuffle loadbalance.shuffle_fraction=0.3
label="water-air, pressure relaxation"
mkdir refr && (cd refr && mpi 1 $HYDRO "$WA" $short materials.relax=pressure > out 2>&1)
ref=$(last_dump refr)
same "$WA" wr3 3 $short materials.relax=pressure parallel.sync_pattern=minimal
label="water-air"
ref=$(last_dump ref)
ARCANE_MESH_EXCHANGE_USE_COLLECTIVE=TRUE
export ARCANE_MESH_EXCHANGE_USE_COLLECTIVE
same "$WA" w3c 3 $short loadbalance.period=4 loadbalance.mode=shuffle loadbalance.shuffle_fraction=0.2
unset ARCANE_MESH_EXCHANGE_USE_COLLECTIVE
mkdir rs && (cd rs && mpi 2 $HYDRO "$WA" $short output.checkpoint_period=7 output.checkpoint_keep=0 > out 2>&1 &&
    mpi 3 $HYDRO --restart checkpoints/hydro_000007.h5 output.checkpoint_period=0 > out2 2>&1)
d=$(last_dump rs)
[ -n "$d" ] && sh "$top/test/h5same.sh" --any-deck "$ref" "$d" > rs.diff 2>&1
ok $? "water-air restarted from cycle 7 on 3 ranks (written by 2): bit for bit the uninterrupted run"
# the dump's /diagnostics carry each material's initial mass and the mass removed so far
removed() { grep 'Materials at' "$1" | tail -n 1 | grep -o 'removed [0-9.e+-]*' | tr '\n' ' '; }
conserved rs/out2 && [ -n "$(removed ref/out)" ] && [ "$(removed rs/out2)" = "$(removed ref/out)" ]
ok $? "after the restart the materials' drift ($d) and removed mass ($(removed rs/out2)) continue from t = 0"
# the removed mass continues exactly across a restart: by cycle 150 it is a sum no double holds
# (its limbs span more than 53 bits), which the dump keeps as limbs
mkdir lim lims && (cd lim && mpi 2 $HYDRO "$WA" run.max_cycles=200 output.checkpoint_period=0 > out 2>&1)
(cd lims && mpi 2 $HYDRO "$WA" run.max_cycles=150 output.checkpoint_period=0 > out 2>&1 &&
    mpi 3 $HYDRO --restart checkpoints/hydro_000150.h5 run.max_cycles=200 output.checkpoint_period=0 > out2 2>&1)
a=$(last_dump lim) b=$(last_dump lims)
[ -n "$a" ] && [ -n "$b" ] && h5dump -a /diagnostics/material_removed_mass_exact "$a" | grep -q '[1-9]' &&
    sh "$top/test/h5same.sh" --any-deck "$a" "$b" > lims.diff 2>&1
ok $? "water-air restarted at cycle 150 on 3 ranks: the exact removed mass (its limbs) and every dataset as the uninterrupted run's"
[ -s lims.diff ] && diag "$(cat lims.diff)"

# a damaged materials dataset is refused, naming it
src=rs/checkpoints/hydro_000007.h5
for ds in /materials/material_fraction /materials/count /materials/material; do
    off=$(h5dump -p -H -d $ds "$src" 2> /dev/null | sed -n 's/.*OFFSET \([0-9]*\).*/\1/p')
    cp "$src" damaged.h5
    printf 'garbage!' | dd of=damaged.h5 bs=1 seek=$((${off:-0} + 64)) conv=notrunc 2> /dev/null
    mpi 2 $HYDRO --restart damaged.h5 > dmg.out 2> dmg.err
    rc=$?
    [ -n "$off" ] && [ $rc -eq 2 ] && grep -q "dataset $ds does not match its checksum" dmg.err
    ok $? "a damaged $ds is refused, exit 2: $(head -n 1 dmg.err | cut -c 1-120)"
done
# entries that do not match the counts (checksums made to match): refused, naming the dataset
MUT=$BUILD/test/h5mutate
cp "$src" short.h5 && $MUT short.h5 resize-dataset /materials/material -1 > /dev/null 2>&1
mpi 2 $HYDRO --restart short.h5 > dmg.out 2> dmg.err
[ $? -eq 2 ] && grep -q '/materials/material_[a-z_]* has [0-9]* rows but /materials/material has' dmg.err
ok $? "one entry fewer in /materials/material: refused, exit 2: $(head -n 1 dmg.err | cut -c 1-140)"
cp "$src" noentries.h5 && $MUT noentries.h5 drop-dataset /materials/material_mass > /dev/null 2>&1
mpi 2 $HYDRO --restart noentries.h5 > dmg.out 2> dmg.err
[ $? -eq 2 ] && grep -q 'lacks dataset /materials/material_mass' dmg.err
ok $? "a dump without /materials/material_mass: refused, exit 2: $(head -n 1 dmg.err | cut -c 1-120)"
# the MaHyCo bench's bi-Sod in 3D with two materials (directional sweeps)
label="bisod_x 3D, two materials"
BI="$top/inputs/bench/mahyco.ini mesh.nx=40 mesh.ny=6 mesh.nz=6 run.max_cycles=20 output.checkpoint_period=0"
mkdir bref && (cd bref && mpi 1 $HYDRO $BI "$two" "materials.names=ZG ZD" "materials.eos=perfect perfect" \
    "materials.gamma=1.4 1.4" > out 2>&1)
ref=$(last_dump bref)
MB="materials.names=ZG ZD"
same "$BI" b2 2 "$two" "$MB" "materials.eos=perfect perfect" "materials.gamma=1.4 1.4"
same "$BI" b3 3 "$two" "$MB" "materials.eos=perfect perfect" "materials.gamma=1.4 1.4" parallel.sync_pattern=minimal
same "$BI" b4 4 "$two" "$MB" "materials.eos=perfect perfect" "materials.gamma=1.4 1.4" loadbalance.period=5 \
    loadbalance.mode=shuffle
ARCANE_MESH_EXCHANGE_USE_COLLECTIVE=TRUE
export ARCANE_MESH_EXCHANGE_USE_COLLECTIVE
label="bisod_x 3D, two materials, MPI_Alltoallv migrations"
same "$BI" b3c 3 "$two" "$MB" "materials.eos=perfect perfect" "materials.gamma=1.4 1.4" loadbalance.period=5 \
    loadbalance.mode=shuffle
unset ARCANE_MESH_EXCHANGE_USE_COLLECTIVE
label="bisod_x 3D, two materials"
restarted brs 3 2 $BI "$two" "$MB" "materials.eos=perfect perfect" "materials.gamma=1.4 1.4"
grep -q 'Synchronisations per cycle: 62.0 (pattern mahyco' b2/out
ok $? "bisod_x 3D with two materials: 62 synchronisations per cycle, as with one (the materials' values travel with the cell's)"

# ---- three materials: the triple point (gammas 1.5, 1.4, 1.5) with the remap ----
tp() { # tp NP ARGS...
    np=$1
    shift
    mpi "$np" $HYDRO "$top/inputs/triple_point_3mat.ini" mesh.nx=56 mesh.ny=24 physics.final_time=0.5 "$@" > out 2>&1
}
mkdir tp1 tp4
(cd tp1 && tp 1)
(cd tp4 && tp 4 parallel.sync_pattern=minimal)
a=$(last_dump tp1) b=$(last_dump tp4)
[ -n "$a" ] && [ -n "$b" ] && sh "$top/test/h5same.sh" --any-deck "$a" "$b" > tp.diff 2>&1
ok $? "triple point with three materials and the remap: 4 ranks (minimal) bit for bit 1 rank"
[ -n "$a" ] || diag "$(tail -5 tp1/out)"
# directional sweeps: between two sweeps minimal synchronises the ghosts' state once
mkdir td1 td3
(cd td1 && tp 1 physics.remap_split=directional physics.final_time=0.2)
(cd td3 && tp 3 physics.remap_split=directional physics.final_time=0.2 parallel.sync_pattern=minimal)
c1=$(last_dump td1) c3=$(last_dump td3)
[ -n "$c1" ] && [ -n "$c3" ] && sh "$top/test/h5same.sh" --any-deck "$c1" "$c3" > td.diff 2>&1
ok $? "triple point, directional sweeps: 3 ranks (minimal) bit for bit 1 rank"
[ -s td.diff ] && diag "$(head -5 td.diff)"
# mahyco with 2 ghost layers: the material slopes of layer 1 read the last layer's values
label="triple point, directional sweeps, mahyco, 2 ghost layers" ref=$c1
same "$top/inputs/triple_point_3mat.ini mesh.nx=56 mesh.ny=24 physics.remap_split=directional" td2l 3 \
    physics.final_time=0.2 parallel.ghost_layers=2
# rebalanced on both transports, and restarted on another rank count
label="triple point" ref=$a
TPD="$top/inputs/triple_point_3mat.ini mesh.nx=56 mesh.ny=24 physics.final_time=0.5"
same "$TPD" tpl3 3 loadbalance.period=15 loadbalance.mode=shuffle loadbalance.shuffle_fraction=0.3
ARCANE_MESH_EXCHANGE_USE_COLLECTIVE=TRUE
export ARCANE_MESH_EXCHANGE_USE_COLLECTIVE
label="triple point, MPI_Alltoallv migrations"
same "$TPD" tpl2 2 loadbalance.period=15 loadbalance.mode=shuffle loadbalance.shuffle_fraction=0.3 \
    parallel.sync_pattern=minimal
unset ARCANE_MESH_EXCHANGE_USE_COLLECTIVE
label="triple point"
restarted tprs 2 3 $TPD
conserved tp1/out
ok $? "triple point: each of the three materials' mass conserved to $d relative"
# fractions are fractions: in [0, 1], summing to 1 in every cell, some cells mixed
vals /cells/volume_fractions "$a" | paste - - - | awk '
    { s = $1 + $2 + $3; e = s - 1; if (e < 0) e = -e; if (e > 1e-12) bad++
      for (i = 1; i <= 3; i++) { if ($i < 0 || $i > 1) bad++; if ($i > 0 && $i < 1) mixed[NR] = 1 } n++ }
    END { for (c in mixed) m++; print m + 0 > "mixed.n"; exit !(n == 56 * 24 && bad == 0 && m > 0) }'
ok $? "triple point: fractions in [0, 1] summing to 1 in each of the 1344 cells, $(cat mixed.n 2> /dev/null) of them mixed"

# ---- every ghost holds its owner's materials and values after every synchronisation ----
# HYDRO_CHECK_GHOSTS=1: each synchronisation is followed by a check of every ghost against its
# owner's values fetched by global id, outside the sync plans (a difference stops the run)
ghosts() { # ghosts NAME NP DECK ARGS...
    name=$1 np=$2
    shift 2
    mkdir "$name" && (cd "$name" && HYDRO_CHECK_GHOSTS=1 mpi "$np" $HYDRO "$@" > out 2> err)
    rc=$?
    n=$(sed -n 's/.*HYDRO_CHECK_GHOSTS: \([0-9]*\) synchronisations checked, \([0-9]*\) ghost values.*/\1 syncs, \2 values/p' "$name/out")
    [ $rc -eq 0 ] && [ -n "$n" ] && grep -q 'Material synchronisations per cycle' "$name/out"
    ok $? "$label, $np ranks: after every synchronisation each ghost holds its owner's materials and values ($n)"
    [ $rc -eq 0 ] || diag "$(tail -n 2 "$name/err")"
}
label="water-air" ghosts gw2 2 "$WA" $short
label="water-air, relaxation, minimal" ghosts gw3 3 "$WA" $short materials.relax=pressure parallel.sync_pattern=minimal
TP3=$top/inputs/triple_point_3mat.ini
label="triple point" ghosts gt4 4 "$TP3" mesh.nx=28 mesh.ny=12 physics.final_time=0.3
label="triple point, directional, minimal" ghosts gt3 3 "$TP3" mesh.nx=28 mesh.ny=12 \
    physics.final_time=0.3 physics.remap_split=directional parallel.sync_pattern=minimal
label="bisod_x 3D, rebalanced" ghosts gb4 4 $BI "$two" "$MB" "materials.eos=perfect perfect" \
    "materials.gamma=1.4 1.4" loadbalance.period=5 loadbalance.mode=shuffle run.max_cycles=12 parallel.sync=basic

# ---- deck mistakes: FILE:LINE and exit 2 ----
cat > bad.ini << 'EOF'
[case]
name = sod
materials = gas1 nowhere
[materials]
names = gas1 gas2
eos = perfect perfect
gamma = 1.4 1.5
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
refuse "a threshold out of range" "materials.threshold: 0.7 is out of range" "case.materials=gas1 gas2" \
    materials.threshold=0.7
refuse "materials for sync_only" "materials.names: sync_only has no materials" case.name=sync_only
refuse "materials.eos without materials.names" "bad.ini:6: materials.eos: needs materials.names" materials.names=
printf '[case]\nname = sod\nmaterials = gas\n' > bad.ini
refuse "case.materials without declared materials" "bad.ini:3: case.materials: names materials, but materials.names declares none"
done_testing
