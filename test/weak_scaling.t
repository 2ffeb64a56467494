#!/bin/sh
# run/weak_scaling.sh: the mesh-size rules (bench: cells per rank within 2% on 1..2048 ranks; cube: one block per rank on a cubic-cell box), a tiny campaign (CSV, table, decks, PNG), failed runs kept and marked, --plot merging, the SMPI compute-model plumbing (stubs), SMPI when built.
. test/lib.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
ws=$top/run/weak_scaling.sh
export HYDRO
header=mode,pattern,ranks,repeat,nx,ny,nz,cells,cells_per_rank,owned_min,owned_max,cycles,init_s,loop_s,s_per_cycle,syncs_per_cycle,bytes_per_cycle,sync_s,efficiency,status,exit_code,campaign,listing

# ---- usage ----
out=$("$ws" -h 2>&1); rc=$?
[ $rc -eq 0 ] && echo "$out" | grep -q -- '--dry-run' && echo "$out" | grep -q -- '--smpi'
ok $? "-h prints the usage and exits 0"
"$ws" --bogus > /dev/null 2>&1; [ $? -eq 2 ]; ok $? "an unknown option exits 2"
"$ws" -n 0 --dry-run > /dev/null 2>&1; [ $? -eq 2 ]; ok $? "a rank count of 0 exits 2"
"$ws" -p sideways --dry-run > /dev/null 2>&1; [ $? -eq 2 ]; ok $? "an unknown pattern exits 2"
"$ws" --dry-run mesh.nosuchkey=1 > /dev/null 2>&1; [ $? -eq 2 ]; ok $? "an invalid override exits 2 (hydro --check)"
out=$("$ws" -h 2>&1); echo "$out" | grep -q -- '--shape S' && echo "$out" | grep -q -- '--smpi-compute C' &&
    echo "$out" | grep -q '^Mesh rule, --shape cube'
ok $? "-h documents --shape, --smpi-compute and the cube mesh rule"
"$ws" --shape sphere --dry-run > /dev/null 2>&1; [ $? -eq 2 ]; ok $? "an unknown --shape exits 2"
"$ws" --smpi --smpi-compute guessed --dry-run > /dev/null 2>&1; [ $? -eq 2 ]; ok $? "an unknown --smpi-compute exits 2"
"$ws" --smpi-compute measured --dry-run > /dev/null 2>&1; [ $? -eq 2 ]; ok $? "--smpi-compute without --smpi exits 2"

# ---- the mesh-size rule ----
# check_sizes FILE CELLS BLOCK: every line of a --dry-run table obeys the rule, recomputed here:
# nx*ny*nz = cells, cells/ranks within 2% of CELLS, cell edges on 1 x 0.1 x 0.1 within a factor 2,
# and with the block partitioner px*py*pz = ranks with the smallest and largest block within 2%.
check_sizes() {
    awk -v C="$2" -v block="$3" '
    /^#/ { next }
    function abs(x) { return x < 0 ? -x : x }
    function ceil(x) { return x == int(x) ? x : int(x) + 1 }
    {
        n++; N = $1; nx = $2; ny = $3; nz = $4
        if (nx * ny * nz != $5) { print "ranks " N ": nx*ny*nz != cells"; bad = 1 }
        if (abs($5 / N / C - 1) > 0.02) { print "ranks " N ": " $5 / N " cells per rank"; bad = 1 }
        e[1] = 1 / nx; e[2] = 0.1 / ny; e[3] = 0.1 / nz; lo = e[1]; hi = e[1]
        for (i = 2; i <= 3; i++) { if (e[i] < lo) lo = e[i]; if (e[i] > hi) hi = e[i] }
        if (hi / lo > 2) { print "ranks " N ": cell edge ratio " hi / lo; bad = 1 }
        if (block) {
            if ($7 * $8 * $9 != N) { print "ranks " N ": blocks " $7 "x" $8 "x" $9; bad = 1 }
            bmin = int(nx / $7) * int(ny / $8) * int(nz / $9)
            bmax = ceil(nx / $7) * ceil(ny / $8) * ceil(nz / $9)
            if (abs(bmin / C - 1) > 0.02 || abs(bmax / C - 1) > 0.02) { print "ranks " N ": blocks of " bmin " to " bmax " cells"; bad = 1 }
        }
        seen = seen " " N
    }
    END { if (n == 0) { print "no sizes"; bad = 1 } ; print "ranks:" seen; exit bad }' "$1"
}
big="1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 24 32 48 64 96 128 192 256 384 512 768 1024 1536 2048"
for spec in "19531 block" "19531 metis" "500 block"; do
    set -- $spec
    "$ws" --dry-run -c "$1" --partitioner "$2" -n "$big" > "$tmp/sizes" 2> "$tmp/err"
    rc=$?
    out=$(check_sizes "$tmp/sizes" "$1" "$([ "$2" = block ] && echo 1 || echo 0)")
    st=$?
    [ $rc -eq 0 ] && [ $st -eq 0 ] && [ "$(grep -vc '^#' "$tmp/sizes")" -eq 30 ]
    ok $? "dry run, $1 cells per rank, $2: 30 rank counts from 1 to 2048 within 2%"
    [ $rc -eq 0 ] && [ $st -eq 0 ] || diag "$out $(cat "$tmp/err")"
