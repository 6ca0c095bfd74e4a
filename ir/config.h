/* The build's configuration, for every folder: the invariant checks of debug builds.
 *
 *     ASSERT(cond);                 a condition relay's own code guarantees
 *     UNREACHABLE("why"); fallback; a place no input can reach (a switch's missing kind)
 *
 * Both are on in builds without NDEBUG (debug and UBSan, as CI builds them): a failure prints
 * "relay: internal error: ..." with the file and line on stderr and aborts, so a test, the
 * fuzzer or a user's report points at the broken invariant. Release builds compile them away:
 * ASSERT's condition is not evaluated, and after UNREACHABLE the code goes on with the fallback
 * that follows it (a value that keeps the session alive), so a bug there never becomes undefined
 * behaviour. Input errors are never asserted: they get a diagnostic. */
#ifndef IR_CONFIG_H
#define IR_CONFIG_H

#ifdef NDEBUG
#define IR_CHECKS 0
#else
#define IR_CHECKS 1
#endif

_Noreturn void ir_assert_failed(const char *what, const char *file, int line, const char *func);

#if IR_CHECKS
#define ASSERT(cond) ((cond) ? (void)0 : ir_assert_failed(#cond, __FILE__, __LINE__, __func__))
#define UNREACHABLE(why) ir_assert_failed("unreachable: " why, __FILE__, __LINE__, __func__)
#else
#define ASSERT(cond) ((void)sizeof((cond) ? 1 : 0)) /* not evaluated; its names count as used */
#define UNREACHABLE(why) ((void)0)
#endif

#endif
