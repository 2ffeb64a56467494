#!/bin/sh
# bare_root.sh ROOT: makes ROOT a system root that holds busybox (its shell and tools), glibc,
# getconf, /etc/hosts, /etc/passwd and /etc/group, and nothing else: no Open MPI, METIS, HDF5 or
# GCC runtime. A program that runs chrooted there with what it brings runs on a foreign image
# (the lent GPU machines' CUDA image). Mounting /proc, /sys and /dev there is the caller's.
set -eu
r=$1
bb=$(command -v busybox) || { echo "$0: no busybox (apt-get install busybox-static)" >&2; exit 2; }
multiarch=$(gcc -print-multiarch)
mkdir -p "$r/bin" "$r/lib/$multiarch" "$r/lib64" "$r/usr/bin" "$r/etc" "$r/tmp" "$r/root" "$r/proc" "$r/sys" "$r/dev"
chmod 1777 "$r/tmp"
cp "$bb" "$r/bin/busybox"
for a in $("$bb" --list); do
    [ -e "$r/bin/$a" ] || ln -s busybox "$r/bin/$a"
done
for l in libc.so.6 libm.so.6 libmvec.so.1 libpthread.so.0 libdl.so.2 librt.so.1 libresolv.so.2 libutil.so.1 \
    libanl.so.1 libnss_files.so.2 libnss_dns.so.2; do
    cp -L "/lib/$multiarch/$l" "$r/lib/$multiarch/"
done
cp -L /lib64/ld-linux-x86-64.so.2 "$r/lib64/"
cp "$(command -v getconf)" "$r/usr/bin/"
cp /etc/hosts /etc/passwd /etc/group "$r/etc/"
