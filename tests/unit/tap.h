/* A tiny header-only TAP (Test Anything Protocol) harness for the C unit tests.
 * Each unit test is its own executable, so the counters are file-static; main() ends with
 * `return tap_done();`, which prints the plan `1..N` last and gives the exit status. */
#ifndef RELAY_TESTS_TAP_H
#define RELAY_TESTS_TAP_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#if defined(__GNUC__) || defined(__clang__)
#define TAP_PRINTF(fmt_index, first_arg) __attribute__((format(printf, fmt_index, first_arg)))
#define TAP_UNUSED __attribute__((unused))
#else
#define TAP_PRINTF(fmt_index, first_arg)
#define TAP_UNUSED
#endif

static int tap_count_;  /* tests run so far */
static int tap_failed_; /* of which failed */

/* Prints `ok N - desc` or `not ok N - desc`; the common body of every check. */
static inline TAP_PRINTF(2, 0) bool tap_vok(bool cond, const char *fmt, va_list ap)
{
    tap_count_++;
    if (!cond)
        tap_failed_++;
    printf("%sok %d - ", cond ? "" : "not ", tap_count_);
    vprintf(fmt, ap);
    putchar('\n');
    fflush(stdout);
    return cond;
}

static inline TAP_UNUSED TAP_PRINTF(2, 3) bool tap_ok(bool cond, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    bool r = tap_vok(cond, fmt, ap);
    va_end(ap);
    return r;
}

/* A `# ...` diagnostic line; TAP consumers show it but do not count it. */
static inline TAP_UNUSED TAP_PRINTF(1, 2) void tap_diag(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("# ", stdout);
    vprintf(fmt, ap);
    putchar('\n');
    fflush(stdout);
    va_end(ap);
}

/* Prints a possibly multi-line string after `label`, one `#` line per line of text. */
static inline void tap_diag_str_(const char *label, const char *s)
{
    if (!s) {
        printf("# %s(null)\n", label);
        return;
    }
    printf("# %s\"", label);
    for (; *s; s++) {
        if (*s == '\n')
            fputs("\\n", stdout);
        else
            putchar(*s);
    }
    puts("\"");
}

static inline TAP_UNUSED TAP_PRINTF(3, 4) bool tap_is_str(const char *got, const char *want,
                                                          const char *fmt, ...)
{
    bool same = (got == NULL || want == NULL) ? got == want : strcmp(got, want) == 0;
    va_list ap;
    va_start(ap, fmt);
    tap_vok(same, fmt, ap);
    va_end(ap);
    if (!same) {
        tap_diag_str_("  got: ", got);
        tap_diag_str_(" want: ", want);
        fflush(stdout);
    }
    return same;
}

static inline TAP_UNUSED TAP_PRINTF(3, 4) bool tap_is_int(long long got, long long want,
                                                          const char *fmt, ...)
{
    bool same = got == want;
    va_list ap;
    va_start(ap, fmt);
    tap_vok(same, fmt, ap);
    va_end(ap);
    if (!same) {
        printf("#   got: %lld\n#  want: %lld\n", got, want);
        fflush(stdout);
    }
    return same;
}

/* Counts as a pass: `ok N # SKIP reason`. */
static inline TAP_UNUSED void tap_skip(const char *reason)
{
    tap_count_++;
    printf("ok %d # SKIP %s\n", tap_count_, reason ? reason : "");
    fflush(stdout);
}

/* Prints the plan and returns the exit status for main(): 0 iff every test passed. */
static inline TAP_UNUSED int tap_done(void)
{
    printf("1..%d\n", tap_count_);
    if (tap_failed_)
        printf("# %d of %d tests failed\n", tap_failed_, tap_count_);
    fflush(stdout);
    return tap_failed_ ? 1 : 0;
}

#endif
