/* presentd-notify: the session's org.freedesktop.Notifications, served through presentd.
 * One poll loop over the session bus (sd-bus), the presentd connection (the C client's
 * non-blocking API) and a signalfd for SIGTERM and SIGINT. docs/NOTIFICATIONS.md. */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "bridge.h"
#include "entry.h"
#include "history_cli.h"
#include "log.h"
#include "server.h"

static const char usage[] =
    "usage: presentd-notify [--socket PATH] [--replace] [--max-visible N] [--max-waiting N]\n"
    "                       [--timeout-low MS] [--timeout-normal MS] [--timeout-actions MS]\n"
    "                       [--reconnect S] [--keep-history N]\n"
    "       presentd-notify --history [--json] [--last N | --count]\n"
    "\n"
    "Serves org.freedesktop.Notifications on the session bus ($DBUS_SESSION_BUS_ADDRESS) and\n"
    "shows each notification as a presentd overlay.\n"
    "\n"
    "  --socket PATH        presentd's socket (else $PRESENTD_SOCKET, else\n"
    "                       $XDG_RUNTIME_DIR/presentd/presentd.sock, else /run/presentd/presentd.sock)\n"
    "  --replace            take the name from the server that owns it (if it allows that)\n"
    "  --max-visible N      notifications on screen at once, the rest wait (default 5; 1...64)\n"
    "  --max-waiting N      notifications that may wait (default 100; 0...10000); past it the\n"
    "                       oldest of the lowest urgency expires (closed with reason 1), the\n"
    "                       new one if all waiting are of a higher urgency\n"
    "  --timeout-low MS     expire_timeout -1 for low urgency (default 5000; 0: never)\n"
    "  --timeout-normal MS  expire_timeout -1 for normal urgency (default 10000; 0: never)\n"
    "  --timeout-actions MS expire_timeout -1 with an action to choose, a button or a reply\n"
    "                       (default 0: until answered or closed)\n"
    "                       (critical notifications never expire)\n"
    "  --reconnect S        how long to wait for presentd to come back when it goes away\n"
    "                       (default 30; 0: not at all)\n"
    "  --keep-history N     ended notifications kept for --history (default 50; 0...1000;\n"
    "                       never those with the transient hint)\n"
    "  --history            print the running bridge's history: when each ended, how\n"
    "                       (expired, dismissed, closed, undefined), its id, app and summary;\n"
    "                       then the live ones: when each was posted, showing or waiting\n"
    "                       (presentctl notifications runs this)\n"
    "  --json               with --history: one JSON array (id, app, summary, posted, ended,\n"
    "                       how, reason; ended and reason null for a live one)\n"
    "  --last N             with --history: only the last N\n"
    "  --count              with --history: the number of live notifications (on screen and\n"
    "                       waiting); with --json, a waybar custom module's object: {text: the\n"
    "                       count, alt, tooltip, class: \"dnd\" while presentd's do not disturb\n"
    "                       is on, else \"none\"} (see docs/NOTIFICATIONS.md)\n"
    "  --help               this text\n"
    "\n"
    "Exit status: 0 after SIGTERM or SIGINT, 1 on a failure (another server owns the name,\n"
    "presentd cannot be reached or did not come back), 2 for bad arguments.\n";

typedef struct options {
    const char *socket;
    int replace;
    int max_visible, max_waiting;
    int32_t timeout_low, timeout_normal, timeout_actions;
    int reconnect_s;
    int keep_history;
    long promote_delay_ms;       /* 0: the bridge's frame */
    int history, history_json, history_count;
    long history_last;           /* -1: all */
} options;

static int number(const char *option, const char *value, long min, long max, long *out) {
    char *end = NULL;
    errno = 0;
    long v = value ? strtol(value, &end, 10) : 0;
    if (!value || !*value || *end || errno || v < min || v > max) {
        fprintf(stderr, "presentd-notify: %s: expected a whole number from %ld to %ld, got %s\n", option, min, max,
                value ? value : "nothing");
        return -1;
    }
    *out = v;
    return 0;
}

