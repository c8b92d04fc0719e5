/* The presentd side. On connecting: hello (which clock, what time), every described output
 * as a screen (setContainer for main, addOutput for the others), then subscribe to
 * animations, stack and lifecycle, whose snapshot is the picture to start from. Requests
 * whose answer is not needed are sent as notifications, so no reply waits to be taken. */
#include "link.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "content.h"
#include "input.h"
#include "size.h"

static pw_screen *screen_named(pw_app *app, const char *name) {
    pw_screen *s;
    wl_list_for_each(s, &app->screens, link)
        if (name && strcmp(s->screen, name) == 0) return s;
    return NULL;
}

static void mark_all_dirty(pw_app *app) {
    pw_screen *s;
    wl_list_for_each(s, &app->screens, link) s->dirty = 1;
}

void pw_link_notify(pw_app *app, const char *method, json_object *params) {
    if (app->verbose) fprintf(stderr, "presentd-wayland: %s %s\n", method, json_object_to_json_string(params));
    if (!app->client) { json_object_put(params); return; }
    presentd_error err;
    if (presentd_notify(app->client, method, params, &err))
        fprintf(stderr, "presentd-wayland: %s: %s\n", method, err.message);
}

/* -- Telling presentd about the screens --------------------------------------------------- */

static void announce(pw_app *app, pw_screen *s) {
    if (!app->client || !s->screen[0] || s->logical_width <= 0 || s->logical_height <= 0) return;
    presentd_error err;
    json_object *p = json_object_new_object();
    int main = strcmp(s->screen, PRESENTD_MAIN_OUTPUT) == 0;
    json_object_object_add(p, main ? "output" : "name", json_object_new_string(s->screen));
    json_object_object_add(p, "width", json_object_new_double(s->logical_width));
    json_object_object_add(p, "height", json_object_new_double(s->logical_height));
    json_object_object_add(p, "scale", json_object_new_double(s->scale));
    if (main) {
        /* The whole output, at once: a monitor has no notch, and nothing was laid out for it yet. */
        json_object *safe = json_object_new_object();
        /* The kiosk's status bar is drawn across the top: presentations that respect the
         * safe area stay clear of it. */
        json_object_object_add(safe, "top", json_object_new_double(s == app->kiosk_screen ? app->theme.status_bar_height : 0));
        json_object_object_add(safe, "left", json_object_new_double(0));
        json_object_object_add(safe, "bottom", json_object_new_double(0));
        json_object_object_add(safe, "right", json_object_new_double(0));
        json_object_object_add(p, "safeArea", safe);
        json_object_object_add(p, "duration", json_object_new_double(0));
    } else if (s->refresh_mhz > 0) {
        int fps = (int)lround(s->refresh_mhz / 1000.0);
        json_object_object_add(p, "fps", json_object_new_int(fps < 1 ? 1 : fps > 240 ? 240 : fps));
    }
    presentd_notify(app->client, main ? "setContainer" : "addOutput", p, &err);
    if (app->verbose)
        fprintf(stderr, "presentd-wayland: output %s is screen %s (%dx%d, scale %d, %.3f Hz)\n", s->name, s->screen,
                s->logical_width, s->logical_height, s->scale, s->refresh_mhz / 1000.0);
}

static void remove_output(pw_app *app, const char *name) {
    if (!app->client) return;
    json_object *p = json_object_new_object();
    json_object_object_add(p, "name", json_object_new_string(name));
    presentd_notify(app->client, "removeOutput", p, NULL);
}

/* Moves a picture (the payload in force, and whether there is one) from one holder to another. */
static void move_motion(presentd_animations *to, int *to_has, presentd_animations *from, int *from_has) {
    presentd_animations_clear(to);
    *to = *from;
    *to_has = *from_has;
    memset(from, 0, sizeof *from);
    *from_has = 0;
}

/* s shows screen `name` from now on. What it held for its old screen belonged to that screen:
 * its picture, the frames shown and not reported, the pointer and keys on it. */
static void rebind(pw_app *app, pw_screen *s, const char *name) {
    pw_input_screen_gone(app, s);
    presentd_animations_clear(&s->motion);
    s->has_motion = 0;
    s->n_shown = s->discarded = 0;
    s->dirty = 1;
    snprintf(s->screen, sizeof s->screen, "%s", name);
}

static int is_main(pw_screen *s) { return strcmp(s->screen, PRESENTD_MAIN_OUTPUT) == 0; }

