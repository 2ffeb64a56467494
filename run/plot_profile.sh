#!/bin/sh
# Profile of a cell variable of a hydro dump as a PNG (gnuplot): every cell's value against its
# centre's coordinate along an axis or the radius, with the exact solution of the case when known.
set -eu
usage() {
    cat <<'EOF'
usage: run/plot_profile.sh [-h] [-a x|y|z|r] DUMP VARIABLE [OUT.png]
  DUMP      a hydro dump (checkpoints/hydro_NNNNNN.h5), or a directory: its newest hydro_*.h5
  VARIABLE  a cell variable of the dump (density, pressure, internal_energy, ...)
  OUT.png   the picture (default: the dump's name with _VARIABLE_profile.png instead of .h5)
  -a AXIS   x, y, z or r (distance to the origin); default: sod its direction, noh and sedov r,
            other cases x
One point per cell (all the cells of the mesh). The exact solution (density, pressure,
internal_energy, sound_speed of sod along its direction, noh and sedov along r) is drawn as a
line. Prints the path of the PNG. Needs gnuplot and build/test/plotdata, as run/plot_field.sh.
Exit status: 0 done, 1 plotting failed, 2 bad usage, not a dump or no such variable.
EOF
}
top=$(cd "$(dirname "$0")/.." && pwd)
axis=
while getopts ha: opt; do
    case $opt in
    h) usage; exit 0 ;;
    a) axis=$OPTARG ;;
    *) usage >&2; exit 2 ;;
    esac
done
shift $((OPTIND - 1))
if [ $# -lt 2 ] || [ $# -gt 3 ]; then
    usage >&2
    exit 2
fi
case $axis in
'' | x | y | z | r) ;;
*) echo "plot_profile.sh: -a $axis: want x, y, z or r" >&2; exit 2 ;;
esac
dump=$1 var=$2
me=plot_profile.sh
. "$top/run/plot_common.sh"
out=${3:-${dump%.h5}_${var}_profile.png}
[ -n "$axis" ] || axis=$(info axis)
"$tool" "$dump" profile "$var" "$axis" > "$tmp/cells" || exit $?
# no exact solution is not an error: the reason goes in the picture's key
exact=1
"$tool" "$dump" exact "$var" "$axis" > "$tmp/exact" 2> "$tmp/why" || exact=0

q() { printf '%s' "$1" | sed "s/'/''/g"; }
label=$var
[ "$(info components)" = 1 ] || label="|$var|"
unit=$(info unit)
[ -z "$unit" ] || label="$label [$unit]"
title="$(info case): $var at t = $(info time), cycle $(info cycle)"
case $axis in r) xlabel="r (distance to the origin)" ;; *) xlabel=$axis ;; esac
cells=$(info cells)
if [ $exact = 1 ]; then
    plot="'$tmp/cells' using 1:2 with points pt 7 ps 0.5 lc rgb '#1f77b4' title 'hydro, $cells cells', \\
     '$tmp/exact' using 1:2 with lines lw 2 lc rgb '#d62728' title 'exact'"
else
    why=$(sed 's/^plotdata: //' "$tmp/why" | head -n 1)
    plot="'$tmp/cells' using 1:2 with points pt 7 ps 0.5 lc rgb '#1f77b4' title 'hydro, $cells cells ($(q "$why"))'"
fi

cat > "$tmp/plot.gp" <<EOF
set terminal pngcairo noenhanced size 800,500 font 'Sans,11'
set output '$tmp/out.png'
set title '$(q "$title")'
set xlabel '$(q "$xlabel")'
set ylabel '$(q "$label")'
set grid
set key top right
set autoscale yfix
set offsets 0, 0, graph 0.05, graph 0.05
plot $plot
EOF
if ! gnuplot "$tmp/plot.gp" > "$tmp/log" 2>&1 || [ ! -s "$tmp/out.png" ]; then
    echo "plot_profile.sh: gnuplot failed:" >&2
    cat "$tmp/log" >&2
    exit 1
fi
if ! cp "$tmp/out.png" "$out"; then
    echo "plot_profile.sh: cannot write $out" >&2
    exit 1
fi
echo "$out"
