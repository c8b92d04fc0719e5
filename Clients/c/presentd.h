/*
 * presentd client for C: one connection to the presentation daemon, on json-c.
 * Link with json-c and libm: cc app.c presentd.c $(pkg-config --cflags --libs json-c) -lm
 * (libm for the animations interpolator's exp, sqrt and sincos).
 *
 * Blocking use:
 *
 *     presentd_error err;
 *     presentd_client *c = presentd_connect(NULL, &err);          // default socket path
 *     json_object *result;
 *     if (presentd_call_json(c, "present", "{\"style\":\"alert\"}", &result, 5000, &err) == 0)
 *         json_object_put(result);
 *     presentd_event ev;
 *     while (presentd_next_event(c, &ev, -1, &err) == 0) { ...; presentd_event_clear(&ev); }
 *     presentd_close(c);
 *
 * Non-blocking use (any poll loop): the descriptor from presentd_fd() is always in
 * O_NONBLOCK mode. Put it in your loop with POLLIN, plus POLLOUT while
 * presentd_wants_write() says so; when it is ready call presentd_process(); then take
 * what arrived with presentd_take_reply() and presentd_poll_event(). Requests are sent
 * with presentd_send(), which never waits. The blocking functions are the same
 * primitives with a poll() of their own, so both styles may be mixed.
 *
 * The daemon's shouldDismiss questions are answered as they are read, by the callback
 * set with presentd_set_should_dismiss() (default: allow).
 *
 * What an entry shows (a label, or a dialog: title, message, icon, buttons, fields…) is
 * read with presentd_entries() and presentd_content_of(); frames name only its revision.
 * The answer comes back to the entry's owner as an "action" event (no subscription
 * needed): presentd_next_answer() waits for it, presentd_action_of() reads it. What a
 * renderer or shell sends is presentd_activate() and presentd_key().
 *
 * Levels and contexts: layers and entries name their level ("normal", "overlay",
 * "alert"); a layer in a presentation context carries its clip. A shell names contexts
 * with presentd_define_context() and takes them away with presentd_remove_context();
 * presentd_tap() says who took a tap, or that it was forwarded to the app underneath.
 *
 * Several screens ("outputs"): every daemon has "main"; a shell adds more (a cluster beside
 * a head unit) with presentd_add_output(), lists them with presentd_outputs() and takes one
 * away with presentd_remove_output(). Notifications and entries name their screen
 * (presentd_output_of(), presentd_entry.output); the functions that concern one screen
 * have an _on variant that names it (presentd_tap_on(), presentd_key_on()), the plain ones
 * keep meaning "main", so code written for one screen is unchanged.
 *
 * Drawing without frames: a renderer subscribed to "animations" gets the motion in force as
 * analytic segments, reads it with presentd_animations_parse() and computes the layers itself
 * at any time, at its own rate, with presentd_animations_layers_at() — the daemon's own
 * arithmetic, so the layers equal the frames the daemon would send (see "Animations" below;
 * examples/renderer.c --interpolate).
 *
 * Ownership follows json-c: params passed in are consumed (json_object_put), results
 * and event params handed out belong to the caller. Not thread-safe: one thread per
 * client. Protocol: docs/PROTOCOL.md.
 */
#ifndef PRESENTD_H
#define PRESENTD_H

#include <stddef.h>
#include <stdint.h>
#include <json-c/json.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Return values: 0 on success, else one of these. */
enum presentd_status {
    PRESENTD_OK = 0,
    PRESENTD_ERR_RPC = 1,      /* the daemon answered with a JSON-RPC error: see err->code, err->field */
    PRESENTD_ERR_IO = 2,       /* connect/read/write failed: err->message says why (errno in err->sys_errno) */
    PRESENTD_ERR_CLOSED = 3,   /* the connection is over (err->message holds the daemon's reason, if it gave one) */
    PRESENTD_ERR_TIMEOUT = 4,  /* nothing within the timeout */
    PRESENTD_ERR_PROTOCOL = 5, /* the daemon sent something that is not JSON-RPC 2.0, or could not read a request */
    PRESENTD_ERR_AGAIN = 6,    /* non-blocking: not there yet */
    PRESENTD_ERR_USAGE = 7,    /* a bad argument (NULL client, params not an object…) */
};