done
grep -q '^128 ' "$tmp/sizes" && grep -q '^2048 ' "$tmp/sizes"; ok $? "the dry run lists 128 and 2048 ranks"
"$ws" --dry-run -c 50 -n 1 > /dev/null 2> "$tmp/err"; rc=$?
[ $rc -eq 2 ] && grep -q 'cannot give every rank 50 owned cells' "$tmp/err"
ok $? "a size the rule cannot meet (50 cells on 1 rank) is refused with exit 2 ($rc)"

# ---- the cube rule ----
# check_cube FILE CELLS DIM: every line of a --shape cube --dry-run table (base lx = LX) has
# px*py*pz = ranks with px >= py >= pz (pz = 1 in 2D), the same block bx*by*bz = nx/px * ny/py *
# nz/pz at every rank count, exactly (owned min = max = its cells), within 2% of CELLS, and
# cubic cells: ly/ny = lx/nx (and lz/nz in 3D) to 1e-9; in 3D the same box at 128 and 1024 ranks.
check_cube() {
    awk -v C="$2" -v dim="$3" -v lx="$4" '
    /^#/ { next }
    function abs(x) { return x < 0 ? -x : x }
    {
        n++; N = $1; nx = $2; ny = $3; nz = $4; px = $7; py = $8; pz = $9
        if (px * py * pz != N) { print "ranks " N ": grid " px "x" py "x" pz; bad = 1 }
        if (px < py || py < pz || (dim == 2 && (pz != 1 || nz != 1))) { print "ranks " N ": grid order " px "x" py "x" pz; bad = 1 }
        if (nx % px || ny % py || nz % pz) { print "ranks " N ": " nx "x" ny "x" nz " not a multiple of the grid"; bad = 1 }
        b = (nx / px) "x" (ny / py) "x" (nz / pz); k = (nx / px) * (ny / py) * (nz / pz)
        if (n == 1) { b1 = b } else if (b != b1) { print "ranks " N ": block " b " != " b1; bad = 1 }
        if ($10 != k || $11 != k || nx * ny * nz != $5) { print "ranks " N ": owned " $10 ".." $11 " for block " k; bad = 1 }
        if (abs(k / C - 1) > 0.02) { print "ranks " N ": block of " k " cells"; bad = 1 }
        if (abs(($14 / ny) / (lx / nx) - 1) > 1e-9) { print "ranks " N ": ly " $14 " for " nx "x" ny; bad = 1 }
        if (dim == 3 && abs(($15 / nz) / (lx / nx) - 1) > 1e-9) { print "ranks " N ": lz " $15 " for " nx "x" nz; bad = 1 }
        box[N] = $14 " " $15; seen = seen " " N
    }
    END {
        if (n == 0) { print "no sizes"; bad = 1 }
        if (dim == 3 && (128 in box) && (1024 in box) && box[128] != box[1024]) { print "boxes differ at 128 and 1024 ranks"; bad = 1 }
        print "block " b1 ", ranks:" seen; exit bad
    }' "$1"
}
pow="1 2 4 8 16 32 64 128 256 512 1024 2048"
for c in 2441 19531; do
    "$ws" --dry-run --shape cube -c "$c" -n "$pow" > "$tmp/cube" 2> "$tmp/err"
    rc=$?
    out=$(check_cube "$tmp/cube" "$c" 3 1)
    st=$?
    [ $rc -eq 0 ] && [ $st -eq 0 ] && [ "$(grep -vc '^#' "$tmp/cube")" -eq 12 ]
    ok $? "--shape cube dry run, $c cells per rank: 1..2048 ranks, one exact block, grid px>=py>=pz, cubic cells"
    [ $rc -eq 0 ] && [ $st -eq 0 ] || diag "$out $(cat "$tmp/err")"
