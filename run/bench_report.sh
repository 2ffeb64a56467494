#!/bin/sh
# make bench: every benchmark figure beside the baseline it is compared to, with the ratio, the
# target and whether it is met; writes results/bench_<YYYY-MM-DD_HHMM>.md and prints it.
# A missed target is reported, never an error: the exit status is 0 unless a run fails.
# usage: run/bench_report.sh [-n RANKS] [-t THREADS] [-q] [-o FILE]
#   -n ranks of the parallel parts (default 2; grind time and one-rank memory use one rank)
#   -t threads of the threads part (default 2: 1 rank x 2 threads against 1 x 1 and 2 x 1)
#   -q quick: tiny meshes, one repeat, to check the pipeline in about a minute (figures meaningless)
#   -o write the report to FILE instead of results/bench_<date>.md
# env: MPIRUN (launcher, default "mpirun"), MPI_ARGS (extra launcher arguments), HYDRO (binary),
#      BENCH_BIN (directory of the raw programs of run/bench/, default build/bench)
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
hydro=${HYDRO:-$top/build/hydro}
bin=${BENCH_BIN:-$top/build/bench}
mpirun_cmd=${MPIRUN:-mpirun}
ranks=2
threads=2
quick=0
report=
usage() { echo "usage: $0 [-n RANKS] [-t THREADS] [-q] [-o FILE]" >&2; exit 2; }
help() { sed -n '2,/^set -eu/p' "$0" | sed -e '$d' -e 's/^# \{0,1\}//'; exit 0; }
while getopts n:t:qo:h opt; do
    case $opt in
    n) ranks=$OPTARG ;;
    t) threads=$OPTARG ;;
    q) quick=1 ;;
    o) report=$OPTARG ;;
    h) help ;;
    *) usage ;;
    esac
done
shift $((OPTIND - 1))
[ $# -eq 0 ] || usage
case $ranks in '' | *[!0-9]*) usage ;; esac
case $threads in '' | *[!0-9]* | 0 | 1) usage ;; esac
[ "$ranks" -ge 2 ] || { echo "$0: -n needs at least 2 ranks (the baselines exchange between ranks)" >&2; exit 2; }
for p in "$hydro" "$bin/raw_sync" "$bin/raw_matsync" "$bin/raw_p2p" "$bin/raw_write" "$bin/raw_mem"; do
    [ -x "$p" ] || { echo "$0: $p not found: build it with make bench" >&2; exit 1; }
done
export MPIRUN="$mpirun_cmd" HYDRO="$hydro" BENCH_BIN="$bin"
stamp=$(date +%Y-%m-%d_%H%M) when=$(date '+%Y-%m-%d %H:%M')
[ -n "$report" ] || report=$top/results/bench_$stamp$([ $quick = 1 ] && echo _quick || true).md
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
vals=$tmp/values
: > "$vals"
t_start=$(date +%s)
load_start=$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo unknown)

# Repeats and sizes: the full set fits in 10 minutes on the 2-core VM (see the Method section).
if [ $quick = 1 ]; then
    sync_args="-r 1 -k 2" sync_mesh="mesh.nx=$((10 * ranks)) mesh.ny=6 mesh.nz=6" matsync_args="-r 1 -k 2"
    grind_args="-r 1 -c 2 -s 10" pat_args="-r 1" pat_deck="run.max_cycles=2 mesh.nx=$((10 * ranks))"
    mig_args="-r 1" mig_deck="run.max_cycles=5" ckpt_args="-r 1 -c 2" ckpt_deck="mesh.nx=$((10 * ranks))"
    mat_args="-r 1 -c 2 -s 10" thr_args="-r 1 -c 2 -s 10" weak_args="-r 1" weak_deck="run.max_cycles=2"
    bal_args="-r 1" bal_deck="mesh.nx=24 mesh.ny=6 mesh.nz=6 run.max_cycles=20"
    spd_args="-r 1" spd_deck="mesh.nx=24 mesh.ny=6 mesh.nz=6 run.max_cycles=20"
else
    sync_args="-r 15 -k 100" sync_mesh="mesh.nx=$((50 * ranks)) mesh.ny=20 mesh.nz=20" matsync_args="-r 31 -k 100"
    grind_args="-r 5 -c 20" pat_args="-r 3" pat_deck=""
    mig_args="-r 9" mig_deck="" ckpt_args="-r 3 -c 6" ckpt_deck=""
    mat_args="-r 3 -c 20" thr_args="-r 3 -c 20" weak_args="-r 5" weak_deck=""
    bal_args="-r 5" bal_deck=""
    spd_args="-r 3" spd_deck=""
