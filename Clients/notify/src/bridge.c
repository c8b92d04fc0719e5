/* See bridge.h. The requests to presentd are non-blocking (presentd_send): a notification
 * remembers the ids of its requests in flight, at most one of each kind, and takes their
 * replies in bridge_pump. A notification that has ended (NotificationClosed sent) stays in
 * the table, out of every count, only until the replies it waits for have come back, so
 * none is left behind in the client's queue: what the bridge has in flight is bounded by
 * the notifications it holds, whatever the apps send. */
#include "bridge.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "entry.h"
#include "log.h"

enum note_state { NOTE_WAITING, NOTE_SENT, NOTE_ENDED };

/* Places freed on screen are filled at most once a frame (60 Hz): an app that closes its
 * notifications one after another (a mail client clearing 50) would otherwise make each
 * waiting one enter presentd only to be dismissed a moment later. */
#define PROMOTE_DELAY_US 16000

typedef struct note {
    uint32_t id;
    int state;                   /* enum note_state */
    int closing;                 /* CloseNotification asked: a "request" dismissal is reason 3 */
    int present_acked;           /* presentd answered the present: the entry exists (or existed) */
    int present_due;             /* NOTE_SENT, its present not written yet: the pump writes it after the
                                    D-Bus reply, so Notify is answered without waiting for that write */
    int busy;                    /* in the bridge's busy list: a present due or a request in flight */
    char entry[64];              /* presentd's id for it */
    note_spec spec;
    int32_t expire_ms;           /* 0: never */
    uint64_t posted_us;          /* when Notify made it (CLOCK_REALTIME), for the history */
    int64_t present_rpc, update_rpc, dismiss_rpc;  /* requests in flight (0: none) */
    int dirty;                   /* replaced while an update was in flight: its reply sends the latest */
    uint64_t png_bytes;          /* the size of its image-data PNG (spec.icon_is_image_data), counted in the bridge's */
    uint32_t end_reason;         /* bridge_reconnected: to end once its pass is over (0: no) */
    uint32_t closed_due;         /* ended in the Notify that made it (the queue was full): its NotificationClosed,
                                    this reason, goes out in the pump, after Notify's reply gave the app its id */
} note;

struct bridge {
    presentd_client *pd;
    bridge_settings s;
    bridge_signals sig;
    int max_entries;
    uint32_t next_id;            /* 0 once every id has been used */
    note **notes;                /* in the order they came; ended ones until reaped */
    size_t n, cap;
    note **busy;                 /* the notes with a present due or a request in flight, in the order
                                    they became so: what the pump looks at (same capacity as notes) */
    size_t n_busy;
    int counts[3];               /* notes in each enum note_state */
    uint64_t promote_at;         /* CLOCK_MONOTONIC us of the next promotion, or 0 */
    char prefix[32];             /* of every entry id: "notify.PID." */
    unsigned png_serial;
    uint64_t png_bytes;          /* every PNG of the bridge's in the runtime directory, at most IMAGE_DIR_MAX_BYTES */
    int ending;                  /* bridge_end_all: nothing new is presented */
    char closing[64];            /* presentd's closing notice's reason, once it sent one */
    int stack_full;              /* presentd answered -32003 (its stack is full): nothing is promoted
                                    until an entry leaves or a new Notify comes */
    history history;
};

bridge *bridge_new(presentd_client *pd, const bridge_settings *settings, const bridge_signals *signals,
                   int max_entries) {
    bridge *b = calloc(1, sizeof *b);
    if (!b) return NULL;
    b->pd = pd;
    b->s = *settings;
    b->sig = *signals;
    b->max_entries = max_entries > 0 ? max_entries : 64;
    b->next_id = 1;
    if (history_init(&b->history, settings->history_size > 0 ? (size_t)settings->history_size : 0)) {
        free(b);
        return NULL;
    }
    /* The pid keeps entry ids apart from a bridge before this one, whose entries may still be leaving. */
    snprintf(b->prefix, sizeof b->prefix, "notify.%ld.", (long)getpid());
    return b;
}