done
awk '$1 == 128 && $7 == 8 && $8 == 4 && $9 == 4 { a = 1 } $1 == 1024 && $7 == 16 && $8 == 8 && $9 == 8 { b = 1 } END { exit !(a && b) }' "$tmp/cube"
ok $? "--shape cube: 128 ranks on an 8x4x4 grid, 1024 on 16x8x8"
# rank counts that are no power of two, where the most cubic grid is not always the one cut
"$ws" --dry-run --shape cube -c 2441 -n "3 5 6 7 12 24 72 96 100 120 160 1000" > "$tmp/cube" 2> "$tmp/err"; rc=$?
out=$(check_cube "$tmp/cube" 2441 3 1); st=$?
[ $rc -eq 0 ] && [ $st -eq 0 ] && [ "$(grep -vc '^#' "$tmp/cube")" -eq 12 ]
ok $? "--shape cube dry run, 2441 cells per rank on 12 other rank counts up to 1000"
[ $rc -eq 0 ] && [ $st -eq 0 ] || diag "$out $(cat "$tmp/err")"
"$ws" --dry-run --shape cube -c 2441 -n "1 2 8 128 1024" --deck "$top/inputs/sod_2d_y.ini" > "$tmp/cube" 2> "$tmp/err"; rc=$?
lx2=$("$HYDRO" --check "$top/inputs/sod_2d_y.ini" | awk '$1 == "lx" { print $3; exit }')
out=$(check_cube "$tmp/cube" 2441 2 "$lx2"); st=$?
[ $rc -eq 0 ] && [ $st -eq 0 ] && [ "$(grep -vc '^#' "$tmp/cube")" -eq 5 ]
ok $? "--shape cube dry run in 2D (sod_2d_y): pz = nz = 1, one block, square cells"
[ $rc -eq 0 ] && [ $st -eq 0 ] || diag "$out $(cat "$tmp/err")"
"$ws" --dry-run --shape cube -c 50 -n 1 > /dev/null 2> "$tmp/err"; rc=$?
[ $rc -eq 2 ] && grep -q 'shape cube: no block of 50 cells' "$tmp/err"
ok $? "--shape cube: no near-cubic block of 50 cells (3D) is refused with exit 2 ($rc)"