/* JSON-RPC error codes presentd uses. */
#define PRESENTD_PARSE_ERROR      (-32700)
#define PRESENTD_INVALID_REQUEST  (-32600)
#define PRESENTD_METHOD_NOT_FOUND (-32601)
#define PRESENTD_INVALID_PARAMS   (-32602)
#define PRESENTD_INTERNAL_ERROR   (-32603)
#define PRESENTD_NOT_FOUND        (-32001)
#define PRESENTD_NOT_OWNER        (-32002)
#define PRESENTD_LIMIT_EXCEEDED   (-32003)
#define PRESENTD_WRONG_CLOCK_MODE (-32004)

/* What went wrong. Any function taking one may be given NULL. */
typedef struct presentd_error {
    int status;          /* enum presentd_status */
    int code;            /* PRESENTD_ERR_RPC: the JSON-RPC code */
    int sys_errno;       /* PRESENTD_ERR_IO: errno */
    char message[256];   /* for people */
    char field[256];     /* PRESENTD_ERR_RPC: data.field (e.g. "transition.timing.bezier[1]"), else "" */
} presentd_error;

/* One connection to the daemon (opaque: presentd_connect, presentd_close). */
typedef struct presentd_client presentd_client;

/* A notification from the daemon: method is "frame", "lifecycle", "stack",
 * "statusBar", "outputs" (on the stack topic: the screens changed), "action" (to an
 * entry's owner), "shutdown", "closing" (or a newer daemon's). frame, lifecycle, stack
 * and statusBar are about one screen: presentd_output_of(params) names it. */
typedef struct presentd_event {
    char method[32];
    json_object *params; /* owned: release with presentd_event_clear() */
} presentd_event;

/* A rectangle in the container's points: origin top-left, y downwards. */
typedef struct presentd_rect {
    double x, y, width, height;
} presentd_rect;

/* One layer of a frame (strings point into the event's params: valid until it is cleared).
 * Frames list them bottom to top: the normal level's, then the overlays', then the alert level's. */
typedef struct presentd_layer {
    const char *id;
    int dimming;                  /* 1: the dimming layer, 0: content or a grabber (see role) */
    double x, y, width, height;   /* before scale (about the centre) and rotation (vertical axis) */
    double alpha, scale, rotation, corner_radius;
    const char *color;            /* dimming, grabber: "#rrggbb[aa]"; content: NULL */
    int64_t content_revision;     /* content: the revision of the entry's content to draw (what
                                     presentd_entry.content_revision and lifecycle events name); 0 for dimming.
                                     Frames never carry the content itself. */
    const char *level;            /* "normal", "overlay" or "alert": the entry's band */
    int has_clip;                 /* 1: the entry is in a presentation context; draw it only inside clip */
    presentd_rect clip;           /* the context's rectangle (zero when has_clip is 0) */
    const char *role;             /* "dimming", "content" or "grabber" as the daemon wrote it (NULL if it did
                                     not): a renderer draws a role it does not know as nothing */
    int grabber;                  /* 1: a sheet's grabber, a bar to fill with color over its content's top
                                     (docs/PROTOCOL.md, "Layer"); no content of its own, content_revision 0 */
} presentd_layer;

/* -- What an entry shows ----------------------------------------------------------------
 * A label, or a dialog's parts (docs/PROTOCOL.md, "Content object"). Strings point into
 * the JSON they were read from: valid while it lives. */

#define PRESENTD_MAX_ACTIONS 8
#define PRESENTD_MAX_FIELDS  4

typedef struct presentd_content_action {
    const char *id;
    const char *title;
    const char *role;             /* "default" (Enter), "cancel" (Escape, back), "destructive", or NULL */
    int dismisses;                /* activating it dismisses the entry */
} presentd_content_action;

typedef struct presentd_content_field {
    const char *id;
    const char *kind;             /* "text", "secure" or "number" */
    const char *placeholder;      /* or NULL */
    const char *value;            /* the initial value, or NULL */
} presentd_content_field;

enum presentd_progress {
    PRESENTD_PROGRESS_NONE = 0,   /* no bar */
    PRESENTD_PROGRESS_FRACTION,   /* progress is 0…1 */
    PRESENTD_PROGRESS_INDETERMINATE,
};

