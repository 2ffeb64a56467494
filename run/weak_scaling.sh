#!/bin/bash
# run/weak_scaling.sh: weak-scaling campaign of the MaHyCo bench deck (real MPI or SimGrid SMPI): decks, runs, CSV, Markdown table and gnuplot plot in one results folder.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
me=weak_scaling

usage() {
    cat <<EOF
usage: run/weak_scaling.sh [options] [section.key=value ...]
       run/weak_scaling.sh --plot [-o DIR] RESULTS_DIR...

Runs the MaHyCo bench deck (default inputs/bench/mahyco.ini: 3D Sod along x on 1 x 0.1 x 0.1,
Euler remap, 3 ghost layers, 50 cycles) at several rank counts with the same number of owned
cells per rank, and writes into one results folder: the generated decks (decks/), every run's
listing (runs/), results.csv, results.md (also printed at the end), plot.gp and plot.png
(loop time and efficiency against ranks, one curve per synchronisation pattern).

options:
  -n, --ranks LIST       rank counts, comma or space separated (default: 1 2 4 ... up to the
                         number of cores, here: $(default_ranks))
  -c, --cells N          owned cells per rank (default 19531, the MaHyCo bench's 1000x50x50/128)
  -p, --pattern P        mahyco, minimal or both (default both)
  -r, --repeats N        runs of each (ranks, pattern); the table uses medians (default 1)
      --cycles N         run.max_cycles (default: the deck's, 50)
      --partitioner P    block (default; the bench's split in blocks, no rank-0 bottleneck)
                         or metis (rank 0 holds and partitions the whole mesh)
      --shape S          bench (default) or cube: the mesh rule, see below
      --deck FILE        base deck (default inputs/bench/mahyco.ini; cartesian meshes only)
      --launcher CMD     MPI launcher (default \$MPIRUN or mpirun; srun gets -n instead of -np)
  -t, --threads T        OpenMP threads per rank (default 1): OMP_NUM_THREADS=T for every run,
                         and mpirun gets --bind-to none (it binds a rank to one core otherwise;
                         srun: give --cpus-per-task=T in MPI_ARGS); the mode column reads
                         real-tT (smpi-tT), so campaigns with other thread counts plot apart
      --timeout S        kill a run after S seconds; it counts as failed (default: no limit)
      --smpi             run each case through run/smpirun.sh (SimGrid SMPI, simulated time)
      --smpi-args STR    extra options for run/smpirun.sh, e.g. "-p PLATFORM -s SCALE"
                         (split at spaces; paths relative to the current directory)
      --smpi-compute C   model (default with --smpi): first calibrate the per-kernel compute
                         costs on the real build, 1 rank, with run/smpi_calibrate.sh -r 3 on the
                         campaign's 1-rank deck (calibrate.ini, even when 1 is not in --ranks)
                         into costs.txt, then give every run run/smpirun.sh -m costs.txt; a
                         failed calibration stops the campaign (exit 1, no run).
                         --smpi-costs FILE: use FILE (a costs.txt of an earlier campaign)
                         instead of calibrating, so that campaigns compare at the same costs
                         measured: no calibration, each simulated rank's compute is timed
                         on this machine as it runs (noisy while the simulation loads it)
  -o, --out DIR          results folder (default results/weak_scaling_<date>_<time>)
      --dry-run          print the mesh sizes chosen for each rank count, run nothing
      --plot DIR...      merge existing results folders into one new folder (CSV, table,
                         plot with one curve per (pattern, real/smpi) on the same axes)
  -h, --help             this text
  section.key=value      further overrides, written into every deck

Mesh rule, --shape bench (default): the box of the base deck is kept (1 x 0.1 x 0.1: the
bench's Sod problem at every rank count); nx, ny, nz give cubic-ish cells (longest over shortest
cell edge at most 1.5) with the owned cells of every rank within 0.5% of the target, or failing
that edge ratio 2 within 2%.
With the block partitioner, "every rank" means the real blocks hydro will cut (smallest and
largest); with metis, total cells / ranks. A rank count that cannot be met is refused (exit 2).

Mesh rule, --shape cube (for weak scaling at scale: every rank keeps the same block and the
same neighbourhood at every rank count, instead of the bench box whose rank grid changes from
slabs (128 ranks: 32x2x2) to interior blocks (1024: 64x4x4)): one block bx x by x bz
(bx >= by >= bz, 2D: bx x by) within 2% of the cells per rank, edges within a factor 1.25
(failing that 1.5, failing that 2), the smallest deviation then the most cubic; per rank count
N a rank grid px x py x pz = N (px >= py >= pz, 2D pz = 1), the most cubic (smallest
px + py + pz, then smallest px) of those hydro's block partitioner cuts back into that grid,
and the mesh (px bx) x (py by) x (pz bz). The box keeps the base deck's origin and lx; its ly
(and lz in 3D) give cubic cells: ly = lx ny / nx, lz = lx nz / nx, written into every deck.
Doubling rank counts repeat the box: 128 = 8x4x4 and 1024 = 16x8x8 on the same 2:1:1 box.
A rank count with no such grid, or no such block, is refused (exit 2). With --partitioner metis
the mesh is the same, but metis makes its own split: equal blocks are not promised.

environment: MPIRUN (launcher), MPI_ARGS (extra launcher arguments, e.g. --oversubscribe),
HYDRO (binary for real runs and deck checks, default build/hydro, built if missing),
SMPI_CALIBRATE (calibration script, default run/smpi_calibrate.sh), SMPIRUN_SH (SMPI
wrapper, default run/smpirun.sh); the last two let tests stand stubs in.
Exit status: 0 every run succeeded, 1 some run failed (still in the CSV, marked failed) or the
calibration failed, 2 bad usage or a refused size.
EOF
}

die() {
    echo "$me: $*" >&2
    exit 2
}

default_ranks() {
    local p=1 n
    n=$(nproc 2>/dev/null || echo 1)
    local out=1
    while [ $((p * 2)) -le "$n" ]; do
        p=$((p * 2))
        out="$out $p"
    done
    echo "$out"
}

posint() { # NAME VALUE: VALUE must be a positive integer
    case $2 in '' | *[!0-9]*) die "$1: '$2' is not a positive integer" ;; esac
    [ "$2" -gt 0 ] || die "$1: '$2' is not a positive integer"
}

# ---------------------------------------------------------------------------------------------
# Mesh sizes. Both rules print per rank count
#   N nx ny nz cells px py pz owned_min owned_max deviation edge_ratio ly lz
# (px py pz and owned_min/max from hydro's block split rule, "-" for metis), or "N none".
# The block split replicates mesh/cartesian.c:cartesian_split (fewest cut faces, first found in
# ascending px then py on ties) so that the balance is checked on the blocks hydro will cut.
split_awk='
    function ceil(x) { return (x == int(x)) ? x : int(x) + 1 }
    function divisors(P,   d, i, j, t) {
        nd = 0
        for (d = 1; d * d <= P; d++)
            if (P % d == 0) { D[++nd] = d; if (d * d != P) D[++nd] = P / d }
        for (i = 2; i <= nd; i++)      # ascending, as the split loops run
            for (j = i; j > 1 && D[j - 1] > D[j]; j--) { t = D[j]; D[j] = D[j - 1]; D[j - 1] = t }
    }
    # cut_blocks(P, nx, ny, nz): sets sp[1..3]; 0 when no split gives every block a cell per axis
    function cut_blocks(P, n0, n1, n2,   i, j, px, py, pz, cut, best, m2) {
        best = -1; m2 = (dim == 3) ? n2 : 1
        for (i = 1; i <= nd; i++) {
            px = D[i]; if (px > n0) continue
            for (j = 1; j <= nd; j++) {
                py = D[j]; if (py > P / px || (P / px) % py || py > n1) continue
                pz = P / px / py; if (pz > m2) continue
                cut = (px - 1) * n1 * m2 + (py - 1) * n0 * m2 + (pz - 1) * n0 * n1
                if (best < 0 || cut < best) { best = cut; sp[1] = px; sp[2] = py; sp[3] = pz }
            }
        }
        return best >= 0
    }'

# bench rule: the base deck's box at every rank count, cubic-ish cells.
size_meshes() { # CELLS DIM LX LY LZ BLOCK(0|1) RANKS...
    local c=$1 dim=$2 lx=$3 ly=$4 lz=$5 block=$6
    shift 6
    echo "$@" | awk -v C="$c" -v dim="$dim" -v lx="$lx" -v ly="$ly" -v lz="$lz" -v block="$block" "$split_awk"'
    function mesh_for(N,   T, vol, h, tier, tol, rmax, ylo, yhi, zlo, zhi, ny, nz, nx, a, xlo, xhi,
                  ex, ey, ez, lo, hi, r, tot, dev, bmin, bmax, d2, found) {
        T = N * C; divisors(N)
        vol = lx * ly * (dim == 3 ? lz : 1)
        h = exp(log(vol / T) / dim)
        for (tier = 1; tier <= 2; tier++) {
            tol = (tier == 1) ? 0.005 : 0.02; rmax = (tier == 1) ? 1.5 : 2
            found = 0; br = 0; bd = 0
            ylo = int(ly / (h * rmax * 1.05)); if (ylo < 1) ylo = 1
            yhi = ceil(ly * rmax * 1.05 / h)
            if (dim == 3) { zlo = int(lz / (h * rmax * 1.05)); if (zlo < 1) zlo = 1; zhi = ceil(lz * rmax * 1.05 / h) }
            else { zlo = 1; zhi = 1 }
            for (ny = ylo; ny <= yhi; ny++) for (nz = zlo; nz <= zhi; nz++) {
                a = ny * nz
                xlo = ceil(T * (1 - tol) / a); if (xlo < 1) xlo = 1
                xhi = int(T * (1 + tol) / a)
                for (nx = xlo; nx <= xhi; nx++) {
                    ex = lx / nx; ey = ly / ny; ez = (dim == 3) ? lz / nz : ex
                    lo = ex; if (ey < lo) lo = ey; if (ez < lo) lo = ez
                    hi = ex; if (ey > hi) hi = ey; if (ez > hi) hi = ez
                    r = hi / lo
                    if (r > rmax) continue
                    tot = nx * a
                    dev = tot / N / C - 1; if (dev < 0) dev = -dev
                    if (dev > tol) continue
                    if (found && (r > br + 1e-12 || (r > br - 1e-12 && dev >= bd))) continue
                    if (block) {
                        if (!cut_blocks(N, nx, ny, nz)) continue
                        bmin = int(nx / sp[1]) * int(ny / sp[2]) * int(nz / sp[3])
                        bmax = ceil(nx / sp[1]) * ceil(ny / sp[2]) * ceil(nz / sp[3])
                        d2 = bmax / C - 1; if (d2 < 0) d2 = -d2; if (d2 > dev) dev = d2
                        d2 = bmin / C - 1; if (d2 < 0) d2 = -d2; if (d2 > dev) dev = d2
                        if (dev > tol) continue
                        if (found && r > br - 1e-12 && dev >= bd) continue
                    }
                    found = 1; br = r; bd = dev
                    best = sprintf("%d %d %d %d %d", N, nx, ny, nz, tot)
                    if (block) best = best sprintf(" %d %d %d %d %d", sp[1], sp[2], sp[3], bmin, bmax)
                    else best = best " - - - - -"
                }
            }
            if (found) { printf "%s %.5f %.3f %s %s\n", best, bd, br, ly, lz; return }
        }
        print N, "none"
    }
    { for (i = 1; i <= NF; i++) mesh_for($i + 0) }'
}

# cube rule, step 1: the one per-rank block "bx by bz" (bz = 1 in 2D), or nothing. Within 2% of
# CELLS; edges bx >= by >= bz within a factor 1.25, failing that 1.5, failing that 2; then the
# smallest deviation, then the smallest bx/bz. bx >= by >= bz with px >= py >= pz keeps the mesh's axes in the grid's
# order, the orientation in which the partitioner cuts the grid back out.
cube_block() { # CELLS DIM
    awk -v C="$1" -v dim="$2" 'BEGIN {
        for (tier = 1; tier <= 3 && !found; tier++) {
            rmax = (tier == 1) ? 1.25 : (tier == 2) ? 1.5 : 2
            for (bz = 1; (dim == 2 ? bz <= 1 : bz * bz * bz <= C * 1.02); bz++)
                for (by = bz; bz * by * by <= C * 1.02; by++) {
                    lo = int(C * 0.98 / (by * bz)); if (lo < by) lo = by
                    for (bx = lo; bx * by * bz <= C * 1.02; bx++) {
                        dev = bx * by * bz / C - 1; if (dev < 0) dev = -dev
                        r = bx / (dim == 2 ? by : bz)
                        if (dev > 0.02 || r > rmax) continue
                        if (found && (dev > bd + 1e-12 || (dev > bd - 1e-12 && r >= br - 1e-12))) continue
                        found = 1; bd = dev; br = r; b = bx " " by " " bz
                    }
                }
        }
        if (found) print b
    }'
}

# cube rule, step 2: per rank count the rank grid px >= py >= pz (pz = 1 in 2D) with the smallest
# px + py + pz (the most cubic), then the smallest px, among those whose mesh (px bx, py by, pz bz)
# hydro's block partitioner cuts back into that grid (metis: the most cubic; its split is its own).
# Cubic cells: ly = lx ny / nx and, in 3D, lz = lx nz / nx (2D keeps the base lz).
cube_meshes() { # CELLS DIM LX LZ BLOCK(0|1) BX BY BZ RANKS...
    local c=$1 dim=$2 lx=$3 lz=$4 block=$5 bx=$6 by=$7 bz=$8
    shift 8
    echo "$@" | awk -v C="$c" -v dim="$dim" -v lx="$lx" -v lz="$lz" -v block="$block" \
        -v bx="$bx" -v by="$by" -v bz="$bz" "$split_awk"'
    function mesh_for(N,   ng, px, py, pz, i, j, t, nx, ny, nz, dev, out) {
        ng = 0
        for (px = 1; px <= N; px++) {
            if (N % px) continue
            for (py = 1; py <= px; py++) {
                if ((N / px) % py) continue
                pz = N / px / py
                if (pz > py || (dim == 2 && pz != 1)) continue
                ng++; gx[ng] = px; gy[ng] = py; gz[ng] = pz; key[ng] = (px + py + pz) * (N + 1) + px
            }
        }
        for (i = 2; i <= ng; i++)
            for (j = i; j > 1 && key[j - 1] > key[j]; j--) {
                t = key[j]; key[j] = key[j - 1]; key[j - 1] = t
                t = gx[j]; gx[j] = gx[j - 1]; gx[j - 1] = t
                t = gy[j]; gy[j] = gy[j - 1]; gy[j - 1] = t
                t = gz[j]; gz[j] = gz[j - 1]; gz[j - 1] = t
            }
        divisors(N)
        dev = bx * by * bz / C - 1; if (dev < 0) dev = -dev
        for (i = 1; i <= ng; i++) {
            nx = gx[i] * bx; ny = gy[i] * by; nz = gz[i] * bz
            if (block && !(cut_blocks(N, nx, ny, nz) && sp[1] == gx[i] && sp[2] == gy[i] && sp[3] == gz[i]))
                continue
            out = sprintf("%d %d %d %d %d", N, nx, ny, nz, nx * ny * nz)
            if (block) out = out sprintf(" %d %d %d %d %d", gx[i], gy[i], gz[i], bx * by * bz, bx * by * bz)
            else out = out " - - - - -"
            printf "%s %.5f 1.000 %.15g %s\n", out, dev, lx * ny / nx, (dim == 3 ? sprintf("%.15g", lx * nz / nx) : lz)
            return
        }
        print N, "none"
    }
    { for (i = 1; i <= NF; i++) mesh_for($i + 0) }'
}

# ---------------------------------------------------------------------------------------------
# Listing of one run -> "owned_min,owned_max,cycles,init,loop,sync,syncs,bytes" (empty fields
# for what is missing). loop, init and sync: max over ranks from the "Timers over N ranks"
# table (the TotalReel line, rank 0, when the table is missing); syncs per cycle and bytes per
# cycle (average over ranks) from the *I-Sync lines. "noloop" when the TotalReel loop is absent
# (such a run failed even when its exit status is 0).
parse_listing() {
    awk '
    function after(w,   i) { for (i = 1; i < NF; i++) if ($i == w) return $(i + 1); return "" }
    /^\*I-Internal +TotalReel = .*  loop: / { tl = after("loop:"); ti = after("(init:") }
    /^\*I-Timers +Timers over/ { g = 1; next }
    g && $1 == "*I-Timers" && $2 == "loop" { loop = $6 }
    g && $1 == "*I-Timers" && $2 == "init" { init = $6 }
    g && $1 == "*I-Timers" && $2 == "sync" { sync = $6 }
    /^\*I-Loop +Cycle / { cyc = $3 }
    /^\*I-Mesh +Partition .*owned cells per rank min / { omin = after("min"); omax = after("max") }
    /^\*I-Sync +Synchronisations per cycle: / { syncs = after("cycle:") }
    /^\*I-Sync +Bytes sent per cycle over ranks: / { bytes = after("avg") }
    END {
        if (tl == "") { print "noloop"; exit }
        if (loop == "") loop = tl
        if (init == "") init = ti
        print omin "," omax "," cyc "," init "," loop "," sync "," syncs "," bytes
    }' "$1"
}

# ---------------------------------------------------------------------------------------------
# Launchers: set the array cmd to one run of hydro on N ranks with DECK (listing on stdout).
# Real runs follow run/launch.sh (MPIRUN, MPI_ARGS, srun takes -n); SMPI runs go through
# run/smpirun.sh, whose options may change: this is the only place that calls it.
real_cmd() { # N DECK
    # shellcheck disable=SC2206
    local l=($launcher) a=(${MPI_ARGS:-})
    case $(basename "${l[0]}") in
    srun) cmd=("${l[@]}" "${a[@]}" -n "$1" "$hydro" "$2") ;;
    *)
        [ "$threads" -eq 1 ] || a=(--bind-to none "${a[@]}") # a rank's threads on every core
        cmd=("${l[@]}" "${a[@]}" -np "$1" "$hydro" "$2") ;;
    esac
}
smpi_cmd() { # N DECK; run from the caller's directory, so that paths in --smpi-args work as typed
    # shellcheck disable=SC2206
    local a=($smpi_args) m=()
    cd "$here"
    [ "$compute" != model ] || m=(-m "$costs")
    cmd=(sh "$smpirun_sh" "${a[@]}" "${m[@]}" -n "$1" "$2")
    [ ! -x "$smpirun_sh" ] || cmd=("${cmd[@]:1}")
}
launch() { # N DECK
    if [ "$smpi" -eq 1 ]; then smpi_cmd "$@"; else real_cmd "$@"; fi
    if [ "$timeout_s" -gt 0 ]; then
        timeout "$timeout_s" "${cmd[@]}"
    else
        "${cmd[@]}"
    fi
}

