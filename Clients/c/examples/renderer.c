/*
 * An example renderer loop: one poll() over the daemon's descriptor and stdin, no
 * blocking call after start-up. It "draws" each frame as text: one line per frame
 * with its delay (CLOCK_MONOTONIC now minus the time the frame is for), one line per
 * layer with the revision of the content it draws (and its level when it is not normal, its
 * clip when it is in a presentation context). What an entry shows comes with its
 * lifecycle events (willPresent, updated, adapted), not in frames: each is printed as a
 * "  shows" line. Lines typed on stdin are requests: "present STYLE", "dismiss",
 * "escape", "enter" (keys for the topmost entry), "quit".
 *
 *   renderer [--socket PATH] [--output NAME] [--present STYLE [--content JSON]] [--frames N] [--until-idle]
 *            [--interpolate]
 *
 * --interpolate: the render-server model. It subscribes to "animations" (with lifecycle and
 * statusBar) but not to frames, keeps the last animations payload of each screen and computes
 * the layers itself (presentd_animations_layers_at) at every 1/60 s of the daemon's clock,
 * printing each as an "interpolated" line and the same layer lines as a frame — while the
 * motion animates, and once more when it has come to rest. The daemon's clock: on the real
 * clock its times are CLOCK_MONOTONIC seconds, which this process reads itself (same
 * machine); on the manual clock time moves only when some client advances it, which no
 * notification says, so the renderer asks (hello, whose result has the clock's "time") every
 * 1/60 s of its own while something moves, and also takes every payload's and lifecycle
 * event's time as a lower bound. On the manual clock every tick k/60 up to the time it learnt
 * is drawn, none skipped; on the real clock a renderer that is late skips to the newest tick.
 * With --until-idle it stops after the first frame at rest; --frames N counts these frames.
 *
 * --output: draw one screen of several (a name the shell gave addOutput): it subscribes to
 * that screen's notifications alone, presents and sends keys there. Without it, it hears every
 * screen, and names the screen of each frame that is not "main".
 *
 * --content: what the presented entry shows, as JSON: a "label", or a dialog such as
 * {"title":"Hi","actions":[{"id":"ok","title":"OK","role":"default"}]}.
 */
#define _GNU_SOURCE
#include "presentd.h"

#include <math.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static double monotonic_now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void print_layers(const presentd_layer *layers, size_t n) {
    for (size_t i = 0; i < n && i < 64; i++) {
        const presentd_layer *l = &layers[i];
        printf("  %-7s %-12s x=%.1f y=%.1f w=%.1f h=%.1f alpha=%.3f scale=%.3f rot=%.3f",
               l->role ? l->role : l->dimming ? "dimming" : "content", l->id, l->x, l->y, l->width, l->height,
               l->alpha, l->scale, l->rotation);
        if (l->level && strcmp(l->level, "normal") != 0) printf(" level=%s", l->level);
        if (l->has_clip)
            printf(" clip=%.1f,%.1f,%.1fx%.1f", l->clip.x, l->clip.y, l->clip.width, l->clip.height);
        if (!l->dimming && !l->grabber) printf(" rev=%lld", (long long)l->content_revision);
        printf("\n");
    }
}

static void draw(json_object *frame) {
    presentd_layer layers[64];
    size_t n = presentd_frame_layers(frame, layers, 64);
    const char *output = presentd_output_of(frame);
    printf("frame %lld t=%.4f delay=%.2fms layers=%zu", (long long)presentd_number(frame, "seq"),
           presentd_number(frame, "time"), (monotonic_now() - presentd_number(frame, "time")) * 1000, n);
    if (strcmp(output, PRESENTD_MAIN_OUTPUT) != 0) printf(" output=%s", output);  /* which screen to draw it on */
    printf("\n");
    print_layers(layers, n);
}

/* -- --interpolate: the layers computed here, from the animations topic ------------------- */

#define RATE 60            /* frames per second of the daemon's clock */
#define MAX_SCREENS 16

typedef struct screen_motion {
    char name[257];
    presentd_animations motion;   /* the last payload of this screen */
    int dirty;                    /* a payload not drawn yet */
    int animating;                /* the last frame drawn said so */
} screen_motion;

static screen_motion screens[MAX_SCREENS];
static size_t n_screens;
static int manual_clock;          /* from hello */
static double known_time;         /* manual clock: the latest time the daemon told */