void pw_link_screen_changed(pw_app *app, pw_screen *s) {
    if (!s->screen[0]) {
        /* Main when no output holds it (the first, or the first after every output left), or
         * when this is the --main one: it takes main back from the output that held it
         * meanwhile, which gets its own screen again. Main's picture moves with it: presentd
         * sends a new one only when the picture differs, and on an output of the same size
         * main's entries are where they were. */
        pw_screen *holder = screen_named(app, PRESENTD_MAIN_OUTPUT);
        int main = !holder || (app->main_name && strcmp(s->name, app->main_name) == 0);
        rebind(app, s, main ? PRESENTD_MAIN_OUTPUT : s->name);
        if (main && !holder) move_motion(&s->motion, &s->has_motion, &app->main_motion, &app->has_main_motion);
        if (main && holder) {
            move_motion(&s->motion, &s->has_motion, &holder->motion, &holder->has_motion);
            announce(app, s);
            rebind(app, holder, holder->name);
            announce(app, holder);
            return;
        }
    }
    announce(app, s);
}

void pw_link_screen_removed(pw_app *app, pw_screen *s) {
    if (!s->screen[0]) return;
    if (!is_main(s)) {
        /* Its entries leave with reason outputGone: there is nowhere left to show them. */
        remove_output(app, s->screen);
        return;
    }
    /* Main moves to the first remaining output, in the compositor's order, with its entries;
     * that output's own screen goes, and its entries with it (outputGone). With none left,
     * main keeps its entries, and the next output to come is main. */
    pw_screen *r;
    wl_list_for_each(r, &app->screens, link) {
        if (r == s || !r->screen[0]) continue;
        remove_output(app, r->screen);
        rebind(app, r, PRESENTD_MAIN_OUTPUT);
        move_motion(&r->motion, &r->has_motion, &s->motion, &s->has_motion);
        announce(app, r);
        s->screen[0] = 0;
        return;
    }
    move_motion(&app->main_motion, &app->has_main_motion, &s->motion, &s->has_motion);
    s->screen[0] = 0;
}

/* -- Connecting and coming back -------------------------------------------------------------- */

static void lost(pw_app *app, const char *why) {
    fprintf(stderr, "presentd-wayland: lost presentd (%s); reconnecting\n", why);
    pw_link_close(app);
    app->retry_delay = 0.05;
    app->retry_at = pw_now();
}

void pw_link_close(pw_app *app) {
    if (app->client) presentd_close(app->client);
    app->client = NULL;
    app->subscribed = 0;
    app->hello_id = app->subscribe_id = app->time_id = -1;
    /* Without the daemon nothing on screen is true any more: draw nothing until it is back. */
    pw_content_clear(app);
    presentd_animations_clear(&app->main_motion);
    app->has_main_motion = 0;
    pw_screen *s;
    wl_list_for_each(s, &app->screens, link) {
        presentd_animations_clear(&s->motion);
        s->has_motion = 0;
        s->dirty = 1;
    }
}

static void try_connect(pw_app *app) {
    presentd_error err;
    presentd_client *c = presentd_connect(app->socket_path, &err);
    if (!c) {
        if (!app->said_waiting)
            fprintf(stderr, "presentd-wayland: waiting for presentd at %s (%s)\n", app->resolved_socket, err.message);
        app->said_waiting = 1;
        app->retry_at = pw_now() + app->retry_delay;
        app->retry_delay = fmin(app->retry_delay * 2, 1.0);
        return;
    }
    presentd_set_reconnect(c, 0);  /* this loop comes back itself, without blocking */
    app->client = c;
    app->said_waiting = 0;
    app->retry_at = 0;
    json_object *hello = json_tokener_parse("{\"client\":\"presentd-wayland\",\"protocol\":1}");
    if (presentd_send(c, "hello", hello, &app->hello_id, &err)) { lost(app, err.message); return; }
    pw_screen *s;
    wl_list_for_each(s, &app->screens, link) announce(app, s);
    json_object *topics = json_tokener_parse(app->kiosk ? "{\"topics\":[\"animations\",\"stack\",\"lifecycle\",\"statusBar\"]}"
                                                        : "{\"topics\":[\"animations\",\"stack\",\"lifecycle\"]}");
    if (presentd_send(c, "subscribe", topics, &app->subscribe_id, &err)) { lost(app, err.message); return; }
    fprintf(stderr, "presentd-wayland: connected to presentd at %s\n", app->resolved_socket);
}

/* -- What arrives -------------------------------------------------------------------------- */

static void learn_time(pw_app *app, double t) {
    if (app->manual_clock && t > app->known_time) app->known_time = t;
}

