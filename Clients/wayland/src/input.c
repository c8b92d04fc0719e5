/* Input. What reaches the renderer at all is decided by each overlay surface's input region,
 * which follows the picture: every entry's card, and the dimming of a modal entry unless its
 * interaction is "forward" — a click there, or beside an overlay, reaches the window below.
 * What does reach it becomes presentd's requests, sent as notifications (the daemon decides,
 * as for any shell: a tap on a dimming that dismisses, a swipe that springs back):
 *   - a press and release that stays within DRAG_SLOP: a button's `activate` (with the fields'
 *     values), a field's focus, else `tap` at the point, in the screen's coordinates;
 *   - a drag: `swipe` began, changed…, ended with the release velocity;
 *   - keys, while the top entry has actions or fields (the surface then asks for exclusive
 *     keyboard interactivity): Escape, Back, Enter as `key`; Tab and Shift-Tab move the focus
 *     through the fields and buttons; text typed into the focused field, by xkbcommon's
 *     reading of the compositor's keymap, replacing its text while that is selected; `focus`
 *     when the person moves it to or from a field, or edits the one it was given. */
#include "input.h"

#include <linux/input-event-codes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <xkbcommon/xkbcommon.h>

#include "activation.h"
#include "content.h"
#include "link.h"
#include "wlr-layer-shell-unstable-v1-client-protocol.h"

#define DRAG_SLOP 8.0           /* points a press may wander and still be a tap or a click */
#define VELOCITY_WINDOW 0.1     /* seconds: motion older than this at release throws nothing */
#define SAMPLES 32

typedef struct { double t, x, y; } sample;

/* The pointer's left button, or a finger: one gesture code for both, from press to release. */
typedef struct gesture {
    pw_screen *on;              /* the screen whose surface it is on, NULL: none of ours */
    double x, y;                /* in points of `on` (its screen's coordinates) */
    int down;                   /* the button is held, the finger touches */
    double down_x, down_y;
    char down_id[257];          /* the entry whose card was pressed, "" : none */
    int down_field;             /* the field pressed, −1: none */
    int swiping;
    uint32_t serial;            /* its last button or touch-down event's, for an activation token */
    sample samples[SAMPLES];
    int n_samples;
} gesture;

struct pw_input {
    struct wl_pointer *pointer;
    struct wl_keyboard *keyboard;
    struct wl_touch *touch;
    struct xkb_context *xkb;
    struct xkb_keymap *keymap;
    struct xkb_state *state;
    pw_screen *keys_on;
    gesture mouse;
    gesture finger;             /* the first finger down; the others are not followed (no pinch) */
    int32_t finger_id;          /* its wl_touch id, while finger.down */
    /* Key repeat, as the compositor asks (wl_keyboard.repeat_info): a key held in a field types
     * or erases again after `delay`, then `rate` times a second. */
    int32_t repeat_rate, repeat_delay;   /* per second (0: no repeat), milliseconds */
    uint32_t repeat_key;                 /* the evdev code held, while repeating */
    int repeating;
    double repeat_at;                    /* when it types again (pw_now) */
};

/* -- Sending --------------------------------------------------------------------------------- */

/* Every field's value as activate and key take them: a number field's as a number (left out
 * while empty, so the field's own value stands), the others as strings. */
static json_object *fields_of(const pw_record *r) {
    json_object *o = json_object_new_object();
    for (int i = 0; i < r->n_fields; i++) {
        if (strcmp(r->field_kind[i], "number") == 0) {
            char *end;
            double d = strtod(r->value[i], &end);
            if (!r->value[i][0]) continue;
            json_object_object_add(o, r->field_id[i], *end ? json_object_new_string(r->value[i]) : json_object_new_double(d));
        } else {
            json_object_object_add(o, r->field_id[i], json_object_new_string(r->value[i]));
        }
    }
    return o;
}

void pw_input_activate(pw_app *app, pw_record *r, int action, uint32_t serial, struct wl_surface *surface) {
    presentd_content c;
    if (pw_content_read(r->content, &c) && action >= 0 && (size_t)action < c.n_actions) {
        json_object *p = json_object_new_object();
        json_object_object_add(p, "id", json_object_new_string(r->id));
        json_object_object_add(p, "action", json_object_new_string(c.actions[action].id));
        json_object_object_add(p, "fields", fields_of(r));
        pw_activation_send(app, p, serial, surface);
    }
}