typedef struct presentd_content {
    const char *label;            /* content given as a string label; NULL for a dialog */
    const char *title, *message;  /* or NULL */
    const char *message_markup;  /* pango markup (b, i, u, a) of message, or NULL */
    const char *app_name;         /* the app it comes from, or NULL */
    const char *icon_name;        /* a freedesktop icon-theme name, or NULL */
    const char *icon_path;        /* an absolute PNG or SVG path, or NULL */
    int progress_kind;            /* enum presentd_progress */
    double progress;
    const char *surface_app_id, *surface_handle;  /* the app's own window, for a renderer that embeds it */
    const char *accessibility_label, *accessibility_hint;
    const char *accessibility_announce;           /* "polite", "assertive" or NULL */
    size_t n_actions;
    presentd_content_action actions[PRESENTD_MAX_ACTIONS];
    size_t n_fields;
    presentd_content_field fields[PRESENTD_MAX_FIELDS];
} presentd_content;

/* The "content" member of obj — an entry, or the params of a willPresent, updated or
 * adapted lifecycle event: returns 1 and fills out when obj has one, 0 (out blank) when
 * the entry shows nothing. */
int presentd_content_of(json_object *obj, presentd_content *out);

/* The action with this id, or NULL. */
const presentd_content_action *presentd_content_action_named(const presentd_content *content, const char *id);

/* One entry of the stack (strings point into the JSON it was read from). */
typedef struct presentd_entry {
    const char *id;
    int64_t owner;                /* the owning connection's number */
    const char *state;            /* "queued", "presenting", "presented", "dismissing" */
    const char *style;            /* a style name; NULL for a slideIn or custom style object */
    double x, y, width, height;   /* where it rests */
    int priority;
    int adapted;                  /* its compact-height policy is in force */
    const char *kind;             /* or NULL */
    int has_content;              /* 0: it shows nothing */
    presentd_content content;     /* what it shows now (a replacement's while adapted) */
    int64_t content_revision;     /* the revision its content layer names in frames */
    const char *level;            /* "normal", "overlay" or "alert" */
    const char *position;         /* an overlay's: "top", "bottom" or "center"; else NULL */
    const char *context;          /* the presentation context it is in, or NULL */
    const char *output;           /* the screen it is on ("main", or a name given to presentd_add_output);
                                     NULL only from a daemon older than several screens */
    const char *detent;           /* a sheet's: the detent it rests at ("medium", "large" or its own id);
                                     else NULL */
} presentd_entry;

/* The entries of obj: a "stack" result or event's params, or a subscribe result's
 * "snapshot", bottom to top: fills at most max, returns how many there are. */
size_t presentd_entries(json_object *obj, presentd_entry *out, size_t max);

/* -- Presentation contexts ---------------------------------------------------------------
 * A named rectangle of the screen (one app's window area, say) in which entries can be
 * presented: "context": NAME on present. A shell defines and removes them. */

typedef struct presentd_context {
    const char *name;             /* points into the JSON it was read from */
    presentd_rect frame;
} presentd_context;

/* The contexts of obj: a "stack" or defineContext result, or a subscribe result's
 * "snapshot" (in the daemon's order): fills at most max, returns how many there are. */
size_t presentd_contexts(json_object *obj, presentd_context *out, size_t max);

/* -- Several screens ----------------------------------------------------------------------
 * An output is a screen of its own: its container, keyboard, status bar, frame rate and
 * modal stack. "main" is there from the start and cannot be removed; a shell adds the others.
 * Entry ids and context names are unique across screens, so the functions that name an
 * entry or a context (presentd_activate, presentd_focus, presentd_remove_context) need no
 * output. docs/PROTOCOL.md, "Several screens". */

/* The screen every daemon has, which the functions without an output argument mean. */
#define PRESENTD_MAIN_OUTPUT "main"

/* Insets of a container clear of notches and bars, in points. */
typedef struct presentd_safe_area {
    double top, left, bottom, right;
} presentd_safe_area;

/* A screen's container (docs/PROTOCOL.md, "Container"); strings point into the JSON it
 * was read from. */
typedef struct presentd_container {
    double width, height;         /* points */
    presentd_safe_area safe_area;
    double scale;                 /* pixels per point */
    const char *horizontal_size_class, *vertical_size_class;  /* "compact" or "regular" */
    double keyboard_height;       /* 0 when the keyboard is hidden */
} presentd_container;

/* The container member of obj ("container": a hello or setContainer result, a subscribe
 * snapshot, an element of "outputs"): returns 1 and fills out when obj has one, else 0. */
int presentd_container_of(json_object *obj, presentd_container *out);