static void take_motion(pw_app *app, json_object *params, const char *output) {
    presentd_animations a;
    presentd_error err;
    if (presentd_animations_parse(params, &a, &err)) {
        fprintf(stderr, "presentd-wayland: an animations payload: %s\n", err.message);
        return;
    }
    const char *name = output ? output : a.output;
    pw_screen *s = screen_named(app, name);
    learn_time(app, a.time);
    int one = 1;
    if (s) {
        move_motion(&s->motion, &s->has_motion, &a, &one);
        s->dirty = 1;
    } else if (name && strcmp(name, PRESENTD_MAIN_OUTPUT) == 0) {
        move_motion(&app->main_motion, &app->has_main_motion, &a, &one);  /* for the next output to come */
    } else {
        presentd_animations_clear(&a);  /* a screen no output of ours shows */
    }
}

/* The kiosk's status bar: the appearance presentd says is in force on main (the top
 * presentation's capture, else the default). */
static void take_status_bar(pw_app *app, json_object *bar) {
    json_object *style, *hidden;
    snprintf(app->status_style, sizeof app->status_style, "%s",
             json_object_object_get_ex(bar, "style", &style) ? json_object_get_string(style) : "default");
    app->status_hidden = json_object_object_get_ex(bar, "hidden", &hidden) && json_object_get_boolean(hidden);
    if (app->kiosk_screen) app->kiosk_screen->dirty = 1;
}

static void take_snapshot(pw_app *app, json_object *result) {
    json_object *snapshot, *outputs;
    if (!json_object_object_get_ex(result, "snapshot", &snapshot)) return;
    learn_time(app, presentd_number(snapshot, "time"));
    if (!json_object_object_get_ex(snapshot, "outputs", &outputs) || !json_object_is_type(outputs, json_type_array)) return;
    for (size_t i = 0; i < json_object_array_length(outputs); i++) {
        json_object *o = json_object_array_get_idx(outputs, i), *name, *motion;
        if (!json_object_object_get_ex(o, "name", &name)) continue;
        pw_content_take_entries(app, o);
        pw_size_entries(app, o);
        json_object *bar;
        if (strcmp(json_object_get_string(name), PRESENTD_MAIN_OUTPUT) == 0 && json_object_object_get_ex(o, "statusBar", &bar))
            take_status_bar(app, bar);
        if (json_object_object_get_ex(o, "animations", &motion)) take_motion(app, motion, json_object_get_string(name));
    }
    mark_all_dirty(app);
}

static void take_lifecycle(pw_app *app, json_object *params) {
    json_object *event, *id, *content;
    learn_time(app, presentd_number(params, "time"));
    if (!json_object_object_get_ex(params, "event", &event) || !json_object_object_get_ex(params, "id", &id)) return;
    const char *what = json_object_get_string(event), *entry = json_object_get_string(id);
    if (strcmp(what, "didDismiss") == 0) {
        pw_input_forget(app, entry);
        pw_content_drop(app, entry);
    } else if (strcmp(what, "willDismiss") == 0) {
        pw_record *r = pw_content_find(app, entry);
        if (r) r->leaving = 1;
    } else if (json_object_object_get_ex(params, "content", &content) &&
               pw_content_put(app, entry, (int64_t)presentd_number(params, "contentRevision"), content)) {
        pw_screen *s = screen_named(app, presentd_output_of(params));
        if (s) s->dirty = 1;
    }
}

static void take_replies(pw_app *app) {
    json_object *result = NULL;
    presentd_error err;
    if (app->hello_id >= 0) {
        int status = presentd_take_reply(app->client, app->hello_id, &result, &err);
        if (status != PRESENTD_ERR_AGAIN) {
            app->hello_id = -1;
            if (status) fprintf(stderr, "presentd-wayland: hello: %s\n", err.message);
            else {
                json_object *clock;
                app->manual_clock = json_object_object_get_ex(result, "clock", &clock) &&
                                    strcmp(json_object_get_string(clock), "manual") == 0;
                app->known_time = presentd_number(result, "time");
                json_object_put(result);
            }
        }
    }
    if (app->subscribe_id >= 0) {
        int status = presentd_take_reply(app->client, app->subscribe_id, &result, &err);
        if (status != PRESENTD_ERR_AGAIN) {
            app->subscribe_id = -1;
            if (status) fprintf(stderr, "presentd-wayland: subscribe: %s (this connection needs the renderer role)\n", err.message);
            else {
                app->subscribed = 1;
                take_snapshot(app, result);
                json_object_put(result);
            }
        }
    }
    if (app->time_id >= 0) {
        int status = presentd_take_reply(app->client, app->time_id, &result, &err);
        if (status != PRESENTD_ERR_AGAIN) {
            app->time_id = -1;
            if (status == 0) {
                learn_time(app, presentd_number(result, "time"));
                json_object_put(result);
            }
        }
    }
}