/* 0 to run, 1 when --help was answered, 2 on a bad argument, 3 for --history. */
static int parse(int argc, char **argv, options *o) {
    *o = (options){.max_visible = 5, .max_waiting = 100, .timeout_low = 5000, .timeout_normal = 10000,
                 .reconnect_s = PRESENTD_RECONNECT_MS / 1000, .keep_history = 50, .history_last = -1};
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        long n;
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) { fputs(usage, stdout); return 1; }
        if (strcmp(a, "--replace") == 0) { o->replace = 1; continue; }
        if (strcmp(a, "--socket") == 0) {
            if (!v || !*v) { fprintf(stderr, "presentd-notify: --socket: expected a path\n"); return 2; }
            o->socket = v; i++; continue;
        }
        if (strcmp(a, "--max-visible") == 0) {
            if (number(a, v, 1, 64, &n)) return 2;
            o->max_visible = (int)n; i++; continue;
        }
        if (strcmp(a, "--max-waiting") == 0) {
            if (number(a, v, 0, 10000, &n)) return 2;
            o->max_waiting = (int)n; i++; continue;
        }
        if (strcmp(a, "--history") == 0) { o->history = 1; continue; }
        if (strcmp(a, "--json") == 0) { o->history_json = 1; continue; }
        if (strcmp(a, "--count") == 0) { o->history_count = 1; continue; }
        if (strcmp(a, "--last") == 0) {
            if (number(a, v, 0, 1000, &n)) return 2;
            o->history_last = n; i++; continue;
        }
        if (strcmp(a, "--keep-history") == 0) {
            if (number(a, v, 0, 1000, &n)) return 2;
            o->keep_history = (int)n; i++; continue;
        }
        if (strcmp(a, "--reconnect") == 0) {
            if (number(a, v, 0, 3600, &n)) return 2;
            o->reconnect_s = (int)n; i++; continue;
        }
        if (strcmp(a, "--timeout-low") == 0 || strcmp(a, "--timeout-normal") == 0
            || strcmp(a, "--timeout-actions") == 0) {
            if (number(a, v, 0, 86400000, &n)) return 2;
            *(a[10] == 'l' ? &o->timeout_low : a[10] == 'n' ? &o->timeout_normal : &o->timeout_actions) = (int32_t)n;
            i++; continue;
        }
        fprintf(stderr, "presentd-notify: unknown argument %s (try --help)\n", a);
        return 2;
    }
    if (o->history && o->history_count && o->history_last >= 0) {
        fprintf(stderr, "presentd-notify: --count counts them all: not with --last\n");
        return 2;
    }
    if (o->history) return 3;
    /* For tests: a delay long enough that a slow machine cannot let a frame pass between
     * two calls of the test; not an option, since no user has a reason to change it. */
    const char *delay = getenv("PRESENTD_NOTIFY_PROMOTE_DELAY_MS");
    if (delay && number("PRESENTD_NOTIFY_PROMOTE_DELAY_MS", delay, 1, 60000, &o->promote_delay_ms)) return 2;
    if (o->history_json || o->history_last >= 0 || o->history_count) {
        fprintf(stderr, "presentd-notify: --json, --last and --count go with --history\n");
        return 2;
    }
    return 0;
}

/* The directory for image-data PNGs: $XDG_RUNTIME_DIR/presentd-notify, else
 * /tmp/presentd-notify-UID; private to the user. */
static int image_dir(char *out, size_t size) {
    const char *runtime = getenv("XDG_RUNTIME_DIR");
    if (runtime && *runtime) snprintf(out, size, "%s/presentd-notify", runtime);
    else snprintf(out, size, "/tmp/presentd-notify-%ld", (long)getuid());
    if (mkdir(out, 0700) != 0 && errno != EEXIST) {
        fprintf(stderr, "presentd-notify: cannot create %s: %s\n", out, strerror(errno));
        return -1;
    }
    struct stat st;
    if (lstat(out, &st) != 0 || !S_ISDIR(st.st_mode) || st.st_uid != getuid()) {
        fprintf(stderr, "presentd-notify: %s is not a directory of this user's\n", out);
        return -1;
    }
    return 0;
}

/* Removes the images a bridge left behind when it was killed (SIGKILL, a crash): files
 * named PID-… whose process is gone. A live bridge's files (one being replaced) stay. */
static void remove_stale_images(const char *dir) {
    DIR *d = opendir(dir);
    if (!d) return;
    struct dirent *e;
    while ((e = readdir(d))) {
        char *end = NULL;
        long pid = strtol(e->d_name, &end, 10);
        if (pid <= 0 || !end || *end != '-') continue;
        if (pid == (long)getpid() || kill((pid_t)pid, 0) == 0 || errno != ESRCH) continue;
        char path[4096 + 256];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        if (unlink(path) == 0) log_line("removed %s, left by a bridge that is gone", path);
    }
    closedir(d);
}

/* Subscribes to modes for presentd's do not disturb (DoNotDisturb(), presentctl
 * notifications --count), its snapshot saying the mode now; again after a reconnect, whose
 * renewed subscriptions come without their snapshot (presentd may have restarted in another
 * mode). The topic needs the renderer role: without it the mode is not known (-1), and the
 * notifications are shown all the same. */
