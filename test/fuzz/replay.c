/* Replays files through a fuzz harness without libFuzzer (plain compiler, sanitizers optional): TAP, one line per input. */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fuzz.h"

/* Reads a whole file; NULL when it cannot. */
static uint8_t *slurp(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 4096, n = 0;
    uint8_t *buf = malloc(cap);
    while (buf) {
        n += fread(buf + n, 1, cap - n, f);
        if (n < cap)
            break;
        uint8_t *t = realloc(buf, 2 * cap);
        if (!t) {
            free(buf);
            buf = NULL;
        } else {
            buf = t;
            cap *= 2;
        }
    }
    if (buf && ferror(f)) {
        free(buf);
        buf = NULL;
    }
    fclose(f);
    *size = n;
    return buf;
}

/* Runs one input; a crash ends the process (the sanitizers or abort() report it), so the
 * name goes to stderr first and the ok line comes after. Returns 0, or 1 when unreadable. */
static int replay_file(const char *path, int *n)
{
    size_t size = 0;
    uint8_t *data = slurp(path, &size);
    ++*n;
    if (!data) {
        printf("not ok %d - %s: cannot read: %s\n", *n, path, strerror(errno));
        return 1;
    }
    fprintf(stderr, "replay: %s (%zu bytes)\n", path, size);
    LLVMFuzzerTestOneInput(data, size);
    free(data);
    printf("ok %d - %s\n", *n, path);
    fflush(stdout);
    return 0;
}

static int cmp_names(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* Every regular file of a directory, in name order (reproducible), except dot files and READMEs. */
static int replay_dir(const char *dir, int *n)
{
    DIR *d = opendir(dir);
    if (!d) {
        printf("not ok %d - %s: cannot open: %s\n", ++*n, dir, strerror(errno));
        return 1;
    }
    char **names = NULL;
    size_t count = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.' || !strncmp(e->d_name, "README", 6))
            continue;
        char **t = realloc(names, (count + 1) * sizeof *names);
        size_t len = strlen(dir) + strlen(e->d_name) + 2;
        char *full = malloc(len);
        if (!t || !full) {
            fprintf(stderr, "replay: out of memory\n");
            exit(1);
        }
        names = t;
        snprintf(full, len, "%s/%s", dir, e->d_name);
        names[count++] = full;
    }
    closedir(d);
    if (count)
        qsort(names, count, sizeof *names, cmp_names);
    int bad = 0;
    for (size_t i = 0; i < count; i++) {
        struct stat st;
        if (!stat(names[i], &st) && S_ISREG(st.st_mode))
            bad |= replay_file(names[i], n);
        free(names[i]);
    }
    free(names);
    return bad;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s FILE|DIR...  (replays each input through the harness; exit 1 on failure)\n",
                argv[0]);
        return 2;
    }
    LLVMFuzzerInitialize(&argc, &argv);
    int n = 0, bad = 0;
    for (int i = 1; i < argc; i++) {
        struct stat st;
        if (!stat(argv[i], &st) && S_ISDIR(st.st_mode))
            bad |= replay_dir(argv[i], &n);
        else
            bad |= replay_file(argv[i], &n);
    }
    printf("1..%d\n", n);
    return bad;
}
