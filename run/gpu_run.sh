#!/bin/sh
# Runs the NVIDIA offload build on a GPU machine from the archive run/gpu_bundle.sh makes (issue 18):
# unpacks it in a scratch folder, checks the machine's glibc against the newest version the bundle
# asks for, names the GPU (nvidia-smi), runs the offload build for two cycles of a small deck with
# OMP_TARGET_OFFLOAD=MANDATORY (on failure again with GOMP_DEBUG=1, whose tail says why), then
# run/offload_gpu.sh with the bundle's programs and the options given; its table is what
# BENCHMARKS.md's "Accelerators" section records.
# On a lent machine (the device tool), with the archive carried (git ignores it):
#   sh run/gpu_bundle.sh                                      # here
#   sh run/gpu_run.sh gpu-bundle.tar.xz -r 3 -n 100           # there (carry: gpu-bundle.tar.xz)
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
here=$(cd "$top" && git rev-parse --short HEAD 2>/dev/null || echo '?')
echo "bundle of commit $(cat "$b/commit"), this tree at $here; glibc $have (bundle wants $want)"
if command -v nvidia-smi > /dev/null; then
    nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader || true
else
    echo "no nvidia-smi on this machine"
fi
[ "$(id -u)" != 0 ] || export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export PATH="$b/bin:$PATH" OMP_TARGET_OFFLOAD="${OMP_TARGET_OFFLOAD:-MANDATORY}"
smoke() {
    (cd "$dir" && mpirun -np 1 hydro-nvptx "$top/inputs/bench/mahyco.ini" \
        mesh.nx=10 run.max_cycles=2 output.checkpoint_period=-1)
}
if ! smoke > "$dir/smoke.log" 2>&1; then
    tail -n 20 "$dir/smoke.log" >&2
    echo "$0: the offload build failed on two cycles; again with GOMP_DEBUG=1:" >&2
    GOMP_DEBUG=1 smoke 2>&1 | tail -n 40 >&2 || true
    exit 1
fi
grep -h 'Offload' "$dir/smoke.log" | sed 's/^\*I-[A-Za-z]* *//'
HYDRO=$b/bin/hydro HYDRO_GPU=$b/bin/hydro-nvptx MPIRUN=mpirun sh "$top/run/offload_gpu.sh" "$@"
