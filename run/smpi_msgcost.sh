#!/bin/sh
# run/smpi_msgcost.sh: wall time SimGrid takes per simulated message at several rank counts (run/platforms/msgcost.c), the same messages at each.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
usage() {
    cat <<USAGE
usage: run/smpi_msgcost.sh [-k K] [-m MESSAGES] [-l] [-c SMPI_CFG]... [RANKS...]
Builds run/platforms/msgcost.c with smpicc and runs it under run/smpirun.sh's settings on each
rank count (default 64 256 1024): every rank exchanges a double with K ring neighbours each way
(default 26, hydro's largest minimal-pattern neighbourhood), about MESSAGES messages in all
(default 400000) whatever the rank count. Prints the wall time and microseconds per message:
what simulating one message costs as the simulated cluster grows, with no hydro code involved.
The time includes smpirun's start (platform, ranks), negligible against the default messages.
-l: the latency-only network (SimGrid's Constant model, run/smpirun.sh -l 2.1e-6) instead of
cluster2048.xml's links.
-c SMPI_CFG: an extra SimGrid option (repeatable), e.g. -c smpi/send-is-detached-thresh:0, which
sends every message by rendezvous: SimGrid 3.32's time per message then stops growing with the
rank count (BENCHMARKS.md, "Small messages by rendezvous").
USAGE
}
k=26 msgs=400000 lat=0 cfg=
while getopts k:m:lc:h o; do
    case $o in
    k) k=$OPTARG ;; m) msgs=$OPTARG ;; l) lat=1 ;; h) usage; exit 0 ;;
    c) case $OPTARG in *[!A-Za-z0-9_/:.-]* | '') usage >&2; exit 2 ;; esac
       cfg="$cfg --cfg=$OPTARG" ;;
    *) usage >&2; exit 2 ;;
    esac
done
shift $((OPTIND - 1))
[ $# -gt 0 ] || set -- 64 256 1024
for n in "$k" "$msgs" "$@"; do
    case $n in '' | *[!0-9]* | 0*) usage >&2; exit 2 ;; esac
done
command -v smpicc >/dev/null 2>&1 || { echo "$0: smpicc not found (make smpi installs SimGrid)" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
smpicc -O2 -o "$tmp/msgcost" "$top/run/platforms/msgcost.c" 2>"$tmp/cc.err" || { cat "$tmp/cc.err" >&2; exit 1; }
for p in "$@"; do
    awk -v p="$p" 'BEGIN { for (i = 0; i < p; i++) print "node-" i }' > "$tmp/hosts"
    if [ "$lat" = 1 ]; then
        { echo "<?xml version='1.0'?>"; echo '<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">'
          echo '<platform version="4.1">'; echo '  <zone id="latency-only" routing="None">'
          awk '{ printf "    <host id=\"%s\" speed=\"1Gf\"/>\n", $0 }' "$tmp/hosts"
          echo '  </zone>'; echo '</platform>'; } > "$tmp/platform.xml"
        net="--cfg=network/model:Constant --cfg=network/latency-factor:2.1e-6 --cfg=smpi/bcast:default"
    else
        cp "$top/run/platforms/cluster2048.xml" "$tmp/platform.xml"
        net=""
    fi
    n=$((msgs / (p * k)))
    [ "$n" -ge 1 ] || n=1
    start=$(date +%s.%N)
    # shellcheck disable=SC2086 # $net and $cfg hold separate --cfg words
    smpirun -no-privatize -np "$p" -platform "$tmp/platform.xml" -hostfile "$tmp/hosts" \
        --cfg=smpi/host-speed:1e9f --cfg=surf/precision:1e-7 $net $cfg --log=root.thres:critical \
        "$tmp/msgcost" "$n" "$k" > "$tmp/out" 2>&1 || :
    end=$(date +%s.%N)
    grep -q '^msgcost:' "$tmp/out" || { echo "$0: $p ranks failed:" >&2; tail -5 "$tmp/out" >&2; exit 1; }
    m=$((p * n * k))
    awk -v p="$p" -v m="$m" -v s="$start" -v e="$end" \
        'BEGIN { printf "%6d ranks  %8d messages  %8.2f s  %7.1f us per message\n", p, m, e - s, (e - s) / m * 1e6 }'
done
