/*
 * loadgen: the client side of presentd's benchmark. One process, one thread, epoll; it
 * scans lines for the few fields it needs instead of parsing JSON, so that on a 2-core
 * machine it stays cheaper than the server it measures. Prints one JSON object per run.
 *
 *   loadgen rtt      --socket P [--count N] [--warmup N] [--pid PID]
 *       N sequential pings on one connection: round-trip percentiles.
 *   loadgen pipeline --socket P [--count N] [--window W] [--pid PID]
 *       N pings on one connection with up to W in flight: requests per second.
 *   (With --pid, also the server's CPU time per request, from its CPU-time clock: steadier
 *   than the rates on a shared machine.)
 *   loadgen connect  --socket P [--count N] [--ping] [--protocol jsonrpc|i3] [--pid PID]
 *       N connections opened and closed one after the other (with --ping, one ping on
 *       each, answered before the close): connections per second, and the server's CPU
 *       per connection. A close is not waited for (a client does not wait either); the
 *       run ends when a last ping is answered, so every connection was accepted.
 *   loadgen session  --socket P [--count N] [--pid PID]
 *       N times what `presentctl present` does: connect, hello, present, dismiss, close,
 *       each request answered before the next: p50 / p99 of a whole session.
 *   (--protocol i3: sway's and i3's IPC, with get_version (type 7) as the ping; rtt and
 *   connect only. Its replies are framed by a 14-byte header, not by lines.)
 *   loadgen wake     [--count N] [--fps F]
 *       No server: sleeps to N absolute deadlines k/F and measures how late the thread
 *       wakes, the floor under any frame delay and jitter this machine can show.
 *   loadgen fanout   --socket P [--subscribers N] [--fps F] [--duration S] [--warmup S]
 *                    [--pid PID] [--no-present] [--trace FILE]
 *       N connections subscribe to frames; a control connection presents a long (60 s)
 *       transition, again every 50 s, so frames never stop; after the warm-up, every frame
 *       whose time lies in the measuring window is counted per subscriber. Reports frames
 *       delivered against the ticks of the window, the delay from a frame's `time`
 *       (CLOCK_MONOTONIC) to its receipt, the pacing jitter (each subscriber's inter-arrival
 *       time against 1/F), how far frame times lie off the k/F grid, and the server's
 *       memory (VmRSS and RssAnon from /proc/PID/status, private dirty and PSS from
 *       /proc/PID/smaps_rollup) and CPU while it serves them. It also splits the delay: per
 *       tick, the first copy's delay (the server waking and writing once) and the spread
 *       to the last copy (the fan-out), and splits the missing frames into ticks nobody
 *       received (not sent: the server was late and skipped them) and copies dropped for
 *       single subscribers (coalesced behind a full socket). --trace writes one line per
 *       tick of the window (copies received, first copy's delay, spread).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void die(const char *what) {
    fprintf(stderr, "loadgen: %s: %s\n", what, strerror(errno));
    exit(1);
}

static void fail(const char *message) {
    fprintf(stderr, "loadgen: %s\n", message);
    exit(1);
}

/* ---- a growable array of samples and its percentiles ---- */

typedef struct {
    double *v;
    size_t n, cap;
    int sorted;
} samples_t;

static void push(samples_t *s, double x) {
    if (s->n == s->cap) {
        s->cap = s->cap ? s->cap * 2 : 4096;
        s->v = realloc(s->v, s->cap * sizeof *s->v);
        if (!s->v) fail("out of memory");
    }
    s->v[s->n++] = x;
    s->sorted = 0;
}