static void note_free(note *n) {
    note_spec_clear(&n->spec);
    free(n);
}

void bridge_free(bridge *b) {
    if (!b) return;
    for (size_t i = 0; i < b->n; i++) note_free(b->notes[i]);
    free(b->notes);
    free(b->busy);
    history_clear(&b->history);
    free(b);
}

static note *find(const bridge *b, uint32_t id) {
    for (size_t i = 0; i < b->n; i++)
        if (b->notes[i]->id == id && b->notes[i]->state != NOTE_ENDED) return b->notes[i];
    return NULL;
}

static note *find_entry(const bridge *b, const char *entry) {
    if (!entry || strncmp(entry, b->prefix, strlen(b->prefix)) != 0) return NULL;
    for (size_t i = 0; i < b->n; i++)
        if (b->notes[i]->state != NOTE_ENDED && strcmp(b->notes[i]->entry, entry) == 0) return b->notes[i];
    return NULL;
}

static int count(const bridge *b, int state) { return b->counts[state]; }

static void set_state(bridge *b, note *n, int state) {
    b->counts[n->state]--;
    b->counts[state]++;
    n->state = state;
}

/* Into the busy list, once: the pump looks at it until it has nothing in flight. */
static void track(bridge *b, note *n) {
    if (n->busy) return;
    n->busy = 1;
    b->busy[b->n_busy++] = n;
}

static int has_work(const note *n) {
    return n->present_due || n->closed_due || n->present_rpc || n->update_rpc || n->dismiss_rpc;
}

static uint64_t monotonic_us(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000u + (uint64_t)ts.tv_nsec / 1000u;
}

const char *bridge_closing_reason(const bridge *b) { return b->closing[0] ? b->closing : NULL; }

int bridge_count(const bridge *b) { return count(b, NOTE_WAITING) + count(b, NOTE_SENT); }

const history *bridge_history(const bridge *b) { return &b->history; }

int bridge_each_live(const bridge *b, int (*fn)(void *user, uint32_t id, const char *app, const char *summary,
                                                uint64_t posted_us, int showing), void *user) {
    for (size_t i = 0; i < b->n; i++) {
        const note *n = b->notes[i];
        if (n->state == NOTE_ENDED) continue;
        int r = fn(user, n->id, n->spec.app_name, n->spec.title, n->posted_us, n->state == NOTE_SENT);
        if (r < 0) return r;
    }
    return 0;
}

/* The countdown: critical never expires; -1 is the setting for a notification that asks
 * something (GNOME Shell keeps those until answered), else the setting for the urgency. */
static int32_t expire_for(const bridge *b, const note_spec *spec) {
    if (spec->urgency == URGENCY_CRITICAL) return 0;
    if (spec->expire_timeout < 0) return note_asks(spec) ? b->s.actions_timeout_ms : b->s.default_timeout_ms[spec->urgency];
    return spec->expire_timeout;
}

static void remove_image(bridge *b, note *n) {
    note_spec *spec = &n->spec;
    if (spec->icon_is_image_data && spec->icon && unlink(spec->icon) != 0)
        log_line("cannot remove %s: %m", spec->icon);
    spec->icon_is_image_data = 0;
    b->png_bytes -= n->png_bytes;
    n->png_bytes = 0;
}

static int64_t send(bridge *b, const char *method, json_object *params, note *n) {
    int64_t rpc = 0;
    presentd_error err;
    if (presentd_send(b->pd, method, params, &rpc, &err)) {
        /* The connection is down: bridge_reconnected sends what is needed again. */
        log_line("%s %s: not sent: %s", method, n->entry, err.message);
        return 0;
    }
    track(b, n);
    return rpc;
}

