#!/bin/sh
# compare_commit.sh [-k DIR] COMMIT: builds COMMIT (a git worktree) and the current tree, runs the
# same matrix of short runs with both (1-4 ranks, 2D and 3D, both sync patterns, remap none /
# one step / directional, METIS and block, Gmsh meshes, sync = basic, ghost layers, two and three
# materials, two threads, rebalancing by shuffle and by metis/region on both transports, padding
# variables, sync_only, restarts on another rank count) and compares every final dump with test/h5same.sh --any-version --any-deck (the
# same arguments on both sides: the deck attribute differs only by keys added since) and the
# listings' Totals lines. Prints one line per run; exits 0 when every run is identical bit for
# bit, 1 otherwise (2: bad usage or a build failed). -k DIR keeps the runs in DIR.
# Used for refactorings that must not change results (BENCHMARKS.md names the commits compared).
set -u
keep=
while getopts k: o; do
    case $o in
    k) keep=$OPTARG ;;
    *) echo "usage: $0 [-k DIR] COMMIT" >&2; exit 2 ;;
    esac
done
shift $((OPTIND - 1))
[ $# -eq 1 ] || { echo "usage: $0 [-k DIR] COMMIT" >&2; exit 2; }
top=$(cd "$(dirname "$0")/.." && pwd)
old=$(git -C "$top" rev-parse --verify "$1^{commit}" 2>/dev/null) || { echo "$0: no commit '$1'" >&2; exit 2; }
if [ "$(id -u)" = 0 ]; then
    export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
fi
MPIRUN=${HYDRO_MPIRUN:-mpirun --oversubscribe}
work=${keep:-$(mktemp -d)}
mkdir -p "$work"
[ -n "$keep" ] || trap 'git -C "$top" worktree remove --force "$work/src" 2>/dev/null; rm -rf "$work"' EXIT

echo "compare_commit: building $old and the current tree"
git -C "$top" worktree remove --force "$work/src" 2>/dev/null
git -C "$top" worktree add -q --detach "$work/src" "$old" || exit 2
make -s -C "$work/src" BUILD="$work/build-old" "$work/build-old/hydro" > "$work/build-old.log" 2>&1 ||
    { tail -n 20 "$work/build-old.log"; exit 2; }
make -s -C "$top" BUILD="$work/build-new" "$work/build-new/hydro" > "$work/build-new.log" 2>&1 ||
    { tail -n 20 "$work/build-new.log"; exit 2; }

I=$top/inputs
short="output.checkpoint_period=0 output.listing_period=5"
sod3="$I/sod_x.ini mesh.nx=40 mesh.ny=4 mesh.nz=4 run.max_cycles=12 $short"
sedov2="$I/sedov_2d.ini mesh.nx=24 mesh.ny=24 run.max_cycles=20 $short"
lb="loadbalance.period=4 loadbalance.threshold=0"
# name | ranks | environment | arguments (the restart runs: first run, then --restart on other ranks)
matrix() {
    cat << EOF
sod3d-1-none|1||$sod3 physics.remap=none
sod3d-2-unsplit|2||$sod3 physics.remap=euler
sod3d-3-directional|3||$sod3 physics.remap=euler physics.remap_split=directional
sod3d-4-minimal-directional|4||$sod3 parallel.sync_pattern=minimal physics.remap_split=directional
sod3d-2-minimal-none|2||$sod3 parallel.sync_pattern=minimal physics.remap=none
sod3d-3-block-basic|3||$sod3 parallel.partitioner=block parallel.sync=basic
sod3d-4-block-minimal|4||$sod3 parallel.partitioner=block parallel.sync_pattern=minimal mesh.perturb=0.2
sod3d-2-layers1-lagrange|2||$sod3 parallel.ghost_layers=1 physics.remap=none
sod3d-3-layers2-directional|3||$sod3 parallel.ghost_layers=2 physics.remap_split=directional
sodz-3|3||$I/sod_3d_z.ini mesh.nx=4 mesh.ny=4 mesh.nz=32 run.max_cycles=10 $short
sod2d-y-2-basic|2||$I/sod_2d_y.ini mesh.nx=6 mesh.ny=40 run.max_cycles=12 parallel.sync=basic $short
sedov2d-3-directional|3||$sedov2 physics.remap_split=directional
sedov2d-4-minimal-none|4||$sedov2 parallel.sync_pattern=minimal physics.remap=none
sedov2d-2-faces-stiffened|2||$sedov2 physics.length=faces physics.eos=stiffened physics.p_inf=0.01
noh3d-2|2||$I/noh_3d.ini mesh.nx=10 mesh.ny=10 mesh.nz=10 run.max_cycles=8 $short
triple-4-minimal|4||$I/triple_point.ini mesh.nx=28 mesh.ny=12 run.max_cycles=10 parallel.sync_pattern=minimal $short
sod2mat-2|2||$I/sod_2mat.ini mesh.nx=60 run.max_cycles=30 $short
water-air-3-minimal|3||$I/water_air.ini mesh.nx=60 run.max_cycles=30 parallel.sync_pattern=minimal $short
triple3mat-2-threads|2|OMP_NUM_THREADS=2|$I/triple_point_3mat.ini mesh.nx=28 mesh.ny=12 run.max_cycles=20 $short
bisod-2-threads|2|OMP_NUM_THREADS=2|$I/bench/mahyco.ini mesh.nx=30 mesh.ny=6 mesh.nz=6 run.max_cycles=30 $short
gmsh-sedov-2|2||$I/sedov_gmsh.ini run.max_cycles=15 $short
gmsh-hex-3|3||$I/sod_x.ini mesh.kind=gmsh mesh.file=$I/meshes/hex_block.msh run.max_cycles=8 $short
gmsh-box2d-4-block|4||$I/sod_x.ini mesh.kind=gmsh mesh.dim=2 mesh.file=$I/meshes/box_2d.msh run.max_cycles=8 parallel.sync_pattern=minimal $short
lb-shuffle-p2p-2|2||$sod3 $lb loadbalance.mode=shuffle loadbalance.extra_cell_vars=3 loadbalance.extra_cell_array=2
lb-shuffle-a2a-3|3|ARCANE_MESH_EXCHANGE_USE_COLLECTIVE=TRUE|$sod3 $lb loadbalance.mode=shuffle parallel.sync_pattern=minimal
lb-region-p2p-3|3||$sod3 $lb loadbalance.mode=metis loadbalance.cost=region loadbalance.cost_factor=4
lb-region-a2a-4|4|ARCANE_MESH_EXCHANGE_USE_COLLECTIVE=TRUE|$sedov2 $lb loadbalance.mode=metis loadbalance.cost=region
lb-shock-p2p-2|2||$sedov2 $lb loadbalance.mode=metis loadbalance.cost=shock
sync-only-3|3||$I/sync_only.ini mesh.nx=20 mesh.ny=4 mesh.nz=4 run.max_cycles=6 case.components=2 $short
sync-only-lb-2|2||$I/sync_only.ini mesh.nx=20 mesh.ny=4 mesh.nz=4 run.max_cycles=6 $lb loadbalance.mode=shuffle $short
restart-2to3|2>3||$sod3 physics.remap_split=directional output.checkpoint_period=6
restart-3to1-lb|3>1||$sedov2 output.checkpoint_period=8 $lb loadbalance.mode=shuffle
restart-sync-only-1to4|1>4||$I/sync_only.ini mesh.nx=20 mesh.ny=4 mesh.nz=4 run.max_cycles=6 output.checkpoint_period=3
EOF
}

# run BUILD DIR RANKS ENV ARGS...: one run (or a run and its restart) in DIR; the final dump's
# path on stdout.
run() {
    b=$1 d=$2 np=$3 envs=$4
    shift 4
    mkdir -p "$d"
    case $np in
    *\>*)
        first=${np%>*} then=${np#*>}
        (cd "$d" && env $envs $MPIRUN -np "$first" "$b/hydro" "$@" > first.out 2>&1 < /dev/null) || return 1
        mid=$(ls "$d"/checkpoints/hydro_*.h5 | sort | head -n 1)
        (cd "$d" && env $envs $MPIRUN -np "$then" "$b/hydro" --restart "$mid" > run.out 2>&1 < /dev/null) || return 1
        ;;
    *) (cd "$d" && env $envs $MPIRUN -np "$np" "$b/hydro" "$@" > run.out 2>&1 < /dev/null) || return 1 ;;
    esac
    ls "$d"/checkpoints/hydro_*.h5 | sort | tail -n 1
}