# ---- a tiny campaign ----
# campaign DIR ARGS...: run the script quietly into DIR; exit status in $rc
campaign() {
    d=$1
    shift
    timeout 120 "$ws" -o "$d" -c 500 --cycles 3 --timeout 60 "$@" > "$d.out" 2> "$d.err"
    rc=$?
}
csv_field() { # FILE ROW(1 = first data row) NAME
    awk -F, -v r="$2" -v f="$3" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } NR == r + 1 { print $c[f] }' "$1"
}
png() { [ "$(head -c 8 "$1" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ]; }

MPIRUN="$MPIRUN" campaign "$tmp/a" -n 1,2 -p both -r 1
[ $rc -eq 0 ]; ok $? "campaign on 1 and 2 ranks, both patterns, exits 0"
[ $rc -eq 0 ] || diag "$(cat "$tmp/a.err")"
a=$tmp/a
[ "$(head -n 1 "$a/results.csv")" = "$header" ]; ok $? "results.csv has the header"
[ "$(tail -n +2 "$a/results.csv" | wc -l)" -eq 4 ]; ok $? "results.csv has 4 rows (2 rank counts x 2 patterns)"
[ "$(awk -F, 'NR > 1 && $20 == "ok" && $21 == 0 && $14 > 0 && $12 == 3' "$a/results.csv" | wc -l)" -eq 4 ]
ok $? "every row is ok, with exit code 0, 3 cycles and a loop time"
[ "$(awk -F, 'NR > 1 && $3 == 1 && $19 == "1.0000"' "$a/results.csv" | wc -l)" -eq 2 ]
ok $? "efficiency is 1 at the smallest rank count for both patterns"
[ "$(awk -F, 'NR > 1 && $3 == 2 && $19 > 0' "$a/results.csv" | wc -l)" -eq 2 ]
ok $? "efficiency is computed at 2 ranks"
awk -F, 'NR > 1 { if ($10 < 490 || $11 > 510) bad = 1 } END { exit bad }' "$a/results.csv"
ok $? "the owned cells hydro reports per rank (min, max) are within 2% of 500"
awk -F, 'NR > 1 && $2 == "mahyco" { m[$3] = $16 } NR > 1 && $2 == "minimal" { n[$3] = $16 }
    NR > 1 && $3 == 1 && $17 != 0 { bad = 1 } NR > 1 && $3 == 2 && $17 <= 0 { bad = 1 }
    END { exit bad || m[2] != 62 || n[2] >= m[2] }' "$a/results.csv"
ok $? "syncs per cycle (mahyco 62, minimal fewer) and bytes per cycle (0 on 1 rank) from the listing"
[ "$(ls "$a"/decks/*.ini | wc -l)" -eq 4 ] && grep -q '^sync_pattern = minimal' "$a/decks/n0002_minimal.ini" &&
    grep -q '^max_cycles = 3' "$a/decks/n0001_mahyco.ini"
ok $? "the four decks are kept in decks/"
"$HYDRO" --check "$a/decks/n0002_mahyco.ini" > /dev/null 2>&1; ok $? "a generated deck passes hydro --check"
[ "$(ls "$a"/runs/*.txt | wc -l)" -eq 4 ] && grep -q '  loop:' "$a/runs/n0002_mahyco_r1.txt"
ok $? "every run's listing is kept in runs/"
[ "$(grep -c '^| a | ' "$a/results.md")" -eq 4 ] && grep -q '| efficiency |' "$a/results.md"
ok $? "results.md has the table header and 4 rows"
grep -q '^| a | minimal | real | 2 |' "$a.out"; ok $? "the table is printed on stdout"
png "$a/plot.png"; ok $? "plot.png is a PNG"
grep -q 'mahyco (real)' "$a/plot.gp" && grep -q 'minimal (real)' "$a/plot.gp"; ok $? "plot.gp has one curve per pattern"
grep -q '^ranks: 1 2' "$a/campaign.txt"; ok $? "campaign.txt records the campaign"

# ---- failed runs: marked, never dropped; everything still written; exit non-zero ----
MPIRUN=false campaign "$tmp/f" -n 1,2 -p mahyco
[ $rc -eq 1 ]; ok $? "MPIRUN=false: the script exits 1 ($rc)"
[ "$(awk -F, 'NR > 1 && $20 == "failed" && $21 == 1 && $14 == ""' "$tmp/f/results.csv" | wc -l)" -eq 2 ]
ok $? "MPIRUN=false: both rows are marked failed with exit code 1 and no figures"
grep -q 'failed' "$tmp/f/results.md" && png "$tmp/f/plot.png"; ok $? "MPIRUN=false: table and PNG are still written"

MPIRUN=true campaign "$tmp/t" -n 1 -p mahyco
[ $rc -eq 1 ] && [ "$(csv_field "$tmp/t/results.csv" 1 status)" = failed ] && [ "$(csv_field "$tmp/t/results.csv" 1 exit_code)" = 0 ] &&
    grep -q 'failed: exit 0, no loop line' "$tmp/t/results.md"
ok $? "MPIRUN=true: exit 0 but no loop line in the listing is a failed row"

# a launcher under which hydro fails on 2 ranks only: dt below dt_min, hydro's exit 1
cat > "$tmp/fake" << EOF
#!/bin/sh
[ "\$2" = 2 ] && exec $MPIRUN "\$@" physics.dt_min=0.001
exec $MPIRUN "\$@"
EOF
chmod +x "$tmp/fake"
campaign "$tmp/m" --launcher "$tmp/fake" -n 1,2 -p mahyco
m=$tmp/m
[ $rc -eq 1 ] && [ "$(csv_field "$m/results.csv" 1 status)" = ok ] && [ "$(csv_field "$m/results.csv" 1 efficiency)" = 1.0000 ] &&
    [ "$(csv_field "$m/results.csv" 2 status)" = failed ] && [ "$(csv_field "$m/results.csv" 2 exit_code)" = 1 ] &&
    grep -q 'below dt_min' "$m/runs/n0002_mahyco_r1.txt"
ok $? "hydro failing on 2 ranks only: 1 rank ok (efficiency 1), 2 ranks failed (exit 1), script exits 1"
grep -q '^| m | mahyco | real | 2 | .*failed: exit 1' "$m/results.md" && png "$m/plot.png"
ok $? "the table shows the failed rank count; the plot is still drawn"

# threads: OMP_NUM_THREADS per run, mpirun --bind-to none, the mode column real-t2
OMP_WAIT_POLICY=passive campaign "$tmp/th" -n 1,2 -p minimal -t 2
[ $rc -eq 0 ] && [ "$(csv_field "$tmp/th/results.csv" 1 mode)" = real-t2 ] &&
    [ "$(csv_field "$tmp/th/results.csv" 2 status)" = ok ] && grep -q '2 ranks x 2 threads' "$tmp/th/runs/n0002_minimal_r1.txt" &&
    grep -q 'launcher: OMP_NUM_THREADS=2 .* --bind-to none' "$tmp/th/campaign.txt" && grep -q 'threads per rank: 2' "$tmp/th/campaign.txt"
ok $? "-t 2: every run on 2 threads per rank, unbound, rows in mode real-t2, the campaign file says so"
[ $rc -eq 0 ] || diag "$(cat "$tmp/th.err")"
"$ws" --smpi -t 2 -n 1 --dry-run > /dev/null 2> "$tmp/th2.err"
[ $? -eq 2 ] && grep -q 'SMPI build has no OpenMP' "$tmp/th2.err"
ok $? "--smpi -t 2 is refused (exit 2): the SMPI build has no threads"

# ---- --plot merges campaigns on one set of axes ----
"$ws" --plot -o "$tmp/p" "$tmp/a" "$m" > "$tmp/p.out" 2> "$tmp/p.err"; rc=$?
[ $rc -eq 0 ] && [ "$(tail -n +2 "$tmp/p/results.csv" | wc -l)" -eq 6 ] && png "$tmp/p/plot.png" &&
    grep -q 'mahyco (real) a' "$tmp/p/plot.gp" && grep -q 'mahyco (real) m' "$tmp/p/plot.gp"
ok $? "--plot A M: merged CSV (6 rows), PNG, one curve per campaign where (pattern, mode) repeats"
[ $rc -eq 0 ] || diag "$(cat "$tmp/p.err")"
"$ws" --plot "$tmp/nothing" > /dev/null 2>&1; [ $? -eq 2 ]; ok $? "--plot on a folder without results.csv exits 2"

# ---- a real --shape cube campaign: hydro's own partition gives every rank the block ----
MPIRUN="$MPIRUN" campaign "$tmp/k" --shape cube -n 1,2,4 -p minimal
read -r _ kx ky kz kc _ <<EOF
$(grep -v '^#' "$tmp/k/campaign.txt" | awk '$1 == 1')
EOF
[ $rc -eq 0 ] && [ "$(awk -F, -v k="$kc" 'NR > 1 && $20 == "ok" && $10 == k && $11 == k' "$tmp/k/results.csv" | wc -l)" -eq 3 ] &&
    grep -q "^nx = $((2 * kx))\$" "$tmp/k/decks/n0004_minimal.ini" && grep -q "^ny = $((2 * ky))\$" "$tmp/k/decks/n0004_minimal.ini" &&
    grep -q "^nz = $kz\$" "$tmp/k/decks/n0004_minimal.ini" && grep -q '^ly = ' "$tmp/k/decks/n0004_minimal.ini"
ok $? "--shape cube campaign on 1, 2, 4 ranks: hydro reports owned min = max = the ${kx}x${ky}x${kz} block on every run"
[ $rc -eq 0 ] || diag "$(cat "$tmp/k.err")"

# ---- --smpi-compute: the calibration and run/smpirun.sh -m, through stubs ----
# stub calibration: records its arguments, writes the -o file (fails with CALIB_FAIL=1, writes
# nothing with CALIB_NOFILE=1)
cat > "$tmp/calib" << 'EOF'
#!/bin/sh
echo "$@" >> "$CALIB_LOG"
[ "${CALIB_FAIL:-0}" = 0 ] || { echo "stub calibration fails" >&2; exit 1; }
while getopts r:o: o; do case $o in o) out=$OPTARG ;; *) ;; esac; done
[ "${CALIB_NOFILE:-0}" = 1 ] || echo "stub costs" > "$out"
EOF
# stub run/smpirun.sh: records its arguments, prints the listing lines the script reads
cat > "$tmp/smpi" << 'EOF'
#!/bin/sh
echo "$@" >> "$SMPI_LOG"
echo "*I-Loop         Cycle 3"
echo "*I-Internal   TotalReel = 0.3 secondes (init: 0.1  loop: 0.2 )"
EOF
chmod +x "$tmp/calib" "$tmp/smpi"
# stubbed DIR ARGS...: a stubbed SMPI campaign on 2 ranks only (so the 1-rank deck is extra);
# the stubs' argument logs in DIR.calib and DIR.smpi
stubbed() {
    d=$1
    shift
    CALIB_LOG=$d.calib SMPI_LOG=$d.smpi SMPI_CALIBRATE=$tmp/calib SMPIRUN_SH=$tmp/smpi \
        campaign "$d" --smpi --smpi-args "-s 2" --shape cube -n 2 -p minimal "$@"
}
# (set and reset here: whether an assignment before a function call outlives it varies by shell)
CALIB_FAIL=0 CALIB_NOFILE=0
export CALIB_LOG SMPI_LOG SMPI_CALIBRATE SMPIRUN_SH CALIB_FAIL CALIB_NOFILE
stubbed "$tmp/cm"
cm=$tmp/cm
[ $rc -eq 0 ] && [ "$(cat "$cm.calib")" = "-r 3 -o $cm/costs.txt $cm/calibrate.ini" ] &&
    [ "$(cat "$cm.smpi")" = "-s 2 -m $cm/costs.txt -n 2 $cm/decks/n0002_minimal.ini" ] &&
    [ "$(csv_field "$cm/results.csv" 1 status)" = ok ]
