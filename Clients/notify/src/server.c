/* See server.h. Desktop Notifications Specification 1.2, "D-BUS Protocol". */
#include "server.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "log.h"
#include "notify_args.h"

/* What the bridge does (docs/NOTIFICATIONS.md, "GetCapabilities"): body-markup because the
 * spec's markup is accepted and shown as plain text; not body-hyperlinks, body-images,
 * icon-multi, sound or persistence. */
static const char *const capabilities[] = {
    "actions", "body", "body-markup", "icon-static", "inline-reply",
    "x-canonical-private-synchronous", "x-dunst-stack-tag", NULL,
};

static int method_notify(sd_bus_message *m, void *userdata, sd_bus_error *err) {
    server *s = userdata;
    note_spec spec = {0};
    image_data image;
    int has_image = 0;
    int r = notify_args_read(m, &spec, &image, &has_image, err);
    if (r < 0) return r;
    uint32_t id = 0;
    switch (bridge_notify(s->bridge, &spec, has_image ? &image : NULL, &id)) {
    case BRIDGE_OK:
        return sd_bus_reply_method_return(m, "u", id);
    case BRIDGE_NO_IDS:
        return sd_bus_error_setf(err, SD_BUS_ERROR_LIMITS_EXCEEDED,
                                 "every notification id has been used: restart presentd-notify");
    default:
        return sd_bus_error_set_errno(err, ENOMEM);
    }
}

static int method_close(sd_bus_message *m, void *userdata, sd_bus_error *err) {
    server *s = userdata;
    uint32_t id = 0;
    int r = sd_bus_message_read(m, "u", &id);
    if (r < 0) return r;
    /* The spec (1.2, CloseNotification): "If the notification no longer exists, an empty
     * D-BUS Error message is sent back." No signal either way: each is closed exactly once. */
    if (bridge_close(s->bridge, id))
        return sd_bus_error_setf(err, NOTIFY_ERROR_NOT_FOUND, "notification %u does not exist (it was closed, or never was)", id);
    return sd_bus_reply_method_return(m, "");
}

static int method_capabilities(sd_bus_message *m, void *userdata, sd_bus_error *err) {
    sd_bus_message *reply = NULL;
    int r = sd_bus_message_new_method_return(m, &reply);
    if (r >= 0) r = sd_bus_message_append_strv(reply, (char **)capabilities);
    if (r >= 0) r = sd_bus_send(NULL, reply, NULL);
    sd_bus_message_unref(reply);
    return r;
}

static int method_information(sd_bus_message *m, void *userdata, sd_bus_error *err) {
    server *s = userdata;
    return sd_bus_reply_method_return(m, "ssss", "presentd", "presentd", s->version, "1.2");
}

/* History() → a(ussttu): id, app_name, summary, when it was posted and when it ended
 * (microseconds since the epoch), NotificationClosed's reason; oldest first. */
static int method_history(sd_bus_message *m, void *userdata, sd_bus_error *err) {
    server *s = userdata;
    const history *h = bridge_history(s->bridge);
    sd_bus_message *reply = NULL;
    int r = sd_bus_message_new_method_return(m, &reply);
    if (r >= 0) r = sd_bus_message_open_container(reply, 'a', "(ussttu)");
    for (size_t i = 0; r >= 0 && i < h->count; i++) {
        const history_item *it = history_at(h, i);
        r = sd_bus_message_append(reply, "(ussttu)", it->id, it->app_name, it->summary, (uint64_t)it->posted_us,
                                  (uint64_t)it->ended_us, it->reason);
    }
    if (r >= 0) r = sd_bus_message_close_container(reply);
    if (r >= 0) r = sd_bus_send(NULL, reply, NULL);
    sd_bus_message_unref(reply);
    return r;
}

static int append_live(void *user, uint32_t id, const char *app, const char *summary, uint64_t posted_us,
                       int showing) {
    return sd_bus_message_append(user, "(ussts)", id, app ? app : "", summary ? summary : "", posted_us,
                                 showing ? "showing" : "waiting");
}

/* Live() → a(ussts): id, app_name, summary, when it was posted (microseconds since the
 * epoch), and "showing" (on presentd) or "waiting" (for a place); oldest first. */