# ---------------------------------------------------------------------------------------------
# Reports from CSV files (the first one's header; every file must have the same).
csv_header=mode,pattern,ranks,repeat,nx,ny,nz,cells,cells_per_rank,owned_min,owned_max,cycles,init_s,loop_s,s_per_cycle,syncs_per_cycle,bytes_per_cycle,sync_s,efficiency,status,exit_code,campaign,listing

# The per-(campaign, mode, pattern, ranks) medians: what the table and the plot show.
# Efficiency = median loop at the smallest rank count with a successful run / median loop at N.
# Prints lines "key|label|ranks|mesh|cells_per_rank|ok|runs|exit codes|cycles|init|loop|spc|syncs|bytes|sync|eff".
aggregate() { # CSV
    awk -F, '
    function med(s,   n, a, i, j, t) {
        n = split(s, a, " ")
        if (n == 0) return ""
        for (i = 2; i <= n; i++) for (j = i; j > 1 && a[j - 1] + 0 > a[j] + 0; j--) { t = a[j]; a[j] = a[j - 1]; a[j - 1] = t }
        return (n % 2) ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
    }
    NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
    {
        c = $col["campaign"]; m = $col["mode"]; p = $col["pattern"]; n = $col["ranks"] + 0
        curve = c SUBSEP m SUBSEP p
        if (!(curve in seen)) { seen[curve] = 1; curves[++nc] = curve; cm[m SUBSEP p]++ }
        k = curve SUBSEP n
        if (!(k in runs)) { ranks[curve] = ranks[curve] " " n }
        runs[k]++
        mesh[k] = $col["nx"] "x" $col["ny"] "x" $col["nz"]; cpr[k] = $col["cells_per_rank"]
        if ($col["status"] == "ok") {
            okr[k]++
            for (f = 1; f <= 7; f++) {
                name = (f == 1) ? "cycles" : (f == 2) ? "init_s" : (f == 3) ? "loop_s" : (f == 4) ? "s_per_cycle" : \
                       (f == 5) ? "syncs_per_cycle" : (f == 6) ? "bytes_per_cycle" : "sync_s"
                if ($col[name] != "") val[k, f] = val[k, f] " " $col[name]
            }
        } else {
            e = $col["exit_code"]; if (e == "0") e = "0, no loop line"
            if (!((k, e) in seencode)) { seencode[k, e] = 1; codes[k] = codes[k] (codes[k] == "" ? "" : "; ") e }
        }
    }
    END {
        for (i = 1; i <= nc; i++) {
            curve = curves[i]; split(curve, q, SUBSEP)
            label = q[3] " (" q[2] ")"
            if (cm[q[2] SUBSEP q[3]] > 1) label = label " " q[1]
            # rank counts ascending
            nr = split(substr(ranks[curve], 2), rl, " ")
            for (a = 2; a <= nr; a++) for (b = a; b > 1 && rl[b - 1] + 0 > rl[b] + 0; b--) { t = rl[b]; rl[b] = rl[b - 1]; rl[b - 1] = t }
            ref = ""
            for (a = 1; a <= nr && ref == ""; a++) if (okr[curve, rl[a]] > 0) ref = med(val[curve, rl[a], 3])
            for (a = 1; a <= nr; a++) {
                k = curve SUBSEP rl[a]
                line = curve "|" label "|" rl[a] "|" mesh[k] "|" cpr[k] "|" (okr[k] + 0) "|" runs[k] "|" codes[k]
                for (f = 1; f <= 7; f++) line = line "|" med(val[k, f])
                lm = med(val[k, 3])
                line = line "|" ((lm != "" && ref != "" && lm + 0 > 0) ? sprintf("%.3f", ref / lm) : "")
                gsub(SUBSEP, "/", line)
                print line
            }
        }
    }' "$1"
}