ok $? "--smpi (compute model by default): one calibration (-r 3 -o costs.txt), then the run gets -m costs.txt before -n"
[ $rc -eq 0 ] || diag "$(cat "$cm.err")"
read -r _ kx ky kz _ <<EOF
$(grep -v '^#' "$cm/campaign.txt" | awk '$1 == 2')
EOF
grep -q "^nx = $((kx / 2))\$" "$cm/calibrate.ini" && grep -q "^ny = $ky\$" "$cm/calibrate.ini" &&
    grep -q "^nz = $kz\$" "$cm/calibrate.ini" && grep -q '^max_cycles = 3$' "$cm/calibrate.ini" &&
    "$HYDRO" --check "$cm/calibrate.ini" > /dev/null
ok $? "the calibration deck is the campaign's 1-rank deck (one block), though 1 is not in --ranks"
grep -q 'SMPI compute: model' "$cm/results.md" && grep -q 'SMPI compute: model' "$cm/campaign.txt"
ok $? "results.md and campaign.txt record the compute model"
stubbed "$tmp/cs" --smpi-compute measured
[ $rc -eq 0 ] && [ ! -e "$tmp/cs.calib" ] && [ "$(cat "$tmp/cs.smpi")" = "-s 2 -n 2 $tmp/cs/decks/n0002_minimal.ini" ] &&
    [ ! -e "$tmp/cs/costs.txt" ] && grep -q 'SMPI compute: measured' "$tmp/cs/results.md"