static int method_live(sd_bus_message *m, void *userdata, sd_bus_error *err) {
    server *s = userdata;
    sd_bus_message *reply = NULL;
    int r = sd_bus_message_new_method_return(m, &reply);
    if (r >= 0) r = sd_bus_message_open_container(reply, 'a', "(ussts)");
    if (r >= 0) r = bridge_each_live(s->bridge, append_live, reply);
    if (r >= 0) r = sd_bus_message_close_container(reply);
    if (r >= 0) r = sd_bus_send(NULL, reply, NULL);
    sd_bus_message_unref(reply);
    return r;
}

/* DoNotDisturb() → b: whether presentd's main screen, where the notifications are, has do
 * not disturb on (it holds the notifications it does not let through); an error when
 * presentd does not tell the bridge. */
static int method_do_not_disturb(sd_bus_message *m, void *userdata, sd_bus_error *err) {
    server *s = userdata;
    if (s->do_not_disturb < 0)
        return sd_bus_error_set(err, HISTORY_ERROR_UNKNOWN, "presentd does not tell presentd-notify its do not "
                                "disturb: the modes topic needs the renderer role (see presentd's roles)");
    return sd_bus_reply_method_return(m, "b", s->do_not_disturb);
}

static const sd_bus_vtable history_vtable[] = {
    SD_BUS_VTABLE_START(0),
    SD_BUS_METHOD("History", "", "a(ussttu)", method_history, SD_BUS_VTABLE_UNPRIVILEGED),
    SD_BUS_METHOD("Live", "", "a(ussts)", method_live, SD_BUS_VTABLE_UNPRIVILEGED),
    SD_BUS_METHOD("DoNotDisturb", "", "b", method_do_not_disturb, SD_BUS_VTABLE_UNPRIVILEGED),
    SD_BUS_VTABLE_END,
};

static const sd_bus_vtable vtable[] = {
    SD_BUS_VTABLE_START(0),
    SD_BUS_METHOD("Notify", "susssasa{sv}i", "u", method_notify, SD_BUS_VTABLE_UNPRIVILEGED),
    SD_BUS_METHOD("CloseNotification", "u", "", method_close, SD_BUS_VTABLE_UNPRIVILEGED),
    SD_BUS_METHOD("GetCapabilities", "", "as", method_capabilities, SD_BUS_VTABLE_UNPRIVILEGED),
    SD_BUS_METHOD("GetServerInformation", "", "ssss", method_information, SD_BUS_VTABLE_UNPRIVILEGED),
    SD_BUS_SIGNAL("NotificationClosed", "uu", 0),
    SD_BUS_SIGNAL("ActionInvoked", "us", 0),
    SD_BUS_SIGNAL("NotificationReplied", "us", 0),
    SD_BUS_SIGNAL("ActivationToken", "us", 0),
    SD_BUS_VTABLE_END,
};

static int on_name_lost(sd_bus_message *m, void *userdata, sd_bus_error *err) {
    server *s = userdata;
    const char *name = NULL;
    if (sd_bus_message_read(m, "s", &name) >= 0 && name && strcmp(name, NOTIFY_NAME) == 0) {
        log_line("another server took %s (it was started with --replace): exiting", NOTIFY_NAME);
        s->name_lost = 1;
    }
    return 0;
}

int server_add_object(server *s) {
    int r = sd_bus_add_object_vtable(s->bus, &s->object_slot, NOTIFY_PATH, NOTIFY_NAME, vtable, s);
    if (r < 0) return r;
    r = sd_bus_add_object_vtable(s->bus, &s->history_slot, NOTIFY_PATH, HISTORY_INTERFACE, history_vtable, s);
    if (r < 0) return r;
    return sd_bus_match_signal(s->bus, &s->match_slot, "org.freedesktop.DBus", "/org/freedesktop/DBus",
                               "org.freedesktop.DBus", "NameLost", on_name_lost, s);
}

