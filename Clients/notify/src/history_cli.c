/* See history_cli.h. Each line: when it ended (local time), how, its id, the app, the
 * summary, separated by tabs; or, with --json, one JSON array. */
#include "history_cli.h"

#include <stdio.h>
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

int history_print(int json, long last) {
    sd_bus *bus = NULL;
    sd_bus_error err = SD_BUS_ERROR_NULL;
    sd_bus_message *call = NULL, *reply = NULL;
    json_object *rows = NULL;
    int status = 1;
    int r = sd_bus_open_user(&bus);
    if (r < 0) {
        fprintf(stderr, "presentd-notify: cannot connect to the session bus: %s\n", strerror(-r));
        return 1;
    }
    /* Not auto-started: a bridge started to answer this would have nothing to tell. */
    r = sd_bus_message_new_method_call(bus, &call, NOTIFY_NAME, NOTIFY_PATH, HISTORY_INTERFACE, "History");
    if (r >= 0) r = sd_bus_message_set_auto_start(call, 0);
    if (r >= 0) r = sd_bus_call(bus, call, 0, &err, &reply);
    if (r < 0) {
        if (sd_bus_error_has_name(&err, SD_BUS_ERROR_UNKNOWN_METHOD) ||
            sd_bus_error_has_name(&err, SD_BUS_ERROR_UNKNOWN_INTERFACE) ||
            sd_bus_error_has_name(&err, SD_BUS_ERROR_UNKNOWN_OBJECT)) {
            char who[700];
            server_describe_owner(bus, who, sizeof who);
            fprintf(stderr, "presentd-notify: %s is served by %s, which keeps no history for presentd-notify\n",
                    NOTIFY_NAME, who);
        } else if (sd_bus_error_has_name(&err, SD_BUS_ERROR_NAME_HAS_NO_OWNER) ||
                   sd_bus_error_has_name(&err, SD_BUS_ERROR_SERVICE_UNKNOWN)) {
            fprintf(stderr, "presentd-notify: no history: presentd-notify is not running (nothing owns %s on "
                    "the session bus): start it, and it keeps the notifications that end from then on\n", NOTIFY_NAME);
        } else {
            fprintf(stderr, "presentd-notify: no history: %s\n", err.message ? err.message : strerror(-r));
        }
        goto done;
    }
    if ((r = sd_bus_message_enter_container(reply, 'a', "(ussttu)")) < 0) goto bad;
    /* The reply is oldest first; --last N skips all but the last N. */
    size_t total = 0;
    while ((r = sd_bus_message_at_end(reply, 0)) == 0 && (r = sd_bus_message_skip(reply, "(ussttu)")) >= 0) total++;
    if (r < 0 || (r = sd_bus_message_rewind(reply, 1)) < 0 || (r = sd_bus_message_enter_container(reply, 'a', "(ussttu)")) < 0)
        goto bad;
    size_t skip = last >= 0 && (size_t)last < total ? total - (size_t)last : 0;
    uint32_t id, reason;
    const char *app, *summary;
    uint64_t posted, ended;
    if (json) rows = json_object_new_array();
    for (size_t i = 0; (r = sd_bus_message_read(reply, "(ussttu)", &id, &app, &summary, &posted, &ended, &reason)) > 0; i++) {
        if (i < skip) continue;
        if (json) {
            char when[32];
            json_object *o = json_object_new_object();
            json_object_object_add(o, "id", json_object_new_int64(id));
            json_object_object_add(o, "app", json_object_new_string(app));
            json_object_object_add(o, "summary", json_object_new_string(summary));
            iso_utc(posted, when, sizeof when);
            json_object_object_add(o, "posted", json_object_new_string(when));
            iso_utc(ended, when, sizeof when);
            json_object_object_add(o, "ended", json_object_new_string(when));
            json_object_object_add(o, "how", json_object_new_string(how(reason)));
            json_object_object_add(o, "reason", json_object_new_int64(reason));
            json_object_array_add(rows, o);
            continue;
        }
        time_t t = (time_t)(ended / 1000000u);
        struct tm tm;
        char when[32];
        strftime(when, sizeof when, "%Y-%m-%d %H:%M:%S", localtime_r(&t, &tm));
        printf("%s\t%s\t%u\t%s\t%s\n", when, how(reason), id, app, summary);
    }
    if (r < 0) goto bad;
    if (json) printf("%s\n", json_object_to_json_string_ext(rows, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE));
    status = 0;
    goto done;
bad:
    fprintf(stderr, "presentd-notify: the history reply is not a(ussttu): %s\n", strerror(-r));
done:
    json_object_put(rows);
    sd_bus_message_unref(call);
    sd_bus_message_unref(reply);
    sd_bus_error_free(&err);
    sd_bus_flush_close_unref(bus);
    return status;
}
