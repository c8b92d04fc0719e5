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

static void draw(json_object *frame) {
    presentd_layer layers[64];
    size_t n = presentd_frame_layers(frame, layers, 64);
    const char *output = presentd_output_of(frame);
    printf("frame %lld t=%.4f delay=%.2fms layers=%zu", (long long)presentd_number(frame, "seq"),
           presentd_number(frame, "time"), (monotonic_now() - presentd_number(frame, "time")) * 1000, n);
    if (strcmp(output, PRESENTD_MAIN_OUTPUT) != 0) printf(" output=%s", output);  /* which screen to draw it on */
    printf("\n");
    for (size_t i = 0; i < n && i < 64; i++) {
        const presentd_layer *l = &layers[i];
        printf("  %-7s %-12s x=%.1f y=%.1f w=%.1f h=%.1f alpha=%.3f scale=%.3f rot=%.3f",
               l->dimming ? "dimming" : "content", l->id, l->x, l->y, l->width, l->height,
               l->alpha, l->scale, l->rotation);
        if (l->level && strcmp(l->level, "normal") != 0) printf(" level=%s", l->level);
        if (l->has_clip)
            printf(" clip=%.1f,%.1f,%.1fx%.1f", l->clip.x, l->clip.y, l->clip.width, l->clip.height);
        if (!l->dimming) printf(" rev=%lld", (long long)l->content_revision);
        printf("\n");
    }
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
    long frames_left = -1;
    int until_idle = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--socket") == 0 && i + 1 < argc) path = argv[++i];
        else if (strcmp(argv[i], "--output") == 0 && i + 1 < argc) screen = argv[++i];
        else if (strcmp(argv[i], "--present") == 0 && i + 1 < argc) style = argv[++i];
        else if (strcmp(argv[i], "--content") == 0 && i + 1 < argc) content = argv[++i];
        else if (strcmp(argv[i], "--frames") == 0 && i + 1 < argc) frames_left = atol(argv[++i]);
        else if (strcmp(argv[i], "--until-idle") == 0) until_idle = 1;
        else {
            fprintf(stderr, "usage: %s [--socket PATH] [--output NAME] [--present STYLE [--content JSON]] [--frames N] "
                    "[--until-idle]\n", argv[0]);
            return 2;
        }
    }
    setvbuf(stdout, NULL, _IOLBF, 0);
    presentd_error err;
    presentd_client *c = presentd_connect(path, &err);
    if (!c) { fprintf(stderr, "renderer: %s\n", err.message); return 3; }
    int64_t subscribed;
    json_object *topics = json_tokener_parse("{\"topics\":[\"frames\",\"lifecycle\",\"statusBar\"]}");
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
    while (running) {
        struct pollfd fds[2] = {
            { .fd = presentd_fd(c), .events = POLLIN | (presentd_wants_write(c) ? POLLOUT : 0) },
            { .fd = stdin_open ? STDIN_FILENO : -1, .events = POLLIN },
        };
        if (poll(fds, 2, -1) < 0) continue;
        if (fds[1].revents) {
            char line[256];
            if (!fgets(line, sizeof line, stdin)) stdin_open = 0;
            else running = command(c, line, &err);
        }
        if (!fds[0].revents) continue;
        int status = presentd_process(c, &err);
        json_object *snapshot;
        if (presentd_take_reply(c, subscribed, &snapshot, NULL) == 0) {
            printf("subscribed at seq %lld\n", (long long)presentd_number(snapshot, "seq"));
            json_object_put(snapshot);
        }
        presentd_event ev;
        while (presentd_poll_event(c, &ev)) {
            if (strcmp(ev.method, "frame") == 0) {
                draw(ev.params);
                json_object *animating;
                if (frames_left > 0 && --frames_left == 0) running = 0;
                if (until_idle && json_object_object_get_ex(ev.params, "animating", &animating) &&
                    !json_object_get_boolean(animating)) running = 0;
            } else {
                printf("%s %s\n", ev.method, json_object_to_json_string_ext(ev.params, JSON_C_TO_STRING_PLAIN));
                if (strcmp(ev.method, "lifecycle") == 0) describe_content(ev.params);
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