void server_describe_owner(sd_bus *bus, char *out, size_t size) {
    sd_bus_error err = SD_BUS_ERROR_NULL;
    sd_bus_message *reply = NULL;
    const char *name = NULL, *vendor = NULL, *version = NULL, *spec = NULL;
    char who[512] = "a server that does not answer GetServerInformation";
    sd_bus_set_method_call_timeout(bus, 3 * 1000 * 1000);
    if (sd_bus_call_method(bus, NOTIFY_NAME, NOTIFY_PATH, NOTIFY_NAME, "GetServerInformation", &err, &reply, "") >= 0 &&
        sd_bus_message_read(reply, "ssss", &name, &vendor, &version, &spec) >= 0)
        snprintf(who, sizeof who, "%s %s (%s, spec %s)", name, version, vendor, spec);
    sd_bus_message_unref(reply);
    sd_bus_error_free(&err);
    sd_bus_creds *creds = NULL;
    pid_t pid = 0;
    const char *comm = NULL;
    if (sd_bus_get_name_creds(bus, NOTIFY_NAME, SD_BUS_CREDS_PID | SD_BUS_CREDS_COMM, &creds) >= 0) {
        sd_bus_creds_get_pid(creds, &pid);
        sd_bus_creds_get_comm(creds, &comm);
    }
    char name_of_pid[64] = "?";
    if (comm) snprintf(name_of_pid, sizeof name_of_pid, "%s", comm);
    else if (pid) {  /* the bus did not say: the process's own name, when it is ours to read */
        char path[64];
        snprintf(path, sizeof path, "/proc/%d/comm", (int)pid);
        FILE *f = fopen(path, "r");
        if (f) {
            if (fgets(name_of_pid, sizeof name_of_pid, f)) name_of_pid[strcspn(name_of_pid, "\n")] = 0;
            fclose(f);
        }
    }
    if (pid) snprintf(out, size, "%s, pid %d (%s)", who, (int)pid, name_of_pid);
    else snprintf(out, size, "%s", who);
    sd_bus_creds_unref(creds);
}

int server_take_name(server *s, int replace) {
    /* Always replaceable: a later `presentd-notify --replace`, or another server's, may take over. */
    uint64_t flags = SD_BUS_NAME_ALLOW_REPLACEMENT | (replace ? SD_BUS_NAME_REPLACE_EXISTING : 0);
    int r = sd_bus_request_name(s->bus, NOTIFY_NAME, flags);
    if (r >= 0) return 0;
    if (r != -EEXIST) {
        fprintf(stderr, "presentd-notify: cannot own %s: %s\n", NOTIFY_NAME, strerror(-r));
        return r;
    }
    char who[700];
    server_describe_owner(s->bus, who, sizeof who);
    if (replace)
        fprintf(stderr, "presentd-notify: %s is owned by %s, which does not allow replacement: stop it first\n",
                NOTIFY_NAME, who);
    else
        fprintf(stderr, "presentd-notify: %s is owned by %s: stop it, or run presentd-notify --replace\n",
                NOTIFY_NAME, who);
    return r;
}

static void emit_closed(void *user, uint32_t id, uint32_t reason) {
    server *s = user;
    int r = sd_bus_emit_signal(s->bus, NOTIFY_PATH, NOTIFY_NAME, "NotificationClosed", "uu", id, reason);
    if (r < 0) log_line("NotificationClosed %u: %s", id, strerror(-r));
}

static void emit_action(void *user, uint32_t id, const char *key) {
    server *s = user;
    int r = sd_bus_emit_signal(s->bus, NOTIFY_PATH, NOTIFY_NAME, "ActionInvoked", "us", id, key);
    if (r < 0) log_line("ActionInvoked %u: %s", id, strerror(-r));
}

static void emit_token(void *user, uint32_t id, const char *token) {
    server *s = user;
    int r = sd_bus_emit_signal(s->bus, NOTIFY_PATH, NOTIFY_NAME, "ActivationToken", "us", id, token);
    if (r < 0) log_line("ActivationToken %u: %s", id, strerror(-r));
}

static void emit_replied(void *user, uint32_t id, const char *text) {
    server *s = user;
    int r = sd_bus_emit_signal(s->bus, NOTIFY_PATH, NOTIFY_NAME, "NotificationReplied", "us", id, text);
    if (r < 0) log_line("NotificationReplied %u: %s", id, strerror(-r));
}

static void set_do_not_disturb(void *user, int on) {
    server *s = user;
    s->do_not_disturb = on;
}

bridge_signals server_signals(server *s) {
    return (bridge_signals){.closed = emit_closed, .action_invoked = emit_action, .activation_token = emit_token,
                            .replied = emit_replied, .do_not_disturb = set_do_not_disturb, .user = s};
}
