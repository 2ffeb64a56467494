#!/bin/sh
# Map of a cell variable of a hydro dump as a PNG (gnuplot): filled cells, colour bar, title with
# case, time and cycle; a 3D dump is cut by a plane z = constant near its middle (one layer of cells).
set -eu
usage() {
    cat <<'EOF'
usage: run/plot_field.sh [-h] [-c MIN:MAX] DUMP VARIABLE [OUT.png]
  DUMP      a hydro dump (checkpoints/hydro_NNNNNN.h5), or a directory: its newest hydro_*.h5
  VARIABLE  a cell variable of the dump (/cells/VARIABLE: density, pressure, rank, ...);
            a multi-component one is drawn as its magnitude, VARIABLE:K as its component K
            (from 0: volume_fractions:1 is the second material's volume fraction)
  OUT.png   the picture (default: the dump's name with _VARIABLE.png instead of .h5)
  -c MIN:MAX  colour range (default: the range of the cells drawn)
2D dumps: every cell. 3D dumps: a cut by the plane z = the centre height of the cell nearest
the middle of the domain (one layer of a layered mesh): each cell that the plane cuts is drawn
as its cut polygon.
Prints the path of the PNG. Needs gnuplot (Debian: gnuplot-nox) and build/test/plotdata
(built here with make when missing; HYDRO_BUILD names another build directory).
Exit status: 0 done, 1 plotting failed, 2 bad usage, not a dump or no such variable.
EOF
}
top=$(cd "$(dirname "$0")/.." && pwd)
range=
while getopts hc: opt; do
    case $opt in
    h) usage; exit 0 ;;
    c) range=$OPTARG ;;
    *) usage >&2; exit 2 ;;
    esac
done
shift $((OPTIND - 1))
if [ $# -lt 2 ] || [ $# -gt 3 ]; then
    usage >&2
    exit 2
fi
dump=$1 var=$2
case $range in
'') ;;
*:*) lo=${range%%:*} hi=${range#*:}
     if ! awk -v a="$lo" -v b="$hi" 'BEGIN {exit !(a ~ /^[-+0-9.eE]+$/ && b ~ /^[-+0-9.eE]+$/ && a + 0 < b + 0)}'; then
         echo "plot_field.sh: -c $range: want MIN:MAX, two numbers, MIN < MAX" >&2; exit 2
     fi ;;
*) echo "plot_field.sh: -c $range: want MIN:MAX" >&2; exit 2 ;;
esac
me=plot_field.sh
. "$top/run/plot_common.sh"
out=${3:-${dump%.h5}_$var.png}
"$tool" "$dump" cells "$var" > "$tmp/cells"
if [ "$(info drawn)" = 0 ]; then
    echo "plot_field.sh: $dump: no finite value of $var to draw" >&2
    exit 1
fi

# gnuplot single-quoted strings: only the quote itself needs doubling
q() { printf '%s' "$1" | sed "s/'/''/g"; }
label=$var
[ "$(info components)" = 1 ] || label="|$var|"
unit=$(info unit)
[ -z "$unit" ] || label="$label [$unit]"
title="$(info case): $var at t = $(info time), cycle $(info cycle)"
[ "$(info dim)" = 2 ] || title="$title, slice z = $(info slice_z)"
if [ -z "$range" ]; then
    lo=$(info min) hi=$(info max)
fi
# Canvas: the plot area keeps the domain's aspect ratio (clamped to 1:5 .. 3:1, then the title
# says so), the longer side 640 pixels; fixed pixel margins for title, tics and colour bar.
geometry=$(awk -v x0="$(info xmin)" -v x1="$(info xmax)" -v y0="$(info ymin)" -v y1="$(info ymax)" 'BEGIN {
    dx = x1 - x0; dy = y1 - y0; r = dx > 0 ? dy / dx : 1; note = 0
    if (r < 0.2) { r = 0.2; note = 1 } else if (r > 3) { r = 3; note = 1 }
    pw = 640; ph = pw * r; if (ph > 640) { ph = 640; pw = ph / r }
    pw = int(pw + 0.5); ph = int(ph + 0.5); w = pw + 250; h = ph + 125
    printf "%d %d %.6f %.6f %.6f %.6f %d\n", w, h, 90 / w, (90 + pw) / w, 70 / h, (70 + ph) / h, note }')
# shellcheck disable=SC2086 # split into the 7 numbers on purpose
set -- $geometry
[ "$7" = 0 ] || title="$title (axes not to scale)"
# a flat field still needs a colour range
cb=$(awk -v a="$lo" -v b="$hi" 'BEGIN { if (a + 0 == b + 0) { d = a == 0 ? 1 : 0.01 * (a < 0 ? -a : a); a -= d; b += d }
    printf "%.17g:%.17g", a, b }')

cat > "$tmp/plot.gp" <<EOF
set terminal pngcairo noenhanced size $1,$2 font 'Sans,11'
set output '$tmp/out.png'
set lmargin at screen $3
set rmargin at screen $4
set bmargin at screen $5
set tmargin at screen $6
set title '$(q "$title")'
set xlabel 'x'
set ylabel 'y'
set cblabel '$(q "$label")'
set xrange [$(info xmin):$(info xmax)]
set yrange [$(info ymin):$(info ymax)]
set cbrange [$cb]
set palette defined (0 '#30123b', 0.1 '#4454c4', 0.2 '#4490fe', 0.3 '#1fc8de', 0.4 '#29efa2', 0.5 '#7dff56', 0.6 '#c1f334', 0.7 '#f1ca3a', 0.8 '#fe922a', 0.9 '#ea4f0d', 1 '#7a0403')
set style fill solid 1.0 noborder
set tics out nomirror
set colorbox
unset key
plot '$tmp/cells' using 1:2:3 with filledcurves closed fillcolor palette
EOF
if ! gnuplot "$tmp/plot.gp" > "$tmp/log" 2>&1 || [ ! -s "$tmp/out.png" ]; then
    echo "plot_field.sh: gnuplot failed:" >&2
    cat "$tmp/log" >&2
    exit 1
fi
if ! cp "$tmp/out.png" "$out"; then
    echo "plot_field.sh: cannot write $out" >&2
    exit 1
fi
echo "$out"
