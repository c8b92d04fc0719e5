/* The draw times are kept whole (a run is seconds long at 60 Hz) and sorted once at the end. */
#include "stats.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double *times;
static size_t n, capacity;
static double cpu_start;
static int started;

static double cpu_now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

void pw_stats_start(void) {
    started = 1;
    cpu_start = cpu_now();
}

void pw_stats_frame(double seconds) {
    if (!started) return;
    if (n == capacity) {
        size_t more = capacity ? capacity * 2 : 1024;
        double *grown = realloc(times, more * sizeof *times);
        if (!grown) return;
        times = grown;
        capacity = more;
    }
    times[n++] = seconds;
}

static int by_value(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

void pw_stats_report(void) {
    if (!started) return;
    double cpu = cpu_now() - cpu_start;
    if (n) qsort(times, n, sizeof *times, by_value);
    double p50 = n ? times[n / 2] : 0, p99 = n ? times[(size_t)((double)(n - 1) * 0.99)] : 0;
    fprintf(stderr, "stats: frames %zu, draw p50 %.3f ms, p99 %.3f ms, cpu %.3f s, cpu per frame %.3f ms\n", n,
            p50 * 1000, p99 * 1000, cpu, n ? cpu / (double)n * 1000 : 0);
    free(times);
    times = NULL;
    n = capacity = 0;
}