static void send_focus(pw_app *app, pw_record *r, int field) {
    json_object *p = json_object_new_object();
    json_object_object_add(p, "id", json_object_new_string(r->id));
    json_object_object_add(p, "field", field >= 0 ? json_object_new_string(r->field_id[field]) : NULL);
    pw_activation_notify(app, "focus", p);
}

static void changed(pw_app *app, pw_record *r) {
    r->input_revision++;
    pw_screen *s;
    wl_list_for_each(s, &app->screens, link) s->dirty = 1;
}

/* The daemon hears which field has focus once the person works with it: a click or Tab that
 * moves the focus, or an edit. The first field's focus as the entry appears is given, not taken,
 * and is not said, so that an autoDismiss countdown that pauses while interacting runs on until
 * someone does. */
static void tell_focus(pw_app *app, pw_record *r) {
    int field = r->focus >= 0 && r->focus < r->n_fields ? r->focus : -1;
    if (field == r->told) return;
    r->told = field;
    send_focus(app, r, field);
}

/* Focus moves to `to` (Tab order; −1: nothing), as the person moved it: a field reached from
 * the keyboard has its text selected, one clicked does not (GTK's rule). */
static void move_focus(pw_app *app, pw_record *r, int to, int select) {
    int selected = select && to >= 0 && to < r->n_fields;
    int moved = r->focus != to || r->selected != selected;
    r->focus = to;
    r->selected = selected;
    tell_focus(app, r);
    if (moved) changed(app, r);
}

/* -- Where a point falls ----------------------------------------------------------------------- */

static pw_screen *screen_of(pw_app *app, struct wl_surface *surface) {
    pw_screen *s;
    wl_list_for_each(s, &app->screens, link)
        if (s->surface && s->surface == surface) return s;
    return NULL;
}

/* Where hit h is on screen: its frame scaled about its centre. */
static void hit_rect(const pw_hit *h, double *left, double *top, double *width, double *height) {
    *width = h->width * h->scale, *height = h->height * h->scale;
    *left = h->x + (h->width - *width) / 2, *top = h->y + (h->height - *height) / 2;
}

/* The topmost layer under (x, y) that takes input, or NULL: a card, or a dimming that is not
 * forwarded (the region leaves those out, but the picture may have moved on since). */
static const pw_hit *hit_at(pw_app *app, pw_screen *s, double x, double y) {
    for (size_t i = s->n_hits; i-- > 0;) {
        const pw_hit *h = &s->hits[i];
        double left, top, w, hh;
        hit_rect(h, &left, &top, &w, &hh);
        if (x < left || y < top || x >= left + w || y >= top + hh) continue;
        if (h->dimming) {
            pw_record *r = pw_content_find(app, h->id);
            if (r && r->forward) continue;
        }
        return h;
    }
    return NULL;
}

/* The point in card h's own coordinates (its frame unscaled). */
static void card_point(const pw_hit *h, double x, double y, double *u, double *v) {
    *u = (x - (h->x + h->width / 2)) / h->scale + h->width / 2;
    *v = (y - (h->y + h->height / 2)) / h->scale + h->height / 2;
}

static int inside(const pw_target *t, double u, double v) {
    return u >= t->x && v >= t->y && u < t->x + t->width && v < t->y + t->height;
}

/* The button of r under (x, y) on s: its action's index, else −1. */
static int button_at(pw_app *app, pw_screen *s, pw_record *r, double x, double y) {
    const pw_hit *h = hit_at(app, s, x, y);
    if (!h || h->dimming || strcmp(h->id, r->id) != 0) return -1;
    double u, v;
    card_point(h, x, y, &u, &v);
    for (int i = 0; i < r->n_buttons; i++)
        if (inside(&r->buttons[i], u, v)) return r->buttons[i].index;
    return -1;
}

/* Whether (x, y) on s is on r's card (not under another). */
static int on_card(pw_app *app, pw_screen *s, pw_record *r, double x, double y) {
    const pw_hit *h = hit_at(app, s, x, y);
    return h && !h->dimming && strcmp(h->id, r->id) == 0;
}

/* -- Pointer ----------------------------------------------------------------------------------- */

static void remember(gesture *in, uint32_t ms) {
    if (in->n_samples == SAMPLES) {
        memmove(in->samples, in->samples + 1, (SAMPLES - 1) * sizeof *in->samples);
        in->n_samples--;
    }
    in->samples[in->n_samples++] = (sample){ms / 1000.0, in->x, in->y};
}