/* One screen, as the outputs method, addOutput's result and the "outputs" notification
 * list them (and a subscribe snapshot's "outputs", whose elements carry more). */
typedef struct presentd_output {
    const char *name;             /* points into the JSON it was read from */
    presentd_container container;
    int fps;                      /* the frame rate in force: its frames' times are multiples of 1/fps */
    json_object *object;          /* the element itself, borrowed: in a subscribe snapshot, read the
                                     screen's entries, layers and contexts from it with
                                     presentd_entries(), presentd_frame_layers(), presentd_contexts() */
} presentd_output;

/* The screens of obj's "outputs" (an outputs or addOutput result, an "outputs"
 * notification's params, a subscribe result's "snapshot"), main first: fills at most
 * max, returns how many there are. */
size_t presentd_outputs_of(json_object *obj, presentd_output *out, size_t max);

/* Every screen, as a list of its own: what presentd_outputs and presentd_add_output hand
 * out, so that the caller need not guess how many there are. */
typedef struct presentd_output_list {
    size_t n;
    presentd_output *outputs;     /* n of them, main first (malloc'd) */
    json_object *result;          /* owned, the strings point into it */
} presentd_output_list;

/* Frees what the list holds and blanks it (a blank list may be cleared again). */
void presentd_output_list_clear(presentd_output_list *list);

/* The screen with this name in the list, or NULL. */
const presentd_output *presentd_output_named(const presentd_output_list *list, const char *name);

/* The screen a notification's params are about ("output" of a frame, lifecycle, stack or
 * statusBar event; also of a stack result or an entry's JSON): which screen to draw a
 * frame on. "main" when it names none: a daemon older than several screens has only that
 * one. NULL only when params is NULL. Points into params. */
const char *presentd_output_of(json_object *params);

/* What presentd_add_output sends. Zero members take the daemon's defaults, so a
 * designated initializer names only what it means:
 *     (presentd_output_spec){ .name = "cluster", .width = 1280, .height = 480, .fps = 30 } */
typedef struct presentd_output_spec {
    const char *name;             /* 1…256 characters */
    double width, height;         /* 1…100000 points */
    const presentd_safe_area *safe_area;                      /* NULL: all 0 */
    double scale;                                             /* 0: 1 */
    const char *horizontal_size_class, *vertical_size_class;  /* NULL: derived from the size */
    int fps;                                                  /* 0: the daemon's own */
} presentd_output_spec;

/* Adds screen spec->name, or changes its container and frame rate when it exists (a shell
 * that restarts says again what its screens are). outputs may be NULL; else it is every
 * screen after the change, to clear with presentd_output_list_clear. Errors: RPC −32602
 * naming the field, −32003 when the daemon has maxOutputs screens already. Subscribers of
 * "stack" hear an "outputs" event. */
int presentd_add_output(presentd_client *c, const presentd_output_spec *spec, presentd_output_list *outputs,
                        int timeout_ms, presentd_error *err);

/* Takes screen `name` away: its entries leave at once with reason "outputGone" (their
 * willDismiss and didDismiss come before the reply) and its contexts go with it. dismissed
 * may be NULL; else *dismissed is the JSON array of the ids that left, owned by the caller.
 * "main" cannot be removed (RPC −32602, field "name"), nor a screen that is not there. */
int presentd_remove_output(presentd_client *c, const char *name, json_object **dismissed, int timeout_ms,
                           presentd_error *err);

/* Every screen, main first, then in the order they were added. On 0, *outputs is to be
 * cleared with presentd_output_list_clear. */
int presentd_outputs(presentd_client *c, presentd_output_list *outputs, int timeout_ms, presentd_error *err);

/* -- Answers ------------------------------------------------------------------------------ */

/* A field's value, as sent with activate/key and received in an action event. */
typedef struct presentd_field_value {
    const char *id;
    const char *value;
} presentd_field_value;

/* An "action" event, to the entry's owner alone: action `action` of entry `id` was
 * activated (presentd_activate, or a key). fields: every field of the entry with the
 * value sent, else its own value, else "". Strings point into the event's params. */
typedef struct presentd_action_event {
    int64_t seq;
    const char *id;
    const char *action;
    size_t n_fields;
    presentd_field_value fields[PRESENTD_MAX_FIELDS];
} presentd_action_event;

/* Returns 1 and fills out when ev is an "action" event, else 0. */
int presentd_action_of(const presentd_event *ev, presentd_action_event *out);