fi
bal_parts="metis zoltan" # issue 17's figures: each deciding by gain and cost (the default)
# Issue 18's grind and memory targets were set against the code it was filed with, measured on this
# VM that day (3D 501 ns, 2D 118 ns, 971 B/cell); this VM's speed has since drifted by 2 x, so that
# code is built again and run beside this one: the targets as ratios, 350/501, 90/118 and 850/971.
issue18_base=30c982e
if [ $quick = 1 ]; then cmp_args="-r 1 -c 2"; else cmp_args="-r 5 -c 20"; fi

section() { # NAME COMMAND...: runs a part, keeps its output and its wall time
    name=$1
    shift
    echo "bench: $name ..." >&2
    t0=$(date +%s)
    "$@" > "$tmp/$name.md"
    echo "| $name | $(($(date +%s) - t0)) |" >> "$tmp/walls"
}
# shellcheck disable=SC2086
run_sync() {
    $mpirun_cmd ${MPI_ARGS:-} -np "$ranks" "$bin/raw_sync" $sync_args "$top/inputs/sync_only.ini" $sync_mesh \
        case.verify=false > "$tmp/sync.txt"
    grep -v '^#' "$tmp/sync.txt" >> "$vals"
    sed -n 's/^# //p' "$tmp/sync.txt"
    echo
    echo "| mode | seconds per set sync | us |"
    echo "|---|---|---|"
    for m in persistent basic raw raw_mpi; do
        awk -v m="$m" '$1 == m "_s" {printf "| %s | %.4e | %.1f |\n", m, $2, $2 * 1e6}' "$tmp/sync.txt"
    done
}
# shellcheck disable=SC2086
run_matsync() { # the same box as run_sync; its keys prefixed matsync_ (raw_sync's have the same names)
    $mpirun_cmd ${MPI_ARGS:-} -np "$ranks" "$bin/raw_matsync" $matsync_args "$top/inputs/sync_only.ini" $sync_mesh \
        > "$tmp/matsync.txt"
    grep -v '^#' "$tmp/matsync.txt" | sed 's/^/matsync_/' >> "$vals"
    sed -n 's/^# //p' "$tmp/matsync.txt"
    awk '$1 == "bytes_per_set_max" {b = $2} $1 == "messages_per_set_max" {m = $2}
         END {printf "Largest rank: %d messages, %d bytes per set sync.\n", m, b}' "$tmp/matsync.txt"
    echo
    echo "| mode | seconds per set sync | us |"
    echo "|---|---|---|"
    for m in persistent basic raw raw_mpi; do
        awk -v m="$m" '$1 == m "_s" {printf "| %s | %.4e | %.1f |\n", m, $2, $2 * 1e6}' "$tmp/matsync.txt"
    done
}
# shellcheck disable=SC2086
run_mem() {
    for n in 1 "$ranks"; do
        $mpirun_cmd ${MPI_ARGS:-} -np "$n" "$bin/raw_mem" | sed "s/^peak_rss_bytes/bare_rss_${n}ranks/" >> "$vals"
    done
    echo "Bare MPI process (run/bench/raw_mem.c: MPI_Init, a barrier, getrusage), largest rank's peak RSS:"
    echo
    awk '/^bare_rss_/ {n = $1; gsub("[^0-9]", "", n); printf "- %d rank%s: %.1f MB\n", n, (n + 0 > 1 ? "s" : ""), $2 / 1e6}' "$vals"
}
# The code issue 18 started from, built from this checkout's history and run beside this build
# (quick mode: this build against itself, to check the pipeline); no history: skipped.
run_issue18_base() {
    base=$hydro
    if [ $quick = 0 ]; then
        if ! git -C "$top" cat-file -e "$issue18_base^{commit}" 2> /dev/null; then
            echo "Skipped: commit $issue18_base is not in this checkout's history."
            return 0
        fi
        mkdir "$tmp/base"
        git -C "$top" archive "$issue18_base" | tar -x -C "$tmp/base"
        make -C "$tmp/base" -j"$(nproc)" build/hydro > "$tmp/base.log" 2>&1 ||
            { echo "Skipped: commit $issue18_base did not build (last lines: $(tail -n 2 "$tmp/base.log"))."; return 0; }
        base=$tmp/base/build/hydro
    fi
    # shellcheck disable=SC2086
    sh "$top/run/bench_compare.sh" $cmp_args -o "$vals" "$base" "$hydro"
}
section sync run_sync
section matsync run_matsync
# shellcheck disable=SC2086
section grind sh "$top/run/bench_grind.sh" $grind_args -o "$vals"
section issue18 run_issue18_base
section memory run_mem
# shellcheck disable=SC2086
section threads sh "$top/run/bench_threads.sh" -t "$threads" $thr_args -o "$vals"
# shellcheck disable=SC2086
section materials sh "$top/run/bench_materials.sh" $mat_args -o "$vals"
# shellcheck disable=SC2086
section patterns sh "$top/run/bench_patterns.sh" -n "$ranks" $pat_args -o "$vals" $pat_deck
# shellcheck disable=SC2086
section weak sh "$top/run/bench_weak.sh" -n "$ranks" $weak_args -o "$vals" $weak_deck
# the same with every rank's block alike (the bench box's blocks change shape with the ranks)
# shellcheck disable=SC2086
section weak_cube sh "$top/run/bench_weak.sh" -n "$ranks" -s cube $weak_args -o "$vals" $weak_deck
# shellcheck disable=SC2086
section migration sh "$top/run/bench_migration.sh" -n "$ranks" $mig_args -o "$vals" $mig_deck
# shellcheck disable=SC2086
section checkpoint sh "$top/run/bench_checkpoint.sh" -n "$ranks" $ckpt_args -o "$vals" $ckpt_deck
# shellcheck disable=SC2086
section balance sh "$top/run/bench_balance.sh" -n "$ranks" $bal_args -p "$bal_parts" -d gain -c -s -o "$vals" $bal_deck
if [ "$ranks" -eq 2 ] && command -v taskset > /dev/null; then # its case is issue 17's on 2 ranks
    # shellcheck disable=SC2086
    section speeds sh "$top/run/bench_speeds.sh" $spd_args -o "$vals" $spd_deck