static void send_present(bridge *b, note *n) {
    if (n->state != NOTE_SENT) set_state(b, n, NOTE_SENT);
    n->present_due = 0;
    n->present_rpc = send(b, "present", entry_present(n->entry, &n->spec, n->expire_ms), n);
}

/* The content as it is now. One update at a time: a replacement meanwhile only marks the
 * note dirty, and the reply sends the latest (a flood of replaces_id costs one request per
 * round trip, not one per call). */
static void send_update(bridge *b, note *n) {
    if (n->update_rpc) { n->dirty = 1; return; }
    n->dirty = 0;
    n->update_rpc = send(b, "update", entry_update(n->entry, &n->spec, n->expire_ms), n);
}

static void send_dismiss(bridge *b, note *n) {
    if (n->dismiss_rpc) return;  /* one dismissal in flight is enough */
    json_object *p = json_object_new_object();
    json_object_object_add(p, "id", json_object_new_string(n->entry));
    n->dismiss_rpc = send(b, "dismiss", p, n);
}

/* Sends waiting notifications while there is room: critical ones first, then in order. */
static void promote(bridge *b) {
    int room = (b->s.max_visible < b->max_entries ? b->s.max_visible : b->max_entries) - count(b, NOTE_SENT);
    while (room > 0 && !b->ending && !b->stack_full) {
        note *next = NULL;
        for (size_t i = 0; i < b->n; i++) {
            note *n = b->notes[i];
            if (n->state != NOTE_WAITING) continue;
            if (!next || (n->spec.urgency == URGENCY_CRITICAL && next->spec.urgency != URGENCY_CRITICAL)) next = n;
        }
        if (!next) return;
        send_present(b, next);
        room--;
    }
}

/* Ends it without the signal: into the history, its image removed. */
static void retire(bridge *b, note *n, uint32_t reason) {
    set_state(b, n, NOTE_ENDED);
    n->present_due = 0;
    if (!n->spec.transient)
        history_add(&b->history, n->id, n->spec.app_name, n->spec.title, n->posted_us, history_now_us(), reason);
    remove_image(b, n);
    note_spec_clear(&n->spec);
}

/* The one way a notification ends: NotificationClosed, its image removed. */
static void end(bridge *b, note *n, uint32_t reason) {
    if (n->state == NOTE_ENDED) return;
    retire(b, n, reason);
    if (b->sig.closed) b->sig.closed(b->sig.user, n->id, reason);
    if (count(b, NOTE_WAITING) && !b->promote_at)
        b->promote_at = monotonic_us() + (b->s.promote_delay_us ? b->s.promote_delay_us : PROMOTE_DELAY_US);
}

/* Out of the busy list: the notes with nothing due or in flight. */
static void settle(bridge *b) {
    size_t kept = 0;
    for (size_t i = 0; i < b->n_busy; i++) {
        note *n = b->busy[i];
        if (has_work(n)) b->busy[kept++] = n;
        else n->busy = 0;
    }
    b->n_busy = kept;
}

/* Frees ended notifications that wait for no reply. */
static void reap(bridge *b) {
    settle(b);
    if (!count(b, NOTE_ENDED)) return;
    size_t kept = 0;
    for (size_t i = 0; i < b->n; i++) {
        note *n = b->notes[i];
        if (n->state == NOTE_ENDED && !n->busy) {
            b->counts[NOTE_ENDED]--;
            note_free(n);
        } else {
            b->notes[kept++] = n;
        }
    }
    b->n = kept;
}

/* image-data as a PNG file of the bridge's own: the spec's icon from now on. Each file is
 * bounded (IMAGE_MAX_SIDE), but thousands may wait (--max-waiting): the directory is in
 * the user's runtime directory, a tmpfs in RAM, so their sum is bounded too. */
