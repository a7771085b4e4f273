/*
 * isolate.h - runs one piece of work in a forked child process that can be
 * stopped without harm to the caller.
 *
 * Why: Z3 checks its memory limit only between steps, and one step (bit-
 * blasting a 64-bit multiplier or divider) can add 80 MB or more; a hard
 * limit inside the process stops the step but leaves the context broken
 * (Z3 4.8.12 crashes when it is deleted, docs/performance.md, session 6).
 * A forked child works on a copy of the caller's memory: whatever it
 * allocates, and whatever state it leaves behind, goes away when it ends,
 * so the child can get a hard memory limit and can be killed at a
 * deadline.  The caller's memory is exactly as it was before the call,
 * which also means the child's side effects are lost: the work must hand
 * back everything the caller needs through the result buffer.
 *
 * Contract of iso_run: the child calls FN(ARG, OUT, CAP), which fills at
 * most CAP bytes of OUT (the child's copy of the caller's buffer) and
 * returns how many it filled; those bytes reach the caller's OUT.  The
 * child then ends with _exit, so no atexit handler runs and no stdio
 * buffer is flushed twice.  FN must not print.  The child runs with the
 * default action for every signal the caller handles: a crash in it is
 * its own (ISO_DIED), never reported by the caller's handlers.  The
 * child's stderr is /dev/null (except in builds with AddressSanitizer,
 * whose reports must reach the log), so what a dying solver prints does
 * not reach the caller's output: the caller reports the death.
 *
 * Errors: iso_run never fails the caller's work.  When no child can be
 * made (fork or pipe failing) it answers ISO_UNAVAILABLE and the caller
 * does the work itself; a child killed at the deadline is ISO_TIMEOUT; a
 * child that ends without handing back its result (a crash, a signal, an
 * abort inside the solver) is ISO_DIED, with the signal in *SIGNO.
 *
 * Threads: fork copies only the calling thread.  The process must not
 * have other threads that hold locks FN needs; jitprove runs one thread
 * per process (Z3's timer threads hold no lock between checks).
 */
#ifndef JP_VERIFY_ISOLATE_H
#define JP_VERIFY_ISOLATE_H

#include <stddef.h>

typedef enum iso_outcome {
	ISO_DONE,	 /* the child handed back its result */
	ISO_TIMEOUT,	 /* killed at the deadline */
	ISO_DIED,	 /* ended without a result */
	ISO_UNAVAILABLE, /* no child could be made; nothing ran */
} iso_outcome;

typedef size_t (*iso_fn)(void *arg, void *out, size_t cap);

/* Runs FN in a child (see above).  DEADLINE_MS: wall-clock time after
 * which the child is killed; 0 = none.  *LEN receives the number of bytes
 * of OUT filled (ISO_DONE only).  A child's peak RSS shows in
 * getrusage(RUSAGE_CHILDREN) once iso_run returns. */
iso_outcome iso_run(iso_fn fn, void *arg, void *out, size_t cap, size_t *len,
		    unsigned deadline_ms, int *signo);

#endif