static void take_motion(json_object *params) {
    presentd_animations a;
    presentd_error err;
    if (presentd_animations_parse(params, &a, &err)) { fprintf(stderr, "renderer: %s\n", err.message); return; }
    screen_motion *s = NULL;
    for (size_t i = 0; i < n_screens && !s; i++) if (strcmp(screens[i].name, a.output) == 0) s = &screens[i];
    if (!s && n_screens < MAX_SCREENS) {
        s = &screens[n_screens++];
        snprintf(s->name, sizeof s->name, "%s", a.output);
    }
    if (!s) { presentd_animations_clear(&a); return; }
    presentd_animations_clear(&s->motion);
    s->motion = a;
    s->dirty = 1;
    if (a.time > known_time) known_time = a.time;
}

/* The next tick to draw, k/RATE of the daemon's clock; --frames and --until-idle. */
static double next_tick;
static long frames_left = -1;
static int until_idle;

/* Whether some screen still has something to draw (a new payload, or a motion that animated). */
static int needs_ticks(void) {
    for (size_t i = 0; i < n_screens; i++) if (screens[i].dirty || screens[i].animating) return 1;
    return 0;
}

/* Draws tick t on every screen that needs it. Returns how many frames it printed, and
 * whether one of them was at rest after a motion (*idle). */
static int draw_tick(double t, int *idle) {
    int drawn = 0;
    for (size_t i = 0; i < n_screens; i++) {
        screen_motion *s = &screens[i];
        if (!(s->dirty || s->animating) || t < s->motion.time) continue;
        presentd_layer layers[64];
        size_t n = presentd_animations_layers_at(&s->motion, t, layers, 64);
        int animating = presentd_animations_animating(&s->motion, t);
        printf("interpolated t=%.4f layers=%zu animating=%d", t, n, animating);
        if (strcmp(s->name, PRESENTD_MAIN_OUTPUT) != 0) printf(" output=%s", s->name);
        printf("\n");
        print_layers(layers, n);
        if (!animating && (s->animating || n > 0)) *idle = 1;
        s->animating = animating;
        s->dirty = 0;
        drawn++;
    }
    return drawn;
}

/* Draws every tick up to `through` (only those before it, with `before`). Returns 0 once
 * --frames or --until-idle says to stop. */
static int draw_ticks(double through, int before) {
    int idle = 0;
    while (before ? next_tick / RATE < through - 1e-9 : next_tick / RATE <= through) {
        int drawn = draw_tick(next_tick / RATE, &idle);
        next_tick += 1;
        if (drawn && frames_left > 0 && (frames_left -= drawn) <= 0) return 0;
        if (until_idle && idle) return 0;
    }
    return 1;
}

/* What a lifecycle event says the entry shows from now on: its label, or its dialog. */
static void describe_content(json_object *lifecycle) {
    presentd_content content;
    if (!presentd_content_of(lifecycle, &content)) return;
    printf("  shows rev=%lld", (long long)presentd_number(lifecycle, "contentRevision"));
    if (content.label) printf(" label=\"%s\"", content.label);
    if (content.title) printf(" title=\"%s\"", content.title);
    if (content.message) printf(" message=\"%s\"", content.message);
    for (size_t i = 0; i < content.n_actions; i++) {
        const presentd_content_action *a = &content.actions[i];
        printf(" [%s%s%s]", a->title, a->role ? ":" : "", a->role ? a->role : "");
    }
    for (size_t i = 0; i < content.n_fields; i++)
        printf(" <%s %s>", content.fields[i].kind, content.fields[i].id);
    printf("\n");
}

/* The screen given with --output, or NULL: main. */
static const char *screen;

static int present(presentd_client *c, const char *style, const char *content, presentd_error *err) {
    json_object *params = json_object_new_object();
    json_object_object_add(params, "style", json_object_new_string(style));
    if (screen) json_object_object_add(params, "output", json_object_new_string(screen));
    if (content) {
        json_object *value = json_tokener_parse(content);
        if (!value) {
            json_object_put(params);
            snprintf(err->message, sizeof err->message, "--content is not JSON: %s", content);
            return PRESENTD_ERR_USAGE;
        }
        json_object_object_add(params, "content", value);
    }
    return presentd_send(c, "present", params, NULL, err);  /* the reply is not needed */
}

