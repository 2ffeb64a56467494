/* Test tool: compare a hydro dump with the exact solution of its case and print metrics.
 * usage: verify DUMP sod AXIS      -> l1=<L1 density error over the tube, per unit length>
 *        verify DUMP noh            -> shock=<radius> inner=<mean density for 0.05 < r < 0.15>
 *        verify DUMP sedov          -> peak_r=<radius of the peak averaged density> peak=<its value>
 *        verify DUMP arc            -> arc=<largest |r - 1| of the boundary nodes off the axes (2D)>
 *        verify DUMP spread AXIS    -> spread=<largest density difference at equal coordinate AXIS>
 *        verify DUMP totals         -> mass=<total mass> rho_min=<smallest density> rho_max=<largest>
 *        verify DUMP water_air      -> l1=<L1 density error over the tube / 1000> contact=<interface x:
 *                                      the water's volume over the cross-section>
 *                                      exact_contact=<x of the exact contact> dx=<initial cell size> */
#include <hdf5.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exact/exact.h"

static double *read_all(hid_t f, const char *name, hsize_t *rows, hsize_t *cols, hid_t type)
{
    hid_t d = H5Dopen2(f, name, H5P_DEFAULT);
    if (d < 0) {
        fprintf(stderr, "verify: no dataset %s\n", name);
        exit(2);
    }
    hid_t s = H5Dget_space(d);
    hsize_t dims[2] = {0, 1};
    H5Sget_simple_extent_dims(s, dims, NULL);
    *rows = dims[0];
    *cols = H5Sget_simple_extent_ndims(s) == 2 ? dims[1] : 1;
    double *buf = malloc(dims[0] * *cols * 8);
    H5Dread(d, type, H5S_ALL, H5S_ALL, H5P_DEFAULT, buf);
    H5Sclose(s);
    H5Dclose(d);
    return buf;
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: see the comment at the top of verify.c\n");
        return 2;
    }
    hid_t f = H5Fopen(argv[1], H5F_ACC_RDONLY, H5P_DEFAULT);
    if (f < 0)
        return 2;
    double t = 0;
    hid_t a = H5Aopen(f, "time", H5P_DEFAULT);
    H5Aread(a, H5T_NATIVE_DOUBLE, &t);
    H5Aclose(a);
    hsize_t nn, three, nc, nv, one;
    double *xyz = read_all(f, "/mesh/node_coords", &nn, &three, H5T_NATIVE_DOUBLE);
    long long *cn = (long long *)read_all(f, "/mesh/cell_nodes", &nc, &nv, H5T_NATIVE_LLONG);
    double *rho = read_all(f, "/cells/density", &nc, &one, H5T_NATIVE_DOUBLE);
    double *vol = read_all(f, "/cells/volume", &nc, &one, H5T_NATIVE_DOUBLE);
    double *mass = read_all(f, "/cells/mass", &nc, &one, H5T_NATIVE_DOUBLE);
    int dim = nv == 4 ? 2 : 3;
    double (*ctr)[3] = calloc(nc, sizeof *ctr);
    for (hsize_t c = 0; c < nc; c++)
        for (hsize_t k = 0; k < nv; k++)
            for (int d = 0; d < 3; d++)
                ctr[c][d] += xyz[3 * cn[c * nv + k] + d] / (double)nv;

    if (!strcmp(argv[2], "totals")) {
        double m = 0, lo = INFINITY, hi = -INFINITY;
        for (hsize_t c = 0; c < nc; c++) {
            m += mass[c];
            lo = rho[c] < lo ? rho[c] : lo;
            hi = rho[c] > hi ? rho[c] : hi;
        }
        printf("mass=%.17g rho_min=%.17g rho_max=%.17g\n", m, lo, hi);
    } else if (!strcmp(argv[2], "arc") && dim == 2) {
        /* boundary nodes of a 2D mesh off the axes (the quarter disc's arc): largest |r - 1| */
        char *on_boundary = calloc(nn, 1);
        for (hsize_t c = 0; c < nc; c++)
            for (int e = 0; e < 4; e++) {
                long long a0 = cn[c * 4 + e], a1 = cn[c * 4 + (e + 1) % 4];
                int shared = 0;
                for (hsize_t d = 0; d < nc && !shared; d++)
                    for (int f2 = 0; f2 < 4 && d != c; f2++) {
                        long long b0 = cn[d * 4 + f2], b1 = cn[d * 4 + (f2 + 1) % 4];
                        shared |= (a0 == b1 && a1 == b0) || (a0 == b0 && a1 == b1);
                    }
                if (!shared)
                    on_boundary[a0] = on_boundary[a1] = 1;
            }
        double worst = 0;
        for (hsize_t n = 0; n < nn; n++)
            if (on_boundary[n] && xyz[3 * n] > 1e-9 && xyz[3 * n + 1] > 1e-9) {
                double dr = fabs(sqrt(xyz[3 * n] * xyz[3 * n] + xyz[3 * n + 1] * xyz[3 * n + 1]) - 1);
                worst = dr > worst ? dr : worst;
            }
        printf("arc=%.3e\n", worst);
        free(on_boundary);
    } else if (!strcmp(argv[2], "spread") && argc == 4) {
        /* largest density difference between cells at the same coordinate along AXIS: a 1D
         * problem computed on a 2D or 3D mesh must stay 1D */
        int axis = atoi(argv[3]);
        double worst = 0;
        for (hsize_t a = 0; a < nc; a++)
            for (hsize_t b = a + 1; b < nc; b++)
                if (fabs(ctr[a][axis] - ctr[b][axis]) < 1e-9 && fabs(rho[a] - rho[b]) > worst)
                    worst = fabs(rho[a] - rho[b]);
        printf("spread=%.3e\n", worst);
    } else if (!strcmp(argv[2], "sod") && argc == 4) {
        int axis = atoi(argv[3]);
        struct riemann_state l = {1.0, 0.0, 1.0}, r = {0.125, 0.0, 0.1};
        double err = 0, vsum = 0;
        for (hsize_t c = 0; c < nc; c++) {
            struct riemann_state s = riemann_sample(&l, &r, 1.4, (ctr[c][axis] - 0.5) / t);
            err += fabs(rho[c] - s.rho) * vol[c];
            vsum += vol[c];
        }
        printf("l1=%.6e time=%.6g cells=%llu", err / vsum, t, (unsigned long long)nc);
        if (H5Lexists(f, "/cells/volume_fractions", H5P_DEFAULT) > 0) {
            /* two materials: where the left one's volume ends, against the exact contact */
            hsize_t nm = 0;
            double *frac = read_all(f, "/cells/volume_fractions", &nc, &nm, H5T_NATIVE_DOUBLE), left = 0, ps, us;
            for (hsize_t c = 0; c < nc; c++)
                left += frac[c * nm] * vol[c];
            riemann_star(&l, &r, 1.4, &ps, &us);
            printf(" contact=%.6f exact_contact=%.6f", left / vsum, 0.5 + us * t);
            free(frac);
        }
        printf("\n");
    } else if (!strcmp(argv[2], "water_air")) {
        /* Saurel & Abgrall's tube on [0, 1] (exact.h); the interface lies where the water's
         * volume ends (material 0's fractions) */
        const struct water_air wa = water_air_problem();
        hsize_t nm = 0;
        double *frac = read_all(f, "/cells/volume_fractions", &nc, &nm, H5T_NATIVE_DOUBLE);
        double ps, us, err = 0, vsum = 0, water = 0;
        riemann_star2(&wa.water, &wa.qwater, &wa.air, &wa.qair, &ps, &us);
        for (hsize_t c = 0; c < nc; c++) {
            struct riemann_state s =
                riemann_sample2(&wa.water, &wa.qwater, &wa.air, &wa.qair, (ctr[c][0] - wa.x0) / t);
            err += fabs(rho[c] - s.rho) * vol[c];
            vsum += vol[c];
            water += frac[c * nm] * vol[c];
        }
        printf("l1=%.6e contact=%.6f exact_contact=%.6f time=%.6g cells=%llu\n", err / vsum / 1000.0, water / vsum,
               wa.x0 + us * t, t, (unsigned long long)nc);
        free(frac);
    } else if (!strcmp(argv[2], "noh") || !strcmp(argv[2], "sedov")) {
        /* radially binned density, bins of width dr */
        int nb = 200;
        double rmax = 1.2, dr = rmax / nb;
        double *sum = calloc(nb, sizeof *sum), *w = calloc(nb, sizeof *w);
        double inner = 0, inner_w = 0;
        for (hsize_t c = 0; c < nc; c++) {
            double rr = sqrt(ctr[c][0] * ctr[c][0] + ctr[c][1] * ctr[c][1] + (dim == 3 ? ctr[c][2] * ctr[c][2] : 0));
            int b = (int)(rr / dr);
            if (b < nb) {
                sum[b] += rho[c] * vol[c];
                w[b] += vol[c];
            }
            if (rr > 0.05 && rr < 0.15) {
                inner += rho[c] * vol[c];
                inner_w += vol[c];
            }
        }
        if (argc > 3 && !strcmp(argv[3], "profile"))
            for (int b = 0; b < nb; b += 4)
                if (w[b] > 0)
                    printf("# r=%.3f rho=%.4f\n", (b + 0.5) * dr, sum[b] / w[b]);
        if (!strcmp(argv[2], "sedov")) {
            int best = 0;
            for (int b = 0; b < nb; b++)
                if (w[b] > 0 && sum[b] / w[b] > (w[best] > 0 ? sum[best] / w[best] : 0))
                    best = b;
            printf("peak_r=%.4f peak=%.4f time=%.6g\n", (best + 0.5) * dr, sum[best] / w[best], t);
        } else {
            /* shock: outermost bin whose mean density exceeds the midpoint between the shocked
             * value and the pre-shock value just outside the exact shock */
            double gamma = 5.0 / 3.0, rs = 0.5 * (gamma - 1) * t;
            double in = noh_density(dim, gamma, t, 0.5 * rs), out = noh_density(dim, gamma, t, 1.5 * rs);
            double mid = 0.5 * (in + out), shock = 0;
            for (int b = 0; b < nb; b++)
                if (w[b] > 0 && sum[b] / w[b] > mid)
                    shock = (b + 1) * dr;
            printf("shock=%.4f inner=%.4f time=%.6g\n", shock, inner / inner_w, t);
        }
        free(sum);
        free(w);
    } else {
        fprintf(stderr, "verify: unknown check %s\n", argv[2]);
        return 2;
    }
    H5Fclose(f);
    return 0;
}
