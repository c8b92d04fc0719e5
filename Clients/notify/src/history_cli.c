/* See history_cli.h. Each line: when it ended (local time), how, its id, the app, the
 * summary, separated by tabs. */
#include "history_cli.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

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

int history_print(void) {
    sd_bus *bus = NULL;
    sd_bus_error err = SD_BUS_ERROR_NULL;
    sd_bus_message *reply = NULL;
    int status = 1;
    int r = sd_bus_open_user(&bus);
    if (r < 0) {
        fprintf(stderr, "presentd-notify: cannot connect to the session bus: %s\n", strerror(-r));
        return 1;
    }
    r = sd_bus_call_method(bus, NOTIFY_NAME, NOTIFY_PATH, HISTORY_INTERFACE, "History", &err, &reply, "");
    if (r < 0) {
        if (sd_bus_error_has_name(&err, SD_BUS_ERROR_UNKNOWN_METHOD) ||
            sd_bus_error_has_name(&err, SD_BUS_ERROR_UNKNOWN_INTERFACE) ||
            sd_bus_error_has_name(&err, SD_BUS_ERROR_UNKNOWN_OBJECT)) {
            char who[700];
            server_describe_owner(bus, who, sizeof who);
            fprintf(stderr, "presentd-notify: %s is served by %s, which keeps no history for presentd-notify\n",
                    NOTIFY_NAME, who);
        } else {
            fprintf(stderr, "presentd-notify: no history: %s\n", err.message ? err.message : strerror(-r));
        }
        goto done;
    }
    if ((r = sd_bus_message_enter_container(reply, 'a', "(ussttu)")) < 0) goto bad;
    uint32_t id, reason;
    const char *app, *summary;
    uint64_t posted, ended;
    while ((r = sd_bus_message_read(reply, "(ussttu)", &id, &app, &summary, &posted, &ended, &reason)) > 0) {
        time_t t = (time_t)(ended / 1000000u);
        struct tm tm;
        char when[32];
        strftime(when, sizeof when, "%Y-%m-%d %H:%M:%S", localtime_r(&t, &tm));
        printf("%s\t%s\t%u\t%s\t%s\n", when, how(reason), id, app, summary);
    }
    if (r < 0) goto bad;
    status = 0;
    goto done;
bad:
    fprintf(stderr, "presentd-notify: the history reply is not a(ussttu): %s\n", strerror(-r));
done:
    sd_bus_message_unref(reply);
    sd_bus_error_free(&err);
    sd_bus_flush_close_unref(bus);
    return status;
}
