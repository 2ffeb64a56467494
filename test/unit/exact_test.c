/* Unit tests of the exact solutions the verification relies on (test/exact/exact.h). */
#include <math.h>

#include "cases.h"
#include "exact/exact.h"
#include "tap.h"

int main(void)
{
    struct tap t = {0};
    struct riemann_state l = {1.0, 0.0, 1.0}, r = {0.125, 0.0, 0.1};
    double ps, us;
    riemann_star(&l, &r, 1.4, &ps, &us);
    /* Sod's star state (Toro, table 4.3 test 1 shifted to Sod's data): p* 0.30313, u* 0.92745 */
    tap_ok(&t, fabs(ps - 0.30313) < 1e-5 && fabs(us - 0.92745) < 1e-5, "Sod star state p* = %.5f, u* = %.5f", ps, us);
    struct riemann_state a = riemann_sample(&l, &r, 1.4, 0.5), b = riemann_sample(&l, &r, 1.4, 1.5);
    tap_ok(&t, fabs(a.rho - 0.42632) < 1e-5 && fabs(b.rho - 0.26557) < 1e-5,
           "Sod star densities %.5f left of the contact, %.5f right of it", a.rho, b.rho);
    struct riemann_state far_l = riemann_sample(&l, &r, 1.4, -5), far_r = riemann_sample(&l, &r, 1.4, 5);
    tap_ok(&t, far_l.rho == 1.0 && far_r.rho == 0.125, "undisturbed states outside the waves");
    tap_ok(&t, fabs(noh_density(2, 5.0 / 3.0, 0.6, 0.1) - 16) < 1e-12 &&
               fabs(noh_density(3, 5.0 / 3.0, 0.6, 0.1) - 64) < 1e-12 &&
               fabs(noh_density(2, 5.0 / 3.0, 0.6, 0.3) - 3) < 1e-12,
           "Noh: 16 (2D) and 64 (3D) behind the shock at 0.2, 1 + t/r ahead of it");
    double a2 = sedov_alpha_exact(2, 1.4), a3 = sedov_alpha_exact(3, 1.4);
    tap_ok(&t, fabs(a2 - sedov_alpha(2, 1.4)) < 2e-3 && fabs(a3 - sedov_alpha(3, 1.4)) < 2e-3,
           "Sedov alpha from the self-similar solution: %.4f (cylindrical), %.4f (spherical), as the cases use", a2, a3);
    double a1 = sedov_alpha_exact(1, 1.4);
    tap_ok(&t, fabs(a1 - 2 * 0.5385) < 4e-3, "Sedov alpha, planar (both sides of the plane): %.4f = 2 x 0.5385 (Kamm & Timmes, one side)", a1);
    return tap_done(&t);
}