/* The value of field `field` in an action event, or NULL. */
const char *presentd_action_field(const presentd_action_event *action, const char *field);

/* What presentd_activate and presentd_key did. */
typedef struct presentd_answer {
    int handled;                  /* key: something answered to it (activate: always 1) */
    int dismissed;                /* the entry is leaving because of it */
    const char *id;               /* the entry (key: NULL when there was none) */
    const char *action;           /* the action activated; NULL when a key dismissed without one */
    const char *confirmation;     /* when the owner was asked (confirmDismiss): "allowed", "vetoed", "timeout"… */
    json_object *result;          /* owned, the strings point into it: release with presentd_answer_clear() */
} presentd_answer;

void presentd_answer_clear(presentd_answer *answer);

/* Answers shouldDismiss: return nonzero to allow the dismissal. reason: "tap", "swipe",
 * "action" (presentd_asking_action() names it) or "key". */
typedef int (*presentd_should_dismiss_fn)(void *user, const char *id, const char *reason, int keyboard_visible);

/* The socket path in the daemon's order: $PRESENTD_SOCKET, $XDG_RUNTIME_DIR/presentd/presentd.sock,
 * /run/presentd/presentd.sock. Writes at most size bytes (NUL included); returns buf. */
char *presentd_default_socket(char *buf, size_t size);

/* Connects (path NULL: the default). NULL on failure, with err filled. */
presentd_client *presentd_connect(const char *path, presentd_error *err);
void presentd_close(presentd_client *c);

/* Coming back after the daemon restarts (a crash, kill -9, an upgrade). By default the
 * blocking functions reconnect on their own when the connection ends: with backoff (at
 * once, then 50 ms doubling to 1 s) for up to PRESENTD_RECONNECT_MS, then hello {resume}
 * with the token the first hello got (presentd_call says hello by itself before the first
 * present) and the topics subscribed to again (with the last subscribe's "outputs", so that
 * a renderer of one screen keeps hearing only that one; the daemon keeps the screens
 * themselves across a restart). The call whose reply was lost is sent again (give present
 * an id, so that a repeat is recognised); presentd_next_answer keeps waiting if the entry
 * came back (else PRESENTD_ERR_CLOSED, "restarted without ID"); a shutdown event is
 * delivered only when it gives up. A poll loop calls presentd_reconnect() itself
 * when presentd_process() returns PRESENTD_ERR_CLOSED (it blocks while it tries). */
#define PRESENTD_RECONNECT_MS 30000
#define PRESENTD_RECONNECT_CALL_MS 10000   /* for each hello and subscribe on the way */

/* How long to try, ms (0: never reconnect). */
void presentd_set_reconnect(presentd_client *c, int ms);

/* Connects again now (as above); 0, or PRESENTD_ERR_CLOSED when the daemon did not come back. */
int presentd_reconnect(presentd_client *c, presentd_error *err);

/* How many times the client came back after the daemon went away. */
int presentd_reconnects(const presentd_client *c);

/* The connection's descriptor (O_NONBLOCK), for poll loops. */
int presentd_fd(const presentd_client *c);

void presentd_set_should_dismiss(presentd_client *c, presentd_should_dismiss_fn fn, void *user);

/* Inside the should_dismiss callback, for reason "action": the action; else NULL. */
const char *presentd_asking_action(const presentd_client *c);

/* -- Blocking -------------------------------------------------------------------------
 * timeout_ms < 0 waits for ever. */

/* Sends a request and waits for its reply. On 0, *result (if result is not NULL) is the
 * result object, owned by the caller. params is consumed; NULL sends none. */
int presentd_call(presentd_client *c, const char *method, json_object *params, json_object **result,
                  int timeout_ms, presentd_error *err);

/* The same, with params as JSON text (NULL for none). */
int presentd_call_json(presentd_client *c, const char *method, const char *params_json, json_object **result,
                       int timeout_ms, presentd_error *err);

/* The next event: kept ones first, else waits for one. */
int presentd_next_event(presentd_client *c, presentd_event *ev, int timeout_ms, presentd_error *err);

void presentd_event_clear(presentd_event *ev);

/* The answer to entry id, for its owner: the next "action" event about it or, on a
 * connection subscribed to "lifecycle", its willDismiss/didDismiss (it left without
 * one). Other events stay kept, in order, for presentd_next_event. */
int presentd_next_answer(presentd_client *c, const char *id, presentd_event *ev, int timeout_ms, presentd_error *err);