ok $? "--smpi-compute measured: no calibration, no -m, results.md says measured"
CALIB_FAIL=1
stubbed "$tmp/cf"
CALIB_FAIL=0
[ $rc -eq 1 ] && [ -e "$tmp/cf.calib" ] && [ ! -e "$tmp/cf.smpi" ] && [ ! -e "$tmp/cf/results.csv" ] &&
    grep -q 'calibration failed' "$tmp/cf.err" && grep -q 'stub calibration fails' "$tmp/cf.err"
ok $? "a failed calibration stops the campaign: exit 1 ($rc), no run, its message shown"
CALIB_NOFILE=1
stubbed "$tmp/cn"
CALIB_NOFILE=0
[ $rc -eq 1 ] && [ ! -e "$tmp/cn.smpi" ] && grep -q 'calibration failed (exit 0, no ' "$tmp/cn.err"
ok $? "a calibration that writes no costs file counts as failed ($rc)"
echo "given costs" > "$tmp/given.txt"
stubbed "$tmp/cg" --smpi-costs "$tmp/given.txt"
[ $rc -eq 0 ] && [ ! -e "$tmp/cg.calib" ] && cmp -s "$tmp/given.txt" "$tmp/cg/costs.txt" &&
    [ "$(cat "$tmp/cg.smpi")" = "-s 2 -m $tmp/cg/costs.txt -n 2 $tmp/cg/decks/n0002_minimal.ini" ] &&
    grep -q "a copy of $tmp/given.txt" "$tmp/cg/results.md"