/* The finger's velocity at release: over its last step of motion (back to the last sample at
 * an earlier millisecond), so that a drag that turns back before release is thrown back, not
 * forward by where it went before. A pointer still for more than VELOCITY_WINDOW is at 0. */
static void velocity(const gesture *in, uint32_t release_ms, double *vx, double *vy) {
    *vx = *vy = 0;
    if (in->n_samples < 2) return;
    const sample *last = &in->samples[in->n_samples - 1];
    if (release_ms / 1000.0 - last->t > VELOCITY_WINDOW) return;
    int i = in->n_samples - 2;
    while (i > 0 && in->samples[i].t >= last->t) i--;
    const sample *before = &in->samples[i];
    double dt = last->t - before->t;
    if (dt <= 0 || dt > VELOCITY_WINDOW) return;
    *vx = (last->x - before->x) / dt;
    *vy = (last->y - before->y) / dt;
}

static void swipe(pw_app *app, gesture *in, const char *phase, double vx, double vy) {
    pw_screen *s = in->on;
    json_object *p = json_object_new_object();
    json_object_object_add(p, "phase", json_object_new_string(phase));
    json_object_object_add(p, "dx", json_object_new_double(strcmp(phase, "began") == 0 ? 0 : in->x - in->down_x));
    json_object_object_add(p, "dy", json_object_new_double(strcmp(phase, "began") == 0 ? 0 : in->y - in->down_y));
    if (strcmp(phase, "ended") == 0) {
        json_object_object_add(p, "vx", json_object_new_double(vx));
        json_object_object_add(p, "vy", json_object_new_double(vy));
    }
    json_object_object_add(p, "output", json_object_new_string(s->screen));
    pw_activation_notify(app, "swipe", p);
}

/* The press, motion, release and cancel of a gesture: the pointer's and a finger's. */

static void let_go(pw_app *app, gesture *in) {
    /* A drag that is cut short (the region moved away under it, the compositor took the touch)
     * is let go where it was. */
    if (in->swiping && in->on) swipe(app, in, "cancelled", 0, 0);
    pw_record *r = in->down_id[0] ? pw_content_find(app, in->down_id) : NULL;
    if (r && r->pressed >= 0) { r->pressed = -1; changed(app, r); }
    in->down = in->swiping = 0;
}

static void move(pw_app *app, gesture *in, uint32_t time) {
    if (!in->down || !in->on) return;
    remember(in, time);
    pw_record *r = in->down_id[0] ? pw_content_find(app, in->down_id) : NULL;
    if (r && r->pressed >= 0) {
        /* A held button shows pressed only while the pointer is on it, as buttons do. */
        int on = button_at(app, in->on, r, in->x, in->y) == r->pressed;
        if (!on) { r->pressed = -1; changed(app, r); }
        return;
    }
    if (!in->swiping && in->down_field < 0 && hypot(in->x - in->down_x, in->y - in->down_y) > DRAG_SLOP) {
        in->swiping = 1;
        swipe(app, in, "began", 0, 0);
    }
    if (in->swiping) swipe(app, in, "changed", 0, 0);
}

static void press(pw_app *app, gesture *in, uint32_t time) {
    pw_screen *s = in->on;
    in->down = 1;
    in->swiping = 0;
    in->down_x = in->x, in->down_y = in->y;
    in->down_id[0] = 0;
    in->down_field = -1;
    in->n_samples = 0;
    remember(in, time);
    const pw_hit *h = hit_at(app, s, in->x, in->y);
    pw_record *r = h && !h->dimming ? pw_content_find(app, h->id) : NULL;
    if (!r) return;
    snprintf(in->down_id, sizeof in->down_id, "%s", r->id);
    double u, v;
    card_point(h, in->x, in->y, &u, &v);
    for (int i = 0; i < r->n_fields; i++)
        if (inside(&r->fields[i], u, v)) in->down_field = i;
    int button = button_at(app, s, r, in->x, in->y);
    if (button >= 0) { r->pressed = button; changed(app, r); }
}

