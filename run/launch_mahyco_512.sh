#!/bin/sh
# Arcane's launch_mahyco_512.sh: the MaHyCo weak-scaling bench on 512 ranks
# (inputs/bench/mahyco_512.ini, 1000 x 100 x 100 hexes, about 19.5k owned cells per rank).
# Loop time: sh run/launch_mahyco_512.sh > result.txt; grep '  loop:' result.txt
exec sh "$(dirname "$0")/launch.sh" 512 inputs/bench/mahyco_512.ini "$@"
