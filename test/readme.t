#!/bin/sh
# Documentation kept honest: the README deck reference equals what the schema generates.
. test/lib.sh
grep -q '<!-- deck-reference:' README.md; ok $? "README.md has the generated deck reference block"
run_ok "README.md deck reference matches 'hydro --deck-reference'" sh test/readme_reference.sh check "$HYDRO"
done_testing