static void release(pw_app *app, gesture *in, uint32_t time) {
    pw_screen *s = in->on;
    pw_record *r = in->down_id[0] ? pw_content_find(app, in->down_id) : NULL;
    in->down = 0;
    if (r && r->pressed >= 0) {
        int action = r->pressed;
        r->pressed = -1;
        changed(app, r);
        if (button_at(app, s, r, in->x, in->y) == action) pw_input_activate(app, r, action, in->serial, s->surface);
    } else if (in->swiping) {
        double vx, vy;
        velocity(in, time, &vx, &vy);
        swipe(app, in, "ended", vx, vy);
    } else if (r && in->down_field >= 0) {
        move_focus(app, r, in->down_field, 0);
    } else if (r && r->body_action >= 0 && hypot(in->x - in->down_x, in->y - in->down_y) <= DRAG_SLOP && on_card(app, s, r, in->x, in->y)) {
        /* A banner's body is its default action, as a click on a notification is. */
        pw_input_activate(app, r, r->body_action, in->serial, s->surface);
    } else if (!r || hypot(in->x - in->down_x, in->y - in->down_y) <= DRAG_SLOP) {
        json_object *p = json_object_new_object();
        json_object_object_add(p, "x", json_object_new_double(in->x));
        json_object_object_add(p, "y", json_object_new_double(in->y));
        json_object_object_add(p, "output", json_object_new_string(s->screen));
        pw_activation_notify(app, "tap", p);
    }
    in->swiping = 0;
}

/* -- Pointer ----------------------------------------------------------------------------------- */

static void pointer_enter(void *data, struct wl_pointer *p, uint32_t serial, struct wl_surface *surface, wl_fixed_t x,
                          wl_fixed_t y) {
    pw_app *app = data;
    app->input->mouse.on = screen_of(app, surface);
    app->input->mouse.x = wl_fixed_to_double(x);
    app->input->mouse.y = wl_fixed_to_double(y);
}

static void pointer_leave(void *data, struct wl_pointer *p, uint32_t serial, struct wl_surface *surface) {
    pw_app *app = data;
    let_go(app, &app->input->mouse);
    app->input->mouse.on = NULL;
}

static void pointer_motion(void *data, struct wl_pointer *p, uint32_t time, wl_fixed_t x, wl_fixed_t y) {
    pw_app *app = data;
    app->input->mouse.x = wl_fixed_to_double(x);
    app->input->mouse.y = wl_fixed_to_double(y);
    move(app, &app->input->mouse, time);
}

static void pointer_button(void *data, struct wl_pointer *p, uint32_t serial, uint32_t time, uint32_t button,
                           uint32_t state) {
    pw_app *app = data;
    gesture *mouse = &app->input->mouse;
    if (button != BTN_LEFT || !mouse->on) return;
    mouse->serial = serial;
    if (state == WL_POINTER_BUTTON_STATE_PRESSED) press(app, mouse, time);
    else if (mouse->down) release(app, mouse, time);
}

static void pointer_axis(void *data, struct wl_pointer *p, uint32_t time, uint32_t axis, wl_fixed_t value) {}
static void pointer_frame(void *data, struct wl_pointer *p) {}
static void pointer_axis_source(void *data, struct wl_pointer *p, uint32_t source) {}
static void pointer_axis_stop(void *data, struct wl_pointer *p, uint32_t time, uint32_t axis) {}
static void pointer_axis_discrete(void *data, struct wl_pointer *p, uint32_t axis, int32_t discrete) {}

static const struct wl_pointer_listener pointer_listener = {
    .enter = pointer_enter,
    .leave = pointer_leave,
    .motion = pointer_motion,
    .button = pointer_button,
    .axis = pointer_axis,
    .frame = pointer_frame,
    .axis_source = pointer_axis_source,
    .axis_stop = pointer_axis_stop,
    .axis_discrete = pointer_axis_discrete,
};

/* -- Touch ------------------------------------------------------------------------------------- */
/* The first finger down is a gesture as the pointer's button is: a tap, a button pressed, a
 * field focused, a swipe with its release velocity. */

static void touch_down(void *data, struct wl_touch *t, uint32_t serial, uint32_t time, struct wl_surface *surface,
                       int32_t id, wl_fixed_t x, wl_fixed_t y) {
    pw_app *app = data;
    gesture *finger = &app->input->finger;
    if (finger->down) return;
    finger->on = screen_of(app, surface);
    if (!finger->on) return;
    app->input->finger_id = id;
    finger->serial = serial;
    finger->x = wl_fixed_to_double(x);
    finger->y = wl_fixed_to_double(y);
    press(app, finger, time);
}