static void take_image(bridge *b, note *n, const image_data *image) {
    note_spec *spec = &n->spec;
    char path[4096], why[512];
    snprintf(path, sizeof path, "%s/%ld-%u-%u.png", b->s.image_dir, (long)getpid(), n->id, ++b->png_serial);
    if (image_write_png(image, path, why, sizeof why)) {
        log_line("notification %u: image-data not shown: %s", n->id, why);
        return;
    }
    struct stat st;
    uint64_t size = stat(path, &st) == 0 ? (uint64_t)st.st_size : 0;
    if (b->png_bytes + size > IMAGE_DIR_MAX_BYTES) {
        log_line("notification %u: image-data not shown: the bridge's images take %llu bytes already, "
                 "at most %llu", n->id, (unsigned long long)b->png_bytes, (unsigned long long)IMAGE_DIR_MAX_BYTES);
        unlink(path);
        return;
    }
    char *copy = strdup(path);
    if (!copy) { unlink(path); return; }
    b->png_bytes += size;
    n->png_bytes = size;
    free(spec->icon);
    spec->icon = copy;
    spec->icon_kind = ICON_PATH;
    spec->icon_is_image_data = 1;
}

/* The live notification this one replaces: by replaces_id, else by synchronous tag within the app. */
static note *replaced(const bridge *b, const note_spec *spec) {
    if (spec->replaces_id) {
        note *n = find(b, spec->replaces_id);
        return n && !n->closing ? n : NULL;
    }
    if (!spec->tag) return NULL;
    for (size_t i = 0; i < b->n; i++) {
        note *n = b->notes[i];
        if (n->state != NOTE_ENDED && !n->closing && n->spec.tag && strcmp(n->spec.tag, spec->tag) == 0 &&
            strcmp(n->spec.app_name, spec->app_name) == 0)
            return n;
    }
    return NULL;
}

/* The waiting notification that leaves for a new one when max_waiting wait already: the
 * oldest of the lowest urgency, the new one (urgency) counted as the newest of all. NULL:
 * the new one itself, which is the oldest of the lowest only when none waiting is of a
 * lower urgency than it (a critical one is never taken for one of a lower urgency). */
static note *displaced(const bridge *b, int urgency) {
    note *oldest = NULL;
    for (size_t i = 0; i < b->n; i++) {
        note *n = b->notes[i];
        if (n->state == NOTE_WAITING && n->spec.urgency <= urgency && (!oldest || n->spec.urgency < oldest->spec.urgency))
            oldest = n;
    }
    return oldest;
}

int bridge_notify(bridge *b, note_spec *spec, const image_data *image, uint32_t *id) {
    if (b->stack_full) {  /* try again: the waiting ones first */
        b->stack_full = 0;
        promote(b);
    }
    note *n = replaced(b, spec);
    if (n) {
        /* In place: the same id, the same entry; presentd animates the change. */
        remove_image(b, n);
        note_spec_move(&n->spec, spec);
        if (image) take_image(b, n, image);
        n->expire_ms = expire_for(b, &n->spec);
        if (n->state == NOTE_SENT && !n->present_due) send_update(b, n);  /* a due present carries the latest */
        *id = n->id;
        return BRIDGE_OK;
    }
    int on_screen = count(b, NOTE_SENT);
    int critical = spec->urgency == URGENCY_CRITICAL;
    int must_wait = critical ? on_screen >= b->max_entries
                             : on_screen >= b->s.max_visible || on_screen >= b->max_entries || count(b, NOTE_WAITING) > 0;
    if (!b->next_id) { note_spec_clear(spec); return BRIDGE_NO_IDS; }
    /* Past the bound a notification leaves as expired rather than Notify failing: memory
     * stays bounded, and no app is refused (docs/NOTIFICATIONS.md, "Several at once"). */
    int expires_now = 0;
    if (must_wait && count(b, NOTE_WAITING) >= b->s.max_waiting) {
        note *gone = displaced(b, spec->urgency);
        if (gone) end(b, gone, CLOSED_EXPIRED);
        else expires_now = 1;
    }
    if (b->n == b->cap) {
        size_t cap = b->cap ? b->cap * 2 : 16;
        note **grown = realloc(b->notes, cap * sizeof *grown);
        if (!grown) { note_spec_clear(spec); return BRIDGE_NO_MEMORY; }
        b->notes = grown;
        grown = realloc(b->busy, cap * sizeof *grown);
        if (!grown) { note_spec_clear(spec); return BRIDGE_NO_MEMORY; }
        b->busy = grown;
        b->cap = cap;
    }
    n = calloc(1, sizeof *n);
    if (!n) { note_spec_clear(spec); return BRIDGE_NO_MEMORY; }
    n->id = b->next_id++;
    n->posted_us = history_now_us();  /* wraps to 0 after 2^32 - 1: then no more (ids are never reused) */
    snprintf(n->entry, sizeof n->entry, "%s%u", b->prefix, n->id);
    note_spec_move(&n->spec, spec);
    n->state = NOTE_WAITING;
    b->counts[NOTE_WAITING]++;
    b->notes[b->n++] = n;
    if (expires_now) {
        /* Its id now, its NotificationClosed after the reply, so that the app can tell it is its own. */
        retire(b, n, CLOSED_EXPIRED);
        n->closed_due = CLOSED_EXPIRED;
        track(b, n);
        *id = n->id;
        return BRIDGE_OK;
    }
    if (image) take_image(b, n, image);
    n->expire_ms = expire_for(b, &n->spec);
    if (!must_wait) {
        set_state(b, n, NOTE_SENT);
        n->present_due = 1;
        track(b, n);
    }
    *id = n->id;
    return BRIDGE_OK;
}

