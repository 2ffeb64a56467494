#!/bin/sh
# Pictures of dumps: run/plot_field.sh and run/plot_profile.sh on tiny 2D and 3D dumps give
# PNGs, the 3D slice is one layer, the exact Sedov curve is where theory puts it, bad usage,
# missing variables and files that are not dumps give one clear message and exit 2.
. test/lib.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
export HYDRO_BUILD="$BUILD"
field() { sh "$top/run/plot_field.sh" "$@"; }
profile() { sh "$top/run/plot_profile.sh" "$@"; }
tool=$BUILD/test/plotdata
command -v gnuplot > /dev/null; ok $? "gnuplot is installed (make deps)"

# png FILE: a PNG signature and more than a few kilobytes (axes, colour bar and cells drawn)
png() {
    [ "$(od -An -tx1 -N8 "$1" 2>/dev/null | tr -d ' \n')" = 89504e470d0a1a0a ] && [ "$(wc -c < "$1")" -gt 4000 ]
}

mkdir d2 d3
(cd d2 && mpi 2 "$HYDRO" "$top/inputs/sedov_2d.ini" mesh.nx=8 mesh.ny=6 run.max_cycles=20 \
    output.checkpoint_period=10 output.listing_period=0 > log 2>&1)
ok $? "tiny 2D Sedov run (8 x 6, dumps at cycles 10 and 20)"
(cd d3 && mpi 2 "$HYDRO" "$top/inputs/sod_3d_z.ini" mesh.nx=3 mesh.ny=4 mesh.nz=6 run.max_cycles=5 \
    output.listing_period=0 > log 2>&1)
ok $? "tiny perturbed 3D Sod run (3 x 4 x 6)"
d2=d2/checkpoints/hydro_000020.h5
d3=d3/checkpoints/hydro_000005.h5

out=$(field $d2 density map2.png 2> err); rc=$?
[ $rc -eq 0 ] && [ "$out" = map2.png ] && png map2.png; ok $? "2D map: exit 0, prints its path, a PNG"
[ $rc -eq 0 ] || diag "exit $rc: $(cat err)"
out=$(field $d3 pressure map3.png 2> err); rc=$?
[ $rc -eq 0 ] && [ "$out" = map3.png ] && png map3.png; ok $? "3D z-middle slice map: a PNG"
[ $rc -eq 0 ] || diag "exit $rc: $(cat err)"
out=$(field d2/checkpoints density 2> err)
[ "$out" = d2/checkpoints/hydro_000020_density.png ] && png "$out"
ok $? "a directory: its newest dump, the PNG beside it by default"
field -c 0:2 $d2 internal_energy fixed.png > /dev/null 2>&1 && png fixed.png; ok $? "-c MIN:MAX colour range"

# what the pictures are made of
"$tool" $d2 info density > info2 && "$tool" $d3 info pressure > info3
grep -qx 'drawn 48' info2 && grep -qx 'cells 48' info2 && grep -qx 'time [0-9.e-]*' info2 && grep -qx 'cycle 20' info2
ok $? "2D info: every cell drawn, time and cycle"
grep -qx 'cells 72' info3 && grep -qx 'drawn 12' info3 &&
    awk '$1 == "slice_z" {exit !($2 > 0.4 && $2 < 0.6 && ($2 < 0.49 || $2 > 0.51))}' info3
ok $? "3D slice of a perturbed 6-layer mesh: one cell per column, through a layer near z = 0.5"
"$tool" $d3 cells pressure | awk 'NF == 3 {x[++n] = $1; y[n] = $2}
    NF == 0 {for (i = 1; i < n; i++) a += x[i] * y[i + 1] - x[i + 1] * y[i]; n = 0}
    END {a /= 2; exit !(a > 0.01 * (1 - 1e-9) && a < 0.01 * (1 + 1e-9))}'
ok $? "3D slice: the cut polygons tile the 0.1 x 0.1 cross-section (areas sum to 0.01)"
"$tool" $d2 cells density | awk 'NF == 3 {n++; if (n == 1) {x = $1; y = $2} if (n == 5 && ($1 != x || $2 != y)) bad = 1}
    NF == 0 {if (n != 5) bad = 1; polys++; n = 0} END {exit bad || polys != 48}'
ok $? "2D cells: 48 closed quads of 4 vertices"

# exact Sedov: the default energy puts the shock at r = t^(1/2) in 2D, density 6 behind it, and
# the gas inside holds the mass swept, rho0 pi r^2 (integral of rho r dr = r^2 / 2)
t=$(sed -n 's/^time //p' info2)
"$tool" $d2 exact density r > sedov.txt
awk -v t="$t" '$2 > max {max = $2} $2 > 1.000001 {front = $1}
    END {r = sqrt(t); exit !(max > 5.999 && max <= 6.000001 && front > 0.99 * r && front < 1.01 * r)}' sedov.txt
ok $? "exact Sedov density: 6 just behind the shock at r = sqrt(t) (t = $t)"
awk '$2 > 1.000001 {r = $1} {s[NR] = $1; v[NR] = $2} END {
    for (i = 2; i <= NR && s[i] <= r; i++) m += 0.5 * (v[i] * s[i] + v[i - 1] * s[i - 1]) * (s[i] - s[i - 1])
    m /= r * r / 2; exit !(m > 0.999 && m < 1.001) }' sedov.txt
