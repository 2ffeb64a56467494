#!/bin/sh
# Arcane's launch_micro_hydro_lb32.1.sh: the MicroHydro load-balance bench on 32 ranks
# (inputs/bench/micro_hydro_lb32.1.ini). Exchange times: grep 'total_time=' | grep Cell
exec sh "$(dirname "$0")/launch.sh" 32 inputs/bench/micro_hydro_lb32.1.ini "$@"