static void touch_up(void *data, struct wl_touch *t, uint32_t serial, uint32_t time, int32_t id) {
    pw_app *app = data;
    gesture *finger = &app->input->finger;
    if (finger->down && id == app->input->finger_id) release(app, finger, time);
}

static void touch_motion(void *data, struct wl_touch *t, uint32_t time, int32_t id, wl_fixed_t x, wl_fixed_t y) {
    pw_app *app = data;
    gesture *finger = &app->input->finger;
    if (!finger->down || id != app->input->finger_id) return;
    finger->x = wl_fixed_to_double(x);
    finger->y = wl_fixed_to_double(y);
    move(app, finger, time);
}

static void touch_frame(void *data, struct wl_touch *t) {}

/* The compositor took the touch sequence (a gesture of its own): nothing of it happened. */
static void touch_cancel(void *data, struct wl_touch *t) {
    pw_app *app = data;
    let_go(app, &app->input->finger);
}

static void touch_shape(void *data, struct wl_touch *t, int32_t id, wl_fixed_t major, wl_fixed_t minor) {}
static void touch_orientation(void *data, struct wl_touch *t, int32_t id, wl_fixed_t orientation) {}

static const struct wl_touch_listener touch_listener = {
    .down = touch_down,
    .up = touch_up,
    .motion = touch_motion,
    .frame = touch_frame,
    .cancel = touch_cancel,
    .shape = touch_shape,
    .orientation = touch_orientation,
};

/* -- Keyboard ---------------------------------------------------------------------------------- */

static void keyboard_keymap(void *data, struct wl_keyboard *k, uint32_t format, int32_t fd, uint32_t size) {
    pw_input *in = ((pw_app *)data)->input;
    if (format != WL_KEYBOARD_KEYMAP_FORMAT_XKB_V1) { close(fd); return; }
    char *map = mmap(NULL, size, PROT_READ, MAP_PRIVATE, fd, 0);
    close(fd);
    if (map == MAP_FAILED) return;
    struct xkb_keymap *keymap = xkb_keymap_new_from_string(in->xkb, map, XKB_KEYMAP_FORMAT_TEXT_V1, XKB_KEYMAP_COMPILE_NO_FLAGS);
    munmap(map, size);
    if (!keymap) { fprintf(stderr, "presentd-wayland: the compositor's keymap does not compile\n"); return; }
    xkb_state_unref(in->state);
    xkb_keymap_unref(in->keymap);
    in->repeating = 0;  /* another keyboard's keymap: the key held was the last one's */
    in->keymap = keymap;
    in->state = xkb_state_new(keymap);
}

static void keyboard_enter(void *data, struct wl_keyboard *k, uint32_t serial, struct wl_surface *surface,
                           struct wl_array *keys) {
    pw_app *app = data;
    app->input->keys_on = screen_of(app, surface);
}

static void keyboard_leave(void *data, struct wl_keyboard *k, uint32_t serial, struct wl_surface *surface) {
    ((pw_app *)data)->input->keys_on = NULL;
    ((pw_app *)data)->input->repeating = 0;  /* the key's release goes elsewhere */
}

static void key_request(pw_app *app, pw_screen *s, pw_record *r, const char *key) {
    json_object *p = json_object_new_object();
    json_object_object_add(p, "key", json_object_new_string(key));
    json_object_object_add(p, "id", json_object_new_string(r->id));
    json_object_object_add(p, "fields", fields_of(r));
    json_object_object_add(p, "output", json_object_new_string(s->screen));
    pw_activation_notify(app, "key", p);
}

/* The caret is at the end of the text: typing adds there, Backspace erases before it, and the
 * selection is all of the text or none of it. */

/* Text typed into field i: it replaces the selected text; a number field takes what a number
 * is written with. */
static void type_text(pw_app *app, pw_record *r, int i, const char *text) {
    if (strcmp(r->field_kind[i], "number") == 0 && strspn(text, "0123456789.-+eE") != strlen(text)) return;
    size_t have = r->selected ? 0 : strlen(r->value[i]), add = strlen(text);
    if (have + add >= sizeof r->value[i]) return;
    memcpy(r->value[i] + have, text, add + 1);
    r->selected = 0;
    tell_focus(app, r);
    changed(app, r);
}

/* Backspace (or Delete, `before` 0) in field i: the selected text, else the character before
 * the caret (after it there is none). Returns whether it erased. */
