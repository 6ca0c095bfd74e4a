/* What runtime/ offers: the GC heap and the evaluation stack, values, tensors and their kernels,
 * the closure compiler and the evaluator, value printing. It runs typed ASTs from ir/ and never
 * includes a typing/ header. */
#ifndef RUNTIME_RUNTIME_H
#define RUNTIME_RUNTIME_H

#include <stdbool.h>
#include <stddef.h>

#include "ir/ir.h"

/* The size of the evaluation stack: deep non-tail recursion (a map over a million-element list)
 * runs on it. Untouched pages cost nothing. */
#define RT_STACK_BYTES ((size_t)1 << 30)

/* Starts the collector; call once, first thing in main(). */
void rt_heap_init(void);

/* Runs fn(arg) on a thread with a stack of `bytes` that the collector scans, and waits for it.
 * Returns false (with errno set) when the thread cannot be made; fn then does not run. */
bool rt_stack_run(void (*fn)(void *), void *arg, size_t bytes);

#endif
