# Shared by run/plot_field.sh and run/plot_profile.sh (sourced, POSIX sh): with $me (the script's
# name), $top (the repository), $dump and $var set, resolves a directory to its newest dump,
# checks gnuplot, builds the reader test/tools/plotdata.c if needed ($tool), makes $tmp (removed
# on exit) and reads the dump's summary into $tmp/info, queried with info KEY.
if [ -d "$dump" ]; then
    # the run's last dump is the newest file (dump names are hydro_<6 digits>.h5: ls is safe)
    newest=$(cd "$dump" && ls -t hydro_*.h5 2>/dev/null | head -n 1) || true
    if [ -z "$newest" ]; then
        echo "$me: no hydro_*.h5 dump in directory $dump" >&2
        exit 2
    fi
    dump=${dump%/}/$newest
elif [ ! -f "$dump" ]; then
    echo "$me: $dump: no such file" >&2
    exit 2
fi
if ! command -v gnuplot >/dev/null 2>&1; then
    echo "$me: gnuplot not found: install it (Debian: apt-get install gnuplot-nox, or make deps)" >&2
    exit 1
fi
build=${HYDRO_BUILD:-$top/build}
case $build in /*) ;; *) build=$top/$build ;; esac
tool=$build/test/plotdata
if [ ! -x "$tool" ]; then
    make --no-print-directory -s -C "$top" BUILD="$build" "$tool" >&2 || {
        echo "$me: cannot build $tool (make $tool in $top)" >&2
        exit 1
    }
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# plotdata checks the dump and the variable and says what is wrong (exit 2)
"$tool" "$dump" info "$var" > "$tmp/info" || exit $?
info() { awk -v k="$1" '$1 == k {sub(/^[^ ]+ /, ""); print; exit}' "$tmp/info"; }
