/* libFuzzer harness of the deck parser: deck text, then "\n--\n", then one section.key=value override a line. */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "deck.h"
#include "fuzz.h"

#define MAX_OVERRIDES 16

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    return 0;
}

/* Every field the schema knows, compared by type (padding and unused bytes ignored). */
static bool same_config(const struct config *a, const struct config *b)
{
    for (int i = 0; i < deck_nkeys; i++) {
        const struct deck_key *k = &deck_keys[i];
        const char *x = (const char *)a + k->offset, *y = (const char *)b + k->offset;
        size_t n = 0;
        switch (k->type) {
        case KEY_INT:
            n = sizeof(long);
            break;
        case KEY_DOUBLE:
            n = sizeof(double); /* bitwise: -0 must stay -0 */
            break;
        case KEY_STRING:
            if (strcmp(x, y))
                return false;
            continue;
        case KEY_ENUM:
            n = sizeof(int);
            break;
        case KEY_BOOL:
            n = sizeof(bool);
            break;
        }
        if (memcmp(x, y, n))
            return false;
    }
    return true;
}

/* The README promises that --check prints a deck that reads back as the same run: whatever
 * deck_parse accepts must survive deck_to_text and a second parse unchanged. */
static void check_round_trip(const struct config *cfg)
{
    char *text = deck_to_text(cfg);
    if (!text)
        abort();
    struct config again;
    char err[1024];
    if (deck_parse(text, "resolved.ini", 0, NULL, 0, &again, err, sizeof err)) {
        fprintf(stderr, "fuzz_deck: the printed deck does not parse back: %s\n--- printed deck:\n%s", err, text);
        abort();
    }
    char *text2 = deck_to_text(&again);
    if (!text2)
        abort();
    if (strcmp(text, text2) || !same_config(cfg, &again)) {
        fprintf(stderr, "fuzz_deck: the printed deck reads back as another run\n--- first:\n%s--- second:\n%s", text,
                text2);
        abort();
    }
    free(text);
    free(text2);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    /* A C string, as deck_read_file hands over (it refuses NUL bytes: so does this). */
    if (size > DECK_FILE_MAX || memchr(data, '\0', size))
        return 0;
    char *buf = malloc(size + 1);
    if (!buf)
        abort();
    memcpy(buf, data, size);
    buf[size] = '\0';

    char *overrides[MAX_OVERRIDES];
    int nov = 0;
    char *sep = strstr(buf, "\n--\n");
    if (sep) {
        *sep = '\0';
        for (char *p = sep + 4; *p && nov < MAX_OVERRIDES;) {
            char *nl = strchr(p, '\n');
            if (nl)
                *nl = '\0';
            overrides[nov++] = p;
            if (!nl)
                break;
            p = nl + 1;
        }
    }
    struct config cfg;
    char err[1024];
    /* No DECK_CHECK_FILES: mesh files are never opened. A restart's override rule as well. */
    for (unsigned flags = 0; flags <= DECK_RESTART; flags += DECK_RESTART) {
        err[0] = '\0';
        int rc = deck_parse(buf, "fuzz.ini", nov, overrides, flags, &cfg, err, sizeof err);
        if (rc == 0)
            check_round_trip(&cfg);
        else if (!err[0] || !memchr(err, '\0', sizeof err) || strchr(err, '\n')) {
            fprintf(stderr, "fuzz_deck: a refused deck must give one line of message, got '%s'\n", err);
            abort();
        }
    }
    free(buf);
    return 0;
}
