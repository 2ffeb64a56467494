#!/bin/sh
# run/smpirun.sh: runs build-smpi/hydro on N simulated ranks of a SimGrid platform (SMPI); listing on stdout.
set -eu

usage() {
    cat <<'EOF'
usage: run/smpirun.sh [-p PLATFORM] [-s CELLS_SCALE] [-b BW_SCALE] [-m COSTS] [-l SECONDS] [-c SMPI_CFG]... -n N DECK [section.key=value ...]

Runs the SMPI build of hydro (build-smpi/hydro, built with 'make smpi' when missing) on N
simulated ranks, one per host of PLATFORM, and writes hydro's listing to stdout (its times
are simulated seconds). SimGrid's own messages go to stderr; the last of them gives the
simulated time and the real time the simulation took.

  -p PLATFORM     SimGrid platform XML (default run/platforms/cluster2048.xml); ranks are
                  mapped to its hosts in order, one rank per host
  -s CELLS_SCALE  the deck has CELLS_SCALE times fewer cells per rank than the cluster run it
                  stands for (default 1; see run/platforms/README.md). Without -m, every
                  second of computation measured on this machine counts as CELLS_SCALE
                  simulated seconds; with -m, owned work counts CELLS_SCALE times and ghost
                  work CELLS_SCALE^((dim-1)/dim) times (a block CELLS_SCALE times larger has
                  that much more surface)
  -m COSTS        compute model instead of measured time: every physics kernel call costs
                  a x items + b x active items simulated seconds, a and b per kernel from
                  COSTS (written by run/smpi_calibrate.sh from real runs); the host's own
                  time is not counted (smpi/simulate-computation:no), so simulated times no
                  longer depend on this machine's load
  -b BW_SCALE     divide every link bandwidth of the platform by BW_SCALE (default 1): the
                  messages of a deck with BW_SCALE times smaller ghost faces then take as long
                  as the full-size ones (latencies are unchanged)
  -l SECONDS      latency-only network: every message takes SECONDS whatever its size, with
                  no bandwidth and no contention (SimGrid's Constant network model, on the
                  platform's hosts without its links; -b does not apply). The flow model
                  re-solves the sharing of every coupled flow at each event, which made
                  1024 ranks in lockstep too slow to simulate; this one does not
                  (run/platforms/README.md compares the two where both run)
  -c SMPI_CFG     extra SimGrid option, e.g. -c smpi/coll-selector:mpich (repeatable).
                  -c smpi/send-is-detached-thresh:0 sends every message by rendezvous (no
                  eager copy): SimGrid 3.32's time per message then stays flat with the rank
                  count instead of growing with it, which makes 512-2048 ranks simulable;
                  the simulated times change (a small send waits for its receive), and code
                  that counts on buffered sends deadlocks (Zoltan's hypergraph partitioner PHG does:
                  use RCB, loadbalance.weights = phases). BENCHMARKS.md, "Small messages by
                  rendezvous"
  -n N            number of simulated ranks (at most the platform's host count)
  -h              this text

The SMPI build has no HDF5 output: the deck must set output.checkpoint_period = -1.
Environment: SMPI_BUILD (default build-smpi; build-smpi-zoltan for the build with the zoltan
backend, built by make smpi-zoltan when missing: a 166 MB download from the Debian archive),
SMPIRUN (default smpirun). -m sets
HYDRO_COMPUTE_MODEL and HYDRO_COMPUTE_SCALE for hydro.
Exit status: hydro's (0 ok, 1 runtime failure, 2 bad input), 1 when SimGrid stops the simulation
on a deadlock (every simulated rank blocked for good); 2 on bad usage here. INT, TERM,
HUP or QUIT stop the simulation too, even sent to this script alone (exit 130, 143, 129, 131):
hydro stops at the end of its cycle, and a simulation still running 60 s later is killed.
EOF
}

die() {
    echo "smpirun.sh: $*" >&2
    exit 2
}

root=$(cd "$(dirname "$0")/.." && pwd)
platform=$root/run/platforms/cluster2048.xml
scale=1
bw=1
np=
extra=
costs=
latency=
while getopts p:s:b:m:l:c:n:h opt; do
    case $opt in
    p) platform=$OPTARG ;;
    s) scale=$OPTARG ;;
    b) bw=$OPTARG ;;
    m) costs=$OPTARG ;;
    l) latency=$OPTARG ;;
    c) extra="$extra --cfg=$OPTARG" ;;
    n) np=$OPTARG ;;
    h) usage; exit 0 ;;
    *) usage >&2; exit 2 ;;
    esac
