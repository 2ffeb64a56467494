#!/bin/sh
# h5same.sh [--any-deck] A B: the two dumps hold the same objects and the same data bit for bit,
# apart from what depends on the rank count: the root attribute nranks_written and the dataset
# /cells/rank (the /diagnostics totals are exact sums: the same for any rank count).
# --any-deck also lets the deck attribute differ (runs with other [parallel] or [output] keys);
# --any-version the code_version attribute (dumps of two builds: another commit, another link).
# (h5diff 1.10 cannot exclude an attribute: its report is read instead; it also says nothing
# of objects present in one file only, so the layouts are compared first.)
attrs=nranks_written
while :; do
    case $1 in
    --any-deck) attrs="$attrs|deck" ;;
    --any-version) attrs="$attrs|code_version" ;;
    *) break ;;
    esac
    shift
done
allow="attribute: <($attrs) of </>>"
la=$(sh "$(dirname "$0")/h5layout.sh" "$1") lb=$(sh "$(dirname "$0")/h5layout.sh" "$2")
if [ "$la" != "$lb" ]; then
    echo "layouts differ:"
    printf '%s\n' "$la" > /tmp/h5same.$$.a
    printf '%s\n' "$lb" | diff /tmp/h5same.$$.a - | head -20
    rm -f /tmp/h5same.$$.a
    exit 1
fi
out=$(h5diff -v --exclude-path /cells/rank "$1" "$2" 2>&1)
rc=$?
[ $rc -le 1 ] || { printf '%s\n' "$out"; exit 2; }
bad=$(printf '%s\n' "$out" | awk -v allow="^$allow" '
    /^(attribute|dataset|group)/ { what = $0 }
    /differences found/ && $1 != "0" && what !~ allow { print what ": " $0 }
    /not comparable|Not comparable|not found/ { print $0 }')
if [ -n "$bad" ]; then
    printf '%s\n' "$bad"
    exit 1
fi
exit 0
