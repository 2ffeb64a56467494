#!/bin/sh
# run/launch.sh NRANKS DECK [section.key=value ...]: what every run/launch_*.sh does, as the
# Arcane bench scripts: run hydro on NRANKS ranks with the deck, listing on stdout. Runs from
# any directory (the deck is found in the repository, dumps land in the working directory);
# builds hydro first if needed. MPIRUN is the launcher (default mpirun; MPIRUN=srun works),
# MPI_ARGS adds launcher arguments, ARCANE_* variables pass through the environment.
set -e
here=$(cd "$(dirname "$0")/.." && pwd)
np=$1
deck=$2
shift 2
case $deck in /*) ;; *) deck=$here/$deck ;; esac
hydro=${HYDRO:-$here/build/hydro}
if [ ! -x "$hydro" ]; then
    echo "launch: building $hydro" >&2
    make -s -C "$here" >&2
fi
launcher=${MPIRUN:-mpirun}
case $(basename "$launcher") in
srun) exec $launcher $MPI_ARGS -n "$np" "$hydro" "$deck" "$@" ;;
*) exec $launcher $MPI_ARGS -np "$np" "$hydro" "$deck" "$@" ;;
esac
