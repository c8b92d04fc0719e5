/* See history_cli.h. Each line: when it ended (local time), how, its id, the app, the
 * summary, separated by tabs, then the live ones (when each was posted, "showing" or
 * "waiting"); or, with --json, one JSON array. */
#include "history_cli.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <json-c/json.h>
#include <systemd/sd-bus.h>

#include "server.h"

static const char *how(uint32_t reason) {
    switch (reason) {
    case 1: return "expired";
    case 2: return "dismissed";
    case 3: return "closed";
    default: return "undefined";
    }
}

/* 2026-12-02T05:30:01Z */
static void iso_utc(uint64_t us, char *out, size_t size) {
    time_t t = (time_t)(us / 1000000u);
    struct tm tm;
    strftime(out, size, "%Y-%m-%dT%H:%M:%SZ", gmtime_r(&t, &tm));
}

/* One line of the listing: an ended notification, or a live one (how "showing" or
 * "waiting", ended and reason 0). Strings point into the replies. */
typedef struct row {
    uint32_t id, reason;
    const char *app, *summary, *how;
    uint64_t posted, ended;
} row;

/* Calls the bridge's method of HISTORY_INTERFACE, not starting a bridge: one started to
 * answer this would have nothing to tell. */
static int call(sd_bus *bus, const char *method, sd_bus_message **reply, sd_bus_error *err) {
    sd_bus_message *m = NULL;
    int r = sd_bus_message_new_method_call(bus, &m, NOTIFY_NAME, NOTIFY_PATH, HISTORY_INTERFACE, method);
    if (r >= 0) r = sd_bus_message_set_auto_start(m, 0);
    if (r >= 0) r = sd_bus_call(bus, m, 0, err, reply);
    sd_bus_message_unref(m);
    return r;
}

static int unknown_method(const sd_bus_error *err) {
    return sd_bus_error_has_name(err, SD_BUS_ERROR_UNKNOWN_METHOD) ||
           sd_bus_error_has_name(err, SD_BUS_ERROR_UNKNOWN_INTERFACE) ||
           sd_bus_error_has_name(err, SD_BUS_ERROR_UNKNOWN_OBJECT);
}

/* Appends the rows of reply (array signature sig, one struct each) to *rows. */
static int read_rows(sd_bus_message *reply, const char *sig, row **rows, size_t *n) {
    int live = strcmp(sig, "(ussts)") == 0;
    int r = sd_bus_message_enter_container(reply, 'a', sig);
    if (r < 0) return r;
    for (;;) {
        row it = {0};
        r = live ? sd_bus_message_read(reply, sig, &it.id, &it.app, &it.summary, &it.posted, &it.how)
                 : sd_bus_message_read(reply, sig, &it.id, &it.app, &it.summary, &it.posted, &it.ended, &it.reason);
        if (r <= 0) return r;
        if (!live) it.how = how(it.reason);
        row *grown = realloc(*rows, (*n + 1) * sizeof **rows);
        if (!grown) return -ENOMEM;
        *rows = grown;
        (*rows)[(*n)++] = it;
    }
}

/* The first call's error: no bridge, another server, or what the bus said. what: "history",
 * "count". */
static void first_call_failed(sd_bus *bus, const sd_bus_error *err, int r, const char *what) {
    if (unknown_method(err)) {
        char who[700];
        server_describe_owner(bus, who, sizeof who);
        fprintf(stderr, "presentd-notify: %s is served by %s, which keeps no %s for presentd-notify\n",
                NOTIFY_NAME, who, what);
    } else if (sd_bus_error_has_name(err, SD_BUS_ERROR_NAME_HAS_NO_OWNER) ||
               sd_bus_error_has_name(err, SD_BUS_ERROR_SERVICE_UNKNOWN)) {
        fprintf(stderr, "presentd-notify: no %s: presentd-notify is not running (nothing owns %s on "
                "the session bus): start it, and it keeps the notifications that end from then on\n", what,
                NOTIFY_NAME);
    } else {
        fprintf(stderr, "presentd-notify: no %s: %s\n", what, err->message ? err->message : strerror(-r));
    }
}

/* Connects to the session bus (*bus, for the caller to close) and makes the first call; r
 * or a negative errno, after saying what went wrong. */
static int first_call(sd_bus **bus, const char *method, const char *what, sd_bus_message **reply,
                      sd_bus_error *err) {
    int r = sd_bus_open_user(bus);
    if (r < 0) {
        fprintf(stderr, "presentd-notify: cannot connect to the session bus: %s\n", strerror(-r));
        return r;
    }
    r = call(*bus, method, reply, err);
    if (r < 0) first_call_failed(*bus, err, r, what);
    return r;
}