static void hear_do_not_disturb(presentd_client *pd, server *s) {
    presentd_error err;
    json_object *subscribed = NULL, *snapshot, *v;
    if (presentd_call_json(pd, "subscribe", "{\"topics\":[\"modes\"]}", &subscribed, 10000, &err)) {
        if (s->do_not_disturb != -1)
            log_line("presentd does not tell this connection its do not disturb (%s): --count cannot say it",
                     err.message);
        s->do_not_disturb = -1;
        return;
    }
    s->do_not_disturb = json_object_object_get_ex(subscribed, "snapshot", &snapshot) &&
                        json_object_object_get_ex(snapshot, "doNotDisturb", &v) && v != NULL;
    json_object_put(subscribed);
}

/* hello and the lifecycle subscription. */
static int greet(presentd_client *pd, server *s, int *max_entries, const char *path) {
    presentd_error err;
    json_object *hello = NULL;
    if (presentd_call_json(pd, "hello", "{\"client\":\"presentd-notify\",\"protocol\":1}", &hello, 10000, &err)) {
        fprintf(stderr, "presentd-notify: presentd at %s: hello failed: %s\n", path, err.message);
        return -1;
    }
    json_object *v, *limits;
    /* present, update and dismiss need app (or admin): without it every notification would
     * be refused and closed with reason 4, so the bridge does not take the name at all. */
    int may_present = 0;
    if (json_object_object_get_ex(hello, "roles", &v) && json_object_is_type(v, json_type_array))
        for (size_t i = 0; i < json_object_array_length(v); i++) {
            const char *role = json_object_get_string(json_object_array_get_idx(v, i));
            may_present |= role && (strcmp(role, "app") == 0 || strcmp(role, "admin") == 0);
        }
    if (!may_present) {
        fprintf(stderr, "presentd-notify: presentd at %s does not give this connection the app role (its roles: %s), "
                "so it may not present notifications: grant it app in presentd's roles\n", path,
                json_object_object_get_ex(hello, "roles", &v) ? json_object_to_json_string(v) : "none said");
        json_object_put(hello);
        return -1;
    }
    snprintf(s->version, sizeof s->version, "%s",
             json_object_object_get_ex(hello, "version", &v) ? json_object_get_string(v) : "unknown");
    *max_entries = json_object_object_get_ex(hello, "limits", &limits) &&
                   json_object_object_get_ex(limits, "maxEntriesPerClient", &v) ? json_object_get_int(v) : 64;
    int max_priority = json_object_object_get_ex(hello, "maxPriority", &v) ? json_object_get_int(v) : 0;
    if (max_priority < ENTRY_CRITICAL_PRIORITY)
        log_line("presentd lets this connection present at priority %d at most: critical notifications "
                 "will not pass do not disturb (give its role a maxPriority of %d)", max_priority,
                 ENTRY_CRITICAL_PRIORITY);
    json_object_put(hello);
    if (presentd_call_json(pd, "subscribe", "{\"topics\":[\"lifecycle\"]}", NULL, 10000, &err)) {
        fprintf(stderr, "presentd-notify: presentd at %s: subscribing to lifecycle failed: %s\n", path, err.message);
        return -1;
    }
    hear_do_not_disturb(pd, s);
    return 0;
}

static int poll_timeout(sd_bus *bus) {
    uint64_t until = 0;
    if (sd_bus_get_timeout(bus, &until) < 0 || until == UINT64_MAX) return -1;
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    uint64_t now = (uint64_t)ts.tv_sec * 1000000u + (uint64_t)ts.tv_nsec / 1000u;
    if (until <= now) return 0;
    uint64_t ms = (until - now + 999) / 1000;
    return ms > INT_MAX ? INT_MAX : (int)ms;
}

