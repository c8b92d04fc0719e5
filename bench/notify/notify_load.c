/* The bench's D-Bus client (bench.py): Notify calls to org.freedesktop.Notifications on
 * the bus at ADDRESS, from C on sd-bus, so that the client's own cost is small beside the
 * server's and the same for every server.
 *
 *   notify-load ADDRESS round LABEL N   N sequential Notify calls (expire_timeout 0), each
 *       answered before the next; after the 100th it writes "up100" and waits for a line on
 *       stdin (the bench reads the server's memory then); then closes them one by one.
 *       Writes each call's round trip in nanoseconds, one a line, then "done".
 *   notify-load ADDRESS burst LABEL N   N Notify calls sent at once, none waiting for
 *       another's answer; writes how many were answered before the first error, the
 *       seconds from the first send to that error (or to the last answer), and the error.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <systemd/sd-bus.h>

#define NAME "org.freedesktop.Notifications"
#define PATH "/org/freedesktop/Notifications"

static uint64_t now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static int notify_message(sd_bus *bus, sd_bus_message **m, const char *label, unsigned i) {
    char summary[96];
    snprintf(summary, sizeof summary, "%s %u", label, i);
    int r = sd_bus_message_new_method_call(bus, m, NAME, PATH, NAME, "Notify");
    if (r >= 0) r = sd_bus_message_append(*m, "susssasa{sv}i", "bench", 0u, "", summary, "body", 0, 0, 0);
    return r;
}

static int round_trips(sd_bus *bus, const char *label, unsigned n) {
    uint32_t *ids = calloc(n, sizeof *ids);
    uint64_t *took = calloc(n, sizeof *took);
    if (!ids || !took) return 1;
    for (unsigned i = 0; i < n; i++) {
        sd_bus_message *m = NULL, *reply = NULL;
        sd_bus_error err = SD_BUS_ERROR_NULL;
        int r = notify_message(bus, &m, label, i);
        uint64_t t = now_ns();
        if (r >= 0) r = sd_bus_call(bus, m, 0, &err, &reply);
        took[i] = now_ns() - t;
        if (r >= 0) r = sd_bus_message_read(reply, "u", &ids[i]);
        if (r < 0) {
            fprintf(stderr, "notify-load: Notify %u: %s\n", i, err.message ? err.message : strerror(-r));
            return 1;
        }
        sd_bus_message_unref(m);
        sd_bus_message_unref(reply);
        if (i == 99) {
            char line[16];
            printf("up100\n");
            fflush(stdout);
            if (!fgets(line, sizeof line, stdin)) return 1;
        }
    }
    for (unsigned i = 0; i < n; i++) {
        sd_bus_error err = SD_BUS_ERROR_NULL;
        int r = sd_bus_call_method(bus, NAME, PATH, NAME, "CloseNotification", &err, NULL, "u", ids[i]);
        if (r < 0) {
            fprintf(stderr, "notify-load: CloseNotification %u: %s\n", ids[i], err.message ? err.message : strerror(-r));
            return 1;
        }
    }
    for (unsigned i = 0; i < n; i++) printf("%" PRIu64 "\n", took[i]);
    printf("done\n");
    free(ids);
    free(took);
    return 0;
}

typedef struct burst_state {
    unsigned answered, first_error;   /* first_error: index, or UINT32_MAX */
    uint64_t *when;
    char error[256];
} burst_state;

typedef struct call_ref {
    burst_state *state;
    unsigned index;
} call_ref;

static int on_reply(sd_bus_message *m, void *userdata, sd_bus_error *ret) {
    call_ref *c = userdata;
    burst_state *s = c->state;
    s->when[c->index] = now_ns();
    s->answered++;
    const sd_bus_error *e = sd_bus_message_get_error(m);
    if (e && c->index < s->first_error) {
        s->first_error = c->index;
        snprintf(s->error, sizeof s->error, "%s: %s", e->name, e->message ? e->message : "");
    }
    return 0;
}

static int burst(sd_bus *bus, const char *label, unsigned n) {
    burst_state s = {.first_error = UINT32_MAX, .when = calloc(n, sizeof(uint64_t))};
    call_ref *refs = calloc(n, sizeof *refs);
    if (!s.when || !refs) return 1;
    uint64_t t0 = now_ns();
    for (unsigned i = 0; i < n; i++) {
        sd_bus_message *m = NULL;
        refs[i] = (call_ref){&s, i};
        int r = notify_message(bus, &m, label, i);
        if (r >= 0) r = sd_bus_call_async(bus, NULL, m, on_reply, &refs[i], 60 * 1000000ull);
        sd_bus_message_unref(m);
        if (r < 0) { fprintf(stderr, "notify-load: sending Notify %u: %s\n", i, strerror(-r)); return 1; }
        /* Take what has come back meanwhile, without waiting: sd-bus queues the rest. */
        while (sd_bus_process(bus, NULL) > 0) {}
    }
    while (s.answered < n) {
        int r = sd_bus_process(bus, NULL);
        if (r < 0) { snprintf(s.error, sizeof s.error, "the bus: %s", strerror(-r)); break; }
        if (r == 0 && sd_bus_wait(bus, UINT64_MAX) < 0) break;
    }
    unsigned ok = s.first_error < n ? s.first_error : n;
    uint64_t end = t0;  /* the first error's answer, else the last answer */
    if (s.first_error < n) end = s.when[s.first_error];
    else for (unsigned i = 0; i < n; i++) if (s.when[i] > end) end = s.when[i];
    if (s.first_error == UINT32_MAX && s.answered < n) snprintf(s.error, sizeof s.error, "%u calls unanswered", n - s.answered);
    printf("%u %.6f %s\n", ok, (double)(end - t0) / 1e9, s.error[0] ? s.error : "-");
    free(s.when);
    free(refs);
    return 0;
}

int main(int argc, char **argv) {
    if (argc != 5) {
        fprintf(stderr, "usage: notify-load ADDRESS round|burst LABEL N\n");
        return 2;
    }
    unsigned n = (unsigned)strtoul(argv[4], NULL, 10);
    sd_bus *bus = NULL;
    int r = sd_bus_new(&bus);
    if (r >= 0) r = sd_bus_set_address(bus, argv[1]);
    if (r >= 0) r = sd_bus_set_bus_client(bus, 1);
    if (r >= 0) r = sd_bus_start(bus);
    if (r < 0) {
        fprintf(stderr, "notify-load: cannot connect to %s: %s\n", argv[1], strerror(-r));
        return 1;
    }
    int status = strcmp(argv[2], "burst") == 0 ? burst(bus, argv[3], n) : round_trips(bus, argv[3], n);
    sd_bus_flush_close_unref(bus);
    return status;
}