done
shift $((OPTIND - 1))
[ -n "$np" ] || { usage >&2; die "-n N is required"; }
[ $# -ge 1 ] || { usage >&2; die "no deck given"; }
case $np in '' | *[!0-9]* | 0*) die "-n: '$np' is not a positive integer" ;; esac
echo "$scale" | grep -Eq '^([0-9]+\.?[0-9]*|\.[0-9]+)([eE][-+]?[0-9]+)?$' && awk "BEGIN { exit !($scale > 0) }" ||
    die "-s: '$scale' is not a positive number"
echo "$bw" | grep -Eq '^([0-9]+\.?[0-9]*|\.[0-9]+)([eE][-+]?[0-9]+)?$' && awk "BEGIN { exit !($bw > 0) }" ||
    die "-b: '$bw' is not a positive number"
if [ -n "$latency" ]; then
    echo "$latency" | grep -Eq '^([0-9]+\.?[0-9]*|\.[0-9]+)([eE][-+]?[0-9]+)?$' && awk "BEGIN { exit !($latency > 0) }" ||
        die "-l: '$latency' is not a positive number of seconds"
fi
[ -r "$platform" ] || die "platform '$platform' not readable"
if [ -n "$costs" ]; then
    [ -r "$costs" ] || die "-m: costs file '$costs' not readable"
    case $costs in /*) ;; *) costs=$(pwd)/$costs ;; esac
fi
deck=$1
shift
case $deck in /*) ;; *) deck=$(pwd)/$deck ;; esac
[ -r "$deck" ] || die "deck '$deck' not readable"

smpirun=${SMPIRUN:-smpirun}
command -v "$smpirun" >/dev/null 2>&1 || die "$smpirun not found: install SimGrid with 'make -C $root smpi' (Debian libsimgrid-dev)"
build=${SMPI_BUILD:-build-smpi}
case $build in /*) ;; *) build=$root/$build ;; esac
hydro=$build/hydro
if [ ! -x "$hydro" ] && [ "$build" = "$root/build-smpi-zoltan" ]; then
    echo "smpirun.sh: building $hydro (make smpi-zoltan)" >&2
    make -s -C "$root" smpi-zoltan >&2
elif [ ! -x "$hydro" ]; then
    echo "smpirun.sh: building $hydro (make smpi)" >&2
    make -s -C "$root" smpi SMPI_BUILD="$build" >&2
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/hydro-smpi.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
trap 'exit 143' TERM HUP # dash runs the EXIT trap on exit, not when a signal ends it
trap 'exit 130' INT
trap 'exit 131' QUIT

# Host names and core speed from the platform: a <cluster> (prefix, radical a-b, suffix, speed)
# or explicit <host id=... speed=...> elements. One line per tag so that sed sees attributes together.
tr '\n' ' ' <"$platform" | sed 's/</\n</g' >"$tmp/tags"
attr() { sed -n "s/.*[[:space:]]$1=[\"']\([^\"']*\)[\"'].*/\1/p"; }
if grep -q '^<cluster[[:space:]]' "$tmp/tags"; then
    [ "$(grep -c '^<cluster[[:space:]]' "$tmp/tags")" -eq 1 ] || die "$platform: one <cluster> expected"
    line=$(grep '^<cluster[[:space:]]' "$tmp/tags")
    prefix=$(echo "$line" | attr prefix)
    suffix=$(echo "$line" | attr suffix)
    radical=$(echo "$line" | attr radical)
    speed=$(echo "$line" | attr speed)
    echo "$radical" | grep -Eq '^[0-9]+-[0-9]+$' || die "$platform: radical '$radical' is not of the form A-B"
    awk -v a="${radical%-*}" -v b="${radical#*-}" -v p="$prefix" -v s="$suffix" \
        'BEGIN { for (i = a; i <= b; i++) print p i s }' >"$tmp/hosts"
else
    grep '^<host[[:space:]]' "$tmp/tags" | attr id >"$tmp/hosts"
    speed=$(grep '^<host[[:space:]]' "$tmp/tags" | head -n 1 | attr speed)
fi
nhosts=$(wc -l <"$tmp/hosts")
[ "$nhosts" -gt 0 ] || die "$platform: no hosts found"
[ "$np" -le "$nhosts" ] || die "-n $np: the platform has $nhosts hosts (one rank per host)"
head -n "$np" "$tmp/hosts" >"$tmp/hostfile"

