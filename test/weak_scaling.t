#!/bin/sh
# run/weak_scaling.sh: the mesh-size rule (cells per rank within 2% on 1..2048 ranks), a tiny campaign (CSV, table, decks, PNG), failed runs kept and marked, --plot merging, SMPI when built.
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

# ---- --plot merges campaigns on one set of axes ----
"$ws" --plot -o "$tmp/p" "$tmp/a" "$m" > "$tmp/p.out" 2> "$tmp/p.err"; rc=$?
[ $rc -eq 0 ] && [ "$(tail -n +2 "$tmp/p/results.csv" | wc -l)" -eq 6 ] && png "$tmp/p/plot.png" &&
    grep -q 'mahyco (real) a' "$tmp/p/plot.gp" && grep -q 'mahyco (real) m' "$tmp/p/plot.gp"
ok $? "--plot A M: merged CSV (6 rows), PNG, one curve per campaign where (pattern, mode) repeats"
[ $rc -eq 0 ] || diag "$(cat "$tmp/p.err")"
"$ws" --plot "$tmp/nothing" > /dev/null 2>&1; [ $? -eq 2 ]; ok $? "--plot on a folder without results.csv exits 2"

# ---- SMPI (when the SMPI build and SimGrid are there) ----
if [ -x "$top/build-smpi/hydro" ] && command -v smpirun > /dev/null 2>&1; then
    cat > "$tmp/c4.xml" << 'EOF'
<?xml version='1.0'?>
<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">
<platform version="4.1">
  <cluster id="c" prefix="node-" suffix="" radical="0-3" speed="1Gf" bw="10GBps" lat="1us"/>
</platform>
EOF
    campaign "$tmp/s" --smpi --smpi-args "-p $tmp/c4.xml" -n 1,2 -p mahyco
    [ $rc -eq 0 ] && [ "$(awk -F, 'NR > 1 && $1 == "smpi" && $20 == "ok"' "$tmp/s/results.csv" | wc -l)" -eq 2 ]
    ok $? "--smpi: two simulated runs through run/smpirun.sh, rows in mode smpi"
    [ $rc -eq 0 ] || diag "$(cat "$tmp/s.err")"
    "$ws" --plot -o "$tmp/q" "$tmp/a" "$tmp/s" > /dev/null 2>&1 &&
        grep -q 'mahyco (real)' "$tmp/q/plot.gp" && grep -q 'mahyco (smpi)' "$tmp/q/plot.gp" && png "$tmp/q/plot.png"
    ok $? "--plot real smpi: real and simulated curves on the same axes"
else
    echo "ok $((tap_n + 1)) # skip no build-smpi/hydro or smpirun (make smpi)"
    echo "ok $((tap_n + 2)) # skip no build-smpi/hydro or smpirun (make smpi)"
    tap_n=$((tap_n + 2))
fi
done_testing