void pw_link_process(pw_app *app) {
    if (!app->client) return;
    presentd_error err;
    int status = presentd_process(app->client, &err);
    take_replies(app);
    presentd_event ev;
    while (presentd_poll_event(app->client, &ev)) {
        if (strcmp(ev.method, "animations") == 0) take_motion(app, ev.params, NULL);
        else if (strcmp(ev.method, "stack") == 0) {
            pw_content_take_entries(app, ev.params);
            pw_size_entries(app, ev.params);
            pw_screen *s = screen_named(app, presentd_output_of(ev.params));
            if (s) s->dirty = 1;
        } else if (strcmp(ev.method, "lifecycle") == 0) take_lifecycle(app, ev.params);
        else if (strcmp(ev.method, "statusBar") == 0 && strcmp(presentd_output_of(ev.params), PRESENTD_MAIN_OUTPUT) == 0)
            take_status_bar(app, ev.params);
        presentd_event_clear(&ev);
    }
    if (status == PRESENTD_ERR_CLOSED) lost(app, err.message[0] ? err.message : "it closed the connection");
    else if (status) lost(app, err.message);
}

int pw_link_fd(pw_app *app) { return app->client ? presentd_fd(app->client) : -1; }

int pw_link_wants_write(pw_app *app) { return app->client && presentd_wants_write(app->client); }

/* The manual clock moves only when some client advances it, and no notification says so:
 * while a picture is in motion, ask the time at the display's pace (60 times a second). */
#define TIME_PERIOD (1.0 / 60)

static int wants_time(pw_app *app) {
    if (!app->client || !app->manual_clock || !app->subscribed) return 0;
    pw_screen *s;
    wl_list_for_each(s, &app->screens, link)
        if (s->moving) return 1;
    return 0;
}

/* The frames shown since the last report, as one `presented` notification per screen: when a
 * batch is full, and when the screen has come to rest (its last frames' feedback arrived). A
 * frame costs no round trip; a transition costs a report or two. */
static void report_shown(pw_app *app) {
    pw_screen *s;
    wl_list_for_each(s, &app->screens, link) {
        if (!(s->n_shown == PW_REPORT_BATCH || (s->n_shown + s->discarded > 0 && !s->moving && wl_list_empty(&s->feedbacks))))
            continue;
        if (app->client && s->screen[0] && !app->manual_clock) {
            json_object *p = json_object_new_object(), *frames = json_object_new_array();
            for (int i = 0; i < s->n_shown; i++) {
                json_object *f = json_object_new_object();
                json_object_object_add(f, "time", json_object_new_double(s->shown[i].time));
                json_object_object_add(f, "shownAt", json_object_new_double(s->shown[i].shown_at));
                json_object_object_add(f, "drawnAt", json_object_new_double(s->shown[i].drawn_at));
                if (s->shown[i].refresh > 0) json_object_object_add(f, "refresh", json_object_new_double(s->shown[i].refresh));
                json_object_array_add(frames, f);
            }
            json_object_object_add(p, "frames", frames);
            json_object_object_add(p, "discarded", json_object_new_int(s->discarded));
            json_object_object_add(p, "output", json_object_new_string(s->screen));
            pw_link_notify(app, "presented", p);
        }
        s->n_shown = 0;
        s->discarded = 0;
    }
}

void pw_link_tick(pw_app *app) {
    double now = pw_now();
    report_shown(app);
    if (!app->client && app->retry_at > 0 && now >= app->retry_at) try_connect(app);
    if (wants_time(app) && app->time_id < 0 && now >= app->time_asked_at + TIME_PERIOD) {
        presentd_error err;
        app->time_asked_at = now;
        json_object *hello = json_tokener_parse("{\"client\":\"presentd-wayland\",\"protocol\":1}");
        if (presentd_send(app->client, "hello", hello, &app->time_id, &err)) lost(app, err.message);
    }
}

int pw_link_timeout(pw_app *app) {
    double now = pw_now(), at = -1;
    if (!app->client && app->retry_at > 0) at = app->retry_at;
    else if (wants_time(app) && app->time_id < 0) at = app->time_asked_at + TIME_PERIOD;
    if (at < 0) return -1;
    return at <= now ? 0 : (int)ceil((at - now) * 1000);
}
