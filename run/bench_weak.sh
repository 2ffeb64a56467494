#!/bin/sh
# Weak scaling 1 -> N real ranks beside the machine's own ceiling, interleaved: the MaHyCo bench
# deck (inputs/bench/mahyco.ini, block partitioner, the meshes of run/weak_scaling.sh: the same
# owned cells per rank) on 1 rank, on N ranks, and as N independent 1-rank runs started at once,
# each on the core its rank of the N-rank run gets where that is known (indep_bind; no
# communication at all: what sharing the cores, caches and memory system costs). Medians over the
# repeats of the slowest rank's loop time; efficiency = 1-rank loop / N-rank loop, ceiling =
# 1-rank loop / the slowest of the independent runs, and efficiency / ceiling (what the
# communication and the partition cost beyond sharing the machine).
# usage: run/bench_weak.sh [-n N] [-r REPEATS] [-p PATTERN] [-s SHAPE] [-o FILE] [section.key=value ...]
#   -n ranks (default 2), -p mahyco or minimal (default minimal), -s the mesh rule of
#   run/weak_scaling.sh: bench (default: the bench's 1 x 0.1 x 0.1 box, whose rank blocks change
#   shape with the rank count: 125 x 12 x 13 cells on 1 rank, 76 x 16 x 16 per rank on 2) or cube
#   (every rank the same block, 30 x 26 x 25, the box growing with the ranks); -o appends "key
#   value" lines (weak_n, weak_loop_1_s, weak_loop_n_s, weak_loop_indep_s, weak_eff, weak_ceiling;
#   with -s cube each key ends in _cube) to FILE.
# env: MPIRUN (launcher, default "mpirun"), MPI_ARGS (extra launcher arguments), HYDRO (binary)
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
hydro=${HYDRO:-$top/build/hydro}
mpirun_cmd=${MPIRUN:-mpirun}
ranks=2
repeats=5
pattern=minimal
shape=bench
out=
usage() { echo "usage: $0 [-n N] [-r REPEATS] [-p PATTERN] [-s SHAPE] [-o FILE] [section.key=value ...]" >&2; exit 2; }
help() { sed -n '2,/^set -eu/p' "$0" | sed -e '$d' -e 's/^# \{0,1\}//'; exit 0; }
while getopts n:r:p:s:o:h opt; do
    case $opt in
    n) ranks=$OPTARG ;;
    r) repeats=$OPTARG ;;
    p) pattern=$OPTARG ;;
    s) shape=$OPTARG ;;
    o) out=$OPTARG ;;
    h) help ;;
    *) usage ;;
    esac
done
shift $((OPTIND - 1))
for n in "$ranks" "$repeats"; do case $n in "" | *[!0-9]* | 0) usage ;; esac; done
[ "$ranks" -ge 2 ] || { echo "$0: -n needs at least 2 ranks (the comparison is against one)" >&2; exit 2; }
case $pattern in mahyco | minimal) ;; *) usage ;; esac
case $shape in bench | cube) ;; *) usage ;; esac
[ -x "$hydro" ] || { echo "$0: $hydro not found: build it with make" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$top/run/bench_lib.sh" # median, timer, peak, cells_of, cycles_of, bytes_avg_of, loop_max

# the meshes: run/weak_scaling.sh's rule, block partitioner
HYDRO=$hydro bash "$top/run/weak_scaling.sh" --dry-run -n "1,$ranks" -p "$pattern" --shape "$shape" \
    > "$tmp/plan" 2>&1 || { cat "$tmp/plan" >&2; exit 1; }
# the cube rule's box changes with the rank count: its ly and lz (the last two columns) go too
mesh_of() {
    awk -v n="$1" -v s="$shape" '!/^#/ && $1 == n {
        printf "mesh.nx=%s mesh.ny=%s mesh.nz=%s", $2, $3, $4
        if (s == "cube") printf " mesh.ly=%s mesh.lz=%s", $(NF - 1), $NF }' "$tmp/plan"
}
m1=$(mesh_of 1) mn=$(mesh_of "$ranks")
[ -n "$m1" ] && [ -n "$mn" ] || { echo "$0: no mesh for 1 or $ranks ranks from run/weak_scaling.sh --dry-run" >&2; exit 1; }
# one NAME NP MESH: a run, its slowest rank's loop appended to NAME's list
one() {
    name=$1 np=$2 mesh=$3 bind=$4
    shift 4
    # shellcheck disable=SC2086
    $mpirun_cmd ${MPI_ARGS:-} $bind -np "$np" "$hydro" "$top/inputs/bench/mahyco.ini" $mesh parallel.partitioner=block \
        parallel.sync_pattern="$pattern" output.checkpoint_period=-1 "$@" > "$tmp/out.$name" 2>&1 ||
        { tail -n 5 "$tmp/out.$name" >&2; exit 1; }
}
# Where independent run K runs: on the core that rank K-1 of the N-rank run has (Open MPI binds
# each rank to a core of its own, in order, up to 2 ranks; its default for more is a socket),
# so that a slower core (a VM's vCPU that its host shares) slows the ceiling as it slows the
# N-rank run. Left to itself each job would bind its one rank to the first core, all of them to
# the same one; unbound, the system moves them off a slow core, which the bound ranks cannot do.
# Unbound as well beyond 2 ranks or the cores, with another launcher than Open MPI's, and when
# MPI_ARGS places the ranks itself (binding, mapping, a CPU list).
pin=0
if $mpirun_cmd --version 2>&1 | grep -q "Open MPI" && [ "$ranks" -le 2 ] && [ "$ranks" -le "$(nproc 2>/dev/null || echo 1)" ]
then
    case ${MPI_ARGS:-} in *bind-to* | *map-by* | *rank-by* | *cpu-set* | *cpu-list* | *hwthread*) ;; *) pin=1 ;; esac