int bridge_close(bridge *b, uint32_t id) {
    note *n = find(b, id);
    if (!n) return -1;
    /* Waiting, or its present not written yet: presentd never heard of it. */
    if (n->state == NOTE_WAITING || n->present_due) { end(b, n, CLOSED_BY_CALL); return 0; }
    if (n->closing) return 0;  /* still leaving: it exists until its NotificationClosed */
    n->closing = 1;
    send_dismiss(b, n);
    return 0;
}

/* presentd's reason for a dismissal, as the spec's. */
static uint32_t close_reason(const note *n, const char *reason) {
    if (!reason) return CLOSED_UNDEFINED;
    if (strcmp(reason, "timeout") == 0) return CLOSED_EXPIRED;
    if (strcmp(reason, "tap") == 0 || strcmp(reason, "swipe") == 0 || strcmp(reason, "key") == 0 ||
        strcmp(reason, "action") == 0)
        return CLOSED_DISMISSED;
    /* "request": ours (CloseNotification), else the shell's or an administrator's: the user. */
    if (strcmp(reason, "request") == 0) return n->closing ? CLOSED_BY_CALL : CLOSED_DISMISSED;
    return CLOSED_UNDEFINED;  /* ownerGone, preempted, contextGone, outputGone, newer ones */
}

static void on_reply(bridge *b, note *n, int64_t *rpc, const char *method) {
    if (!*rpc) return;
    presentd_error err;
    int status = presentd_take_reply(b->pd, *rpc, NULL, &err);
    /* Not answered yet; or the connection ended first: bridge_reconnected sends it again. */
    if (status == PRESENTD_ERR_AGAIN || status == PRESENTD_ERR_CLOSED) return;
    *rpc = 0;
    if (strcmp(method, "present") == 0) {
        if (status == 0) { n->present_acked = 1; return; }
        if (n->state == NOTE_ENDED) return;
        if (err.code == -32003 && !n->closing) {
            /* presentd's stack is full (other clients' entries count too, which the bridge
             * cannot check): not the notification's fault, so it waits for a place again. */
            log_line("notification %u: presentd's stack is full: it waits for a place", n->id);
            set_state(b, n, NOTE_WAITING);
            b->stack_full = 1;
            return;
        }
        if (err.code == -32006)
            log_line("notification %u: dropped: do not disturb is on and it is of low urgency", n->id);
        else
            log_line("notification %u: presentd refused it: %s%s%s%s", n->id, err.message,
                     err.field[0] ? " (field " : "", err.field, err.field[0] ? ")" : "");
        end(b, n, n->closing ? CLOSED_BY_CALL : CLOSED_UNDEFINED);
        return;
    }
    if (status && err.code != -32001 && n->state != NOTE_ENDED)
        log_line("notification %u: %s refused: %s", n->id, method, err.message);
    /* Replaced while this update was on its way: the latest content now. */
    if (strcmp(method, "update") == 0 && n->dirty && n->state == NOTE_SENT && !n->closing) send_update(b, n);
}

