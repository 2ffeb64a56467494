/* The next time step from the cycle's reduced candidate: MaHyCo's and MicroHydro's controls
 * (times in the deck's unit T), plain arithmetic shared by the case and its unit tests. */
#ifndef HYDRO_TIMESTEP_H
#define HYDRO_TIMESTEP_H

#include "hydro.h"

/* MaHyCo: the candidate (cfl min L / (c + |v|)) at most dt_growth times the previous step and
 * dt_max. The caller stops the run when this is below dt_min, then ends the last step at
 * final_time with timestep_last. */
double timestep_mahyco(const struct hydro_params *hp, double cand, double prev);

/* MicroHydro (MicroHydroModule::computeDeltaT): the candidate (cfl min L / c) between
 * (1 - dt_decrease) and dt_growth times the previous step prev (0 before the first one), cut to
 * prev * density_ratio / change when the cycle's largest relative density change
 * (rho1 - rho0) / rho1 exceeds density_ratio, clamped to [dt_min, dt_max], and ended at
 * final_time (left: the time still to run). */
double timestep_microhydro(const struct hydro_params *hp, double cand, double prev, double change, double left);

/* The first step: dt_init, at most dt_max, and final_time when that comes first (final_time
 * above 0). */
double timestep_first(double dt_init, double dt_max, double final_time);

/* dt shortened so that the step ends exactly at final_time, left being the time still to run. */
double timestep_last(double dt, double left);

#endif
