#!/bin/sh
# Packs the NVIDIA offload build for a GPU machine whose image is not Debian (issue 18: the lent
# machines run a CUDA image with no Open MPI, METIS, Zoltan, PT-Scotch or HDF5 tools, and nothing
# can be installed there). The archive holds the offload build and the ordinary build, every shared
# library they and Open MPI's plugins load (found by ldd), mpirun and orted, PMIx's plugins, GCC
# 12's libgomp with its NVIDIA plugin (the two must match), h5diff and h5dump, Open MPI's and
# PMIx's help texts, and one wrapper per program that points the loader and Open MPI at the
# bundle. glibc stays the machine's own: bundle/glibc names the newest version the bundle's files
# ask for, and run/gpu_run.sh checks the machine against it before anything runs.
# Then: run/gpu_run.sh on the GPU machine (its header says how the archive travels).
# usage: run/gpu_bundle.sh [-o ARCHIVE]  (default gpu-bundle.tar.gz at the top, git ignores it;
# .tar.xz is smaller, but GNU tar needs the xz program to unpack it, which an image may lack)
# env: HYDRO (ordinary build, default build/hydro), HYDRO_GPU (default build-nvptx/hydro)
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
out=$top/gpu-bundle.tar.gz
while getopts o: opt; do
    case $opt in
    o) out=$OPTARG ;;
    *) echo "usage: $0 [-o ARCHIVE]" >&2; exit 2 ;;
    esac
done
hydro=${HYDRO:-$top/build/hydro}
gpu=${HYDRO_GPU:-$top/build-nvptx/hydro}
for b in "$hydro" "$gpu"; do
    [ -x "$b" ] || {
        echo "$0: no executable $b (make; make offload OFFLOAD=nvptx OFFLOAD_BUILD=build-nvptx)" >&2
        exit 2
    }
done
multiarch=$(gcc -print-multiarch)
ompi=/usr/lib/$multiarch/openmpi/lib/openmpi3
pmix=/usr/lib/$multiarch/pmix2
nvptx=/usr/lib/$multiarch/libgomp-plugin-nvptx.so.1
for f in "$ompi" "$pmix" "$nvptx" /usr/bin/orterun /usr/bin/orted /usr/bin/h5diff /usr/bin/h5dump; do
    [ -e "$f" ] || { echo "$0: $f is missing (make deps-all installs it)" >&2; exit 2; }
done
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
b=$stage/hydro-gpu
mkdir -p "$b/bin" "$b/root"
# put FILE...: each file, at its own path under root/ (a link's target under the link's name)
put() {
    for f in "$@"; do
        mkdir -p "$b/root$(dirname "$f")"
        cp -L "$f" "$b/root$f"
    done
}
# glibc's own libraries stay the machine's: mixing two glibc versions in one process fails
is_glibc() {
    case $(basename "$1") in
    ld-linux*|libc.so.*|libm.so.*|libmvec.so.*|libpthread.so.*|libdl.so.*|librt.so.*|libresolv.so.*|\
    libutil.so.*|libanl.so.*|libnss_*) return 0 ;;
    esac
    return 1
}
mkdir -p "$b/root/hydro"
cp "$hydro" "$b/root/hydro/hydro"
cp "$gpu" "$b/root/hydro/hydro-nvptx"
elves="$b/root/hydro/hydro $b/root/hydro/hydro-nvptx"
put /usr/bin/orterun /usr/bin/orted /usr/bin/h5diff /usr/bin/h5dump "$nvptx" "$ompi"/*.so "$pmix"/lib/pmix/*.so
elves="$elves $(cd "$b/root" && find . -type f -name '*.so*' -o -type f -path './usr/bin/*' | sed "s|^\.|$b/root|")"
# shellcheck disable=SC2086
found=$(for e in $elves; do ldd "$e"; done)
if printf '%s\n' "$found" | grep -q 'not found'; then
    echo "$0: libraries missing here, so not in the bundle:" >&2
    printf '%s\n' "$found" | grep 'not found' | sort -u >&2
    exit 2
fi
libs=$(printf '%s\n' "$found" | awk '/=> \// { print $3 }' | sort -u)
for l in $libs; do
    is_glibc "$l" || put "$l"
done
put "/lib/$multiarch/libgcc_s.so.1" # glibc opens it by name when a thread exits (libgomp's, MPI's)
[ -d /usr/share/openmpi ] && put /usr/share/openmpi/*.txt
[ -d "$pmix/share/pmix" ] && put "$pmix"/share/pmix/*.txt
[ -f /etc/openmpi/openmpi-mca-params.conf ] && put /etc/openmpi/openmpi-mca-params.conf
# the newest glibc symbol version any file asks for
(cd "$b/root" && find . -type f \( -name '*.so*' -o -path './usr/bin/*' -o -path './hydro/*' \) \
    -exec objdump -T {} + 2>/dev/null) |
    sed -n 's/.*GLIBC_\([0-9][0-9.]*\).*/\1/p' | sort -t. -k1,1n -k2,2n -u | tail -n 1 > "$b/glibc"
libpath=
# the folders of libraries (not of plugins, which Open MPI and PMIx find by their prefixes)
dirs=$(cd "$b/root" && find . -name '*.so*' -exec dirname {} \; | sort -u |
    grep -v -e openmpi3 -e /pmix$ -e '^./hydro$')
for d in $dirs; do
    libpath=$libpath:\$b/root${d#.}
done
# wrap NAME PROGRAM: bin/NAME runs PROGRAM (under root/) with the bundle's libraries and Open MPI
wrap() {
    cat > "$b/bin/$1" <<EOF
#!/bin/sh
# $1 from the hydro GPU bundle (run/gpu_bundle.sh): the bundle's libraries first, then the machine's
b=\$(cd "\$(dirname "\$0")/.." && pwd)
export LD_LIBRARY_PATH=${libpath#:}\${LD_LIBRARY_PATH:+:\$LD_LIBRARY_PATH}
export OPAL_PREFIX=\$b/root/usr OPAL_SYSCONFDIR=\$b/root/etc/openmpi PMIX_PREFIX=\$b/root$pmix
export PMIX_MCA_mca_base_component_path=\$b/root$pmix/lib/pmix # its prefix does not move its plugins
export OMPI_MCA_plm=\${OMPI_MCA_plm:-isolated} # one machine: ranks start here, no ssh (the image has none)
exec "\$b/root$2" "\$@"
EOF
    chmod +x "$b/bin/$1"
}
wrap hydro /hydro/hydro
wrap hydro-nvptx /hydro/hydro-nvptx
wrap mpirun /usr/bin/orterun
wrap h5diff /usr/bin/h5diff
wrap h5dump /usr/bin/h5dump
(cd "$top" && git describe --always --dirty) > "$b/commit" 2>/dev/null || echo unknown > "$b/commit"
. "$top/run/bench_lib.sh" # sources_hash: run/gpu_run.sh checks the tree it runs from against it
sources_hash "$top" > "$b/sources"
tar -C "$stage" -caf "$out" hydro-gpu # compressed as its name says (.tar.xz, .tar.gz)
echo "$out: $(du -h "$out" | cut -f1) ($(du -sh "$b" | cut -f1) unpacked), $(echo "$libs" | wc -l) libraries," \
    "glibc $(cat "$b/glibc") or newer wanted, commit $(cat "$b/commit")"
