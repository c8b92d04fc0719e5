/* org.freedesktop.Notifications on the session bus: the object, its four methods and three
 * signals (sd-bus vtable), and owning the well-known name. */
#ifndef NOTIFY_SERVER_H
#define NOTIFY_SERVER_H

#include <systemd/sd-bus.h>

#include "bridge.h"

#define NOTIFY_NAME "org.freedesktop.Notifications"
#define NOTIFY_PATH "/org/freedesktop/Notifications"
/* The bridge's own interface, beside the spec's, on the same object: the history, the live
 * ones, and presentd's do not disturb. */
#define HISTORY_INTERFACE "org.presentd.NotificationHistory"
/* DoNotDisturb() when presentd does not say it. */
#define HISTORY_ERROR_UNKNOWN "org.presentd.NotificationHistory.Error.Unknown"
/* CloseNotification of an id that is not (or no longer) live. The spec names no error. */
#define NOTIFY_ERROR_NOT_FOUND "org.freedesktop.Notifications.Error.NotFound"

typedef struct server {
    sd_bus *bus;
    bridge *bridge;
    char version[64];            /* presentd's, from hello */
    int do_not_disturb;          /* presentd's main screen's, from the modes topic (DoNotDisturb()):
                                    1 on, 0 off, -1 not known (the topic was refused) */
    int name_lost;               /* another server took the name: time to go */
    sd_bus_slot *object_slot, *history_slot, *match_slot;
} server;

/* The object on s->bus (vtable and NameLost watch). 0 or a negative errno. */
int server_add_object(server *s);

/* Takes the name (replace: from whoever has it, if they allow it). 0, or a negative errno
 * after printing which server owns it and what to do. */
int server_take_name(server *s, int replace);

/* "mako 1.7.1 (emersion, spec 1.2), pid 1234 (mako)": who owns the name, as far as it says. */
void server_describe_owner(sd_bus *bus, char *out, size_t size);

/* The bridge's signal callbacks, emitting on s->bus (user: the server). */
bridge_signals server_signals(server *s);

#endif