# a build that decides rebalances by gain and cost is told to rebalance at every check, as the
# builds before did: the runs then migrate on both sides
decide() { "$1/hydro" --help 2>/dev/null | grep -q '^  decide ' && echo loadbalance.decide=threshold; }
old_extra=$(decide "$work/build-old") new_extra=$(decide "$work/build-new")
n=0 bad=0
matrix > "$work/matrix.txt"
while IFS='|' read -r name np envs args; do
    n=$((n + 1))
    # shellcheck disable=SC2086 # the arguments are words
    a=$(run "$work/build-old" "$work/runs/$name/old" "$np" "$envs" $args $old_extra) || { echo "FAILED $name (old build): see $work/runs/$name/old"; bad=$((bad + 1)); continue; }
    # shellcheck disable=SC2086
    b=$(run "$work/build-new" "$work/runs/$name/new" "$np" "$envs" $args $new_extra) || { echo "FAILED $name (new build): see $work/runs/$name/new"; bad=$((bad + 1)); continue; }
    why=$(sh "$top/test/h5same.sh" --any-version --any-deck "$a" "$b" 2>&1) # the deck text grows with new keys
    same=$?
    ta=$(grep 'Totals' "$work/runs/$name/old/run.out") tb=$(grep 'Totals' "$work/runs/$name/new/run.out")
    if [ $same -eq 0 ] && [ "$ta" = "$tb" ]; then
        echo "same      $name ($np ranks, $(basename "$a"))"
    else
        echo "DIFFERENT $name ($np ranks): ${why:-the listings' Totals lines differ}" | head -n 5
        bad=$((bad + 1))
    fi
done < "$work/matrix.txt"
echo "compare_commit: $((n - bad)) of $n runs identical bit for bit to $old"
[ $bad -eq 0 ]
