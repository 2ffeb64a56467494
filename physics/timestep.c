/* MaHyCo's and MicroHydro's time-step controls (see timestep.h). */
#include "timestep.h"

double timestep_mahyco(const struct hydro_params *hp, double cand, double prev)
{
    double grown = prev * hp->dt_growth, dt = cand < grown ? cand : grown;
    return dt < hp->dt_max ? dt : hp->dt_max;
}

double timestep_microhydro(const struct hydro_params *hp, double cand, double prev, double change, double left)
{
    double most = hp->dt_growth * prev, least = (1.0 - hp->dt_decrease) * prev;
    double dt = cand < most ? cand : most;
    dt = dt > least ? dt : least;
    if (change > hp->density_ratio && prev * hp->density_ratio / change < dt)
        dt = prev * hp->density_ratio / change;
    dt = dt < hp->dt_max ? dt : hp->dt_max;
    dt = dt > hp->dt_min ? dt : hp->dt_min;
    return timestep_last(dt, left);
}

double timestep_last(double dt, double left)
{
    return left > 0 && dt > left ? left : dt;
}

double timestep_first(double dt_init, double dt_max, double final_time)
{
    double dt0 = dt_init < dt_max ? dt_init : dt_max;
    return dt0 < final_time && final_time > 0 ? dt0 : final_time;
}