fi
indep_bind() {
    if [ "$pin" = 1 ]; then
        echo "--cpu-set $(($1 - 1)) --bind-to core"
    else
        echo "--bind-to none"
    fi
}
for i in $(seq "$repeats"); do
    one single 1 "$m1" "" "$@"
    loop_max "$tmp/out.single" >> "$tmp/loop_1"
    one many "$ranks" "$mn" "" "$@"
    loop_max "$tmp/out.many" >> "$tmp/loop_n"
    pids=
    for k in $(seq "$ranks"); do # started together, each alone in its MPI job
        one "indep$k" 1 "$m1" "$(indep_bind "$k")" "$@" &
        pids="$pids $!"
    done
    for p in $pids; do wait "$p" || exit 1; done
    for k in $(seq "$ranks"); do loop_max "$tmp/out.indep$k"; done | sort -g | tail -n 1 >> "$tmp/loop_indep"
done
l1=$(median < "$tmp/loop_1") ln=$(median < "$tmp/loop_n") li=$(median < "$tmp/loop_indep")
echo "inputs/bench/mahyco.ini, pattern $pattern, block partitioner, mesh rule $shape," \
    "$(cycles_of "$tmp/out.single") cycles;" \
    "1 rank: $m1 ($(cells_of "$tmp/out.single") cells), $ranks ranks: $mn ($(cells_of "$tmp/out.many") cells);" \
    "$repeats interleaved repeats, medians of the slowest rank's loop${*:+; $*}"
echo
echo "| run | loop s | 1-rank loop / this |"
echo "|---|---:|---:|"
awk -v a="$l1" -v n="$ranks" -v b="$ln" -v c="$li" 'BEGIN {
    printf "| 1 rank | %.4f | 1.000 |\n", a
    printf "| %d ranks (weak scaling: efficiency) | %.4f | %.3f |\n", n, b, a / b
    printf "| %d independent 1-rank runs at once (the ceiling) | %.4f | %.3f |\n", n, c, a / c
    printf "| efficiency / ceiling | | %.3f |\n", c / b }'
sfx=
[ "$shape" = bench ] || sfx=_$shape
[ -z "$out" ] || awk -v n="$ranks" -v a="$l1" -v b="$ln" -v c="$li" -v x="$sfx" 'BEGIN {
    printf "weak_n%s %d\nweak_loop_1_s%s %s\nweak_loop_n_s%s %s\nweak_loop_indep_s%s %s\n", x, n, x, a, x, b, x, c
    printf "weak_eff%s %.6f\nweak_ceiling%s %.6f\n", x, a / b, x, a / c }' >> "$out"