static int erase(pw_app *app, pw_record *r, int i, int before) {
    size_t n = strlen(r->value[i]);
    if (!n || (!before && !r->selected)) return 0;
    if (r->selected) n = 0;
    else while (n > 0 && ((unsigned char)r->value[i][--n] & 0xc0) == 0x80) {}  /* back to the character's first byte */
    r->value[i][n] = 0;
    r->selected = 0;
    tell_focus(app, r);
    changed(app, r);
    return 1;
}

/* The focused field's selection set (Ctrl-A) or ended (an arrow, Home, End: the caret stays at
 * the end). */
static void select_all(pw_app *app, pw_record *r, int selected) {
    if (r->selected == selected) return;
    r->selected = selected;
    changed(app, r);
}

/* Key `key` (evdev) goes down (event `serial`), or repeats (serial 0): returns 1 when it edited
 * a field (typed or erased), which is what repeats while held; the keys that answer or move the
 * focus are said once, so a repeat never activates. */
static int key_down(pw_app *app, uint32_t key, uint32_t serial) {
    pw_input *in = app->input;
    pw_screen *s = in->keys_on;
    if (!s || !in->state || !s->top_id[0]) return 0;
    pw_record *r = pw_content_find(app, s->top_id);
    if (!r) return 0;
    xkb_keycode_t code = key + 8;  /* evdev to xkb */
    xkb_keysym_t sym = xkb_state_key_get_one_sym(in->state, code);
    int n = r->n_fields + r->n_buttons, field = r->focus >= 0 && r->focus < r->n_fields ? r->focus : -1;
    switch (sym) {
    case XKB_KEY_Escape: key_request(app, s, r, "escape"); return 0;
    case XKB_KEY_XF86Back: key_request(app, s, r, "back"); return 0;
    case XKB_KEY_Return:
    case XKB_KEY_KP_Enter:
        /* On a focused button, Enter presses that button; elsewhere it is the default action's. */
        if (r->focus >= r->n_fields && r->focus < n) pw_input_activate(app, r, r->buttons[r->focus - r->n_fields].index, serial, s->surface);
        else key_request(app, s, r, "enter");
        return 0;
    case XKB_KEY_Tab:
    case XKB_KEY_ISO_Left_Tab:
        /* Shift-Tab is ISO_Left_Tab in most keymaps, but Tab with Shift held in one whose Tab key
         * has a single level (a virtual keyboard's). */
        if (!n) return 0;
        if (sym == XKB_KEY_ISO_Left_Tab || xkb_state_mod_name_is_active(in->state, XKB_MOD_NAME_SHIFT, XKB_STATE_MODS_EFFECTIVE) > 0)
            move_focus(app, r, r->focus <= 0 ? n - 1 : r->focus - 1, 1);
        else
            move_focus(app, r, (r->focus + 1) % n, 1);
        return 0;
    case XKB_KEY_BackSpace:
    case XKB_KEY_Delete:
    case XKB_KEY_KP_Delete:
        return field >= 0 && erase(app, r, field, sym == XKB_KEY_BackSpace);
    case XKB_KEY_Left: case XKB_KEY_Right: case XKB_KEY_Home: case XKB_KEY_End:
    case XKB_KEY_KP_Left: case XKB_KEY_KP_Right: case XKB_KEY_KP_Home: case XKB_KEY_KP_End:
        if (field >= 0) select_all(app, r, 0);
        return 0;
    case XKB_KEY_a:
    case XKB_KEY_A:
        if (field >= 0 && xkb_state_mod_name_is_active(in->state, XKB_MOD_NAME_CTRL, XKB_STATE_MODS_EFFECTIVE) > 0) {
            select_all(app, r, 1);
            return 0;
        }
        break;
    default:
        break;
    }
    char text[64];
    int len = xkb_state_key_get_utf8(in->state, code, text, sizeof text);
    if (len <= 0 || (unsigned char)text[0] < 0x20 || text[0] == 0x7f) return 0;
    if (field < 0) {
        /* Typing with a button focused types on at the end of the first field, as a dialog's
         * first field is where text goes. */
        if (r->n_fields == 0) return 0;
        move_focus(app, r, 0, 0);
        field = 0;
    }
    type_text(app, r, field, text);
    return 1;
}

static void stop_repeat(pw_input *in) { in->repeating = 0; }