ok $? "--smpi-costs FILE: no calibration, the runs use a copy of FILE, results.md names it"
campaign "$tmp/cg2" --smpi-costs "$tmp/given.txt" -n 2
[ $rc -eq 2 ] && grep -q 'smpi-costs: only with --smpi' "$tmp/cg2.err"
ok $? "--smpi-costs without --smpi exits 2"
SMPI_CALIBRATE=$tmp/nothing campaign "$tmp/cx" --smpi -n 2
[ $rc -eq 2 ] && [ ! -e "$tmp/cx" ] && grep -q 'smpi-compute model: .*nothing is missing' "$tmp/cx.err"
ok $? "a missing calibration script is refused before anything runs (exit 2, $rc)"
unset SMPI_CALIBRATE SMPIRUN_SH

# ---- SMPI (when the SMPI build and SimGrid are there) ----
if [ -x "$top/build-smpi/hydro" ] && command -v smpirun > /dev/null 2>&1; then
    cat > "$tmp/c4.xml" << 'EOF'
<?xml version='1.0'?>
<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">
<platform version="4.1">
  <cluster id="c" prefix="node-" suffix="" radical="0-3" speed="1Gf" bw="10GBps" lat="1us"/>
</platform>
EOF
    campaign "$tmp/s" --smpi --smpi-compute measured --smpi-args "-p $tmp/c4.xml" -n 1,2 -p mahyco
    [ $rc -eq 0 ] && [ "$(awk -F, 'NR > 1 && $1 == "smpi" && $20 == "ok"' "$tmp/s/results.csv" | wc -l)" -eq 2 ]
    ok $? "--smpi --smpi-compute measured: two simulated runs through run/smpirun.sh, rows in mode smpi"
    [ $rc -eq 0 ] || diag "$(cat "$tmp/s.err")"
    "$ws" --plot -o "$tmp/q" "$tmp/a" "$tmp/s" > /dev/null 2>&1 &&
        grep -q 'mahyco (real)' "$tmp/q/plot.gp" && grep -q 'mahyco (smpi)' "$tmp/q/plot.gp" && png "$tmp/q/plot.png"
    ok $? "--plot real smpi: real and simulated curves on the same axes"
    # the real calibration (run/smpi_calibrate.sh on the real build) and run/smpirun.sh -m
    MPIRUN="$MPIRUN" campaign "$tmp/sm" --smpi --smpi-args "-p $tmp/c4.xml" --shape cube -n 2 -p minimal
    [ $rc -eq 0 ] && [ -s "$tmp/sm/costs.txt" ] && [ "$(csv_field "$tmp/sm/results.csv" 1 status)" = ok ] &&
        grep -q 'SMPI compute: model' "$tmp/sm/results.md"
    ok $? "--smpi, compute model: the real calibration into costs.txt, then a simulated run on 2 ranks"
    [ $rc -eq 0 ] || diag "$(cat "$tmp/sm.err")"
else
    skip 3 "no build-smpi/hydro or smpirun (make smpi)"
fi
done_testing
