#!/bin/sh
# physics/ stands alone: every physics/*.c compiles with the plain C compiler (not mpicc), with
# only physics/ and mesh/ on the include path, and with mpi.h, hdf5.h, metis.h and the Zoltan and
# Scotch headers replaced by headers that stop the compilation: the physics layer is plain C over
# flat arrays, which can be compiled, vectorised or offloaded without MPI or HDF5; with clang, the
# offload build's physics too.
. test/lib.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
CC_PLAIN=${CC_PLAIN:-cc}
mkdir -p "$tmp/poison"
for h in mpi.h hdf5.h metis.h zoltan.h ptscotch.h scotch.h; do
    echo "#error physics/ must not include $h" > "$tmp/poison/$h"
done
compile() { $CC_PLAIN -std=c11 -Wall -Wextra -Werror -O2 -I"$tmp/poison" -I"$top/physics" -I"$top/mesh" -c -o "$tmp/o.o" "$1" 2>&1; }
# the poisoned headers really stop a file that includes one of them
printf '#include "alloc.h"\n#include <mpi.h>\nint f(void) { return 0; }\n' > "$tmp/uses_mpi.c"
out=$(compile "$tmp/uses_mpi.c")
[ $? -ne 0 ] && printf '%s' "$out" | grep -q 'must not include mpi.h'
ok $? "a file including mpi.h does not compile here (the check can fail)"
for f in "$top"/physics/*.c; do
    out=$(compile "$f")
    rc=$?
    ok $rc "physics/$(basename "$f") compiles with $CC_PLAIN, without MPI, HDF5, METIS, Zoltan or Scotch headers"
    [ $rc -eq 0 ] || diag "$out"
done
# the offload build's physics too (-DHYDRO_OFFLOAD, clang's OpenMP target offload, as make offload
# compiles it): its device copies and kernels stay plain C and OpenMP
if command -v clang > /dev/null 2>&1; then
    for f in "$top"/physics/*.c; do
        out=$(CC_PLAIN="clang -fopenmp -fopenmp-targets=x86_64-pc-linux-gnu -DHYDRO_OFFLOAD" compile "$f")
        rc=$?
        ok $rc "physics/$(basename "$f") compiles so for the offload build (clang, -DHYDRO_OFFLOAD)"
        [ $rc -eq 0 ] || diag "$out"
    done
elif [ "${CI:-}" = true ]; then
    ok 1 "clang is installed (make deps installs it: the offload build)"
fi
done_testing
