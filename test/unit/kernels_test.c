/* Unit tests of the kernel cost fit and the compute-model file (miniapp/kernels.c). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernels.h"
#include "tap.h"

static int near(double x, double want) { return fabs(x - want) <= 1e-9 * fabs(want) + 1e-15; }

/* Writes text to a temporary file, reads it as a model; returns the reader's status. */
static int read_text(const char *text, struct kernels *k, char *why, size_t len)
{
    char path[] = "/tmp/hydro-kernels-XXXXXX";
    int fd = mkstemp(path);
    FILE *f = fdopen(fd, "w");
    fputs(text, f);
    fclose(f);
    int rc = kernels_read_model(k, path, why, len);
    remove(path);
    return rc;
}

static char *full_model(double a, double b)
{
    static char text[4096];
    text[0] = 0;
    strcat(text, "# comment\n\n");
    for (int i = 0; i < K_COUNT; i++) {
        char line[200];
        snprintf(line, sizeof line, "%s 10 100 50 1.5 %.17g %.17g\n", kernel_name((enum kernel)i), a * (i + 1), b);
        strcat(text, line);
    }
    return text;
}

int main(void)
{
    struct tap t = {0};
    double a, b;

    /* exact data t = 2e-9 n + 3e-8 m is recovered */
    struct kernel_sums s = {0};
    const double ns[] = {1000, 2000, 1500, 4000, 800}, ms[] = {10, 500, 0, 1200, 5};
    for (int i = 0; i < 5; i++)
        kernel_sums_add(&s, ns[i], ms[i], 2e-9 * ns[i] + 3e-8 * ms[i]);
    kernel_fit(&s, &a, &b);
    tap_ok(&t, near(a, 2e-9) && near(b, 3e-8), "two-term fit recovers a = 2e-9, b = 3e-8 (got %g, %g)", a, b);
    tap_ok(&t, s.calls == 5 && near(s.n, 9300) && near(s.m, 1715), "sums count calls and items");

    /* m always n (no skipping): one term, b = 0 */
    struct kernel_sums u = {0};
    for (int i = 0; i < 5; i++)
        kernel_sums_add(&u, ns[i], ns[i], 5e-9 * ns[i]);
    kernel_fit(&u, &a, &b);
    tap_ok(&t, near(a, 5e-9) && b == 0, "active = items: a = 5e-9, b = 0 (got %g, %g)", a, b);

    /* m a fixed multiple of n: cannot be told apart, so one term too */
    struct kernel_sums p = {0};
    for (int i = 0; i < 5; i++)
        kernel_sums_add(&p, ns[i], 0.25 * ns[i], 4e-9 * ns[i]);
    kernel_fit(&p, &a, &b);
    tap_ok(&t, near(a, 4e-9) && b == 0, "active a fixed share of items: one term (got %g, %g)", a, b);

    /* data whose best fit has a < 0: a = 0 and b the fit through the origin on m */
    struct kernel_sums q = {0};
    kernel_sums_add(&q, 1000, 100, 1e-6);
    kernel_sums_add(&q, 1000, 200, 3e-6);
    kernel_sums_add(&q, 1100, 300, 5e-6);
    kernel_fit(&q, &a, &b);
    tap_ok(&t, a == 0 && b > 0 && near(b, q.tm / q.mm), "a negative per-item cost is clamped to 0 (a %g, b %g)", a, b);

    struct kernel_sums z = {0};
    kernel_fit(&z, &a, &b);
    tap_ok(&t, a == 0 && b == 0, "no calls: zero costs");

    /* the load balancer's ratio: an active owned cell-step's cost over a quiet owned cell-cycle's */
    struct kernels r;
    memset(&r, 0, sizeof r);
    for (int i = 0; i < 5; i++) { /* 1000 owned cells; the active ones grow from 100 to 500 */
        double m = 100.0 * (i + 1);
        kernel_sums_add(&r.sums[K_DT], 1000, 1000, 1e-8 * 1000);                 /* a = 1e-8, b = 0 */
        kernel_sums_add(&r.sums[K_R_FINISH], 1000, m, 2e-8 * 1000 + 6e-7 * m);  /* a = 2e-8, b = 6e-7 */
    }
    /* quiet: (1e-8 + 2e-8) per cell-cycle; active: 6e-7 per active cell-step: ratio 20 */
    double share, ratio = kernels_active_ratio(r.sums, &share);
    tap_ok(&t, near(ratio, 20.0), "active cell-step against quiet cell-cycle: %g (20)", ratio);
    tap_ok(&t, near(share, 1.0 / 3.0), "the Lagrange kernels' share of a quiet cell-cycle: %g (1/3)", share);
    memset(&r, 0, sizeof r);
    tap_ok(&t, kernels_active_ratio(r.sums, &share) == 0 && share == 0.5, "no remap step yet: ratio 0, share 0.5");

    /* model files */
    struct kernels k;
    char why[512];
    memset(&k, 0, sizeof k);
    int rc = read_text(full_model(1e-9, 2e-8), &k, why, sizeof why);
    tap_ok(&t, rc == 0 && near(k.a[K_SAVE], 1e-9) && near(k.a[K_R_MOVE], 1e-9 * K_COUNT) && near(k.b[K_R_SLOPES], 2e-8),
           "a complete model file is read (%s)", rc ? why : "ok");

    char bad[8192];
    snprintf(bad, sizeof bad, "%sremap_sideways 1 1 1 1 1 1\n", full_model(1e-9, 0));
    rc = read_text(bad, &k, why, sizeof why);
    tap_ok(&t, rc && strstr(why, ":" ) && strstr(why, "unknown kernel 'remap_sideways'"), "unknown kernel: %s", why);
    int line = 0;
    char *colon = strchr(why, ':');
    if (colon)
        line = atoi(colon + 1);
    tap_ok(&t, line == 2 + K_COUNT + 1, "the message names the line (%d)", line);

    snprintf(bad, sizeof bad, "%slagrange_save 1 1 1 1 1 1\n", full_model(1e-9, 0));
    rc = read_text(bad, &k, why, sizeof why);
    tap_ok(&t, rc && strstr(why, "repeated kernel 'lagrange_save'"), "repeated kernel: %s", why);

    rc = read_text("lagrange_save 1 1 1 1 1e-9 0\n", &k, why, sizeof why);
    tap_ok(&t, rc && strstr(why, "missing"), "a missing kernel is refused: %s", why);

    strcpy(bad, full_model(1e-9, 0));
    char *neg = strstr(bad, "lagrange_forces 10 100 50 1.5 ");
    if (neg)
        memcpy(neg + strlen("lagrange_forces 10 100 50 1.5 "), "-", 1);
    rc = read_text(bad, &k, why, sizeof why);
    tap_ok(&t, neg && rc && strstr(why, "costs must be finite and >= 0"), "a negative cost is refused: %s", why);

    rc = read_text("lagrange_save 1 2 3\n", &k, why, sizeof why);
    tap_ok(&t, rc && strstr(why, ":1: expected"), "a short line is refused: %s", why);

    rc = kernels_read_model(&k, "/nonexistent/costs.txt", why, sizeof why);
    tap_ok(&t, rc && strstr(why, "cannot open '/nonexistent/costs.txt'"), "a missing file is refused: %s", why);

    /* the model's charge: owned work x scale_own, ghost work x scale_ghost */
    memset(&k, 0, sizeof k);
    k.on = k.model = 1;
    k.scale_own = 8;
    k.scale_ghost = 4;
    k.a[K_R_SWEPT] = 1e-9;
    k.b[K_R_SWEPT] = 1e-7;
    struct kernel_work w = {.n_own = 1000, .n_ghost = 500, .m_own = 10, .m_ghost = 20};
    kernels_begin(&k);
    kernels_stop(&k);
    double sec = kernels_end(&k, K_R_SWEPT, &w);
    tap_ok(&t, near(sec, 1e-9 * (8000 + 2000) + 1e-7 * (80 + 80)), "model seconds = a (8 own + 4 ghost) + b (...) (%g)",
           sec);
    tap_ok(&t, k.sums[K_R_SWEPT].calls == 1 && near(k.sums[K_R_SWEPT].n, 1500), "the model accounts the call too");
    return tap_done(&t);
}