static void on_event(bridge *b, presentd_event *ev) {
    if (strcmp(ev->method, "closing") == 0) {
        json_object *v;
        const char *reason = json_object_object_get_ex(ev->params, "reason", &v) ? json_object_get_string(v) : NULL;
        snprintf(b->closing, sizeof b->closing, "%s", reason && reason[0] ? reason : "closing");
        return;
    }
    if (strcmp(ev->method, "mode") == 0) {
        /* The notifications are on main: its do not disturb is theirs. */
        json_object *v;
        const char *output = presentd_output_of(ev->params);
        if ((!output || strcmp(output, "main") == 0) && b->sig.do_not_disturb &&
            json_object_object_get_ex(ev->params, "doNotDisturb", &v))
            b->sig.do_not_disturb(b->sig.user, v != NULL && !json_object_is_type(v, json_type_null));
        return;
    }
    if (strcmp(ev->method, "lifecycle") == 0) {
        json_object *v;
        const char *event = json_object_object_get_ex(ev->params, "event", &v) ? json_object_get_string(v) : NULL;
        const char *id = json_object_object_get_ex(ev->params, "id", &v) ? json_object_get_string(v) : NULL;
        const char *reason = json_object_object_get_ex(ev->params, "reason", &v) ? json_object_get_string(v) : NULL;
        if (event && strcmp(event, "didDismiss") == 0 && b->stack_full) {
            b->stack_full = 0;  /* an entry left presentd's stack: a place, perhaps */
            promote(b);
        }
        if (!event || (strcmp(event, "willDismiss") != 0 && strcmp(event, "didDismiss") != 0)) return;
        /* Closed as it starts leaving (a queued entry withdrawn has only didDismiss). */
        note *n = find_entry(b, id);
        if (n) end(b, n, close_reason(n, reason));
        return;
    }
    presentd_action_event a;
    if (!presentd_action_of(ev, &a)) return;
    note *n = find_entry(b, a.id);
    if (!n) return;
    for (size_t i = 0; i < n->spec.n_actions; i++) {
        if (strcmp(n->spec.actions[i].id, a.action) != 0) continue;
        if (strcmp(n->spec.actions[i].key, NOTE_REPLY_KEY) == 0 && n->spec.inline_reply) {
            const char *text = presentd_action_field(&a, NOTE_REPLY_FIELD);
            if (b->sig.replied) b->sig.replied(b->sig.user, n->id, text ? text : "");
        } else {
            json_object *v;
            if (json_object_object_get_ex(ev->params, "activationToken", &v) && json_object_is_type(v, json_type_string) &&
                b->sig.activation_token)
                b->sig.activation_token(b->sig.user, n->id, json_object_get_string(v));
            if (b->sig.action_invoked) b->sig.action_invoked(b->sig.user, n->id, n->spec.actions[i].key);
        }
        return;
    }
}

/* The NotificationClosed of one that ended in the Notify that made it. */
static void emit_closed_due(bridge *b, note *n) {
    uint32_t reason = n->closed_due;
    n->closed_due = 0;
    if (b->sig.closed) b->sig.closed(b->sig.user, n->id, reason);
}

