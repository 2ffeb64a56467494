#!/bin/sh
# run/smpi_calibrate.sh: per-kernel costs for the SMPI compute model (run/smpirun.sh -m), measured by real 1-rank runs.
set -eu

usage() {
    cat <<'EOF2'
usage: run/smpi_calibrate.sh [-r REPEATS] -o COSTS DECK [section.key=value ...]

Runs the real build of hydro (build/hydro) on one rank REPEATS times (default 3) with the
deck and HYDRO_KERNEL_REPORT set, and writes COSTS: per physics kernel, the seconds per item
(a) and per active item (b) fitted by least squares over its calls (miniapp/kernels.h), the
median over the repeats. run/smpirun.sh -m COSTS then charges every simulated kernel call
a x items + b x active items instead of the host time it happened to take. Calibrate with the
deck of one simulated rank (same cells per rank, same pattern and options) on an idle machine.
Dumps are switched off (output.checkpoint_period=-1).

  -r REPEATS   runs to take the median of (default 3)
  -o COSTS     costs file to write (required)
  -h           this text

Environment: HYDRO (binary, default build/hydro, built if missing), MPIRUN (default mpirun),
MPI_ARGS (extra launcher arguments). Exit status: 0 written, 1 a run failed, 2 bad usage.
EOF2
}

die() {
    echo "smpi_calibrate.sh: $*" >&2
    exit 2
}

root=$(cd "$(dirname "$0")/.." && pwd)
repeats=3
out=
while getopts r:o:h opt; do
    case $opt in
    r) repeats=$OPTARG ;;
    o) out=$OPTARG ;;
    h) usage; exit 0 ;;
    *) usage >&2; exit 2 ;;
    esac
done
shift $((OPTIND - 1))
case $repeats in '' | *[!0-9]* | 0*) die "-r: '$repeats' is not a positive integer" ;; esac
[ -n "$out" ] || { usage >&2; die "-o COSTS is required"; }
[ $# -ge 1 ] || { usage >&2; die "no deck given"; }
deck=$1
shift
[ -r "$deck" ] || die "deck '$deck' not readable"
hydro=${HYDRO:-$root/build/hydro}
if [ ! -x "$hydro" ]; then
    echo "smpi_calibrate.sh: building $hydro" >&2
    make -s -C "$root" >&2
fi
launcher=${MPIRUN:-mpirun}

tmp=$(mktemp -d "${TMPDIR:-/tmp}/hydro-calib.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM
i=1
while [ "$i" -le "$repeats" ]; do
    case $(basename "$launcher") in
    srun) cmd="$launcher ${MPI_ARGS:-} -n 1" ;;
    *) cmd="$launcher ${MPI_ARGS:-} -np 1" ;;
    esac
    # shellcheck disable=SC2086 # cmd and MPI_ARGS hold separate words
    if ! (cd "$tmp" && HYDRO_KERNEL_REPORT="$tmp/run$i" $cmd "$hydro" "$deck" "$@" output.checkpoint_period=-1 \
        > "$tmp/listing$i" 2>&1) || [ ! -s "$tmp/run$i" ]; then
        echo "smpi_calibrate.sh: run $i of $deck failed:" >&2
        tail -n 5 "$tmp/listing$i" >&2
        exit 1
    fi
    i=$((i + 1))
done

# Per kernel: the first run's counts (every run counts the same), the medians of seconds, a and b.
awk -v n="$repeats" -v deck="$deck" -v hydro="$hydro" '
function med(s,   k, a, i, j, t) {
    k = split(s, a, " ")
    for (i = 2; i <= k; i++) for (j = i; j > 1 && a[j - 1] + 0 > a[j] + 0; j--) { t = a[j]; a[j] = a[j - 1]; a[j - 1] = t }
    return (k % 2) ? a[(k + 1) / 2] : (a[k / 2] + a[k / 2 + 1]) / 2
}
/^#/ { next }
NF == 7 {
    if (!($1 in cnt)) { order[++nk] = $1; cnt[$1] = $2 " " $3 " " $4 }
    t[$1] = t[$1] " " $5; a[$1] = a[$1] " " $6; b[$1] = b[$1] " " $7
}
END {
    printf "# hydro kernel costs for run/smpirun.sh -m: medians over %d real 1-rank runs of %s (%s)\n", n, deck, hydro
    print "# kernel calls items active_items seconds a_s_per_item b_s_per_active_item"
    for (i = 1; i <= nk; i++) { k = order[i]; printf "%s %s %.6e %.6e %.6e\n", k, cnt[k], med(t[k]), med(a[k]), med(b[k]) }
}' "$tmp"/run* > "$tmp/costs"
mv "$tmp/costs" "$out"
echo "smpi_calibrate.sh: wrote $out ($repeats runs of $(basename "$deck") on 1 rank)" >&2