static int compare(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Nearest-rank percentile (p in 0…100); NaN when empty. */
static double pct(samples_t *s, double p) {
    if (s->n == 0) return NAN;
    if (!s->sorted) {
        qsort(s->v, s->n, sizeof *s->v, compare);
        s->sorted = 1;
    }
    size_t rank = (size_t)ceil(p / 100.0 * (double)s->n);
    return s->v[rank == 0 ? 0 : rank - 1];
}

static double mean(const samples_t *s) {
    double sum = 0;
    for (size_t i = 0; i < s->n; i++) sum += s->v[i];
    return s->n ? sum / (double)s->n : NAN;
}

/* JSON numbers: NaN has no spelling, so it becomes null. */
static void json_num(const char *key, double x, int last) {
    if (isnan(x)) printf("\"%s\":null%s", key, last ? "" : ",");
    else printf("\"%s\":%.6g%s", key, x, last ? "" : ",");
}

/* ---- sockets ---- */

static int connect_unix(const char *path) {
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) die("socket");
    struct sockaddr_un addr = {.sun_family = AF_UNIX};
    if (strlen(path) >= sizeof addr.sun_path) fail("socket path too long");
    strcpy(addr.sun_path, path);
    if (connect(fd, (struct sockaddr *)&addr, sizeof addr) != 0) die(path);
    return fd;
}

static void set_nonblocking(int fd) {
    fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
}

/* Writes everything, waiting for the socket when it is full. */
static void write_all(int fd, const char *bytes, size_t len) {
    while (len > 0) {
        ssize_t n = write(fd, bytes, len);
        if (n > 0) {
            bytes += n;
            len -= (size_t)n;
        } else if (n < 0 && (errno == EAGAIN || errno == EINTR)) {
            struct pollfd p = {.fd = fd, .events = POLLOUT};
            poll(&p, 1, 1000);
        } else {
            die("write");
        }
    }
}

/* A connection's unfinished input. */
typedef struct {
    int fd;
    char *buf;
    size_t len, cap;
} reader_t;

static void reader_init(reader_t *r, int fd) {
    r->fd = fd;
    r->cap = 16384;
    r->len = 0;
    r->buf = malloc(r->cap);
    if (!r->buf) fail("out of memory");
}

/* Reads what is there; calls `line` for each complete line. Returns bytes read, 0 at EOF,
 * -1 when nothing was there. */
static ssize_t reader_pump(reader_t *r, void (*line)(void *ctx, const char *s, size_t n), void *ctx) {
    if (r->cap - r->len < 8192) {
        r->cap *= 2;
        r->buf = realloc(r->buf, r->cap);
        if (!r->buf) fail("out of memory");
    }
    ssize_t n = read(r->fd, r->buf + r->len, r->cap - r->len);
    if (n < 0) {
        if (errno == EAGAIN || errno == EINTR) return -1;
        die("read");
    }
    if (n == 0) return 0;
    r->len += (size_t)n;
    char *start = r->buf, *end = r->buf + r->len, *nl;
    while ((nl = memchr(start, '\n', (size_t)(end - start)))) {
        line(ctx, start, (size_t)(nl - start));
        start = nl + 1;
    }
    r->len = (size_t)(end - start);
    memmove(r->buf, start, r->len);
    return n;
}

/* The number after `"key":` in the line, or NaN. The line ends in '\n' in its buffer, so
 * strtod stops there at the latest. */
static double field(const char *s, size_t n, const char *key) {
    char pattern[32];
    int len = snprintf(pattern, sizeof pattern, "\"%s\":", key);
    const char *at = memmem(s, n, pattern, (size_t)len);
    return at ? strtod(at + len, NULL) : NAN;
}

static int is_frame(const char *s, size_t n) {
    return memmem(s, n < 64 ? n : 64, "\"method\":\"frame\"", 16) != NULL;
}

static int is_reply(const char *s, size_t n) {
    return memmem(s, n < 64 ? n : 64, "\"id\":", 5) != NULL &&
           (memmem(s, n, "\"result\":", 9) || memmem(s, n, "\"error\":", 8));
}

/* ---- the server process, from /proc ---- */

/* A "Field:  N kB" line of a /proc/PID file, in kB, or -1: "status" has VmRSS and RssAnon
 * (the resident heap, stacks and other anonymous pages, without the file pages of the
 * binary and its libraries); "smaps_rollup" has Pss and Private_Dirty, what the process
 * itself costs the machine, where VmRSS also counts the clean file pages it shares or that
 * the kernel takes back on its own. */
