/* --stats: how long each picture took to draw, and the CPU the process used, printed at exit
 * as one line (for the benchmark, bench/wayland/bench.py). */
#ifndef PW_STATS_H
#define PW_STATS_H

/* Starts counting (the process's CPU time from now). */
void pw_stats_start(void);

/* One picture drawn in `seconds` (wall clock, painting and handing it over). */
void pw_stats_frame(double seconds);

/* "stats: frames N, draw p50 X ms, p99 Y ms, cpu per frame Z ms" on stderr; frees what it kept. */
void pw_stats_report(void);

#endif
