#!/bin/sh
# Arcane's launch_micro_hydro_lb512.2.sh: the MicroHydro load-balance bench on 512 ranks
# (inputs/bench/micro_hydro_lb512.2.ini). Exchange times: grep 'total_time=' | grep Cell
exec sh "$(dirname "$0")/launch.sh" 512 inputs/bench/micro_hydro_lb512.2.ini "$@"