markdown_table() { # AGGREGATE_FILE
    echo "| campaign | pattern | mode | ranks | mesh | cells/rank | runs ok | cycles | init s | loop s | s/cycle | syncs/cycle | bytes/cycle | sync s | efficiency |"
    echo "|---|---|---|---:|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|"
    awk -F'|' '
    function g(x) { return x == "" ? "" : sprintf("%.4g", x) }
    {
        split($1, q, "/")
        okc = $6 "/" $7
        if ($8 != "") okc = okc " (failed: exit " $8 ")"
        if ($6 == 0)
            printf "| %s | %s | %s | %s | %s | %s | %s | | | **failed** | | | | | |\n", q[1], q[3], q[2], $3, $4, $5, okc
        else
            printf "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", q[1], q[3], q[2], $3, $4, $5, okc,
                $9, g($10), g($11), g($12), $13, ($14 == "" ? "" : sprintf("%.0f", $14)), g($15), $16
    }' "$1"
}

# plot.dat (one gnuplot index per curve: ranks, median loop s, efficiency), plot.gp, plot.png
make_plot() { # AGGREGATE_FILE OUTDIR TITLE
    local agg=$1 dir=$2 title=$3 plots="" i=0 label style
    : > "$dir/plot.dat"
    while IFS= read -r label; do
        awk -F'|' -v l="$label" '$2 == l && $11 != "" { print $3, $11, $16 }' "$agg" > "$dir/.curve"
        [ -s "$dir/.curve" ] || continue
        { echo "# $label"; cat "$dir/.curve"; echo; echo; } >> "$dir/plot.dat"
        # simulated curves dashed with open points, so that they read apart from real ones
        case $label in *"(smpi)"*) style="dt 2 pt 6" ;; *) style="pt 7" ;; esac
        plots="$plots${plots:+, }'plot.dat' index $i using 1:@COL with linespoints $style title \"$label\""
        i=$((i + 1))
    done <<EOF