int history_count(int json) {
    sd_bus *bus = NULL;
    sd_bus_error err = SD_BUS_ERROR_NULL;
    sd_bus_message *live = NULL, *dnd = NULL;
    row *rows = NULL;
    size_t n = 0;
    int status = 1;
    int r = first_call(&bus, "Live", "count", &live, &err);
    if (r < 0) goto done;
    if ((r = read_rows(live, "(ussts)", &rows, &n)) < 0) {
        fprintf(stderr, "presentd-notify: the bridge's reply is not what it should be: %s\n", strerror(-r));
        goto done;
    }
    status = 0;
    if (!json) {
        printf("%zu\n", n);
        goto done;
    }
    size_t showing = 0;
    for (size_t i = 0; i < n; i++) showing += strcmp(rows[i].how, "showing") == 0;
    /* -1: not known (a bridge from before DoNotDisturb, or presentd does not tell it). */
    int on = -1;
    sd_bus_error_free(&err);
    if (call(bus, "DoNotDisturb", &dnd, &err) >= 0) {
        int b = 0;
        if (sd_bus_message_read(dnd, "b", &b) >= 0) on = b != 0;
    }
    /* waybar's custom module, return-type json: text, alt (for format-icons), tooltip,
     * class (for the style sheet). */
    char tooltip[256];
    int at = snprintf(tooltip, sizeof tooltip, "%zu notification%s", n, n == 1 ? "" : "s");
    if (n) at += snprintf(tooltip + at, sizeof tooltip - (size_t)at, ": %zu on screen, %zu waiting", showing,
                          n - showing);
    snprintf(tooltip + at, sizeof tooltip - (size_t)at, "%s",
             on == 1 ? "\nDo not disturb: on" : on == 0 ? "\nDo not disturb: off"
                                                         : "\nDo not disturb: not known (see presentd-notify's log)");
    char text[32], alt[32];
    snprintf(text, sizeof text, "%zu", n);
    snprintf(alt, sizeof alt, "%s%s", on == 1 ? "dnd-" : "", n ? "notification" : "none");
    json_object *out = json_object_new_object();
    json_object_object_add(out, "text", json_object_new_string(text));
    json_object_object_add(out, "alt", json_object_new_string(alt));
    json_object_object_add(out, "tooltip", json_object_new_string(tooltip));
    json_object_object_add(out, "class", json_object_new_string(on == 1 ? "dnd" : on == 0 ? "none" : "unknown"));
    printf("%s\n", json_object_to_json_string_ext(out, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE));
    json_object_put(out);
done:
    free(rows);
    sd_bus_message_unref(live);
    sd_bus_message_unref(dnd);
    sd_bus_error_free(&err);
    sd_bus_flush_close_unref(bus);
    return status;
}

int history_print(int json, long last) {
    sd_bus *bus = NULL;
    sd_bus_error err = SD_BUS_ERROR_NULL;
    sd_bus_message *ended = NULL, *live = NULL;
    json_object *out = NULL;
    row *rows = NULL;
    size_t n = 0;
    int status = 1;
    int r = first_call(&bus, "History", "history", &ended, &err);
    if (r < 0) goto done;
    if ((r = read_rows(ended, "(ussttu)", &rows, &n)) < 0) goto bad;
    sd_bus_error_free(&err);
    /* A bridge from before Live lists only what ended. */
    r = call(bus, "Live", &live, &err);
    if (r < 0 && !unknown_method(&err)) {
        fprintf(stderr, "presentd-notify: no live notifications: %s\n", err.message ? err.message : strerror(-r));
        goto done;
    }
    if (r >= 0 && (r = read_rows(live, "(ussts)", &rows, &n)) < 0) goto bad;
    /* Ended ones oldest first, then the live ones; --last N keeps the last N of them all. */
    size_t skip = last >= 0 && (size_t)last < n ? n - (size_t)last : 0;
    if (json) out = json_object_new_array();
    for (size_t i = skip; i < n; i++) {
        const row *it = &rows[i];
        if (json) {
            char when[32];
            json_object *o = json_object_new_object();
            json_object_object_add(o, "id", json_object_new_int64(it->id));
            json_object_object_add(o, "app", json_object_new_string(it->app));
            json_object_object_add(o, "summary", json_object_new_string(it->summary));
            iso_utc(it->posted, when, sizeof when);
            json_object_object_add(o, "posted", json_object_new_string(when));
            if (it->reason) iso_utc(it->ended, when, sizeof when);
            json_object_object_add(o, "ended", it->reason ? json_object_new_string(when) : NULL);
            json_object_object_add(o, "how", json_object_new_string(it->how));
            json_object_object_add(o, "reason", it->reason ? json_object_new_int64(it->reason) : NULL);
            json_object_array_add(out, o);
            continue;
        }
        time_t t = (time_t)((it->reason ? it->ended : it->posted) / 1000000u);
        struct tm tm;
        char when[32];
        strftime(when, sizeof when, "%Y-%m-%d %H:%M:%S", localtime_r(&t, &tm));
        printf("%s\t%s\t%u\t%s\t%s\n", when, it->how, it->id, it->app, it->summary);
    }
    if (json) printf("%s\n", json_object_to_json_string_ext(out, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE));
    status = 0;
    goto done;
bad:
    fprintf(stderr, "presentd-notify: the bridge's reply is not what it should be: %s\n", strerror(-r));
done:
    json_object_put(out);
    free(rows);
    sd_bus_message_unref(ended);
    sd_bus_message_unref(live);
    sd_bus_error_free(&err);
    sd_bus_flush_close_unref(bus);
    return status;
}
