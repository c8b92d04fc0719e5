/* The notifications the bridge holds, and their life on presentd: each Notify becomes an
 * overlay entry (or waits its turn, at most max_visible on screen), each replacement an
 * update, each CloseNotification a dismiss; presentd's lifecycle and action events come
 * back as NotificationClosed (exactly once per notification), ActionInvoked and
 * NotificationReplied. Knows nothing of D-Bus: the signals go out through callbacks. */
#ifndef NOTIFY_BRIDGE_H
#define NOTIFY_BRIDGE_H

#include <stdint.h>

#include "../../c/presentd.h"
#include "history.h"
#include "image.h"
#include "note.h"

/* The spec's reasons for NotificationClosed. */
enum close_reason { CLOSED_EXPIRED = 1, CLOSED_DISMISSED = 2, CLOSED_BY_CALL = 3, CLOSED_UNDEFINED = 4 };

typedef struct bridge_settings {
    int max_visible;             /* entries on presentd at once (critical ones pass while presentd takes them) */
    int max_waiting;             /* notifications waiting for a place beyond those; past it the oldest of
                                    the lowest urgency (the new one included) expires */
    int32_t default_timeout_ms[3]; /* expire_timeout -1, by urgency; 0: never */
    int32_t actions_timeout_ms;  /* expire_timeout -1 with an action to choose (note_asks); 0: never */
    const char *image_dir;       /* where image-data PNGs go (exists, the bridge's own) */
    int history_size;            /* ended notifications kept for --history */
    uint32_t promote_delay_us;   /* a place freed on screen is filled after this (0: a frame) */
} bridge_settings;

typedef struct bridge_signals {
    void (*closed)(void *user, uint32_t id, uint32_t reason);
    void (*action_invoked)(void *user, uint32_t id, const char *key);
    /* The compositor's xdg-activation token for the click (spec 1.3), just before
     * action_invoked, when presentd's action event carries one. */
    void (*activation_token)(void *user, uint32_t id, const char *token);
    void (*replied)(void *user, uint32_t id, const char *text);
    /* presentd's main screen turned do not disturb on (1) or off (0): a mode event of the
     * modes topic (NULL: not wanted). */
    void (*do_not_disturb)(void *user, int on);
    void *user;
} bridge_signals;

typedef struct bridge bridge;

/* max_entries: how many entries presentd lets one connection own (hello's
 * limits.maxEntriesPerClient). */
bridge *bridge_new(presentd_client *pd, const bridge_settings *settings, const bridge_signals *signals,
                   int max_entries);
void bridge_free(bridge *b);

enum bridge_refusal { BRIDGE_OK = 0, BRIDGE_NO_IDS, BRIDGE_NO_MEMORY };

/* Notify: spec is consumed; image (or NULL) is the checked image-data, written to a PNG
 * now. *id is the notification's id: replaces_id's, a synchronous tag's, or a new one.
 * A full queue refuses nothing: one notification expires instead (NotificationClosed 1),
 * perhaps the new one, whose signal then follows in bridge_pump. Returns BRIDGE_OK, or why
 * it was refused: no id left, or no memory. */
int bridge_notify(bridge *b, note_spec *spec, const image_data *image, uint32_t *id);

/* CloseNotification: dismisses it (NotificationClosed 3 follows). Returns 0, or -1 when no
 * live notification has that id (closed already, or never was). */
int bridge_close(bridge *b, uint32_t id);

/* After each turn of the loop: writes the presents that Notify left due, takes what
 * presentd sent (replies when replies is set: presentd_process ran this turn), its
 * lifecycle and action events, and fills the places freed on screen when it is time. */
void bridge_pump(bridge *b, int replies);

/* How long the loop may sleep before bridge_pump has work of its own (ms; -1: no limit). */
int bridge_timeout_ms(const bridge *b);

/* After presentd_reconnect: finds out which entries presentd kept (its stack) and sends
 * again what was lost with the connection; the rest are closed (reason 4). */
void bridge_reconnected(bridge *b);

/* NotificationClosed (reason 4) for every notification, and nothing left: at exit. */
void bridge_end_all(bridge *b);

/* The reason of presentd's closing notice (it threw this connection out: "backlog",
 * "tooManyConnections"…), or NULL when it sent none. */
const char *bridge_closing_reason(const bridge *b);

/* How many notifications are live (on presentd or waiting). */
int bridge_count(const bridge *b);

/* The notifications that ended, oldest first. */
const history *bridge_history(const bridge *b);

/* Calls fn for each live notification, oldest first: showing (on presentd) or waiting for
 * a place; app and summary as shown (summary NULL when empty). Stops at fn's first
 * negative return, and returns it; else 0. */
int bridge_each_live(const bridge *b, int (*fn)(void *user, uint32_t id, const char *app, const char *summary,
                                                uint64_t posted_us, int showing), void *user);

#endif