$(awk -F'|' '!s[$2]++ { print $2 }' "$agg")
EOF
    rm -f "$dir/.curve"
    {
        echo "# Weak scaling: loop time and efficiency against ranks; redraw with: cd $dir && gnuplot plot.gp"
        echo "set terminal pngcairo size 900,1000 font ',10'"
        echo "set output 'plot.png'"
        echo "set multiplot layout 2,1 title \"$title\""
        echo "set logscale x 2"
        echo "set xlabel 'ranks'"
        echo "set grid"
        echo "set key outside right top"
        echo "set lmargin 12"
        awk -F'|' 'NR == 1 || $3 + 0 < lo { lo = $3 + 0 } NR == 1 || $3 + 0 > hi { hi = $3 + 0 }
            END { printf "set xrange [%g:%g]\n", lo / 1.25, hi * 1.25 }' "$agg"
        if [ -z "$plots" ]; then
            echo "unset logscale x"
            echo "set xrange [0:1]"
            echo "set yrange [0:1]"
            echo "set label 1 'no successful run' at graph 0.4, graph 0.5"
            echo "set ylabel 'loop s (slowest rank, median)'"
            echo "plot 2 notitle"
            echo "set ylabel 'efficiency'"
            echo "plot 2 notitle"
        else
            echo "set ylabel 'loop s (slowest rank, median)'"
            echo "set yrange [0:*]"
            echo "plot ${plots//@COL/2}"
            echo "set ylabel 'efficiency = loop(smallest) / loop(N)'"
            echo "set yrange [0:1.1<*]"
            echo "plot ${plots//@COL/3}, 1 with lines dt 2 lc 'gray' notitle"
        fi
        echo "unset multiplot"
    } > "$dir/plot.gp"
    command -v gnuplot > /dev/null || {
        echo "$me: gnuplot not found (apt-get install gnuplot-nox): no plot.png" >&2
        return 1
    }
    (cd "$dir" && gnuplot plot.gp) || {
        echo "$me: gnuplot failed on $dir/plot.gp" >&2
        return 1
    }
}

