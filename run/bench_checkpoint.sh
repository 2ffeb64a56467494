#!/bin/sh
# Checkpoint write bandwidth against a plain sequential write of the same bytes to the same
# directory, side by side: each repeat runs hydro on the MaHyCo bench deck with a dump every
# cycle, then run/bench/raw_write.c (write + fsync + close, the same count) as many times as
# there were dumps. Both sides include the fsync; hydro's seconds are the listing's (reorder to
# global-id order, HDF5 collective write, fsync, rename, XDMF). Medians over every dump and
# every plain write, printed as a Markdown table.
# usage: run/bench_checkpoint.sh [-n RANKS] [-r REPEATS] [-c DUMPS] [-d DIR] [-o FILE] [section.key=value ...]
#   -d the dump directory (default build/bench/ckpt, created and emptied of dumps afterwards),
#   -o appends "key value" lines (ckpt_bytes, ckpt_s, ckpt_GBps, raw_write_GBps, ...) to FILE
# env: MPIRUN (launcher, default "mpirun"), MPI_ARGS (extra launcher arguments), HYDRO (binary),
#      BENCH_BIN (directory of the raw programs, default build/bench)
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
hydro=${HYDRO:-$top/build/hydro}
raw_write=${BENCH_BIN:-$top/build/bench}/raw_write
mpirun_cmd=${MPIRUN:-mpirun}
ranks=2
repeats=3
dumps=6
dir=$top/build/bench/ckpt
out=
usage() { echo "usage: $0 [-n RANKS] [-r REPEATS] [-c DUMPS] [-d DIR] [-o FILE] [section.key=value ...]" >&2; exit 2; }
help() { sed -n '2,/^set -eu/p' "$0" | sed -e '$d' -e 's/^# \{0,1\}//'; exit 0; }
while getopts n:r:c:d:o:h opt; do
    case $opt in
    n) ranks=$OPTARG ;;
    r) repeats=$OPTARG ;;
    c) dumps=$OPTARG ;;
    d) dir=$OPTARG ;;
    o) out=$OPTARG ;;
    h) help ;;
    *) usage ;;
    esac
done
shift $((OPTIND - 1))
for n in "$ranks" "$repeats" "$dumps"; do case $n in "" | *[!0-9]* | 0) usage ;; esac; done
[ -x "$raw_write" ] || { echo "$0: $raw_write not found: build it with make bench" >&2; exit 1; }
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
tmp=$(mktemp -d)
clean() { rm -f "$dir"/hydro_*.h5 "$dir"/hydro_*.xmf "$dir"/hydro.xmf "$dir"/.raw_write.tmp; }
trap 'rm -rf "$tmp"; clean' EXIT
. "$top/run/bench_lib.sh" # median, timer, peak

# the bench deck with 40k owned cells per rank (dumps long enough for the listing's milliseconds)
for i in $(seq "$repeats"); do
    clean
    # shellcheck disable=SC2086
    $mpirun_cmd ${MPI_ARGS:-} -np "$ranks" "$hydro" "$top/inputs/bench/mahyco.ini" mesh.nx=$((100 * ranks)) \
        run.max_cycles="$dumps" output.checkpoint_period=1 output.checkpoint_keep=1 output.checkpoint_dir="$dir" \
        output.listing_period=0 "$@" > "$tmp/out"
    sed -n 's/.*Checkpoint Dump .* MB in \([0-9.]*\) s .*/\1/p' "$tmp/out" >> "$tmp/hydro_s"
    bytes=$(wc -c < "$(ls "$dir"/hydro_*.h5 | tail -n 1)")
    n=$(grep -c 'Checkpoint Dump' "$tmp/out")
    for k in $(seq "$n"); do
        "$raw_write" -r 1 "$dir" "$bytes" > "$tmp/raw"
        awk '{print $4}' "$tmp/raw" >> "$tmp/raw_s"
    done
done
cells=$(sed -n 's/.*D hexes: \([0-9]*\) cells.*/\1/p' "$tmp/out")
hs=$(median < "$tmp/hydro_s")
rs=$(median < "$tmp/raw_s")
nd=$(wc -l < "$tmp/hydro_s")
echo "inputs/bench/mahyco.ini mesh.nx=$((100 * ranks))${*:+ $*}, $ranks ranks, $cells cells, a dump every cycle, $repeats interleaved repeats ($nd dumps, as many plain writes), medians; directory $dir"
echo
echo "| writer | bytes | seconds | GB/s |"
echo "|---|---|---|---|"
awk -v b="$bytes" -v s="$hs" 'BEGIN {printf "| hydro dump (HDF5, MPI-IO, %s) | %d | %.4f | %.3f |\n", "fsync + rename", b, s, b / s / 1e9}'
awk -v b="$bytes" -v s="$rs" 'BEGIN {printf "| plain write() + fsync, one process (run/bench/raw_write.c) | %d | %.4f | %.3f |\n", b, s, b / s / 1e9}'
awk -v h="$hs" -v r="$rs" 'BEGIN {printf "| dump / plain (bandwidth) | | | %.3f |\n", r / h}'
[ -z "$out" ] || awk -v b="$bytes" -v h="$hs" -v r="$rs" -v n="$nd" 'BEGIN {
    printf "ckpt_bytes %d\nckpt_dumps %d\nckpt_s %s\nckpt_GBps %.4f\nraw_write_s %s\nraw_write_GBps %.4f\n", b, n, h, b / h / 1e9, r, b / r / 1e9}' >> "$out"