/* One line from stdin as a request. Returns 0 to quit. */
static int command(presentd_client *c, char *line, presentd_error *err) {
    line[strcspn(line, "\n")] = 0;
    if (strcmp(line, "quit") == 0) return 0;
    if (strncmp(line, "present ", 8) == 0) present(c, line + 8, NULL, err);
    else if (strcmp(line, "dismiss") == 0) {
        json_object *params = json_object_new_object();  /* {}: every screen's; with --output, that one's */
        if (screen) json_object_object_add(params, "output", json_object_new_string(screen));
        presentd_send(c, "dismissAll", params, NULL, err);
    } else if (strcmp(line, "escape") == 0 || strcmp(line, "enter") == 0) {
        json_object *params = json_object_new_object();
        json_object_object_add(params, "key", json_object_new_string(line));
        if (screen) json_object_object_add(params, "output", json_object_new_string(screen));
        presentd_send(c, "key", params, NULL, err);
    } else fprintf(stderr, "commands: present STYLE, dismiss, escape, enter, quit\n");
    return 1;
}

int main(int argc, char **argv) {
    const char *path = NULL, *style = NULL, *content = NULL;
    int interpolate = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--socket") == 0 && i + 1 < argc) path = argv[++i];
        else if (strcmp(argv[i], "--output") == 0 && i + 1 < argc) screen = argv[++i];
        else if (strcmp(argv[i], "--present") == 0 && i + 1 < argc) style = argv[++i];
        else if (strcmp(argv[i], "--content") == 0 && i + 1 < argc) content = argv[++i];
        else if (strcmp(argv[i], "--frames") == 0 && i + 1 < argc) frames_left = atol(argv[++i]);
        else if (strcmp(argv[i], "--until-idle") == 0) until_idle = 1;
        else if (strcmp(argv[i], "--interpolate") == 0) interpolate = 1;
        else {
            fprintf(stderr, "usage: %s [--socket PATH] [--output NAME] [--present STYLE [--content JSON]] [--frames N] "
                    "[--until-idle] [--interpolate]\n", argv[0]);
            return 2;
        }
    }
    setvbuf(stdout, NULL, _IOLBF, 0);
    presentd_error err;
    presentd_client *c = presentd_connect(path, &err);
    if (!c) { fprintf(stderr, "renderer: %s\n", err.message); return 3; }
    int64_t subscribed, asked = -1;  /* asked: a hello in flight (--interpolate: what time it is) */
    if (interpolate) {
        /* The clock first: which one, and its time. */
        json_object *hello = NULL;
        if (presentd_call_json(c, "hello", "{\"client\":\"renderer\",\"protocol\":1}", &hello, 10000, &err)) {
            fprintf(stderr, "renderer: hello: %s\n", err.message);
            return 1;
        }
        json_object *clock;
        manual_clock = json_object_object_get_ex(hello, "clock", &clock) && strcmp(json_object_get_string(clock), "manual") == 0;
        known_time = presentd_number(hello, "time");
        json_object_put(hello);
    }
    json_object *topics = json_tokener_parse(interpolate ? "{\"topics\":[\"animations\",\"lifecycle\",\"statusBar\"]}"
                                                         : "{\"topics\":[\"frames\",\"lifecycle\",\"statusBar\"]}");
    if (screen) {  /* that screen's notifications alone */
        json_object *outputs = json_object_new_array();
        json_object_array_add(outputs, json_object_new_string(screen));
        json_object_object_add(topics, "outputs", outputs);
    }
    if (presentd_send(c, "subscribe", topics, &subscribed, &err) || (style && present(c, style, content, &err))) {
        fprintf(stderr, "renderer: %s\n", err.message);
        return 1;
    }
    int running = 1, stdin_open = 1;
    /* --interpolate: the next tick to draw, k/RATE of the daemon's clock. */
    double asked_at = 0;
    next_tick = ceil(known_time * RATE);
    while (running) {
        struct pollfd fds[2] = {
            { .fd = presentd_fd(c), .events = POLLIN | (presentd_wants_write(c) ? POLLOUT : 0) },
            { .fd = stdin_open ? STDIN_FILENO : -1, .events = POLLIN },
        };
        int timeout = -1;
        if (interpolate && needs_ticks()) {
            /* Real clock: until the next tick. Manual: ask for the time every 1/RATE s. */
            double wait = manual_clock ? asked_at + 1.0 / RATE - monotonic_now() : next_tick / RATE - monotonic_now();
            timeout = wait > 0 ? (int)ceil(wait * 1000) : 0;
        }
        if (poll(fds, 2, timeout) < 0) continue;
        if (interpolate) {
            if (manual_clock && asked < 0 && needs_ticks() && monotonic_now() >= asked_at + 1.0 / RATE) {
                json_object *hello = json_tokener_parse("{\"client\":\"renderer\",\"protocol\":1}");
                asked_at = monotonic_now();
                if (presentd_send(c, "hello", hello, &asked, &err)) asked = -1;
            }
            double now = manual_clock ? known_time : monotonic_now();
            if (!manual_clock && next_tick / RATE < now - 1.0 / RATE) next_tick = floor(now * RATE);  /* late: skip */
            if (!needs_ticks() && next_tick <= floor(now * RATE)) next_tick = floor(now * RATE) + 1;  /* idle: nothing to draw */
            if (!draw_ticks(now, 0)) break;
        }
        if (fds[1].revents) {
            char line[256];
            if (!fgets(line, sizeof line, stdin)) stdin_open = 0;
            else running = command(c, line, &err);
        }
        if (!fds[0].revents) continue;
        int status = presentd_process(c, &err);
        json_object *snapshot, *hello;
        if (presentd_take_reply(c, subscribed, &snapshot, NULL) == 0) {
            printf("subscribed at seq %lld\n", (long long)presentd_number(snapshot, "seq"));
            json_object *inner, *motion, *outputs;
            if (interpolate && json_object_object_get_ex(snapshot, "snapshot", &inner)) {
                /* The motion in force: each screen's, else (an older layout) main's at the top. */
                if (json_object_object_get_ex(inner, "outputs", &outputs) && json_object_is_type(outputs, json_type_array)) {
                    for (size_t i = 0; i < json_object_array_length(outputs); i++) {
                        json_object *o = json_object_array_get_idx(outputs, i), *name;
                        if (json_object_object_get_ex(o, "animations", &motion) && json_object_object_get_ex(o, "name", &name)) {
                            json_object_object_add(motion, "output", json_object_get(name));
                            take_motion(motion);
                        }
                    }
                } else if (json_object_object_get_ex(inner, "animations", &motion)) {
                    take_motion(motion);
                }
            }
            json_object_put(snapshot);
        }
        if (asked >= 0 && presentd_take_reply(c, asked, &hello, NULL) != PRESENTD_ERR_AGAIN) {
            double t = presentd_number(hello, "time");
            if (t > known_time) known_time = t;
            json_object_put(hello);
            asked = -1;
        }
        presentd_event ev;
        while (presentd_poll_event(c, &ev)) {
            if (strcmp(ev.method, "frame") == 0) {
                draw(ev.params);
                json_object *animating;
                if (frames_left > 0 && --frames_left == 0) running = 0;
                if (until_idle && json_object_object_get_ex(ev.params, "animating", &animating) &&
                    !json_object_get_boolean(animating)) running = 0;
            } else if (strcmp(ev.method, "animations") == 0) {
                /* Manual clock: the ticks before this payload belong to the motion it
                 * replaces (a transition's last ones, when the event that ended it came in
                 * the same read): drawn with it first, none skipped. */
                if (manual_clock && running && !draw_ticks(presentd_number(ev.params, "time"), 1)) running = 0;
                take_motion(ev.params);  /* drawn at the next ticks */
            } else {
                printf("%s %s\n", ev.method, json_object_to_json_string_ext(ev.params, JSON_C_TO_STRING_PLAIN));
                if (strcmp(ev.method, "lifecycle") == 0) {
                    describe_content(ev.params);
                    double t = presentd_number(ev.params, "time");
                    if (manual_clock && t > known_time) known_time = t;
                }
            }
            presentd_event_clear(&ev);
        }
        if (status) {
            if (status != PRESENTD_ERR_CLOSED) fprintf(stderr, "renderer: %s\n", err.message);
            running = 0;
        }
    }
    presentd_close(c);
    return 0;
}
