#!/bin/sh
# hydro's memory estimate (miniapp/memest.c) against the peak resident memory it then measures,
# for a table of runs (dimension, case, partitioner, ranks, padding and migrations, a Gmsh mesh):
# the listing's "Estimate" and "Peak resident memory per rank" lines, largest rank, as Markdown.
# usage: run/bench_memest.sh [HYDRO]   env: MPIRUN (default "mpirun"), MPI_ARGS
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
hydro=${1:-$top/build/hydro}
mpirun_cmd=${MPIRUN:-mpirun}
[ -x "$hydro" ] || { echo "$0: $hydro is not an executable" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
B=$top/inputs/bench
# ranks | deck | overrides | what
runs="1|$B/mahyco.ini|mesh.nx=400|3D bisod_x, 160k cells, METIS
2|$B/mahyco.ini|mesh.nx=200 mesh.ny=40 mesh.nz=40 parallel.partitioner=block|3D bisod_x, 320k cells, blocks
2|$B/mahyco.ini|mesh.nx=200 mesh.ny=40 mesh.nz=40|3D bisod_x, 320k cells, METIS (rank 0's set-up)
4|$B/mahyco.ini|mesh.nx=200 mesh.ny=40 mesh.nz=40 parallel.partitioner=block|3D bisod_x, 320k cells, blocks
8|$B/mahyco.ini|mesh.nx=200 mesh.ny=40 mesh.nz=40 parallel.partitioner=block|3D bisod_x, 320k cells, blocks
2|$B/mahyco.ini|mesh.nx=400 mesh.ny=80 mesh.nz=40 parallel.partitioner=block|3D bisod_x, 1.28M cells, blocks
1|$B/mahyco.ini|mesh.dim=2 mesh.nx=400 mesh.ny=400|2D bisod_x, 160k cells
2|$B/mahyco.ini|mesh.dim=2 mesh.nx=300 mesh.ny=300|2D bisod_x, 90k cells, METIS
2|$top/inputs/sync_only.ini|mesh.nx=100 mesh.ny=40 mesh.nz=40 case.cell_vars=20 case.components=8|sync_only, 20 cell vars x 8, 160k cells
8|$B/micro_hydro_lb8.1.ini|run.max_cycles=10|MicroHydro lb8.1 (300 padding vars + 50, 2 shuffles)
2|$top/inputs/sedov_gmsh.ini||Gmsh quarter disc, Sedov"
. "$top/run/bench_lib.sh" # peak
echo "| run | ranks | estimate MB | peak RSS MB (largest rank) | estimate / peak |"
echo "|---|---|---|---|---|"
echo "$runs" | while IFS='|' read -r np deck over what; do
    # shellcheck disable=SC2086
    $mpirun_cmd ${MPI_ARGS:-} -np "$np" "$hydro" "$deck" run.max_cycles=2 output.listing_period=0 output.checkpoint_period=-1 \
        $over > "$tmp/out" 2>&1 < /dev/null || { echo "$0: $what failed:" >&2; tail -n 3 "$tmp/out" >&2; exit 1; }
    # the largest rank's need: the loop's, or rank 0's set-up when it holds the whole mesh
    e=$(grep 'Estimate: about' "$tmp/out" | sed 's/; available.*//' | awk '{ m = 0
        for (i = 1; i < NF; i++) if ($(i + 1) ~ /^(MB|GB)/ && $i ~ /^[0-9.]+$/) {
            v = $(i + 1) ~ /^GB/ ? $i * 1000 : $i; if (v > m) m = v }
        print m }')
    p=$(peak "$tmp/out")
    awk -v w="$what" -v n="$np" -v e="$e" -v p="$p" 'BEGIN { printf "| %s | %d | %s | %s | %.2f |\n", w, n, e, p, e / p }'
done
