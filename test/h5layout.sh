#!/bin/sh
# h5layout.sh DUMP: the structure of a dump (objects, types, shapes) from h5dump -H, without
# string lengths, so that it can be compared with test/expected/layout_*.txt.
h5dump -H "$1" | sed -n 's/^ *//; /^\(GROUP\|DATASET\|ATTRIBUTE\|DATATYPE\|DATASPACE\)/p' |
    sed 's/DATATYPE  H5T_STRING {/DATATYPE  H5T_STRING/; s/^HDF5 .*//'
