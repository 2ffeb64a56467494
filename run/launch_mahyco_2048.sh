#!/bin/sh
# Arcane's launch_mahyco_2048.sh: the MaHyCo weak-scaling bench on 2048 ranks
# (inputs/bench/mahyco_2048.ini, 1000 x 200 x 200 hexes, about 19.5k owned cells per rank).
# Loop time: sh run/launch_mahyco_2048.sh > result.txt; grep '  loop:' result.txt
exec sh "$(dirname "$0")/launch.sh" 2048 inputs/bench/mahyco_2048.ini "$@"