static void keyboard_key(void *data, struct wl_keyboard *k, uint32_t serial, uint32_t time, uint32_t key, uint32_t state) {
    pw_app *app = data;
    pw_input *in = app->input;
    if (state != WL_KEYBOARD_KEY_STATE_PRESSED) {
        if (in->repeating && key == in->repeat_key) stop_repeat(in);
        return;
    }
    stop_repeat(in);  /* a new key ends the last one's repeat, as on any keyboard */
    if (key_down(app, key, serial) && in->repeat_rate > 0 && xkb_keymap_key_repeats(in->keymap, key + 8)) {
        in->repeating = 1;
        in->repeat_key = key;
        in->repeat_at = pw_now() + in->repeat_delay / 1000.0;
    }
}

static void keyboard_modifiers(void *data, struct wl_keyboard *k, uint32_t serial, uint32_t depressed, uint32_t latched,
                               uint32_t locked, uint32_t group) {
    pw_input *in = ((pw_app *)data)->input;
    if (in->state) xkb_state_update_mask(in->state, depressed, latched, locked, 0, 0, group);
}

static void keyboard_repeat(void *data, struct wl_keyboard *k, int32_t rate, int32_t delay) {
    pw_input *in = ((pw_app *)data)->input;
    in->repeat_rate = rate > 0 ? rate : 0;
    in->repeat_delay = delay > 0 ? delay : 0;
    if (!in->repeat_rate) stop_repeat(in);
}

static const struct wl_keyboard_listener keyboard_listener = {
    .keymap = keyboard_keymap,
    .enter = keyboard_enter,
    .leave = keyboard_leave,
    .key = keyboard_key,
    .modifiers = keyboard_modifiers,
    .repeat_info = keyboard_repeat,
};

/* -- The seat ---------------------------------------------------------------------------------- */

enum device { POINTER, KEYBOARD, TOUCH };

static void release_device(struct wl_seat *seat, void *device, enum device kind) {
    if (!device) return;
    if (wl_seat_get_version(seat) >= WL_POINTER_RELEASE_SINCE_VERSION) {
        if (kind == KEYBOARD) wl_keyboard_release(device);
        else if (kind == TOUCH) wl_touch_release(device);
        else wl_pointer_release(device);
    } else {
        wl_proxy_destroy(device);
    }
}

/* Devices come and go with the seat's capabilities (a virtual keyboard, a mouse plugged in). */
static void seat_capabilities(void *data, struct wl_seat *seat, uint32_t caps) {
    pw_app *app = data;
    pw_input *in = app->input;
    int pointer = caps & WL_SEAT_CAPABILITY_POINTER, keyboard = caps & WL_SEAT_CAPABILITY_KEYBOARD;
    int touch = caps & WL_SEAT_CAPABILITY_TOUCH;
    if (pointer && !in->pointer) {
        in->pointer = wl_seat_get_pointer(seat);
        wl_pointer_add_listener(in->pointer, &pointer_listener, app);
    } else if (!pointer && in->pointer) {
        release_device(seat, in->pointer, POINTER);
        in->pointer = NULL;
        in->mouse.on = NULL;
        in->mouse.down = in->mouse.swiping = 0;
    }
    if (touch && !in->touch) {
        in->touch = wl_seat_get_touch(seat);
        wl_touch_add_listener(in->touch, &touch_listener, app);
    } else if (!touch && in->touch) {
        release_device(seat, in->touch, TOUCH);
        in->touch = NULL;
        in->finger.on = NULL;
        in->finger.down = in->finger.swiping = 0;
    }
    if (keyboard && !in->keyboard) {
        in->keyboard = wl_seat_get_keyboard(seat);
        wl_keyboard_add_listener(in->keyboard, &keyboard_listener, app);
    } else if (!keyboard && in->keyboard) {
        release_device(seat, in->keyboard, KEYBOARD);
        in->keyboard = NULL;
        in->keys_on = NULL;
    }
}

static void seat_name(void *data, struct wl_seat *seat, const char *name) {}

static const struct wl_seat_listener seat_listener = { .capabilities = seat_capabilities, .name = seat_name };

void pw_input_bind_seat(pw_app *app, struct wl_registry *registry, uint32_t name, uint32_t version) {
    if (app->seat) return;  /* the first seat: presentd has one pointer and one keyboard */
    app->input = calloc(1, sizeof *app->input);
    if (!app->input) return;
    app->input->xkb = xkb_context_new(XKB_CONTEXT_NO_FLAGS);
    app->seat = wl_registry_bind(registry, name, &wl_seat_interface, version < 5 ? version : 5);
    wl_seat_add_listener(app->seat, &seat_listener, app);
}