/* A button of entry id was pressed, with the renderer's field values (n_fields may be 0).
 * The owner gets an "action" event before this returns. answer may be NULL. */
int presentd_activate(presentd_client *c, const char *id, const char *action,
                      const presentd_field_value *fields, size_t n_fields,
                      presentd_answer *answer, int timeout_ms, presentd_error *err);

/* "escape", "enter" or "back", for the topmost entry that is not leaving: Escape and
 * back activate its cancel action (or dismiss it), Enter its default one. id: the entry
 * the sender believes has the key (the one whose fields it sends), or NULL; when another
 * entry has it, nothing happens (answer->handled 0). */
int presentd_key(presentd_client *c, const char *key, const char *id, const presentd_field_value *fields,
                 size_t n_fields, presentd_answer *answer, int timeout_ms, presentd_error *err);

/* presentd_key for the topmost entry of screen `output` (NULL: the screen holding id, else
 * "main", as presentd_key does). A separate function so that presentd_key's callers stay as
 * they are. */
int presentd_key_on(presentd_client *c, const char *output, const char *key, const char *id,
                    const presentd_field_value *fields, size_t n_fields, presentd_answer *answer, int timeout_ms,
                    presentd_error *err);

/* What a tap hit. part: "content", "dimming" or "none"; id, role ("content" or "dimming")
 * and level name the entry that took it, or forwarded is 1 when none did and it falls
 * through to the app underneath. */
typedef struct presentd_tap_result {
    const char *part;
    int dismissed;                /* the tap dismissed the entry */
    const char *id, *role, *level;  /* NULL when forwarded */
    int forwarded;
    const char *confirmation;     /* when the owner was asked (confirmDismiss), else NULL */
    json_object *result;          /* owned, the strings point into it: release with presentd_tap_result_clear() */
} presentd_tap_result;

/* A tap at (x, y) of the main screen. out may be NULL. */
int presentd_tap(presentd_client *c, double x, double y, presentd_tap_result *out, int timeout_ms,
                 presentd_error *err);

/* A tap at (x, y) of screen `output` (NULL: "main"), in that screen's points. A separate
 * function so that presentd_tap's callers stay as they are. RPC −32602 field "output" when
 * there is no such screen. */
int presentd_tap_on(presentd_client *c, const char *output, double x, double y, presentd_tap_result *out,
                    int timeout_ms, presentd_error *err);

void presentd_tap_result_clear(presentd_tap_result *out);

/* Names (or moves, or resizes) context `name`; its entries follow over duration seconds
 * (< 0: the daemon's default). output: the screen, or NULL for "main" (context names are
 * unique across screens: RPC −32602 field "name" when another screen has it). contexts
 * may be NULL; else *contexts is the result, every context by name (read it with
 * presentd_contexts), owned by the caller. */
int presentd_define_context(presentd_client *c, const char *name, presentd_rect frame, double duration,
                            const char *output, json_object **contexts, int timeout_ms, presentd_error *err);

/* Takes context `name` away: its entries leave with reason "contextGone". dismissed may
 * be NULL; else *dismissed is the JSON array of the ids that leave, owned by the caller. */
int presentd_remove_context(presentd_client *c, const char *name, json_object **dismissed, int timeout_ms,
                            presentd_error *err);

/* Field `field` of entry id has focus (NULL: none has): an autoDismiss countdown holds. */
int presentd_focus(presentd_client *c, const char *id, const char *field, int timeout_ms, presentd_error *err);

/* -- Non-blocking ---------------------------------------------------------------------- */

/* Queues a request and writes what the socket takes now; *id is its id, for
 * presentd_take_reply. params is consumed. Never waits. */
int presentd_send(presentd_client *c, const char *method, json_object *params, int64_t *id, presentd_error *err);

/* Sends a notification (a request without id: the daemon runs it and does not answer). */
int presentd_notify(presentd_client *c, const char *method, json_object *params, presentd_error *err);

/* Nonzero while queued bytes wait for the socket (poll for POLLOUT too). */
int presentd_wants_write(const presentd_client *c);

/* Reads and writes what the socket allows without waiting, then sorts what arrived:
 * replies are kept for presentd_take_reply, events for presentd_poll_event, questions
 * are answered. Call it when poll() reports the descriptor (any revents).
 * Returns 0, or PRESENTD_ERR_CLOSED once the daemon hung up (kept events and replies
 * can still be taken), or an error: PRESENTD_ERR_PROTOCOL, err->code -32700 or -32600,
 * when the daemon answered a line it could not read with an error of null id (the
 * request it was cannot be known, so its reply never comes: a bug of the sender's). */
