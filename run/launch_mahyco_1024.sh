#!/bin/sh
# Arcane's launch_mahyco_1024.sh: the MaHyCo weak-scaling bench on 1024 ranks
# (inputs/bench/mahyco_1024.ini, 1000 x 100 x 200 hexes, about 19.5k owned cells per rank).
# Loop time: sh run/launch_mahyco_1024.sh > result.txt; grep '  loop:' result.txt
exec sh "$(dirname "$0")/launch.sh" 1024 inputs/bench/mahyco_1024.ini "$@"
