#!/bin/sh
# Arcane's launch_mahyco_128.sh: the MaHyCo weak-scaling bench on 128 ranks
# (inputs/bench/mahyco_128.ini, 1000 x 50 x 50 hexes, about 19.5k owned cells per rank).
# Loop time: sh run/launch_mahyco_128.sh > result.txt; grep '  loop:' result.txt
exec sh "$(dirname "$0")/launch.sh" 128 inputs/bench/mahyco_128.ini "$@"
