#!/bin/sh
# Runs the NVIDIA offload build on a GPU machine from the archive run/gpu_bundle.sh makes (issue 18):
# unpacks it in a scratch folder, checks the machine's glibc against the newest version the bundle
# asks for, names the GPU (nvidia-smi), runs the offload build for two cycles of a small deck with
# OMP_TARGET_OFFLOAD=MANDATORY (on failure again with GOMP_DEBUG=1, whose tail says why) and says
# where libgomp's NVIDIA plugin and CUDA's driver library were loaded from, compares a 2-rank run
# of the offload build (two ranks on one device: the synchronisations' copies) with the host
# build's, then runs run/offload_gpu.sh with the bundle's programs and the options given; its
# table is what BENCHMARKS.md's "Accelerators" section records.
# On a lent machine (the device tool), with the archive carried (git ignores it):
#   sh run/gpu_bundle.sh                                      # here
#   sh run/gpu_run.sh gpu-bundle.tar.gz -r 3 -n 100           # there (carry: gpu-bundle.tar.gz)
# usage: run/gpu_run.sh ARCHIVE [offload_gpu.sh options]
# env: OMP_TARGET_OFFLOAD (default MANDATORY: stop rather than fall back to the host)
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
if [ $# -lt 1 ] || [ ! -f "$1" ]; then
    echo "usage: $0 ARCHIVE [offload_gpu.sh options]" >&2
    exit 2
fi
archive=$1
shift
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
case $archive in # busybox's tar does not guess
*.xz) z=J ;;
*.gz | *.tgz) z=z ;;
*) z= ;;
esac
tar -C "$dir" -x${z}f "$archive"
b=$dir/hydro-gpu
want=$(cat "$b/glibc")
have=$(getconf GNU_LIBC_VERSION | sed 's/^glibc //')
oldest=$(printf '%s\n%s\n' "$want" "$have" | sort -t. -k1,1n -k2,2n | head -n 1)
if [ "$oldest" != "$want" ]; then
    echo "$0: this machine has glibc $have; the bundle's libraries (Debian's) want $want or newer" >&2
    exit 2
fi
. "$top/run/bench_lib.sh" # sources_hash, close_dumps
echo "bundle of commit $(cat "$b/commit"); glibc $have (bundle wants $want)"
if [ "$(sources_hash "$top")" != "$(cat "$b/sources")" ]; then
    echo "$0: warning: this tree's sources are not those the bundle was built from (run/gpu_bundle.sh anew)" >&2
fi
if command -v nvidia-smi > /dev/null; then
    nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader || true
else
    echo "no nvidia-smi on this machine"
fi
[ "$(id -u)" != 0 ] || export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export PATH="$b/bin:$PATH" OMP_TARGET_OFFLOAD="${OMP_TARGET_OFFLOAD:-MANDATORY}"
smoke() { # the loader's log of the libraries it loads in $dir/ld.PID
    (cd "$dir" && LD_DEBUG=libs LD_DEBUG_OUTPUT="$dir/ld" mpirun -np 1 hydro-nvptx "$top/inputs/bench/mahyco.ini" \
        mesh.nx=10 run.max_cycles=2 output.checkpoint_period=-1)
}
if ! smoke > "$dir/smoke.log" 2>&1; then
    tail -n 20 "$dir/smoke.log" >&2
    echo "$0: the offload build failed on two cycles; again with GOMP_DEBUG=1:" >&2
    GOMP_DEBUG=1 smoke 2>&1 | tail -n 40 >&2 || true
    exit 1
fi
grep -h 'Offload' "$dir/smoke.log" | sed 's/^\*I-[A-Za-z]* *//'
if grep -q -e '^Sorry!' -e 'No such file' -e 'not found' "$dir/smoke.log"; then # a piece the bundle lacks
    echo "$0: warning: the run said:" >&2
    grep -h -A3 -e '^Sorry!' -e 'No such file' -e 'not found' "$dir/smoke.log" | head -n 12 >&2
fi
loaded() { grep -h "calling init: .*$1" "$dir"/ld.* 2> /dev/null | sed 's/.*calling init: //' | head -n 1; }
echo "libgomp's NVIDIA plugin: $(loaded libgomp-plugin-nvptx)" | sed 's/: $/: not loaded/'
echo "CUDA's driver library: $(loaded libcuda.so)" | sed 's/: $/: not loaded/'
rm -f "$dir"/ld.*
# two ranks on one device, against the host build: what the synchronisations copy there and back,
# every ghost checked (HYDRO_CHECK_GHOSTS=1: the host's against their owners', the device's against
# the host's)
two() {
    mkdir -p "$dir/$1" && (cd "$dir/$1" && HYDRO_CHECK_GHOSTS=1 mpirun -np 2 "$2" "$top/inputs/bench/mahyco.ini" \
        mesh.nx=40 mesh.ny=8 mesh.nz=8 run.max_cycles=12 output.checkpoint_period=0 > log 2>&1)
}
if ! { two host2 hydro && two dev2 hydro-nvptx; }; then
    tail -n 20 "$dir"/*2/log >&2
    echo "$0: a 2-rank run failed" >&2
    exit 1
fi
a=$(ls "$dir"/host2/checkpoints/hydro_*.h5 | tail -n 1) d=$(ls "$dir"/dev2/checkpoints/hydro_*.h5 | tail -n 1)
same=yes close=yes
sh "$top/test/h5same.sh" --any-version "$a" "$d" > /dev/null 2>&1 || same=no
close_dumps "$a" "$d" || close=no
echo "two ranks on one device (3D deck 40 x 8 x 8, 12 cycles, ghosts checked): dump bit for bit the host" \
    "build's: $same; within 1e-9: $close"
grep -h 'Offload: this rank' "$dir/dev2/log" | sed 's/^\*I-[A-Za-z]* *//'
HYDRO=$b/bin/hydro HYDRO_GPU=$b/bin/hydro-nvptx MPIRUN=mpirun sh "$top/run/offload_gpu.sh" "$@"