int presentd_process(presentd_client *c, presentd_error *err);

/* The reply to request id: 0 with *result (owned, may be NULL to discard it),
 * PRESENTD_ERR_RPC with err filled, or PRESENTD_ERR_AGAIN when it has not arrived. */
int presentd_take_reply(presentd_client *c, int64_t id, json_object **result, presentd_error *err);

/* A kept event: returns 1 and fills ev, or 0 when there is none. */
int presentd_poll_event(presentd_client *c, presentd_event *ev);

/* -- Frames ---------------------------------------------------------------------------- */

/* The layers of a "frame" event's params (or of a subscribe result's "snapshot"),
 * bottom to top: fills at most max, returns how many there are. A frame is of one screen:
 * presentd_output_of(params) names it, and its "time" is a multiple of that screen's 1/fps. */
size_t presentd_frame_layers(json_object *params, presentd_layer *out, size_t max);

/* A number member of obj (0 when absent or not a number). */
double presentd_number(json_object *obj, const char *key);

/* -- Animations: drawing every frame yourself ------------------------------------------
 * Subscribed to "animations" (docs/PROTOCOL.md, "animations topic"), a renderer needs no
 * frames: each "animations" event (and the "animations" member of a subscribe snapshot, or of
 * each element of its "outputs"; and a "retargeted" lifecycle event, for one entry) gives the
 * motion in force on one screen, from its time until the next one, as each layer's base
 * values plus segments of analytic motion. At time t every animated property is
 *
 *     base + Σ over the layer's segments, in order, of (from + p·(to − from)),
 *     p = the progress of the segment's timing curve at t − start
 *
 * (0 before start, 1 from start + duration on). Read the payload with
 * presentd_animations_parse(), then ask presentd_animations_layers_at() for the layers at
 * any t: the same layers, to the last bit where the libm is the same, as the frame the daemon
 * draws at t — the arithmetic is the core's (Sources/PresentCore/Motion), in the same order of
 * operations. Times are the daemon's clock: CLOCK_MONOTONIC seconds on the real clock (the
 * same clock a client on the same machine reads), the time `advance` and hello report on the
 * manual clock. */

/* The animated properties of a layer, as offsets are indexed in presentd_segment. */
enum presentd_property {
    PRESENTD_PROPERTY_X = 0,      /* frame.x */
    PRESENTD_PROPERTY_Y,          /* frame.y */
    PRESENTD_PROPERTY_WIDTH,      /* frame.width */
    PRESENTD_PROPERTY_HEIGHT,     /* frame.height */
    PRESENTD_PROPERTY_ALPHA,      /* alpha (a dimming layer's: the entry's dimming) */
    PRESENTD_PROPERTY_SCALE,      /* scale */
    PRESENTD_PROPERTY_ROTATION,   /* rotation */
    PRESENTD_PROPERTY_COUNT       /* how many (7) */
};

/* The kinds of timing curve (docs/PROTOCOL.md, "Timing curves"). */
enum presentd_timing_kind {
    PRESENTD_TIMING_LINEAR = 0,   /* "linear": progress = elapsed / duration, exactly */
    PRESENTD_TIMING_BEZIER,       /* a cubic Bézier: the named curves (easeIn, easeOut, easeInEaseOut,
                                     default) as their control points, and {"bezier":[x1,y1,x2,y2]} */
    PRESENTD_TIMING_SPRING,       /* a damped spring, {"spring":{…}} or "system" (mass 3, stiffness
                                     1000, damping 500, 0.5 s) */
};

/* A timing curve, as presentd_timing_parse() reads the protocol's encoding. */
typedef struct presentd_timing {
    int kind;                     /* enum presentd_timing_kind */
    double x1, y1, x2, y2;        /* BEZIER: the control points (LINEAR: 0, 0, 1, 1) */
    double mass, stiffness, damping, initial_velocity;  /* SPRING: m·x″ + c·x′ + k·(x − 1) = 0, x′(0) = v */
    double duration;              /* SPRING: its own duration, seconds (progress is exactly 1 from then on) */
} presentd_timing;