static int run(server *s, presentd_client *pd, int sigfd, const char *path, int reconnect_s) {
    /* presentd's socket is read only when poll says there is something (or after a blocking
     * call, which may have read ahead): a D-Bus call costs no read of presentd's socket. */
    int presentd_readable = 1;
    for (;;) {
        /* At most 64 bus messages a turn, so that a flood of calls does not keep presentd's
         * replies and events waiting (the rest are taken next turn, without sleeping). */
        int r = 0, turns = 0;
        while (turns < 64 && (r = sd_bus_process(s->bus, NULL)) > 0) turns++;
        if (r < 0) { log_line("the session bus: %s: exiting", strerror(-r)); return 1; }
        int more = r > 0;
        presentd_error err;
        /* presentd_process reads until the socket is drained, also on a turn that only had to
         * write: what it read is taken now, since poll will not report that socket again. */
        int processed = presentd_readable || presentd_wants_write(pd);
        int status = processed ? presentd_process(pd, &err) : 0;
        bridge_pump(s->bridge, processed);
        if (status == PRESENTD_ERR_CLOSED) {
            /* Thrown out (a closing notice: backlog, too many connections) is not a restart:
             * the C client would not try again; err says presentd's reason. */
            if (bridge_closing_reason(s->bridge)) {
                log_line("presentd at %s closed this connection (%s): exiting", path, bridge_closing_reason(s->bridge));
                return 1;
            }
            log_line("presentd at %s went away: waiting for it to come back", path);
            if (presentd_reconnect(pd, &err)) {
                log_line("presentd at %s did not come back within %d s: exiting", path, reconnect_s);
                return 1;
            }
            log_line("presentd is back");
            bridge_reconnected(s->bridge);
            hear_do_not_disturb(pd, s);
            presentd_readable = 1;
            continue;
        } else if (status) {
            log_line("presentd at %s: %s: exiting", path, err.message);
            return 1;
        }
        if (s->name_lost) return 0;
        struct pollfd fds[3] = {
            {.fd = sd_bus_get_fd(s->bus), .events = (short)sd_bus_get_events(s->bus)},
            {.fd = presentd_fd(pd), .events = (short)(POLLIN | (presentd_wants_write(pd) ? POLLOUT : 0))},
            {.fd = sigfd, .events = POLLIN},
        };
        int timeout = poll_timeout(s->bus), pump_timeout = bridge_timeout_ms(s->bridge);
        if (more || (pump_timeout >= 0 && (timeout < 0 || pump_timeout < timeout))) timeout = more ? 0 : pump_timeout;
        int ready = poll(fds, 3, timeout);
        if (ready < 0 && errno != EINTR) {
            log_line("poll: %s", strerror(errno));
            return 1;
        }
        presentd_readable = ready > 0 && fds[1].revents != 0;
        if (fds[2].revents & POLLIN) {
            struct signalfd_siginfo info;
            if (read(sigfd, &info, sizeof info) == (ssize_t)sizeof info) log_line("%s: exiting", strsignal((int)info.ssi_signo));
            return 0;
        }
    }
}

int main(int argc, char **argv) {
    options o;
    int parsed = parse(argc, argv, &o);
    if (parsed == 1) return 0;
    if (parsed == 3) return o.history_count ? history_count(o.history_json) : history_print(o.history_json, o.history_last);
    if (parsed) return 2;
    signal(SIGPIPE, SIG_IGN);
    sigset_t mask;
    sigemptyset(&mask);
    sigaddset(&mask, SIGTERM);
    sigaddset(&mask, SIGINT);
    sigprocmask(SIG_BLOCK, &mask, NULL);
    int sigfd = signalfd(-1, &mask, SFD_CLOEXEC);

    char dir[4096];
    if (image_dir(dir, sizeof dir)) return 1;
    remove_stale_images(dir);
    char path[4096];
    if (o.socket) snprintf(path, sizeof path, "%s", o.socket);
    else presentd_default_socket(path, sizeof path);
    presentd_error err;
    presentd_client *pd = presentd_connect(path, &err);
    if (!pd) {
        fprintf(stderr, "presentd-notify: cannot connect to presentd at %s: %s\n", path, err.message);
        return 1;
    }
    presentd_set_reconnect(pd, o.reconnect_s * 1000);
    server s = {0};
    int max_entries = 64;
    if (greet(pd, &s, &max_entries, path)) { presentd_close(pd); return 1; }

    int r = sd_bus_open_user(&s.bus);
    if (r < 0) {
        fprintf(stderr, "presentd-notify: cannot connect to the session bus: %s (is DBUS_SESSION_BUS_ADDRESS set?)\n",
                strerror(-r));
        presentd_close(pd);
        return 1;
    }
    bridge_settings settings = {
        .max_visible = o.max_visible, .max_waiting = o.max_waiting,
        .default_timeout_ms = {o.timeout_low, o.timeout_normal, 0}, .actions_timeout_ms = o.timeout_actions,
        .image_dir = dir,
        .history_size = o.keep_history, .promote_delay_us = (uint32_t)o.promote_delay_ms * 1000u,
    };
    bridge_signals signals = server_signals(&s);
    s.bridge = bridge_new(pd, &settings, &signals, max_entries);
    int status = 1;
    if (!s.bridge || (r = server_add_object(&s)) < 0) {
        fprintf(stderr, "presentd-notify: cannot serve %s: %s\n", NOTIFY_PATH, strerror(r < 0 ? -r : ENOMEM));
    } else if (server_take_name(&s, o.replace) == 0) {
        log_line("serving %s for presentd %s at %s", NOTIFY_NAME, s.version, path);
        status = run(&s, pd, sigfd, path, o.reconnect_s);
        /* Every notification gets its NotificationClosed, also now. */
        bridge_end_all(s.bridge);
        sd_bus_flush(s.bus);
    }
    bridge_free(s.bridge);
    sd_bus_slot_unref(s.object_slot);
    sd_bus_slot_unref(s.history_slot);
    sd_bus_slot_unref(s.match_slot);
    sd_bus_flush_close_unref(s.bus);
    presentd_close(pd);
    close(sigfd);
    return status;
}
