#!/bin/sh
# The other builds the README documents, compiled from this tree into scratch folders: hydro with
# the shared HDF5 library (make HDF5_LINK=shared: linked to libhdf5_openmpi.so, and its dump of a
# short run identical to the static build's), the offload build for NVIDIA GPUs (make offload
# OFFLOAD=nvptx: on a machine without a GPU it says so, runs every kernel on the host and gives
# the same dump) and the libFuzzer harnesses (make fuzz-build, each run once over its seed
# corpus). Without gcc-12-offload-nvptx, or clang-14 and libFuzzer, that part skips (a failure
# under CI=true, where make deps-all installs them).
. test/lib.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# ---- shared HDF5 ----
out=$(make -s -C "$top" BUILD="$tmp/shared" HDF5_LINK=shared "$tmp/shared/hydro" 2>&1)
ok $? "make HDF5_LINK=shared builds hydro"
[ -x "$tmp/shared/hydro" ] || diag "$out"
ldd "$tmp/shared/hydro" 2>/dev/null | grep -q 'libhdf5[_a-z]*\.so'
ok $? "the shared build loads libhdf5 as a shared library"
! ldd "$HYDRO" 2>/dev/null | grep -q 'libhdf5[_a-z]*\.so'
ok $? "the default build does not (HDF5 linked statically)"
set -- "$top/inputs/sod_x.ini" mesh.nx=24 mesh.ny=3 mesh.nz=3 run.max_cycles=6 physics.remap=euler
mkdir -p "$tmp/a" "$tmp/b"
(cd "$tmp/a" && mpi 2 "$tmp/shared/hydro" "$@" > run.out 2>&1)
rc=$?
ok $rc "the shared build runs a short deck on 2 ranks (exit $rc)"
[ $rc -eq 0 ] || diag "$(cat "$tmp/a/run.out")"
(cd "$tmp/b" && mpi 2 "$HYDRO" "$@" > run.out 2>&1)
da=$(ls "$tmp"/a/checkpoints/hydro_*.h5 2>/dev/null | tail -n 1)
db=$(ls "$tmp"/b/checkpoints/hydro_*.h5 2>/dev/null | tail -n 1)
[ -n "$da" ] && [ -n "$db" ] && sh "$top/test/h5same.sh" --any-version "$da" "$db"
ok $? "its final dump is the static build's, bit for bit"

