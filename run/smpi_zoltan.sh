#!/bin/sh
# run/smpi_zoltan.sh: Zoltan from Debian's Trilinos source, built with SimGrid's smpicc for the SMPI build of hydro.
set -eu

usage() {
    cat <<'EOF2'
usage: run/smpi_zoltan.sh [-s TARBALL] [-o PREFIX]

Debian's libtrilinos-zoltan is built against Open MPI; SMPI replaces MPI at compile time, so
the SMPI build of hydro needs a Zoltan compiled with smpicc. This script takes Zoltan's source
from the Debian archive's Trilinos 13.2.0 tarball (the version Debian 12 packages; its SHA-256
from the Debian source package is checked), builds the C library alone with its own configure
(smpicc, no Fortran, no C++ driver, no tests) and installs it under PREFIX (include/zoltan.h,
lib/libzoltan.a, and PREFIX/.built, written last: the tarball's SHA-256 and SimGrid's version).
With that stamp there and the same SimGrid, nothing is done. make smpi-zoltan runs this script,
then builds hydro against it (build-smpi-zoltan/hydro).

  -s TARBALL   the tarball, already downloaded (default: downloaded from deb.debian.org into
               PREFIX's parent and kept there; make clean keeps it and PREFIX)
  -o PREFIX    where to install (default build-smpi-zoltan/zoltan in the project's root, where
               make smpi-zoltan looks)
  -h           this text

Needs smpicc (make smpi), curl (only to download) and about 200 MB of disk while it builds.
On a failed build the logs stay in PREFIX.logs/.
Exit status: 0 built (or already there), 1 the build failed, 2 bad usage, a missing tool, a
failed download or a bad tarball.
EOF2
}

die() {
    echo "smpi_zoltan.sh: $*" >&2
    exit 2
}

root=$(cd "$(dirname "$0")/.." && pwd)
url=http://deb.debian.org/debian/pool/main/t/trilinos/trilinos_13.2.0.orig.tar.gz
sha=0ddb47784ba7b8a6b9a07a4822b33be508feb4ccd54301b2a5d10c9e54524b90 # trilinos_13.2.0-4.dsc
tarball=
prefix=$root/build-smpi-zoltan/zoltan
while getopts s:o:h opt; do
    case $opt in
    s) tarball=$OPTARG ;;
    o) prefix=$OPTARG ;;
    h) usage; exit 0 ;;
    *) usage >&2; exit 2 ;;
    esac
done
shift $((OPTIND - 1))
[ $# -eq 0 ] || die "unexpected argument '$1' (see -h)"
command -v smpicc >/dev/null 2>&1 || die "smpicc not found: install SimGrid with 'make -C $root smpi'"
stamp="$sha $(smpirun -version 2>&1 | head -n 1)"
if [ -f "$prefix/.built" ] && [ "$(cat "$prefix/.built")" = "$stamp" ]; then
    exit 0
fi
# the real build's Zoltan (Debian's package) should be the same version: test/smpi_zoltan.t
# compares their partitions
pkg=$(dpkg-query -W -f='${Version}' libtrilinos-zoltan-dev 2>/dev/null || true)
case $pkg in '' | 13.2.0-*) ;; *) echo "smpi_zoltan.sh: note: libtrilinos-zoltan-dev is $pkg, this builds 13.2.0" >&2 ;; esac
mkdir -p "$prefix"
prefix=$(cd "$prefix" && pwd)
rm -rf "$prefix" "$prefix.logs"
if [ -z "$tarball" ]; then
    tarball=$(dirname "$prefix")/$(basename "$url")
    if [ ! -f "$tarball" ]; then
        command -v curl >/dev/null 2>&1 || die "curl not found (apt-get install curl), or give the tarball with -s"
        echo "smpi_zoltan.sh: downloading $url" >&2
        curl -sSf --retry 3 -o "$tarball.part" "$url" || { rm -f "$tarball.part"; die "download of $url failed"; }
        got=$(sha256sum "$tarball.part" | cut -d' ' -f1)
        [ "$got" = "$sha" ] || { rm -f "$tarball.part"; die "$url: SHA-256 $got, expected $sha (removed)"; }
        mv "$tarball.part" "$tarball"
    fi
fi
[ -f "$tarball" ] || die "$tarball: no such file"
got=$(sha256sum "$tarball" | cut -d' ' -f1)
[ "$got" = "$sha" ] || die "$tarball: SHA-256 $got, expected $sha (Debian's trilinos_13.2.0-4.dsc)"

work=$prefix.work
rm -rf "$work"
mkdir -p "$work/build"
trap 'rm -rf "$work"' EXIT
trap 'exit 1' INT TERM
# fail LOG: the build's logs kept in PREFIX.logs, the end of LOG shown, exit 1
fail() {
    mkdir -p "$prefix.logs"
    cp "$work/build/"*.log "$prefix.logs/" 2>/dev/null || true
    tail -n 20 "$work/build/$1" >&2
    echo "smpi_zoltan.sh: the build failed; logs in $prefix.logs" >&2
    exit 1
}
echo "smpi_zoltan.sh: building Zoltan with smpicc into $prefix" >&2
tar -xzf "$tarball" -C "$work" --wildcards '*/packages/zoltan/*'
src=$(echo "$work"/*/packages/zoltan)
# SMPI_PRETEND_CC: smpicc compiles and links as plain cc while configure tries its test
# programs (an SMPI program runs only under smpirun); the library itself is built without it.
# The calling make's settings (MAKEFLAGS: CC=, CFLAGS=, its jobserver) stay out of Zoltan's.
cd "$work/build"
SMPI_PRETEND_CC=1 "$src/configure" CC=smpicc CXX=smpicxx CFLAGS="-O2" CXXFLAGS="-O2" \
    --with-mpi-compilers=no --disable-fortran --disable-zoltan-cppdriver --disable-examples --disable-tests \
    --prefix="$prefix" >configure.log 2>&1 || fail configure.log
env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -j"$(nproc)" >make.log 2>&1 || fail make.log
env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make install >install.log 2>&1 || fail install.log
echo "$stamp" > "$prefix/.built"
echo "smpi_zoltan.sh: $prefix/lib/libzoltan.a" >&2