/* Reads a timing curve as the daemon writes it: a name, {"bezier":[…]}, or {"spring":{mass,
 * stiffness, damping, initialVelocity, duration}} (the form every spring is written back in).
 * Returns 0, or -1 (out zeroed) for anything else. */
int presentd_timing_parse(json_object *timing, presentd_timing *out);

/* The progress of a timing curve `elapsed` seconds into an animation of `duration` seconds
 * (TimingCurve.progress): 0 up to 0, 1 from the end on (a spring's own duration, whatever
 * `duration` says); a Bézier curve is stretched over `duration`. */
double presentd_timing_progress(const presentd_timing *timing, double elapsed, double duration);

/* A cubic Bézier timing function's progress y at time fraction x (clamped to [0, 1]), its
 * parameter solved as the daemon does (11-point bracket, up to 8 Newton steps, then
 * bisection, to 1e-14 in the parameter). */
double presentd_bezier_value(double x1, double y1, double x2, double y2, double x);

/* A spring's progress at t seconds: 0 up to 0, exactly 1 from duration on, else the closed
 * form (an overdamped spring moves as a critically damped one, as Core Animation does). */
double presentd_spring_position(double mass, double stiffness, double damping, double initial_velocity,
                                double duration, double t);

/* One segment of a layer's motion: offsets from the layer's base, by enum presentd_property
 * (absent ones are 0; `to` is all 0 in every segment presentd makes). */
typedef struct presentd_segment {
    double start;                 /* a time of the daemon's clock */
    double duration;              /* seconds: a spring's own duration, never < 0 */
    presentd_timing timing;
    double from[PRESENTD_PROPERTY_COUNT];
    double to[PRESENTD_PROPERTY_COUNT];
} presentd_segment;

/* The progress of segment s at time t: 0 before its start, exactly 1 from start + duration on. */
double presentd_segment_progress(const presentd_segment *s, double t);

/* One layer of an animations payload: as presentd_frame_layers() reads a frame's layer, its
 * animated properties at their base value, and its segments, in order. */
typedef struct presentd_animated_layer {
    presentd_layer layer;         /* strings point into the payload (presentd_animations.params) */
    size_t n_segments;
    presentd_segment *segments;   /* n_segments of them, inside the presentd_animations' storage */
} presentd_animated_layer;

/* A parsed "animations" payload (presentd_animations_parse; presentd_animations_clear). */
typedef struct presentd_animations {
    int64_t seq;                  /* its sequence number (0 in a snapshot, which has none) */
    const char *output;           /* the screen it is about ("main" when it names none) */
    double time;                  /* when this motion took force */
    int has_until;                /* 1: it expires at `until` by itself, and the next payload comes then */
    double until;
    double end;                   /* frames computed from it are animating while t < end */
    size_t n_layers;
    presentd_animated_layer *layers;  /* bottom to top, exactly the layers a frame would carry (malloc'd) */
    presentd_segment *segments;   /* every layer's segments (malloc'd; the layers point into it) */
    json_object *params;          /* a reference of its own to the payload (the strings point into it) */
} presentd_animations;

/* Reads the params of an "animations" event, a snapshot's "animations" member or a
 * "retargeted" lifecycle event's params into out (which then holds a reference to params:
 * the caller keeps its own, and may clear the event). On 0, release with
 * presentd_animations_clear(); else PRESENTD_ERR_PROTOCOL (out blank) naming what is wrong. */
int presentd_animations_parse(json_object *params, presentd_animations *out, presentd_error *err);

/* Frees what out holds and blanks it (a blank one may be cleared again). */
void presentd_animations_clear(presentd_animations *a);

/* The layers at time t — base + Σ segments, in order — as a frame at t would carry them:
 * fills at most max, returns how many there are (a->n_layers). The strings point into the
 * payload: valid until a is cleared. Meant for t from a->time until the next payload. */
size_t presentd_animations_layers_at(const presentd_animations *a, double t, presentd_layer *out, size_t max);

/* One layer of them at time t (into out). */
void presentd_animated_layer_at(const presentd_animated_layer *l, double t, presentd_layer *out);

/* 1 while t < a->end: a frame at t would say "animating": true. */
int presentd_animations_animating(const presentd_animations *a, double t);

/* 1 while some segment still runs at t (t < start + duration): after that, every layer
 * is at its base and drawing again changes nothing. */
int presentd_animations_moving(const presentd_animations *a, double t);

#ifdef __cplusplus
}
#endif

#endif /* PRESENTD_H */