fi
wall=$(($(date +%s) - t_start))
load_end=$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo unknown)

# v KEY: a figure the parts wrote (fails loudly when a part did not produce it)
has() { awk -v k="$1" '$1 == k {f = 1} END {exit !f}' "$vals"; }
v() {
    x=$(awk -v k="$1" '$1 == k {x = $2} END {print x}' "$vals")
    [ -n "$x" ] || { echo "$0: no value '$1' from the benchmark parts" >&2; exit 1; }
    echo "$x"
}
# row FIGURE MEASURED UNIT BASELINE_TEXT BASELINE RATIO_KIND TARGET_OP TARGET SCALE FMT
#   ratio = measured / baseline; the target applies to the ratio (kind "ratio") or to the
#   measured value (kind "value", or "plain": a baseline shown beside it, no ratio); "-" for no
#   baseline or no target. SCALE multiplies values.
row() {
    awk -v fig="$1" -v m="$2" -v unit="$3" -v btext="$4" -v b="$5" -v kind="$6" -v op="$7" -v tg="$8" \
        -v sc="$9" -v fmt="${10}" 'BEGIN {
        mv = sprintf(fmt, m * sc) " " unit
        bv = b == "-" ? "-" : sprintf(fmt, b * sc) " " unit " (" btext ")"
        r = b == "-" ? "" : m / b
        rv = r == "" || kind == "plain" ? "-" : sprintf("%.3f", r)
        if (op == "-") { tv = "-"; met = "-" }
        else {
            x = kind == "ratio" ? r : m * sc
            tv = (op == "le" ? "<= " : ">= ") tg (kind == "ratio" ? " x baseline" : " " unit)
            ok = op == "le" ? x <= tg : x >= tg
            met = ok ? "yes" : "**no**"
        }
        printf "| %s | %s | %s | %s | %s | %s |\n", fig, mv, bv, rv, tv, met
    }'
}