# Table + plot of a results folder from its results.csv; prints results.md (NOTE, then the table).
report() { # DIR TITLE NOTE
    local dir=$1 rc=0
    aggregate "$dir/results.csv" > "$dir/.agg"
    {
        printf '%s\n\n' "$3"
        markdown_table "$dir/.agg"
    } > "$dir/results.md"
    make_plot "$dir/.agg" "$dir" "$2" || rc=1
    rm -f "$dir/.agg"
    cat "$dir/results.md"
    return $rc
}

new_dir() { # DEFAULT_PREFIX: the -o folder or a fresh results/<prefix>_<date>_<time>
    local d
    if [ -n "$out" ]; then
        d=$out
        [ ! -e "$d/results.csv" ] || die "$d already holds results.csv; pick another --out"
    else
        d=$top/results/$1_$(date +%Y%m%d_%H%M%S)
        local base=$d i=1
        while [ -e "$d" ]; do
            i=$((i + 1))
            d=${base}_$i
        done
    fi
    mkdir -p "$d" || die "cannot create $d"
    (cd "$d" && pwd)
}

# ---------------------------------------------------------------------------------------------
ranks="" cells=19531 patterns="mahyco minimal" repeats=1 cycles="" partitioner=block
base=$top/inputs/bench/mahyco.ini out="" timeout_s=0 threads=1 smpi=0 smpi_args="" dry=0 plot=0 shape=bench compute="" given_costs=""
# test hooks: the SMPI wrapper and the calibration script (see the environment in -h)
smpirun_sh=${SMPIRUN_SH:-$top/run/smpirun.sh}
calibrate=${SMPI_CALIBRATE:-$top/run/smpi_calibrate.sh}
launcher=${MPIRUN:-mpirun}
args="$*"
here=$(pwd)
overrides=()
plot_dirs=()
need() { [ $# -ge 2 ] || die "$1 needs a value (see -h)"; }
while [ $# -gt 0 ]; do
    case $1 in
    -h | --help) usage; exit 0 ;;
    -n | --ranks) need "$@"; ranks=$2; shift ;;
    -c | --cells) need "$@"; cells=$2; shift ;;
    -p | --pattern)
        need "$@"
        case $2 in
        mahyco | minimal) patterns=$2 ;;
        both) patterns="mahyco minimal" ;;
        *) die "--pattern: '$2' is not mahyco, minimal or both" ;;
        esac
        shift ;;
    -r | --repeats) need "$@"; repeats=$2; shift ;;
    --cycles) need "$@"; cycles=$2; shift ;;
    --partitioner)
        need "$@"
        case $2 in block | metis) partitioner=$2 ;; *) die "--partitioner: '$2' is not block or metis" ;; esac
        shift ;;
    --deck) need "$@"; base=$2; shift ;;
    --launcher) need "$@"; launcher=$2; shift ;;
    -t | --threads) need "$@"; threads=$2; shift ;;
    --timeout) need "$@"; timeout_s=$2; shift ;;
    --smpi) smpi=1 ;;
    --smpi-args) need "$@"; smpi_args=$2; shift ;;
    --smpi-costs)
        need "$@"
        [ -r "$2" ] || die "--smpi-costs: '$2' not readable"
        given_costs=$(cd "$(dirname "$2")" && pwd)/$(basename "$2")
        shift ;;
    --smpi-compute)
        need "$@"
        case $2 in measured | model) compute=$2 ;; *) die "--smpi-compute: '$2' is not measured or model" ;; esac
        shift ;;
    --shape)
        need "$@"
        case $2 in bench | cube) shape=$2 ;; *) die "--shape: '$2' is not bench or cube" ;; esac
        shift ;;
    -o | --out) need "$@"; out=$2; shift ;;
    --dry-run) dry=1 ;;
    --plot) plot=1 ;;
    -*) die "unknown option '$1' (see -h)" ;;
    *=*) overrides+=("$1") ;;
    *)
        [ "$plot" -eq 1 ] || die "unexpected argument '$1': overrides are section.key=value (see -h)"
        plot_dirs+=("$1") ;;
    esac
    shift