void pw_input_release(pw_app *app) {
    pw_input *in = app->input;
    if (in) {
        release_device(app->seat, in->pointer, POINTER);
        release_device(app->seat, in->keyboard, KEYBOARD);
        release_device(app->seat, in->touch, TOUCH);
        xkb_state_unref(in->state);
        xkb_keymap_unref(in->keymap);
        xkb_context_unref(in->xkb);
        free(in);
        app->input = NULL;
    }
    if (app->seat) {
        if (wl_seat_get_version(app->seat) >= WL_SEAT_RELEASE_SINCE_VERSION) wl_seat_release(app->seat);
        else wl_seat_destroy(app->seat);
        app->seat = NULL;
    }
}

/* -- What the picture takes ---------------------------------------------------------------------- */

void pw_input_picture_changed(pw_app *app, pw_screen *s) {
    /* The kiosk's window takes every click and key, as a window does; a layer surface only what
     * the picture says. */
    struct wl_region *region = s->layer ? wl_compositor_create_region(app->compositor) : NULL;
    const char *top = NULL;
    for (size_t i = 0; i < s->n_hits; i++) {
        const pw_hit *h = &s->hits[i];
        pw_record *r = pw_content_find(app, h->id);
        if (!h->dimming && r && !r->leaving) top = h->id;
        if (!region || (h->dimming && r && r->forward)) continue;
        double left, top_y, w, hh;
        hit_rect(h, &left, &top_y, &w, &hh);
        int x0 = (int)floor(left), y0 = (int)floor(top_y);
        wl_region_add(region, x0, y0, (int)ceil(left + w) - x0, (int)ceil(top_y + hh) - y0);
    }
    snprintf(s->top_id, sizeof s->top_id, "%s", top ? top : "");
    if (!region) return;
    wl_surface_set_input_region(s->surface, region);
    wl_region_destroy(region);
    pw_record *r = top ? pw_content_find(app, top) : NULL;
    int exclusive = r && (r->n_actions > 0 || r->n_fields > 0);
    if (exclusive != s->keyboard_exclusive) {
        s->keyboard_exclusive = exclusive;
        zwlr_layer_surface_v1_set_keyboard_interactivity(
            s->layer, exclusive ? ZWLR_LAYER_SURFACE_V1_KEYBOARD_INTERACTIVITY_EXCLUSIVE : ZWLR_LAYER_SURFACE_V1_KEYBOARD_INTERACTIVITY_NONE);
    }
}

void pw_input_forget(pw_app *app, const char *id) {
    pw_input *in = app->input;
    if (!in) return;
    gesture *both[] = { &in->mouse, &in->finger };
    for (int i = 0; i < 2; i++)
        if (strcmp(both[i]->down_id, id) == 0) { both[i]->down_id[0] = 0; both[i]->swiping = 0; }
}

void pw_input_screen_gone(pw_app *app, pw_screen *s) {
    pw_input *in = app->input;
    if (!in) return;
    gesture *both[] = { &in->mouse, &in->finger };
    for (int i = 0; i < 2; i++)
        if (both[i]->on == s) { both[i]->on = NULL; both[i]->down = both[i]->swiping = 0; }
    if (in->keys_on == s) in->keys_on = NULL;
}

/* -- Key repeat --------------------------------------------------------------------------------- */

/* Repeats that fell due more than this many at once (the loop was held up) are dropped, and the
 * repeat goes on from now: a held key never types a burst. */
#define REPEAT_CATCH_UP 4

void pw_input_tick(pw_app *app) {
    pw_input *in = app->input;
    if (!in || !in->repeating) return;
    double now = pw_now(), period = 1.0 / in->repeat_rate;
    for (int n = 0; in->repeating && now >= in->repeat_at; n++) {
        if (n == REPEAT_CATCH_UP) { in->repeat_at = now + period; break; }
        if (!key_down(app, in->repeat_key, 0)) stop_repeat(in);  /* it no longer edits (the entry left) */
        in->repeat_at += period;
    }
}

int pw_input_timeout(pw_app *app) {
    pw_input *in = app->input;
    if (!in || !in->repeating) return -1;
    double wait = in->repeat_at - pw_now();
    return wait <= 0 ? 0 : (int)ceil(wait * 1000);
}