c3=$(v grind3d_cells) c2=$(v grind2d_cells) own=$(printf '%.0f' "$(v patterns_owned_per_rank)")
{
    echo "# hydro benchmark report, $when"
    echo
    echo "Command: \`run/bench_report.sh -n $ranks -t $threads$([ $quick = 1 ] && echo ' -q' || true)\` (what \`make bench\` runs), wall time ${wall} s for the measurements."
    echo "$("$hydro" --version | head -n 1); $(nproc) cores ($(sed -n 's/^model name[^:]*: //p' /proc/cpuinfo | head -n 1)),"
    echo "$($mpirun_cmd --version 2>/dev/null | head -n 1); load average (1, 5, 15 min) $load_start at the start, $load_end at the end."
    [ $quick = 0 ] || echo "**Quick mode (-q): tiny meshes and one repeat, the figures mean nothing.**"
    echo
    echo "## Summary"
    echo
    echo "Each figure was measured in this run beside its baseline (interleaved where both are runs; medians"
    echo "over repeats). A target is a goal to track, never a failure of \`make bench\`."
    echo
    echo "| figure | measured | baseline | ratio | target | met |"
    echo "|---|---|---|---|---|---|"
    row "Grind 3D bisod_x, Lagrange (1 rank, $c3 cells)" "$(v grind3d_lagrange_ns)" ns - - - - - 1 %.0f
    row "Grind 3D bisod_x, remap" "$(v grind3d_remap_ns)" ns - - - - - 1 %.0f
    row "Grind 3D bisod_x, total (loop)" "$(v grind3d_loop_ns)" ns - - value le 350 1 %.0f
    row "Grind 2D Sedov, Lagrange (1 rank, $c2 cells)" "$(v grind2d_lagrange_ns)" ns - - - - - 1 %.0f
    row "Grind 2D Sedov, remap" "$(v grind2d_remap_ns)" ns - - - - - 1 %.0f
    row "Grind 2D Sedov with remap, total (loop)" "$(v grind2d_loop_ns)" ns - - value le 90 1 %.0f
    if has compare_3d_loop_ratio; then # issue 18's targets against the code it started from, side by side
        b18=$([ $quick = 1 ] && echo "this build (quick)" || echo "$issue18_base, run beside it")
        row "Grind 3D bisod_x against the code issue 18 started from (loop)" "$(v compare_3d_loop_b)" ns "$b18" \
            "$(v compare_3d_loop_a)" ratio le 0.699 1 %.0f
        row "Grind 2D Sedov with remap against the code issue 18 started from (loop)" "$(v compare_2d_loop_b)" ns \
            "$b18" "$(v compare_2d_loop_a)" ratio le 0.763 1 %.0f
        row "Memory, 1 rank, 3D bisod_x, against the code issue 18 started from" "$(v compare_3d_mem_b)" B/cell \
            "$b18" "$(v compare_3d_mem_a)" ratio le 0.875 1 %.0f
    fi
    row "Memory, 1 rank, 3D bisod_x, $c3 cells" "$(v mem3d_bytes_per_cell)" B/cell "bare MPI process" \
        "$(awk -v r="$(v bare_rss_1ranks)" -v c="$c3" 'BEGIN {print r / c}')" value le 850 1 %.0f
    row "Memory, 1 rank, 3D bisod_x, each cell beyond $(v mem3d_marginal_from_cells) (up to $(v mem3d_marginal_to_cells))" \
        "$(v mem3d_marginal_bytes_per_cell)" B/cell - - value le 1000 1 %.0f
    row "Memory, 1 rank, 2D Sedov, $c2 cells" "$(v mem2d_bytes_per_cell)" B/cell "bare MPI process" \
        "$(awk -v r="$(v bare_rss_1ranks)" -v c="$c2" 'BEGIN {print r / c}')" value le 1000 1 %.0f
    row "Memory, $ranks ranks, $own owned cells per rank, 3 ghost layers (mahyco.ini)" "$(v mem_mahyco_bytes_per_cell)" \
        B/cell "bare MPI process" "$(awk -v r="$(v bare_rss_${ranks}ranks)" -v c="$own" 'BEGIN {print r / c}')" \
        value le 2000 1 %.0f
    T=$(v threads_t)
    row "1 rank x $T threads against 1 x 1, grind 3D bisod_x (loop; speed-up)" \
        "$(awk -v a="$(v threads_1x1_loop_s)" -v b="$(v threads_1xT_loop_s)" 'BEGIN {print a / b}')" x - - value ge 1.7 1 %.2f
    row "$T ranks x 1 thread against 1 rank x $T threads, 3D bisod_x, loop" "$(v threads_Tx1_loop_s)" s \
        "1 x $T" "$(v threads_1xT_loop_s)" - - - 1 %.3f
    row "$T ranks x 1 thread against 1 rank x $T threads, sync bytes per cycle (all ranks)" "$(v threads_Tx1_bytes)" B \
        "1 x $T" "$(v threads_1xT_bytes)" - - - 1 %.0f
    row "$T ranks x 1 thread against 1 rank x $T threads, peak memory (all ranks)" "$(v threads_Tx1_mb)" MB \
        "1 x $T" "$(v threads_1xT_mb)" - - - 1 %.1f
    row "Overlap, $ranks ranks, minimal (mahyco.ini): loop with the overlap" "$(v loop_minimal_s)" s "without" \
        "$(v loop_minimal_nooverlap_s)" - - - 1 %.3f
    row "Overlap, $ranks ranks, minimal (mahyco.ini): sync timer, slowest rank" "$(v sync_minimal_s)" s "without" \
        "$(v sync_minimal_nooverlap_s)" - - - 1 %.3f
    row "Weak scaling 1 -> $ranks ranks, minimal (mahyco.ini, block): efficiency" "$(v weak_eff)" "" - - value ge 0.95 1 %.3f
    row "Weak scaling 1 -> $ranks ranks: the machine's ceiling ($ranks independent 1-rank runs at once)" \
        "$(v weak_ceiling)" "" - - - - - 1 %.3f
    row "Weak scaling 1 -> $ranks ranks: efficiency / ceiling" \
        "$(awk -v e="$(v weak_eff)" -v c="$(v weak_ceiling)" 'BEGIN {print e / c}')" "" - - - - - 1 %.3f
    row "Weak scaling 1 -> $ranks ranks, minimal, every rank the same 30 x 26 x 25 block (--shape cube): efficiency" \
        "$(v weak_eff_cube)" "" - - value ge 0.95 1 %.3f
    row "Weak scaling 1 -> $ranks ranks, same blocks: the machine's ceiling" "$(v weak_ceiling_cube)" "" - - - - - 1 %.3f
    row "Weak scaling 1 -> $ranks ranks, same blocks: efficiency / ceiling" \
        "$(awk -v e="$(v weak_eff_cube)" -v c="$(v weak_ceiling_cube)" 'BEGIN {print e / c}')" "" - - - - - 1 %.3f
    row "Two materials against one, grind 3D bisod_x (loop, 1 rank)" "$(v mat_two_loop)" ns "one material" \
        "$(v mat_one_loop)" ratio le 1.3 1 %.0f
    row "Two materials against one, memory per further cell" "$(v mat_two_mem)" B/cell "one material" \
        "$(v mat_one_mem)" ratio le 1.25 1 %.0f
    row "Two materials against one, bytes sent per cycle per rank (2 ranks)" "$(v mat_two_bytes)" B "one material" \
        "$(v mat_one_bytes)" - - - 1 %.0f
    row "Material synchronisations' bytes per cycle, rank 0 of 2 (two materials)" "$(v mat_sync_bytes)" B \
        "Arcane's packing" "$(v mat_arcane_bytes)" - - - 1 %.0f
    row "Sync, persistent, per set of $(v variables) variables" "$(v persistent_s)" us "raw Irecv/Isend" "$(v raw_s)" \
        ratio le 1.2 1e6 %.1f
    row "Sync, basic, per set of $(v variables) variables" "$(v basic_s)" us "raw Irecv/Isend" "$(v raw_s)" - - - 1e6 %.1f
    row "Material sync, persistent, per set of $(v matsync_material_syncs) material syncs" "$(v matsync_persistent_s)" us \
        "raw Irecv/Isend" "$(v matsync_raw_s)" ratio le 1.2 1e6 %.1f
    row "Material sync, basic, per set of $(v matsync_material_syncs) material syncs" "$(v matsync_basic_s)" us \
        "raw Irecv/Isend" "$(v matsync_raw_s)" - - - 1e6 %.1f
    for t in p2p a2a; do
        for f in Cell Node; do
            name=$([ $t = p2p ] && echo "point to point" || echo "MPI_Alltoallv")
            row "Migration, $name, $f ($(awk -v b="$(v mig_${t}_${f}_bytes)" 'BEGIN {printf "%.2f", b / 1e6}') MB)" \
                "$(v mig_${t}_${f}_MBps)" MB/s "raw Irecv/Isend as a migration" "$(v raw_cold_${f}_MBps)" ratio ge 0.70 1 %.0f
            ! has mig_${t}_${f}_steady_MBps ||
                row "Migration, $name, $f, after the warm-up migrations" \
                    "$(v mig_${t}_${f}_steady_MBps)" MB/s "raw Irecv/Isend as a migration" "$(v raw_cold_${f}_MBps)" ratio ge 0.70 1 %.0f
        done
    done
    row "Checkpoint write ($(awk -v b="$(v ckpt_bytes)" 'BEGIN {printf "%.1f", b / 1e6}') MB)" "$(v ckpt_GBps)" GB/s \
        "plain write + fsync" "$(v raw_write_GBps)" ratio ge 0.50 1 %.3f
    for p in $bal_parts; do
        none=balance_none
        [ "$p" = metis ] || none=balance_none_$p
        row "Load balancing, issue 17's case on $ranks ranks, $p (set-up and rebalances) deciding by gain: loop" \
            "$(v balance_${p}_gain_loop)" s "no load balancing, $p's set-up" "$(v ${none}_loop)" ratio le 0.85 1 %.3f
        ! has balance_${p}_gain_counted_loop ||
            row "Load balancing, $p, its set-up partition counting the cells (loadbalance.setup = false): loop" \
                "$(v balance_${p}_gain_counted_loop)" s "no load balancing, $p's set-up" "$(v ${none}_loop)" \
                ratio le 0.85 1 %.3f
        if has balance_${p}_setup_loop; then # what the rebalances add to the weighed set-up
            row "Load balancing, $p, its weighed set-up alone (checks that never rebalance): loop" \
                "$(v balance_${p}_setup_loop)" s "no load balancing, $p's set-up" "$(v ${none}_loop)" ratio - - 1 %.3f
            row "Load balancing, $p, deciding by gain against its weighed set-up alone: loop" \
                "$(v balance_${p}_gain_loop)" s "the set-up alone" "$(v balance_${p}_setup_loop)" ratio - - 1 %.3f
        fi
        if has balance_${p}_gain_imb_after; then
            row "Load balancing, $p: measured imbalance at the check after a rebalance (largest)" \
                "$(v balance_${p}_gain_imb_after)" "" "the machine alone: uniform work, the same checks" \
                "$(v balance_machine_imb)" plain le 0.10 1 %.3f
        else
            echo "| Load balancing, $p: measured imbalance at the check after a rebalance (largest) | no rebalance ($(v balance_${p}_gain_kept) partitions kept out, judged no better by the phases; the largest imbalance at a check $(v balance_${p}_gain_imb_checks)) | - | - | <= 0.10 | - |"
        fi
        row "Load balancing, $p: peak memory (largest rank)" "$(v balance_${p}_gain_peak)" MB \
            "no load balancing, $p's set-up" "$(v ${none}_peak)" ratio le 1.3 1 %.1f
    done
    if has speeds_measured_loop; then
        for sp in equal measured; do
            what=$([ $sp = equal ] && echo "equal shares" || echo "parts by the measured speeds")
            row "Load balancing, a busy loop sharing rank 0's core, metis, $what: loop" "$(v speeds_${sp}_loop)" s \
                "no load balancing" "$(v speeds_none_loop)" ratio le 0.85 1 %.3f
        done
        if has speeds_measured_imb_after; then
            row "Load balancing, a busy loop sharing rank 0's core, measured speeds: imbalance after a rebalance (largest)" \
                "$(v speeds_measured_imb_after)" "" "equal shares" "$(v speeds_equal_imb_after 2> /dev/null || echo -)" \
                plain le 0.10 1 %.3f
        fi
    fi
    echo
    echo "Grind times are ns per cell and cycle (phase timer / cells / cycles; total = the loop timer) and"
    echo "have an absolute target, no baseline. Memory is the listing's peak RSS per owned cell of the"
    echo "largest rank (1 KB = 1000 B, as the listing's MB = 10^6 B); its baseline is the peak RSS of a bare"
    echo "MPI process per owned cell, the part no data structure of hydro can remove. \"Each cell beyond\": the"
    echo "difference of peak RSS between a run 4 times larger and that one over the difference of cells, the"
    echo "memory a cell costs without the fixed part ($(awk -v f="$(v mem3d_fixed_bytes)" 'BEGIN {printf "%.1f", f / 1e6}') MB here: the MPI process, libraries and what does"
    echo "not grow with the mesh)."
    echo "Sync ratios are hydro / raw seconds (lower is better); migration and checkpoint ratios are"
    echo "hydro / baseline bandwidth (higher is better). Migration 'after the warm-up': the same medians"
    echo "without the first migrations of each run, while the heap still grows and every received page is a"
    echo "fresh one (the raw baseline reuses warmed-up buffers). The migration baseline is the raw exchange"
    echo "of the same sizes done the way a migration does it (\"cold\", \`raw_p2p -c\`: caches flushed, every"
    echo "send buffer written, then the Cell size and the Node size one after the other). The same exchanges"
    echo "repeated back to back, each finding its buffers as the previous one left them, move Cell at $(v raw_Cell_MBps | awk '{printf "%.0f", $1}')"
    echo "MB/s and Node at $(v raw_Node_MBps | awk '{printf "%.0f", $1}') MB/s (cold: $(v raw_cold_Cell_MBps | awk '{printf "%.0f", $1}') and $(v raw_cold_Node_MBps | awk '{printf "%.0f", $1}')): a Node message fits in the caches."
    echo
    echo "## Ghost synchronisation (run/bench/raw_sync.c)"
    echo
    cat "$tmp/sync.md"
    echo
    echo "persistent and basic: hydro's sync groups (mesh/sync.c), one per variable, one after the other, as the"
    echo "sync_only case records them; raw: a hand-written exchange of the same bytes with the same neighbours"
    echo "(post MPI_Irecv, pack by the plan's indices, MPI_Isend, MPI_Waitall, unpack), the whole job of a sync;"
    echo "raw_mpi: the same messages without packing or unpacking, the MPI floor (ghosts not updated)."
    echo "The four modes alternate in one process; every ghost is checked after each timed round."
    echo
    echo "## Material synchronisation (run/bench/raw_matsync.c)"
    echo
    cat "$tmp/matsync.md"
    echo
    echo "persistent and basic: hydro's sync groups of $(v matsync_materials) materials' variables, MaHyCo's level-n groups with"
    echo "materials (density with the materials' masses, energy with theirs, volume with the volume fractions,"
    echo "pressure with theirs), one after the other, on the same box as above; the cells of a band $(v matsync_band_cells) cells"
    echo "wide in the middle of the box in x are mixed (0.5/0.5), those left of it pure material 0, right of it"
    echo "material 1, as in the bi-Sod case. Each message carries the cell values, one composition code per cell"
    echo "and the present materials' values only."
    echo "raw: a hand-written exchange packing the same bytes (checked against hydro's, the codes computed from"
    echo "the fractions), MPI_Irecv, MPI_Isend, MPI_Waitall, unpacking (absent materials 0); raw_mpi: the same"
    echo "messages without packing or unpacking. Every ghost is checked after each timed round."
    echo
    echo "## Grind time and memory on one rank (run/bench_grind.sh)"
    echo
    cat "$tmp/grind.md"
    echo
    cat "$tmp/memory.md"
    echo
    echo "## Against the code issue 18 started from ($issue18_base; run/bench_compare.sh)"
    echo
    echo "Issue 18's targets were set on this VM on the day it was filed, against that code (3D 501 ns, 2D 118 ns,"
    echo "971 B/cell): as ratios to it, 350/501 = 0.699, 90/118 = 0.763 and 850/971 = 0.875. A is that code,"
    echo "built from this checkout's history, B this build, run alternately."
    echo
    cat "$tmp/issue18.md"
    echo
    echo "## Threads against ranks (run/bench_threads.sh)"
    echo
    cat "$tmp/threads.md"
    echo
    echo "## Two materials against one (run/bench_materials.sh)"
    echo
    cat "$tmp/materials.md"
    echo
    echo "## MaHyCo bench deck, mahyco vs minimal patterns, minimal with and without overlap (run/bench_patterns.sh)"
    echo
    cat "$tmp/patterns.md"
    echo
    echo "## Weak scaling beside the machine's ceiling (run/bench_weak.sh)"
    echo
    cat "$tmp/weak.md"
    echo
    echo "The same with every rank's block alike (run/bench_weak.sh -s cube): the bench box's rank blocks"
    echo "change shape with the rank count (125 x 12 x 13 cells on 1 rank, 76 x 16 x 16 per rank on 2),"
    echo "and with them the remap's work per rank (the cells around the waves grow with the block's cross-section)."
    echo
    cat "$tmp/weak_cube.md"
    echo
    echo "## Migration (run/bench_migration.sh, raw baseline run/bench/raw_p2p.c)"
    echo
    cat "$tmp/migration.md"
    echo
    echo "The raw baseline sends the Cell and Node sizes rank 0 sent in the migration, each rank to the"
    echo "next (on 2 ranks: both ways at once, as the shuffle does), into buffers allocated once and reused;"
    echo "rank 0's time after a barrier, median of 9 rounds per run; the cold baseline runs after each of hydro's runs. Cold (-c): each round,"
    echo "outside the timed parts, writes a 64 MiB array (flushing the caches) and every send buffer (packing),"
    echo "then exchanges the Cell size and the Node size in that order, as a migration does."
    echo
    echo "## Checkpoint (run/bench_checkpoint.sh, baseline run/bench/raw_write.c)"
    echo
    cat "$tmp/checkpoint.md"
    echo
    echo "Both sides include fsync of the file. The dump's seconds also cover the reorder to global-id"
    echo "order, the collective HDF5 write from every rank, the rename, the directory fsync and the XDMF"
    echo "files; the plain write is one process writing the same byte count in 4 MiB blocks."
    echo
    echo "## Load balancing that pays (run/bench_balance.sh, issue 17)"
    echo
    echo "The 2-rank case of issue 17: inputs/default.ini on 200 x 20 x 20 cells, 60 cycles, a slab of cells 4"
    echo "times as costly (loadbalance.cost=region, cost_units fixed), checks every 10 cycles deciding by gain and"
    echo "cost. Each partitioner makes the set-up partition too, weighing the cells by the cost model"
    echo "(loadbalance.setup; '.counted': counting them; '.setup': the weighed set-up alone, its checks never"
    echo "rebalancing, beside which '.gain' shows what the rebalances add), against the same run without load"
    echo "balancing from its set-up ('none', 'none.zoltan'); variants interleaved, medians. 'imb. after': the"
    echo "largest compute-time imbalance measured at a check that follows a rebalance; 'imb. checks': at any check."
    echo
    echo '```'
    cat "$tmp/balance.md"
    echo '```'
    if [ -s "$tmp/speeds.md" ]; then
        echo
        echo "The same case with a busy loop sharing rank 0's core (run/bench_speeds.sh): without load balancing,"
        echo "METIS with equal shares, and METIS with parts sized by the ranks' measured speeds (loadbalance.speeds ="
        echo "measured: the share of its core each rank got)."
        echo
        echo '```'
        cat "$tmp/speeds.md"
        echo '```'
    fi
    echo
    echo "## Method"
    echo
    if [ $quick = 1 ]; then
        echo "Quick mode: every part with one repeat on tiny meshes."
    else
        echo "Sizes and repeats chosen to keep \`make bench\` within 10 minutes on 2 cores: sync 15 repeats"
        echo "x 100 set syncs, material sync 31 repeats x 100; grind 5 interleaved repeats of 20 cycles (not to the final time); patterns 3"
        echo "repeats of the deck's 50 cycles; migration 9 repeats of the MicroHydro lb8.1 deck (21 migrations"
        echo "per transport); checkpoint 3 repeats of 6 dumps of the bench deck at 40k owned cells per rank;"
        echo "weak scaling and load balancing 5 interleaved repeats (the VM's core speeds drift within minutes), ranks"
        echo "of different speeds (a busy loop sharing rank 0's core) 3."
        echo "\`run/bench_sync.sh\` (persistent vs basic through whole sync_only runs) is no longer part of"
        echo "\`make bench\`: raw_sync times the same synchronisations directly, beside the raw exchange."
    fi
    echo
    echo "| part | wall s |"
    echo "|---|---|"
    cat "$tmp/walls"
} > "$tmp/report.md"
mkdir -p "$(dirname "$report")" # now: the measurements never depend on it
cp "$tmp/report.md" "$report"
cat "$report"
echo >&2
echo "bench: report written to $report" >&2