ok $? "exact Sedov density: the mass inside the shock is the mass swept"
"$tool" $d3 exact density x > /dev/null 2> err; rc=$?
[ $rc -eq 3 ] && grep -q 'along z only' err; ok $? "exact Sod along another axis than its direction: exit 3 and why"

out=$(profile $d2 density prof2.png 2> err); rc=$?
[ $rc -eq 0 ] && [ "$out" = prof2.png ] && png prof2.png; ok $? "radial profile with the exact Sedov curve: a PNG"
[ $rc -eq 0 ] || diag "exit $rc: $(cat err)"
profile $d3 viscosity prof3.png > /dev/null 2> err && png prof3.png; ok $? "profile without exact solution: still a PNG"

# bad_use NAME WANT COMMAND...: exit 2, WANT on stderr, no picture written
bad_use() {
    name=$1 want=$2
    shift 2
    rm -f bad.png
    "$@" > out 2> err
    rc=$?
    [ $rc -eq 2 ] && grep -qF -- "$want" err && [ ! -e bad.png ] && [ ! -s out ]
    ok $? "$name: exit 2 and '$want'"
    [ $rc -eq 2 ] && grep -qF -- "$want" err || diag "exit $rc; stderr: $(cat err)"
}
printf 'not a dump\n' > text.h5
cp $d2 nofmt.h5 && "$BUILD/test/h5mutate" nofmt.h5 drop-root-attr format
mkdir empty
bad_use "no arguments" "usage: run/plot_field.sh" field
bad_use "one argument" "usage: run/plot_field.sh" field $d2
bad_use "unknown option" "usage: run/plot_field.sh" field -x $d2 density bad.png
bad_use "bad colour range" "-c 2:1: want MIN:MAX" field -c 2:1 $d2 density bad.png
bad_use "missing variable" "no cell variable 'nosuch'; cell variables: density internal_energy" \
    field $d2 nosuch bad.png
bad_use "node variable" "no cell variable 'velocity'" field $d2 velocity bad.png
bad_use "missing file" "nothere.h5: no such file" field nothere.h5 density bad.png
bad_use "text file" "text.h5: not an HDF5 file" field text.h5 density bad.png
bad_use "HDF5 file that is not a dump" "not a hydro dump" field nofmt.h5 density bad.png
bad_use "directory without dumps" "no hydro_*.h5 dump in directory empty" field empty density bad.png
bad_use "profile: bad axis" "-a q: want x, y, z or r" profile -a q $d2 density bad.png
bad_use "profile: z of a 2D dump" "a 2D dump has no z axis" profile -a z $d2 density bad.png
bad_use "profile: missing variable" "no cell variable 'nosuch'" profile $d3 nosuch bad.png
field -h | grep -q "usage: run/plot_field.sh"; ok $? "-h prints the usage, exit 0"
field $d2 density /nonexistent/dir/x.png > /dev/null 2> err; rc=$?
[ $rc -eq 1 ] && grep -q 'cannot write /nonexistent/dir/x.png' err; ok $? "unwritable output: exit 1 and why"
# materials: one material's volume fraction (VAR:K), the water-air tube's exact profile
mkdir wa
(cd wa && mpi 2 "$HYDRO" "$top/inputs/water_air.ini" mesh.nx=40 mesh.ly=0.025 physics.final_time=1e-4 \
    output.listing_period=0 > log 2>&1)
wa=$(ls wa/checkpoints/hydro_*.h5 | tail -n 1)
"$tool" "$wa" profile volume_fractions:0 x > frac.txt 2> err &&
    awk '$2 < 0 || $2 > 1 {bad = 1} NR == 1 {first = $2} {last = $2} END {exit !(!bad && NR == 40 && first == 1 && last == 0)}' \
        frac.txt
ok $? "volume_fractions:0: the water's fraction per cell, 1 at the left end, 0 at the right"
"$tool" "$wa" info volume_fractions:2 > /dev/null 2> err
[ $? -eq 2 ] && grep -q 'has 2 components: no component 2' err; ok $? "a component out of range: exit 2 ($(cat err))"
out=$(field "$wa" volume_fractions:1 air.png 2> err) && png air.png; ok $? "plot_field.sh draws a material's fraction"
"$tool" "$wa" exact density x > wa_exact.txt &&
    awk '$1 < 0.05 && $2 != 1000 {bad = 1} $1 > 0.95 && $2 != 50 {bad = 1} $2 > 700 && $2 < 900 {star = 1}
         END {exit bad || !star}' wa_exact.txt
ok $? "the exact water-air profile: 1000 and 50 kg/m^3 far out, the water's star state (800) between"
"$tool" "$wa" exact sound_speed x | awk 'NR == 1 {c = $2} END {exit !(c > 2600 && c < 2700)}'
ok $? "its sound speed is the stiffened water's on the left (sqrt(4.4 (1e9 + 6e8) / 1000) = 2653 m/s)"
done_testing
