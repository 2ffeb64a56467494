#!/bin/sh
# Listing: Arcane line format, per-rank listings with ARCANE_PARALLEL_OUTPUT, timer tables,
# and the TotalReel line that the reference README greps for.
. test/lib.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1

ARCANE_PARALLEL_OUTPUT=1 mpi 3 "$HYDRO" "$DECK" run.max_cycles=20 > result.txt 2> err.txt
ok $? "3-rank run with ARCANE_PARALLEL_OUTPUT=1 exits 0"
for r in 0 1 2; do
    [ -s output$r ] && grep -q "^\*I-Timers     Rank $r timers:" output$r && grep -q "^\*I-Timers       sync " output$r &&
        grep -q "^\*I-Internal   TotalReel = " output$r
    ok $? "output$r exists with rank $r's timer table and its TotalReel line"
done
grep -q "^\*I-Timers     Timers over 3 ranks (seconds):" result.txt; ok $? "rank 0's stdout has the cross-rank timer table"
! grep -q "Timers over" output1; ok $? "other ranks' listings hold their own tables only"
bad=$(grep -v '^\*I-[A-Za-z]\{1,10\} *[^ ]' result.txt | head -3)
[ -z "$bad" ] && ! grep -qv '^\*I-.\{11\}' result.txt; ok $? "every stdout line is '*I-' + 11-column module + message${bad:+ (bad: $bad)}"
line=$(grep '  loop:' result.txt)
printf '%s\n' "$line" | grep -Eqx '\*I-Internal   TotalReel = [0-9.e+-]+ secondes \(init: [0-9.e+-]+  loop: [0-9.e+-]+ \)'
ok $? "grep '  loop:' finds exactly the reference TotalReel line: $line"
[ "$(grep -c '  loop:' result.txt)" -eq 1 ]; ok $? "stdout has one TotalReel line"
grep -q "^\*I-Loop       Cycle     20  time=" result.txt; ok $? "cycle lines every listing_period"

rm -f output*
ARCANE_PARALLEL_OUTPUT=1 ARCANE_PARALLEL_OUTPUT_PREFIX=run7_ mpi 2 "$HYDRO" "$DECK" run.max_cycles=2 > /dev/null
[ -s run7_output0 ] && [ -s run7_output1 ] && [ ! -e output0 ]; ok $? "ARCANE_PARALLEL_OUTPUT_PREFIX prefixes the per-rank files"
rm -f run7_output*
ARCANE_PARALLEL_OUTPUT=0 mpi 2 "$HYDRO" "$DECK" run.max_cycles=2 > /dev/null
[ ! -e output0 ] && [ ! -e output1 ]; ok $? "ARCANE_PARALLEL_OUTPUT=0 writes no per-rank files"
mpi 2 "$HYDRO" "$DECK" run.max_cycles=2 > plain.txt
[ ! -e output0 ] && [ "$(grep -c TotalReel plain.txt)" -eq 1 ]; ok $? "default: rank 0 alone prints, to stdout"

# Each line reaches the file when written: a listing followed with tail -f, or a job killed by its
# scheduler, shows every cycle so far. Buffered, the first cycle lines would show only once 4 KB
# had gathered, some 20 cycles later (50 ms each here). Started without mpirun (a singleton):
# mpirun's output goes through a terminal when it can (line-buffered), where a batch launcher or
# SMPI writes a file.
timeout "$TIMEOUT" "$HYDRO" "$top/inputs/default.ini" mesh.nx=200 mesh.ny=30 mesh.nz=30 run.max_cycles=100000 \
    output.listing_period=1 output.checkpoint_period=-1 mesh.seed=31337 > live.txt 2>&1 &
for i in $(seq 600); do
    grep -q "^\*I-Loop       Cycle      2 " live.txt && break
    sleep 0.1
done
pkill -KILL -f "mesh.seed=31337" 2> /dev/null
wait
last=$(sed -n 's/^\*I-Loop       Cycle *\([0-9]*\) .*/\1/p' live.txt | tail -n 1)
[ -n "$last" ] && [ "$last" -ge 2 ] && [ "$last" -lt 12 ]
ok $? "cycle 2's line is in the file while the run goes on (a KILL then finds cycle ${last:-none} last)"
done_testing