# smpi/host-speed: flop/s credited per second measured here. CELLS_SCALE times the platform's
# core speed makes one measured second last CELLS_SCALE simulated seconds on any host.
flops=$(echo "$speed" | awk -v k="$scale" '
    { if (!match($0, /^[0-9.eE+-]+/)) exit 1; v = substr($0, 1, RLENGTH); u = substr($0, RLENGTH + 1)
      m = u == "f" ? 1 : u == "kf" ? 1e3 : u == "Mf" ? 1e6 : u == "Gf" ? 1e9 : u == "Tf" ? 1e12 : -1
      if (m < 0) exit 1; printf "%.17g\n", v * m * k }') || die "$platform: core speed '$speed' not understood (use f, kf, Mf, Gf or Tf)"

# -b: a copy of the platform whose bandwidth attributes (bw, bb_bw, ...) are divided by BW_SCALE.
run_platform=$platform
if [ -n "$latency" ]; then
    # the hosts alone in a zone without routing, which is what the Constant model accepts
    run_platform=$tmp/platform.xml
    {
        echo "<?xml version='1.0'?>"
        echo '<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">'
        echo '<platform version="4.1">'
        echo '  <zone id="latency-only" routing="None">'
        awk -v s="$speed" '{ printf "    <host id=\"%s\" speed=\"%s\"/>\n", $0, s }' "$tmp/hostfile"
        echo '  </zone>'
        echo '</platform>'
    } >"$run_platform"
    # smpi/bcast:default: with the Constant model, SimGrid 3.32 reported a deadlock at 256 ranks
    # with the Open MPI selector's broadcast (128 ranks ran); SimGrid's own broadcast, or its own
    # allreduce, completes. The loop time moved by 7e-5 s.
    extra="--cfg=network/model:Constant --cfg=network/latency-factor:$latency --cfg=smpi/bcast:default $extra"
    [ "$bw" = 1 ] || echo "smpirun.sh: -b $bw has no effect with -l (no bandwidth in a latency-only network)" >&2
elif [ "$bw" != 1 ]; then
    run_platform=$tmp/platform.xml
    awk -v k="$bw" '{
        out = ""
        while (match($0, /bw="[0-9.eE+-]+[A-Za-z]*"/)) {
            at = RSTART; len = RLENGTH; a = substr($0, at + 4, len - 5); match(a, /^[0-9.eE+-]+/)
            out = out substr($0, 1, at - 1) sprintf("bw=\"%.9g%s\"", substr(a, 1, RLENGTH) / k, substr(a, RLENGTH + 1))
            $0 = substr($0, at + len)
        }
        print out $0 }' "$platform" >"$run_platform"
fi

if [ -n "$costs" ]; then
    # hydro charges each kernel's modelled time itself (smpi_execute); measured time is off
    export HYDRO_COMPUTE_MODEL="$costs" HYDRO_COMPUTE_SCALE="$scale"
    extra="--cfg=smpi/simulate-computation:no $extra"
    how="compute modelled from $(basename "$costs"), work x $scale"
else
    unset HYDRO_COMPUTE_MODEL HYDRO_COMPUTE_SCALE
    how="compute time x $scale (smpi/host-speed ${flops}f)"
fi
if [ -n "$latency" ]; then net="latency-only network, $latency s per message"; else net="bandwidths / $bw"; fi
echo "smpirun.sh: $np simulated ranks on $(basename "$platform") ($nhosts hosts, $speed per core)," \
     "$how, $net" >&2
# -no-privatize: hydro has no mutable global state (io/ is compiled out; METIS, libinih and libm
# keep none across MPI calls), so the ranks share one copy of the program: no per-rank dlopen copy.
# Zoltan has (the random generator PHG draws from on every rank alike, its timers and memory
# records): a build with it (make smpi-zoltan, linked statically) gives each rank its own copy.
# With it, two of the ompi selector's algorithms fail in SimGrid 3.32 under Zoltan's PHG: the
# pipelined broadcast (SIGFPE in bcast__ompi_pipeline, from pmatching_agg_ipm) and the binary
# reduction ('Actor pid=-1 is gone??' in reduce__ompi_binary, from Zoltan_PHG_Compute_NetCut);
# the binomial tree replaces both there (hydro itself calls neither in its loop).
privatize=-no-privatize
if nm "$hydro" 2>/dev/null | grep -q ' T Zoltan_LB_Partition$'; then
    privatize=
    extra="--cfg=smpi/bcast:binomial_tree --cfg=smpi/reduce:binomial $extra"
