#!/bin/sh
# Rebuilds the checkpoint seeds (test/fuzz/corpus/checkpoint/*.h5) with the built hydro: rerun it
# whenever the dump format changes. Usage: sh test/fuzz/make_seeds.sh [BUILD]  (default: build,
# or $HYDRO_BUILD). Each seed is a few KB: a 2D Sod dump (4 x 1 quads, the hydro variables) and
# a 3D sync_only dump (2 x 1 x 1 hexes, a 2-component cell and node variable), and each must
# restart (hydro --restart) before it replaces the old one.
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-${HYDRO_BUILD:-build}}
case $build in /*) ;; *) build=$top/$build ;; esac
hydro=$build/hydro
out=$top/test/fuzz/corpus/checkpoint
[ -x "$hydro" ] || { echo "make_seeds.sh: no $hydro: build it first (make BUILD=...)" >&2; exit 1; }
if [ "$(id -u)" = 0 ]; then
    export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"

# seed NAME CYCLES DECK OVERRIDES...: one serial run dumping at its end only.
seed() {
    name=$1 cycles=$2 deck=$3
    shift 3
    "$hydro" "$deck" "$@" run.max_cycles="$cycles" output.checkpoint_period=0 output.checkpoint_dir="$name" \
        > "$name.log" 2>&1 || { cat "$name.log" >&2; echo "make_seeds.sh: $name: the run failed" >&2; exit 1; }
    dump=$name/$(printf 'hydro_%06d.h5' "$cycles")
    [ -f "$dump" ] || { echo "make_seeds.sh: $name: no $dump" >&2; exit 1; }
    "$hydro" --restart "$dump" run.max_cycles="$cycles" > "$name.restart.log" 2>&1 ||
        { cat "$name.restart.log" >&2; echo "make_seeds.sh: $name: hydro --restart refuses $dump" >&2; exit 1; }
    mkdir -p "$out"
    cp "$dump" "$out/$name.h5"
    echo "make_seeds.sh: $out/$name.h5 ($(wc -c < "$dump") bytes)"
}

seed sod_2d 2 "$top/inputs/sod_x.ini" mesh.dim=2 mesh.nx=4 mesh.ny=1
seed sync_only_3d 1 "$top/inputs/sync_only.ini" mesh.nx=2 mesh.ny=1 mesh.nz=1 case.cell_vars=1 \
    case.node_vars=1 case.components=2