static long proc_kib(int pid, const char *file, const char *field) {
    char path[64], line[256];
    snprintf(path, sizeof path, "/proc/%d/%s", pid, file);
    FILE *f = fopen(path, "r");
    if (!f) return -1;
    long kib = -1;
    size_t len = strlen(field);
    while (fgets(line, sizeof line, f))
        if (strncmp(line, field, len) == 0 && line[len] == ':' && sscanf(line + len + 1, "%ld", &kib) == 1) break;
    fclose(f);
    return kib;
}

/* User + system CPU seconds of a process, all threads (0 when unknown): its CPU-time
 * clock, which counts nanoseconds, where /proc/PID/stat counts 10 ms ticks. */
static double cpu_seconds(int pid) {
    clockid_t clock;
    struct timespec ts;
    if (clock_getcpuclockid(pid, &clock) != 0 || clock_gettime(clock, &ts) != 0) return 0;
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static double own_cpu_seconds(void) {
    struct rusage u;
    getrusage(RUSAGE_SELF, &u);
    return (double)u.ru_utime.tv_sec + u.ru_utime.tv_usec * 1e-6 + (double)u.ru_stime.tv_sec + u.ru_stime.tv_usec * 1e-6;
}

/* ---- rtt ---- */

static void count_line(void *ctx, const char *s, size_t n) {
    (void)s; (void)n;
    ++*(long *)ctx;
}

/* Blocks until `want` more lines arrived on `r`. */
static void await_lines(reader_t *r, long want) {
    long got = 0;
    while (got < want) {
        ssize_t n = reader_pump(r, count_line, &got);
        if (n == 0) fail("server closed the connection");
        if (n < 0) {
            struct pollfd p = {.fd = r->fd, .events = POLLIN};
            poll(&p, 1, 1000);
        }
    }
}

/* ---- the request each mode repeats, in either protocol ---- */

enum { JSONRPC, I3 };
static int protocol = JSONRPC;

/* i3-ipc: "i3-ipc", a 32-bit payload length and a 32-bit type, host byte order. */
#define I3_HEADER 14
#define I3_GET_VERSION 7

static void read_exact(int fd, char *into, size_t len) {
    while (len > 0) {
        ssize_t n = read(fd, into, len);
        if (n > 0) {
            into += n;
            len -= (size_t)n;
        } else if (n < 0 && errno == EINTR) {
            continue;
        } else if (n < 0 && errno == EAGAIN) {
            struct pollfd p = {.fd = fd, .events = POLLIN};
            poll(&p, 1, 1000);
        } else {
            fail(n == 0 ? "server closed the connection" : "read failed");
        }
    }
}

/* One ping (JSON-RPC `ping`, or i3-ipc get_version) written and its reply read, on a
 * blocking socket; `r` holds what a JSON-RPC server sent beyond the reply. */
static void ping_once(reader_t *r, long id) {
    if (protocol == I3) {
        char header[I3_HEADER] = "i3-ipc";
        uint32_t len = 0, type = I3_GET_VERSION;
        memcpy(header + 6, &len, 4);
        memcpy(header + 10, &type, 4);
        write_all(r->fd, header, sizeof header);
        read_exact(r->fd, header, sizeof header);
        memcpy(&len, header + 6, 4);
        if (memcmp(header, "i3-ipc", 6) != 0 || len > (uint32_t)r->cap) fail("not an i3-ipc reply");
        read_exact(r->fd, r->buf, len);
        return;
    }
    char line[96];
    int len = snprintf(line, sizeof line, "{\"jsonrpc\":\"2.0\",\"id\":%ld,\"method\":\"ping\"}\n", id);
    write_all(r->fd, line, (size_t)len);
    await_lines(r, 1);
}

static int run_rtt(const char *path, long count, long warmup, int pid) {
    reader_t r;
    reader_init(&r, connect_unix(path));
    samples_t rtt = {0};
    double cpu0 = 0;
    for (long i = 0; i < warmup + count; i++) {
        if (i == warmup && pid) cpu0 = cpu_seconds(pid);
        double t0 = now();
        ping_once(&r, i + 1);
        if (i >= warmup) push(&rtt, (now() - t0) * 1e6);
    }
    double cpu = pid ? cpu_seconds(pid) - cpu0 : NAN;
    close(r.fd);
    printf("{\"mode\":\"rtt\",\"count\":%ld,", count);
    json_num("server_cpu_us_per_request", cpu * 1e6 / (double)count, 0);
    json_num("p50_us", pct(&rtt, 50), 0);
    json_num("p90_us", pct(&rtt, 90), 0);
    json_num("p99_us", pct(&rtt, 99), 0);
    json_num("p999_us", pct(&rtt, 99.9), 0);
    json_num("mean_us", mean(&rtt), 0);
    json_num("max_us", pct(&rtt, 100), 1);
    printf("}\n");
    return 0;
}

/* ---- connect, session ---- */

static int run_connect(const char *path, long count, int ping, int pid) {
    reader_t r;
    reader_init(&r, -1);
    double cpu0 = pid ? cpu_seconds(pid) : 0, t0 = now();
    for (long i = 0; i < count; i++) {
        r.fd = connect_unix(path);
        r.len = 0;
        if (ping) ping_once(&r, 1);
        close(r.fd);
    }
    /* Connects complete once in the backlog, before the server accepts them: a last ping,
     * answered after the server accepted every earlier one, ends the measurement. */
    r.fd = connect_unix(path);
    r.len = 0;
    ping_once(&r, 1);
    close(r.fd);
    double elapsed = now() - t0;
    double cpu = pid ? cpu_seconds(pid) - cpu0 : NAN;
    printf("{\"mode\":\"connect\",\"count\":%ld,\"ping\":%s,", count, ping ? "true" : "false");
    json_num("server_cpu_us_per_connection", cpu * 1e6 / (double)count, 0);
    json_num("seconds", elapsed, 0);
    json_num("connections_per_s", (double)count / elapsed, 1);
    printf("}\n");
    return 0;
}

static int run_session(const char *path, long count, int pid) {
    reader_t r;
    reader_init(&r, -1);
    samples_t took = {0};
    char text[512];
    double cpu0 = pid ? cpu_seconds(pid) : 0, t0 = now();
    for (long i = 0; i < count; i++) {
        double start = now();
        r.fd = connect_unix(path);
        r.len = 0;
        int len = snprintf(text, sizeof text,
                           "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"hello\",\"params\":{\"client\":\"loadgen\",\"protocol\":1}}\n");
        write_all(r.fd, text, (size_t)len);
        await_lines(&r, 1);
        len = snprintf(text, sizeof text,
                       "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"present\",\"params\":{\"id\":\"s%ld\",\"style\":\"alert\"}}\n", i);
        write_all(r.fd, text, (size_t)len);
        await_lines(&r, 1);
        len = snprintf(text, sizeof text,
                       "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"dismiss\",\"params\":{\"id\":\"s%ld\",\"animated\":false}}\n", i);
        write_all(r.fd, text, (size_t)len);
        await_lines(&r, 1);
        close(r.fd);
        push(&took, (now() - start) * 1e6);
    }
    double elapsed = now() - t0;
    double cpu = pid ? cpu_seconds(pid) - cpu0 : NAN;
    printf("{\"mode\":\"session\",\"count\":%ld,", count);
    json_num("server_cpu_us_per_session", cpu * 1e6 / (double)count, 0);
    json_num("sessions_per_s", (double)count / elapsed, 0);
    json_num("p50_us", pct(&took, 50), 0);
    json_num("p99_us", pct(&took, 99), 0);
    json_num("max_us", pct(&took, 100), 1);
    printf("}\n");
    return 0;
}

/* ---- pipeline ---- */

static int run_pipeline(const char *path, long count, long window, int pid) {
    reader_t r;
    reader_init(&r, connect_unix(path));
    set_nonblocking(r.fd);
    char *out = malloc((size_t)window * 96);
    long sent = 0, answered = 0;
    double cpu0 = pid ? cpu_seconds(pid) : 0;
    double t0 = now();
    while (answered < count) {
        size_t len = 0;
        while (sent < count && sent - answered < window) {
            sent++;
            len += (size_t)sprintf(out + len, "{\"jsonrpc\":\"2.0\",\"id\":%ld,\"method\":\"ping\"}\n", sent);
        }
        if (len) write_all(r.fd, out, len);
        ssize_t n = reader_pump(&r, count_line, &answered);
        if (n == 0) fail("server closed the connection");
        if (n < 0) {
            struct pollfd p = {.fd = r.fd, .events = POLLIN};
            poll(&p, 1, 1000);
        }
    }
    double elapsed = now() - t0;
    double cpu = pid ? cpu_seconds(pid) - cpu0 : NAN;
    close(r.fd);
    free(out);
    printf("{\"mode\":\"pipeline\",\"count\":%ld,\"window\":%ld,", count, window);
    json_num("server_cpu_us_per_request", cpu * 1e6 / (double)count, 0);
    json_num("seconds", elapsed, 0);
    json_num("requests_per_s", (double)count / elapsed, 1);
    printf("}\n");
    return 0;
}

/* ---- wake ---- */

static int run_wake(long count, double fps) {
    samples_t late = {0};
    int64_t interval = llround(1e9 / fps);
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    int64_t deadline = (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
    for (long i = 0; i < count; i++) {
        deadline += interval;
        struct timespec d = {.tv_sec = deadline / 1000000000, .tv_nsec = deadline % 1000000000};
        while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &d, NULL) == EINTR) {}
        clock_gettime(CLOCK_MONOTONIC, &ts);
        push(&late, (double)((int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec - deadline) / 1e3);
    }
    printf("{\"mode\":\"wake\",\"count\":%ld,\"fps\":%g,", count, fps);
    json_num("p50_us", pct(&late, 50), 0);
    json_num("p99_us", pct(&late, 99), 0);
    json_num("p999_us", pct(&late, 99.9), 0);
    json_num("max_us", pct(&late, 100), 1);
    printf("}\n");
    return 0;
}

/* ---- fanout ---- */

typedef struct {
    reader_t r;
    int subscribed;
    long frames;       /* frames of the window received */
    long events;       /* other lines (replies, notifications) */
    int64_t last_k;    /* grid index of the previous frame, -1 before the first */
    double last_recv;
    uint64_t last_seq;
    long out_of_order;
} sub_t;

static struct {
    double fps, recv;  /* recv: when the read that brought the current line returned */
    int64_t k0, k1;    /* the window: grid ticks k0 ≤ k < k1 */
    samples_t delay, pacing;
    double offgrid_max;
    /* Per tick of the window (index k - k0): when its first and last copy arrived and how
     * many did. The first copy's delay is the server waking up and writing once; the
     * spread to the last is the fan-out itself; a tick nobody got was never sent. */
    double *first, *last;
    long *copies;
} fan;

static void sub_line(void *ctx, const char *s, size_t n) {
    sub_t *sub = ctx;
    if (!is_frame(s, n)) {
        if (!sub->subscribed && is_reply(s, n)) sub->subscribed = 1;
        sub->events++;
        return;
    }
    double seq = field(s, n, "seq"), time = field(s, n, "time");
    if (isnan(seq) || isnan(time)) fail("a frame without seq or time");
    if ((uint64_t)seq <= sub->last_seq) sub->out_of_order++;
    sub->last_seq = (uint64_t)seq;
    int64_t k = llround(time * fan.fps);
    if (fan.k1 > 0 && k >= fan.k0 && k < fan.k1) {
        sub->frames++;
        push(&fan.delay, (fan.recv - time) * 1e3);
        double off = fabs(time - (double)k / fan.fps) * 1e6;
        if (off > fan.offgrid_max) fan.offgrid_max = off;
        if (sub->last_k == k - 1)
            push(&fan.pacing, fabs((fan.recv - sub->last_recv) - 1.0 / fan.fps) * 1e3);
        size_t i = (size_t)(k - fan.k0);
        if (fan.copies[i]++ == 0 || fan.recv < fan.first[i]) fan.first[i] = fan.recv;
        if (fan.recv > fan.last[i]) fan.last[i] = fan.recv;
    }
    sub->last_k = k;
    sub->last_recv = fan.recv;
}

static void ignore_line(void *ctx, const char *s, size_t n) {
    (void)ctx; (void)s; (void)n;
}

/* A long linear transition on the control connection; `renew` first drops the last one
 * without animation (in the same write, so frames do not pause). */
static void present(int fd, int renew, long *ids) {
    char text[512];
    int len = 0;
    if (renew)
        len += snprintf(text + len, sizeof text - (size_t)len,
                        "{\"jsonrpc\":\"2.0\",\"id\":%ld,\"method\":\"dismissAll\",\"params\":{\"animated\":false}}\n", ++*ids);
    len += snprintf(text + len, sizeof text - (size_t)len,
                    "{\"jsonrpc\":\"2.0\",\"id\":%ld,\"method\":\"present\",\"params\":{\"style\":\"popup\","
                    "\"transition\":{\"type\":\"coverVertical\",\"duration\":60,\"timing\":\"linear\"}}}\n", ++*ids);
    write_all(fd, text, (size_t)len);
}

static int run_fanout(const char *path, long count, double fps, double duration, double warmup,
                      int pid, int do_present, const char *trace_path) {
    fan.fps = fps;
    int epoll_fd = epoll_create1(EPOLL_CLOEXEC);
    sub_t *subs = calloc((size_t)count, sizeof *subs);
    const char subscribe[] = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"subscribe\",\"params\":{\"topics\":[\"frames\"]}}\n";
    for (long i = 0; i < count; i++) {
        reader_init(&subs[i].r, connect_unix(path));
        subs[i].last_k = -1;
        write_all(subs[i].r.fd, subscribe, sizeof subscribe - 1);
        set_nonblocking(subs[i].r.fd);
        struct epoll_event e = {.events = EPOLLIN, .data.u32 = (uint32_t)i};
        if (epoll_ctl(epoll_fd, EPOLL_CTL_ADD, subs[i].r.fd, &e) != 0) die("epoll_ctl");
    }
    reader_t control;
    reader_init(&control, connect_unix(path));
    set_nonblocking(control.fd);
    struct epoll_event e = {.events = EPOLLIN, .data.u32 = UINT32_MAX};
    epoll_ctl(epoll_fd, EPOLL_CTL_ADD, control.fd, &e);

    long ids = 0, subscribed = 0;
    double t_present = 0, window_start = 0, window_end = 0, stop = 0, rss_at = 0;
    double server_cpu0 = 0, own_cpu0 = 0, server_cpu = 0, own_cpu = 0;
    long rss = -1, anon = -1, dirty = -1, pss = -1;
    int measuring = 0;  /* 1 inside the window, 2 after it */
    const double grace = 0.25, renew_every = 50;
    double deadline = now() + 60;  /* for every subscription to be answered */
    enum { SUBSCRIBING, RUNNING } phase = SUBSCRIBING;
    struct epoll_event events[512];
    for (;;) {
        double t = now();
        if (phase == SUBSCRIBING && t > deadline) fail("subscriptions not answered within 60 s");
        if (phase == RUNNING) {
            if (!measuring && t >= window_start) {
                measuring = 1;
                server_cpu0 = pid ? cpu_seconds(pid) : 0;
                own_cpu0 = own_cpu_seconds();
            }
            if (rss < 0 && pid && t >= rss_at) {
                rss = proc_kib(pid, "status", "VmRSS");
                anon = proc_kib(pid, "status", "RssAnon");
                dirty = proc_kib(pid, "smaps_rollup", "Private_Dirty");
                pss = proc_kib(pid, "smaps_rollup", "Pss");
            }
            if (measuring == 1 && t >= window_end) {
                measuring = 2;
                server_cpu = pid ? cpu_seconds(pid) - server_cpu0 : 0;
                own_cpu = own_cpu_seconds() - own_cpu0;
            }
            if (t >= stop) break;
            if (do_present && t - t_present >= renew_every) {
                present(control.fd, 1, &ids);
                t_present = t;
            }
        }
        int ready = epoll_wait(epoll_fd, events, 512, 5);
        if (ready < 0 && errno != EINTR) die("epoll_wait");
        for (int i = 0; i < ready; i++) {
            uint32_t index = events[i].data.u32;
            fan.recv = now();
            if (index == UINT32_MAX) {
                if (reader_pump(&control, ignore_line, NULL) == 0) fail("server closed the control connection");
                continue;
            }
            sub_t *sub = &subs[index];
            int was = sub->subscribed;
            if (reader_pump(&sub->r, sub_line, sub) == 0) fail("server closed a subscriber");
            if (!was && sub->subscribed) subscribed++;
        }
        if (phase == SUBSCRIBING && subscribed == count) {
            phase = RUNNING;
            t_present = now();
            if (do_present) present(control.fd, 0, &ids);
            window_start = t_present + warmup;
            window_end = window_start + duration;
            stop = window_end + grace;
            rss_at = window_start + duration / 2;
            fan.k0 = (int64_t)ceil(window_start * fps);
            size_t ticks = (size_t)llround(duration * fps);
            fan.first = calloc(ticks, sizeof *fan.first);
            fan.last = calloc(ticks, sizeof *fan.last);
            fan.copies = calloc(ticks, sizeof *fan.copies);
            fan.k1 = fan.k0 + (int64_t)ticks;
        }
    }
    /* Frames of the window that came after the grace period are late, not delivered. */
    long delivered = 0, min_frames = -1, out_of_order = 0;
    for (long i = 0; i < count; i++) {
        delivered += subs[i].frames;
        if (min_frames < 0 || subs[i].frames < min_frames) min_frames = subs[i].frames;
        out_of_order += subs[i].out_of_order;
    }
    if (do_present) {
        char text[128];
        int len = snprintf(text, sizeof text,
                           "{\"jsonrpc\":\"2.0\",\"id\":%ld,\"method\":\"dismissAll\",\"params\":{\"animated\":false}}\n", ++ids);
        write_all(control.fd, text, (size_t)len);
        await_lines(&control, 1);
    }
    for (long i = 0; i < count; i++) close(subs[i].r.fd);
    close(control.fd);

    long expected = (long)(fan.k1 - fan.k0), ticks_sent = 0;
    samples_t first_delay = {0}, spread = {0};
    FILE *trace = trace_path ? fopen(trace_path, "w") : NULL;
    if (trace) fprintf(trace, "tick copies first_delay_ms spread_ms\n");
    for (long i = 0; i < expected; i++) {
        if (trace)
            fprintf(trace, "%ld %ld %.3f %.3f\n", (long)(fan.k0 + i), fan.copies[i],
                    fan.copies[i] ? (fan.first[i] - (double)(fan.k0 + i) / fps) * 1e3 : NAN,
                    fan.copies[i] ? (fan.last[i] - fan.first[i]) * 1e3 : NAN);
        if (fan.copies[i] == 0) continue;
        ticks_sent++;
        push(&first_delay, (fan.first[i] - (double)(fan.k0 + i) / fps) * 1e3);
        push(&spread, (fan.last[i] - fan.first[i]) * 1e3);
    }
    if (trace) fclose(trace);
    printf("{\"mode\":\"fanout\",\"subscribers\":%ld,\"fps\":%g,\"duration_s\":%g,"
           "\"expected_per_subscriber\":%ld,\"delivered\":%ld,\"min_per_subscriber\":%ld,"
           "\"out_of_order\":%ld,\"ticks_unsent\":%ld,\"frames_dropped\":%ld,",
           count, fps, duration, expected, delivered, min_frames, out_of_order,
           expected - ticks_sent, ticks_sent * count - delivered);
    json_num("delivered_ratio", (double)delivered / ((double)expected * (double)count), 0);
    json_num("delay_p50_ms", pct(&fan.delay, 50), 0);
    json_num("delay_p99_ms", pct(&fan.delay, 99), 0);
    json_num("delay_p999_ms", pct(&fan.delay, 99.9), 0);
    json_num("delay_max_ms", pct(&fan.delay, 100), 0);
    json_num("jitter_p50_ms", pct(&fan.pacing, 50), 0);
    json_num("jitter_p99_ms", pct(&fan.pacing, 99), 0);
    json_num("jitter_max_ms", pct(&fan.pacing, 100), 0);
    json_num("first_delay_p50_ms", pct(&first_delay, 50), 0);
    json_num("first_delay_p99_ms", pct(&first_delay, 99), 0);
    json_num("spread_p50_ms", pct(&spread, 50), 0);
    json_num("spread_p99_ms", pct(&spread, 99), 0);
    json_num("offgrid_max_us", fan.offgrid_max, 0);
    json_num("server_rss_kib", (double)rss, 0);
    json_num("server_anon_kib", (double)anon, 0);
    json_num("server_private_dirty_kib", (double)dirty, 0);
    json_num("server_pss_kib", (double)pss, 0);
    json_num("server_cpu", server_cpu / duration, 0);
    json_num("loadgen_cpu", own_cpu / duration, 1);
    printf("}\n");
    return 0;
}

/* ---- command line ---- */

static void usage(void) {
    fprintf(stderr,
            "usage: loadgen wake     [--count N] [--fps F]\n"
            "       loadgen connect  --socket P [--count N] [--ping] [--protocol jsonrpc|i3] [--pid PID]\n"
            "       loadgen session  --socket P [--count N] [--pid PID]\n"
            "       loadgen rtt      --socket P [--count N] [--warmup N] [--protocol jsonrpc|i3] [--pid PID]\n"
            "       loadgen pipeline --socket P [--count N] [--window W] [--pid PID]\n"
            "       loadgen fanout   --socket P [--subscribers N] [--fps F] [--duration S]\n"
            "                        [--warmup S] [--pid PID] [--no-present] [--trace FILE]\n");
    exit(2);
}

int main(int argc, char **argv) {
    if (argc < 2) usage();
    const char *mode = argv[1], *path = NULL;
    long count = 0, warmup_n = 1000, window = 64, subscribers = 1;
    double fps = 120, duration = 5, warmup = 0.5;
    int pid = 0, do_present = 1, ping = 0;
    const char *trace = NULL;
    for (int i = 2; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(a, "--no-present") == 0) { do_present = 0; continue; }
        if (strcmp(a, "--ping") == 0) { ping = 1; continue; }
        if (!v) usage();
        i++;
        if (strcmp(a, "--socket") == 0) path = v;
        else if (strcmp(a, "--count") == 0) count = atol(v);
        else if (strcmp(a, "--window") == 0) window = atol(v);
        else if (strcmp(a, "--subscribers") == 0) subscribers = atol(v);
        else if (strcmp(a, "--fps") == 0) fps = atof(v);
        else if (strcmp(a, "--duration") == 0) duration = atof(v);
        else if (strcmp(a, "--warmup") == 0) { warmup = atof(v); warmup_n = atol(v); }
        else if (strcmp(a, "--pid") == 0) pid = atoi(v);
        else if (strcmp(a, "--trace") == 0) trace = v;
        else if (strcmp(a, "--protocol") == 0) {
            if (strcmp(v, "i3") == 0) protocol = I3;
            else if (strcmp(v, "jsonrpc") != 0) usage();
        }
        else usage();
    }
    if (strcmp(mode, "wake") == 0) return run_wake(count ? count : 1200, fps > 0 ? fps : 120);
    if (!path) usage();
    if (strcmp(mode, "rtt") == 0) return run_rtt(path, count ? count : 20000, warmup_n, pid);
    if (strcmp(mode, "connect") == 0) return run_connect(path, count ? count : 20000, ping, pid);
    if (protocol == I3) usage();   /* the other modes speak JSON-RPC only */
    if (strcmp(mode, "session") == 0) return run_session(path, count ? count : 2000, pid);
    if (strcmp(mode, "pipeline") == 0) return run_pipeline(path, count ? count : 200000, window > 0 ? window : 1, pid);
    if (strcmp(mode, "fanout") == 0) {
        if (subscribers < 1 || fps <= 0 || duration <= 0) usage();
        return run_fanout(path, subscribers, fps, duration, warmup, pid, do_present, trace);
    }
    usage();
    return 2;
}
