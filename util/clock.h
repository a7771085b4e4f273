/*
 * clock.h - the one millisecond clock of jitprove.
 *
 * Time limits, throughput and stage times all read the monotonic clock
 * (never the wall clock, which jumps), in milliseconds as a double.  Only
 * differences between two readings mean anything.
 */
#ifndef JP_UTIL_CLOCK_H
#define JP_UTIL_CLOCK_H

/* Milliseconds on CLOCK_MONOTONIC since an arbitrary start. */
double clk_now_ms(void);

#endif