# ---- the offload build for NVIDIA GPUs (GCC 12's nvptx offload; test/offload.t tests the offload itself) ----
if command -v x86_64-linux-gnu-accel-nvptx-none-gcc-12 > /dev/null 2>&1; then
    out=$(make -s -C "$top" OFFLOAD=nvptx OFFLOAD_BUILD="$tmp/nvptx" offload 2>&1)
    ok $? "make offload OFFLOAD=nvptx builds hydro for NVIDIA GPUs with gcc-12-offload-nvptx"
    [ -x "$tmp/nvptx/hydro" ] || diag "$out"
    mkdir -p "$tmp/c"
    (cd "$tmp/c" && mpi 2 "$tmp/nvptx/hydro" "$@" > run.out 2>&1)
    dc=$(ls "$tmp"/c/checkpoints/hydro_*.h5 2>/dev/null | tail -n 1)
    gpu=$(command -v nvidia-smi > /dev/null 2>&1 && nvidia-smi -L 2> /dev/null | head -n 1)
    if [ -z "$gpu" ]; then # every kernel on the host, and the listing says why
        grep -q 'Offload build: no accelerator found' "$tmp/c/run.out"
    else
        grep -q 'Offload: the kernels of the cycle' "$tmp/c/run.out"
    fi && [ -n "$dc" ] && sh "$top/test/h5same.sh" --any-version "$db" "$dc"
    ok $? "it runs the short deck (${gpu:-no GPU here: on the host}), its dump the static build's bit for bit"
    mkdir -p "$tmp/d"
    (cd "$tmp/d" && OMP_TARGET_OFFLOAD=mandatory mpi 2 "$tmp/nvptx/hydro" "$@" > run.out 2>&1)
    rc=$?
    if [ -z "$gpu" ]; then # no silent fall-back when the user asks for the accelerator
        said='hydro: rank 0: .*OMP_TARGET_OFFLOAD=MANDATORY, and the offload build finds no accelerator on this rank'
        [ $rc -eq 1 ] && grep -q "$said" "$tmp/d/run.out" &&
            [ "$(grep -c 'finds no accelerator' "$tmp/d/run.out")" -eq 1 ]
    else
        [ $rc -eq 0 ] && grep -q 'Offload: the kernels of the cycle' "$tmp/d/run.out"
    fi
    ok $? "with OMP_TARGET_OFFLOAD=mandatory it ${gpu:+runs on the GPU}${gpu:-stops with one line naming it (exit $rc)}"
    # the bundle for a GPU machine's foreign image, run chrooted in a root with busybox and glibc
    # only (a private mount namespace: its mounts go with it); on the host whatever this machine has
    if [ "$(id -u)" = 0 ] && command -v busybox > /dev/null && command -v unshare > /dev/null; then
        out=$(HYDRO_GPU="$tmp/nvptx/hydro" sh "$top/run/gpu_bundle.sh" -o "$tmp/bundle.tar.gz" 2>&1)
        ok $? "run/gpu_bundle.sh packs the NVIDIA build with the libraries it loads"
        diag "$out"
        r=$tmp/root
        sh "$top/test/bare_root.sh" "$r" && mkdir "$r/work" &&
            tar -C "$top" -cf - Makefile mesh physics io miniapp run inputs test | tar -C "$r/work" -xf - &&
            cp "$tmp/bundle.tar.gz" "$r/work/"
        there='cd /work && HOME=/root OMP_TARGET_OFFLOAD=default sh run/gpu_run.sh bundle.tar.gz -r 1 -c 3 -n 20 -t 2'
        out=$(unshare --mount --propagation private sh -c "mount --bind /proc '$r/proc' && mount --bind /sys '$r/sys' &&
            mount --rbind /dev '$r/dev' && exec chroot '$r' /bin/sh -c '$there'" 2>&1)
        rc=$?
        [ $rc -eq 0 ] && printf '%s\n' "$out" | grep -q '^| offload build (hydro-nvptx) | .* | yes | yes |$' &&
            printf '%s\n' "$out" | grep -q "^two ranks on one device .*checked): dump bit for bit the host build's: yes"
        ok $? "run/gpu_run.sh runs it there: mpirun, the offload build on 1 and 2 ranks, h5diff, same dumps ($rc)"
        [ $rc -eq 0 ] || diag "$out"
        printf '%s\n' "$out" | grep -q "^libgomp's NVIDIA plugin: /tmp/[^ ]*/hydro-gpu/root/" &&
            ! printf '%s\n' "$out" | grep -q -e 'Sorry' -e 'No such file' -e 'not found' -e warning
        rc=$?
        ok $rc "... with libgomp's NVIDIA plugin from the bundle, and nothing missing said on the way"
        [ $rc -eq 0 ] || diag "$(printf '%s\n' "$out" | grep -e plugin -e Sorry -e 'No such' -e 'not found' -e warning)"
    else
        skip 3 "the GPU bundle's check needs root, busybox and unshare (make deps-all installs busybox-static)"
    fi
else
    skip 6 "gcc-12-offload-nvptx not installed (make deps-all installs it)"
fi

# ---- libFuzzer harnesses ----
fuzz_rt=$(ls /usr/lib/llvm-14/lib/clang/*/lib/linux/libclang_rt.fuzzer-x86_64.a 2>/dev/null | head -n 1)
if command -v clang-14 > /dev/null 2>&1 && [ -n "$fuzz_rt" ]; then
    out=$(make -s -C "$top" FUZZ_BUILD="$tmp/fuzz" fuzz-build 2>&1)
    ok $? "make fuzz-build builds the three libFuzzer harnesses with clang-14"
    [ -x "$tmp/fuzz/fuzz/fuzz_deck" ] || diag "$out"
    sanitizer_env
    for h in deck gmsh checkpoint; do
        # -runs=0: every seed once, no mutation: the harness links and runs under libFuzzer
        log=$(cd "$tmp" && timeout "$TIMEOUT" "$tmp/fuzz/fuzz/fuzz_$h" -runs=0 "$top/test/fuzz/corpus/$h" 2>&1)
        rc=$?
        [ $rc -eq 0 ] && printf '%s\n' "$log" | grep -q 'INITED' && ! printf '%s\n' "$log" | grep -q 'ERROR: '
        ok $? "fuzz_$h runs its seed corpus under libFuzzer (exit $rc)"
        [ $rc -eq 0 ] || diag "$log"
    done
else
    skip 4 "clang-14 with libFuzzer (libclang-rt-14-dev) not installed (make fuzz installs them)"
fi
done_testing