fi
# smpi/coll-selector:ompi: Open MPI's choice of collective algorithms, as on the real runs, except
# MPI_Alltoall(v) (migrations with ARCANE_MESH_EXCHANGE_USE_COLLECTIVE, a METIS gather): ring,
# one message in flight per rank, because SimGrid's cost per message grows with the flows in
# flight (128 ranks: setup 9 s with ring, over 10 min with Open MPI's linear algorithm). The
# mesh set-up's exchanges are point to point, a few at a time (comm_exchange, mesh/comm.c).
# surf/precision:1e-7: SimGrid's time precision, 100 ns (smpirun sets 1e-9). Every flow finishing
# re-solves the bandwidth sharing of all flows coupled to it; with coarser precision the flows
# of one ghost exchange that end within 100 ns of each other end in one step. 256 ranks, 3
# cycles: 84 s instead of 218 s of simulation, loop time 0.642153 s instead of 0.642151 s.
# smpirun runs in the background and a signal to this script goes on to it (smpirun stops the
# simulation on TERM): in the foreground, the shell would run its trap only once the simulation
# ended, so that a `kill` or a `timeout` signalling this script alone left it running for hours.
# The traps are set before it starts (a signal in between is passed on as soon as it has a pid);
# fd 3 carries stdin to it (a background command's is /dev/null otherwise), as smpirun does.
# smpirun passes TERM on to smpimain and ends at once, but smpimain stops only between simulation
# steps: at 512 ranks one ran on for 8 minutes (6 GB) after its script had gone. So the simulation
# runs in a process group of its own (setsid, util-linux: a shell without a terminal has no job
# control), which the signal reaches whole, and this script waits for the group, killing it
# after grace seconds (hydro's own stop comes at the end of a cycle, which may take minutes of
# simulation at such scales).
# SimGrid's stderr goes through tee (a FIFO: the lines still come as they are written) into a
# file, read at the end: when SimGrid finds every simulated rank blocked for good it prints
# "Deadlock detected", stops the simulation and still exits 0.
grace=60
child='' signalled=''
for sig in INT TERM HUP QUIT; do
    # shellcheck disable=SC2064 # the signal's name now, the child's pid when it comes
    trap "signalled=$sig; [ -z \"\$child\" ] || kill -TERM \"-\$child\" 2>/dev/null" $sig
done
# After the traps: tee ends once the simulation, started below in any case, has opened and
# closed the FIFO; it ignores the signals (a terminal's INT reaches it too), so that the
# simulation's last lines, written while it stops, still have a reader.
mkfifo "$tmp/stderr"
(trap '' INT TERM HUP QUIT; exec tee "$tmp/simgrid.err" < "$tmp/stderr" >&2) &
teepid=$!
set +e
exec 3<&0
# shellcheck disable=SC2086 # $extra holds separate --cfg words, $privatize one or none
setsid "$smpirun" $privatize -np "$np" -platform "$run_platform" -hostfile "$tmp/hostfile" \
    --cfg=smpi/host-speed:"${flops}f" --cfg=smpi/coll-selector:ompi --cfg=smpi/alltoall:ring \
    --cfg=smpi/alltoallv:ring --cfg=smpi/display-timing:yes --cfg=surf/precision:1e-7 \
    --log=xbt_cfg.thres:warning --log=s4u_actor.thres:warning --log=smpi_coll.thres:warning \
    --log=smpi_colls.thres:warning $extra "$hydro" "$deck" "$@" <&3 3<&- 2> "$tmp/stderr" &
child=$!
exec 3<&-
[ -z "$signalled" ] || kill -TERM "-$child" 2>/dev/null
wait "$child"
rc=$?
while kill -0 "$child" 2>/dev/null; do # a signal ends the wait, not the simulation: wait for it to stop
    wait "$child"
    rc=$?
done
if [ -n "$signalled" ]; then # smpimain, left alone in the group once smpirun has gone
    waited=0
    while kill -0 "-$child" 2>/dev/null && [ "$waited" -lt "$grace" ]; do
        sleep 1
        waited=$((waited + 1))
    done
    kill -KILL "-$child" 2>/dev/null
fi
wait "$teepid"
set -e
if [ "$rc" -eq 0 ] && grep -q 'Deadlock detected' "$tmp/simgrid.err"; then
    echo "smpirun.sh: SimGrid found the simulated ranks blocked for good (its listing above): exit 1" >&2
    rc=1
fi
case $signalled in INT) exit 130 ;; TERM) exit 143 ;; HUP) exit 129 ;; QUIT) exit 131 ;; esac
exit $rc