done

# ---- --plot: merge existing results folders ----
if [ "$plot" -eq 1 ]; then
    [ ${#plot_dirs[@]} -gt 0 ] || die "--plot needs at least one results folder"
    for d in "${plot_dirs[@]}"; do
        [ -f "$d/results.csv" ] || die "$d/results.csv: no such file"
        [ "$(head -n 1 "$d/results.csv")" = "$csv_header" ] || die "$d/results.csv: not a weak_scaling.sh CSV (header differs)"
    done
    dir=$(new_dir weak_scaling_plot)
    {
        echo "$csv_header"
        for d in "${plot_dirs[@]}"; do tail -n +2 "$d/results.csv"; done
    } > "$dir/results.csv"
    {
        echo "merged by: run/weak_scaling.sh --plot ${plot_dirs[*]}"
        echo "date: $(date '+%Y-%m-%d %H:%M:%S')"
    } > "$dir/campaign.txt"
    echo "$me: results in $dir" >&2
    report "$dir" "Weak scaling (merged)" "Weak scaling, merged from: ${plot_dirs[*]} (each folder's campaign.txt says how it ran)." || exit 1
    exit 0
fi

# ---- checks ----
posint --cells "$cells"
posint --repeats "$repeats"
[ -z "$cycles" ] || posint --cycles "$cycles"
case $timeout_s in '' | *[!0-9]*) die "--timeout: '$timeout_s' is not a number of seconds" ;; esac
[ -n "$ranks" ] || ranks=$(default_ranks)
ranks=$(echo "$ranks" | tr ',' ' ')
for n in $ranks; do posint --ranks "$n"; done
ranks=$(for n in $ranks; do echo "$n"; done | sort -n -u | tr '\n' ' ')
[ -n "${ranks// /}" ] || die "--ranks: empty list"
case $base in /*) ;; *) base=$(pwd)/$base ;; esac
[ -f "$base" ] || die "--deck: $base: no such file"
if [ "$smpi" -eq 1 ] && [ ! -f "$smpirun_sh" ]; then
    die "--smpi: $smpirun_sh is missing"
fi
if [ -n "$given_costs" ] && { [ "$smpi" -eq 0 ] || [ "${compute:-model}" != model ]; }; then
    die "--smpi-costs: only with --smpi and the compute model"
fi
if [ "$smpi" -eq 1 ]; then
    mode=smpi
    compute=${compute:-model}
    if [ "$compute" = model ] && [ "$dry" -eq 0 ] && [ -z "$given_costs" ] && [ ! -f "$calibrate" ]; then
        die "--smpi-compute model: $calibrate is missing (or use --smpi-compute measured)"
    fi
else
    mode=real
    [ -z "$compute" ] || die "--smpi-compute needs --smpi"
fi
posint --threads "$threads"
[ "$threads" -eq 1 ] || [ "$smpi" -eq 0 ] || die "--threads: the SMPI build has no OpenMP (one thread per simulated rank)"
export OMP_NUM_THREADS=$threads
mode_col=$mode # the CSV's mode: real or smpi, -tT with T threads per rank
[ "$threads" -eq 1 ] || mode_col=$mode-t$threads

hydro=${HYDRO:-$top/build/hydro}
if [ ! -x "$hydro" ]; then
    echo "$me: building $hydro" >&2
    make -s -C "$top" >&2 || die "cannot build $hydro"
    [ -x "$hydro" ] || die "$hydro: no such executable (HYDRO)"
fi

# The base deck with the user's overrides and the campaign's fixed keys, resolved by hydro itself
# (validated, every key written): its box and dimension drive the sizes, and each deck is this
# text with its own mesh size and pattern. No dumps: the bench has none, the SMPI build no HDF5.
resolved=$("$hydro" --check "$base" "${overrides[@]}" parallel.partitioner="$partitioner" \
    output.checkpoint_period=-1 ${cycles:+run.max_cycles="$cycles"}) ||
    die "the base deck or an override is invalid (above)"
key() { # SECTION KEY: value in the resolved deck
    printf '%s\n' "$resolved" | awk -v s="[$1]" -v k="$2" '
        /^\[/ { cur = $1 } cur == s && $1 == k && $2 == "=" { print $3; exit }'
}
[ "$(key mesh kind)" = cartesian ] || die "the base deck must use mesh.kind = cartesian (the generator)"
dim=$(key mesh dim)
lx=$(key mesh lx) ly=$(key mesh ly) lz=$(key mesh lz)
cycles=$(key run max_cycles)
block=0
[ "$partitioner" = block ] && block=1

# sizes_for RANKS...: the sizes table of the chosen rule
sizes_for() {
    if [ "$shape" = cube ]; then
        cube_meshes "$cells" "$dim" "$lx" "$lz" "$block" "$bx" "$by" "$bz" "$@"
    else
        size_meshes "$cells" "$dim" "$lx" "$ly" "$lz" "$block" "$@"
    fi
}
if [ "$shape" = cube ]; then
    cube=$(cube_block "$cells" "$dim")
    [ -n "$cube" ] || die "--shape cube: no block of $cells cells within 2% with edges within a factor 2"
    read -r bx by bz <<< "$cube"
    box="lx = $lx, ly and lz per rank count"
    [ "$dim" -eq 3 ] || box="lx = $lx, ly per rank count"
    shape_note="shape cube: one block of $bx x $by$([ "$dim" -eq 2 ] || echo " x $bz") = $((bx * by * bz)) cells per rank at every rank count, cubic cells, $box"
else
    box="$lx x $ly x $lz"
    shape_note="shape bench: box $box at every rank count"
fi
# shellcheck disable=SC2086
sizes=$(sizes_for $ranks)
bad=$(printf '%s\n' "$sizes" | awk '$2 == "none" { printf " %s", $1 }')
if [ "$dry" -eq 1 ]; then
    {
        echo "# $cells owned cells per rank, box $box (dim $dim), partitioner $partitioner"
        echo "# $shape_note"
        echo "# ranks nx ny nz cells cells/rank px py pz owned_min owned_max deviation edge_ratio ly lz"
        printf '%s\n' "$sizes" | awk '$2 != "none" { printf "%s %s %s %s %s %.1f %s %s %s %s %s %s %s %s %s\n",
            $1, $2, $3, $4, $5, $5 / $1, $6, $7, $8, $9, $10, $11, $12, $13, $14 }'
    }
fi
if [ -n "$bad" ] && [ "$shape" = cube ]; then
    die "--shape cube: hydro's block partitioner cuts no rank grid of$bad ranks into $bx x $by x $bz blocks (try --shape bench or --partitioner metis)"
fi
if [ -n "$bad" ]; then
    why="cubic-ish cells (edge ratio <= 2)"
    [ "$block" -eq 0 ] || why="$why and blocks hydro's block partitioner cuts within 2% (else try --partitioner metis)"
    die "cannot give every rank $cells owned cells within 2% with $why on$bad ranks"
fi
[ "$dry" -eq 0 ] || exit 0
# the calibration deck: the 1-rank deck of the same rule, whether or not 1 is in --ranks
if [ "$mode" = smpi ] && [ "$compute" = model ]; then
    size1=$(sizes_for 1)
    [ "$(echo "$size1" | awk '{ print $2 }')" != none ] ||
        die "--smpi-compute model: the rule gives no 1-rank mesh of $cells cells for the calibration (or use --smpi-compute measured)"
fi

# ---- the campaign ----
dir=$(new_dir weak_scaling)
mkdir -p "$dir/decks" "$dir/runs"
campaign=$(basename "$dir")
costs=$dir/costs.txt
case $mode/$compute in
smpi/model) if [ -n "$given_costs" ]; then compute_note="SMPI compute: model (per-kernel costs in costs.txt, a copy of $given_costs)"
    else compute_note="SMPI compute: model (per-kernel costs in costs.txt, calibrated by $(basename "$calibrate") -r 3 on calibrate.ini, 1 rank)"; fi ;;
smpi/*) compute_note="SMPI compute: measured (each simulated rank's compute timed as it runs)" ;;
*) compute_note="" ;;
esac
{
    echo "campaign: $campaign"
    echo "date: $(date '+%Y-%m-%d %H:%M:%S'), host $(uname -n), $(nproc 2>/dev/null || echo '?') cores"
    echo "command: run/weak_scaling.sh $args"
    if [ "$smpi" -eq 1 ]; then
        echo "launcher: run/smpirun.sh $smpi_args$([ "$compute" = measured ] || echo " -m $costs") -n N DECK"
        echo "$compute_note"
    else
        echo "launcher: OMP_NUM_THREADS=$threads $launcher$([ "$threads" -eq 1 ] || echo " --bind-to none") ${MPI_ARGS:-} -np N $hydro DECK"
    fi
    echo "base deck: $base ${overrides[*]}"
    echo "ranks: $ranks; threads per rank: $threads; patterns: $patterns; repeats: $repeats; cycles: $cycles; partitioner: $partitioner"
    echo "$shape_note"
    echo "$cells owned cells per rank; sizes (ranks nx ny nz cells px py pz owned_min owned_max deviation edge_ratio ly lz):"
    printf '%s\n' "$sizes"
} > "$dir/campaign.txt"

# write_deck SIZES_LINE PATTERN FILE: the resolved deck with the mesh size (and, cube, the box)
write_deck() {
    local n nx ny nz tot dly dlz
    read -r n nx ny nz tot _ _ _ _ _ _ _ dly dlz <<< "$1"
    {
        echo "; weak-scaling deck: $n ranks, sync pattern $2, $nx x $ny x $nz = $tot cells ($cells per rank wanted),"
        echo "; $shape_note,"
        echo "; generated by run/weak_scaling.sh from $base${overrides[*]:+ ${overrides[*]}}"
        printf '%s\n' "$resolved" | awk -v nx="$nx" -v ny="$ny" -v nz="$nz" -v p="$2" -v box="$([ "$shape" = cube ] && echo 1)" \
            -v ly="$dly" -v lz="$dlz" '
            /^\[/ { s = $1 }
            s == "[mesh]" && $1 == "nx" && $2 == "=" { $0 = "nx = " nx }
            s == "[mesh]" && $1 == "ny" && $2 == "=" { $0 = "ny = " ny }
            s == "[mesh]" && $1 == "nz" && $2 == "=" { $0 = "nz = " nz }
            box && s == "[mesh]" && $1 == "ly" && $2 == "=" { $0 = "ly = " ly }
            box && s == "[mesh]" && $1 == "lz" && $2 == "=" { $0 = "lz = " lz }
            s == "[parallel]" && $1 == "sync_pattern" && $2 == "=" { $0 = "sync_pattern = " p }
            { print }'
    } > "$3"
}

# decks: one per (ranks, pattern), complete (every key), so that the folder records the campaign
for n in $ranks; do
    for p in $patterns; do
        write_deck "$(printf '%s\n' "$sizes" | awk -v n="$n" '$1 == n')" "$p" "$dir/decks/$(printf 'n%04d' "$n")_$p.ini"
    done
done

# SMPI compute model: the per-kernel costs measured on the real build, 1 rank, before any run
if [ "$mode" = smpi ] && [ "$compute" = model ] && [ -n "$given_costs" ]; then
    cp "$given_costs" "$costs"
    echo "$me: SMPI compute model with the given costs $given_costs (no calibration)" >&2
elif [ "$mode" = smpi ] && [ "$compute" = model ]; then
    write_deck "$size1" "${patterns%% *}" "$dir/calibrate.ini"
    echo "$me: calibrating the SMPI compute model: $calibrate -r 3 -o $costs $dir/calibrate.ini" >&2
    crun=("$calibrate")
    [ -x "$calibrate" ] || crun=(sh "$calibrate")
    [ "$timeout_s" -eq 0 ] || crun=(timeout $((3 * timeout_s)) "${crun[@]}")
    rc=0
    (cd "$dir" && "${crun[@]}" -r 3 -o "$costs" "$dir/calibrate.ini") > "$dir/calibrate.log" 2>&1 || rc=$?
    if [ "$rc" -ne 0 ] || [ ! -s "$costs" ]; then
        tail -n 20 "$dir/calibrate.log" >&2
        echo "$me: the SMPI compute-model calibration failed (exit $rc$([ "$rc" -ne 0 ] || echo ", no $costs")), see $dir/calibrate.log; no run made (--smpi-compute measured skips it)" >&2
        exit 1
    fi
fi

# runs: repeats outermost, so that machine noise spreads over every rank count and pattern
raw=$dir/.raw.csv
: > "$raw"
nruns=$(($(echo "$ranks" | wc -w) * $(echo "$patterns" | wc -w) * repeats))
i=0 failed=0
for rep in $(seq "$repeats"); do
    for n in $ranks; do
        read -r _ nx ny nz tot _ <<< "$(printf '%s\n' "$sizes" | awk -v n="$n" '$1 == n')"
        for p in $patterns; do
            i=$((i + 1))
            name=$(printf 'n%04d' "$n")_${p}_r$rep
            deck=$dir/decks/$(printf 'n%04d' "$n")_$p.ini
            lst=$dir/runs/$name.txt
            rc=0
            (cd "$dir/runs" && launch "$n" "$deck") > "$lst" 2> "$dir/runs/$name.err" || rc=$?
            [ -s "$dir/runs/$name.err" ] || rm -f "$dir/runs/$name.err"
            fig=$(parse_listing "$lst")
            cpr=$(awk -v t="$tot" -v n="$n" 'BEGIN { printf "%.1f", t / n }')
            if [ "$rc" -eq 0 ] && [ "$fig" != noloop ]; then
                IFS=, read -r omin omax cyc init loop sync syncs bytes <<< "$fig"
                spc=$(awk -v l="$loop" -v c="$cyc" 'BEGIN { if (c > 0) printf "%.6g", l / c }')
                row="$mode_col,$p,$n,$rep,$nx,$ny,$nz,$tot,$cpr,$omin,$omax,$cyc,$init,$loop,$spc,$syncs,$bytes,$sync,,ok,0"
                echo "$me: [$i/$nruns] $mode_col $p $n ranks repeat $rep: loop $loop s" >&2
            else
                row="$mode_col,$p,$n,$rep,$nx,$ny,$nz,$tot,$cpr,,,,,,,,,,,failed,$rc"
                failed=$((failed + 1))
                echo "$me: [$i/$nruns] $mode_col $p $n ranks repeat $rep: FAILED (exit $rc), see $lst" >&2
            fi
            echo "$row,$campaign,runs/$name.txt" >> "$raw"
        done
    done
done

# efficiency per row: median loop of the smallest rank count with a success (same mode, pattern)
{
    echo "$csv_header"
    awk -F, -v OFS=, '
    function med(s,   n, a, i, j, t) {
        n = split(s, a, " ")
        for (i = 2; i <= n; i++) for (j = i; j > 1 && a[j - 1] + 0 > a[j] + 0; j--) { t = a[j]; a[j] = a[j - 1]; a[j - 1] = t }
        return (n % 2) ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
    }
    NR == FNR {
        if ($20 == "ok") {
            k = $1 SUBSEP $2
            if (!(k in small) || $3 + 0 < small[k]) { small[k] = $3 + 0; loops[k] = "" }
            if ($3 + 0 == small[k]) loops[k] = loops[k] " " $14
        }
        next
    }
    {
        k = $1 SUBSEP $2
        if ($20 == "ok" && (k in small) && $14 > 0) $19 = sprintf("%.4f", med(loops[k]) / $14)
        print
    }' "$raw" "$raw"
} > "$dir/results.csv"
rm -f "$raw"

# hydro's version as the runs' listings name it (first line), not one more MPI start-up here
ver=$(awk 'FNR == 1 && sub(/^\*I-Internal +/, "") && sub(/, [0-9]+ ranks,.*/, "")' "$dir"/runs/*.txt 2> /dev/null |
    sort -u | tr '\n' ' ')
echo "hydro: ${ver:-unknown (no listing)}" >> "$dir/campaign.txt"
echo "$me: results in $dir" >&2
title="Weak scaling, $cells cells per rank, $cycles cycles ($mode${compute:+, compute $compute})"
note="$title; $shape_note; partitioner $partitioner${compute_note:+; $compute_note}."
prc=0
report "$dir" "$title" "$note" || prc=1
if [ "$failed" -gt 0 ]; then
    echo "$me: $failed of $nruns runs failed (marked failed in $dir/results.csv)" >&2
    exit 1
fi
exit $prc
