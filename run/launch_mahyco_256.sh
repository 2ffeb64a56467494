#!/bin/sh
# Arcane's launch_mahyco_256.sh: the MaHyCo weak-scaling bench on 256 ranks
# (inputs/bench/mahyco_256.ini, 1000 x 100 x 50 hexes, about 19.5k owned cells per rank).
# Loop time: sh run/launch_mahyco_256.sh > result.txt; grep '  loop:' result.txt
exec sh "$(dirname "$0")/launch.sh" 256 inputs/bench/mahyco_256.ini "$@"