void bridge_pump(bridge *b, int replies) {
    /* A reply acts on its own note only: one that ends a note leaves its place to the
     * once-a-frame promotion below, so no note joins the busy list while it is walked. */
    for (size_t i = 0; i < b->n_busy; i++) {
        note *n = b->busy[i];
        if (n->closed_due) emit_closed_due(b, n);
        if (n->present_due) send_present(b, n);
        if (!replies) continue;
        on_reply(b, n, &n->present_rpc, "present");
        on_reply(b, n, &n->update_rpc, "update");
        on_reply(b, n, &n->dismiss_rpc, "dismiss");
    }
    presentd_event ev;
    while (presentd_poll_event(b->pd, &ev)) {
        on_event(b, &ev);
        presentd_event_clear(&ev);
    }
    if (b->promote_at && monotonic_us() >= b->promote_at) {
        b->promote_at = 0;
        promote(b);
    }
    reap(b);
}

int bridge_timeout_ms(const bridge *b) {
    if (!b->promote_at) return -1;
    uint64_t now = monotonic_us();
    return b->promote_at <= now ? 0 : (int)((b->promote_at - now + 999) / 1000);
}

void bridge_reconnected(bridge *b) {
    b->stack_full = 0;  /* a new presentd: its stack is not the old one's */
    json_object *stack = NULL;
    presentd_error err;
    if (presentd_call(b->pd, "stack", NULL, &stack, 10000, &err)) {
        log_line("after presentd came back, stack failed: %s", err.message);
        stack = NULL;
    }
    /* presentd_entries answers how many there are and fills at most max: asked for the
     * count first, so that every entry is looked at however many presentd holds. */
    size_t n_entries = stack ? presentd_entries(stack, NULL, 0) : 0;
    presentd_entry *entries = n_entries ? calloc(n_entries, sizeof *entries) : NULL;
    if (n_entries && !entries) {
        log_line("after presentd came back: out of memory for its %zu entries", n_entries);
        n_entries = 0;
    }
    if (entries) n_entries = presentd_entries(stack, entries, n_entries);
    for (size_t i = 0; i < b->n; i++) {
        note *n = b->notes[i];
        /* Every reply in flight went with the old connection. */
        int lost_update = n->update_rpc != 0 || n->dirty;
        n->present_rpc = n->update_rpc = n->dismiss_rpc = 0;
        n->dirty = 0;
        if (n->state != NOTE_SENT) continue;
        int kept = 0;
        for (size_t j = 0; j < n_entries && !kept; j++) kept = entries[j].id && strcmp(entries[j].id, n->entry) == 0;
        if (kept) {
            if (n->closing) { n->closing = 0; bridge_close(b, n->id); }
            else if (lost_update) send_update(b, n);  /* the latest content: what was lost, or newer */
        } else if (!n->present_acked && !n->closing) {
            send_present(b, n);  /* it never got there; the spec is the latest, no update needed */
        } else {
            /* Ended after the pass: end() promotes a waiting note, which this loop would
             * then take for one presentd lost and present a second time. */
            n->end_reason = n->closing ? CLOSED_BY_CALL : CLOSED_UNDEFINED;
        }
    }
    free(entries);
    json_object_put(stack);
    int ending = b->ending;
    b->ending = 1;  /* no promotion while they end */
    for (size_t i = 0; i < b->n; i++) {
        note *n = b->notes[i];
        if (n->end_reason && n->state == NOTE_SENT) end(b, n, n->end_reason);
        n->end_reason = 0;
    }
    b->ending = ending;
    promote(b);  /* once, into the places they left */
    reap(b);
}

void bridge_end_all(bridge *b) {
    b->ending = 1;
    for (size_t i = 0; i < b->n; i++) {
        if (b->notes[i]->closed_due) emit_closed_due(b, b->notes[i]);
        end(b, b->notes[i], CLOSED_UNDEFINED);
    }
    for (size_t i = 0; i < b->n; i++) b->notes[i]->present_rpc = b->notes[i]->update_rpc = b->notes[i]->dismiss_rpc = 0;
    reap(b);
}
