/* The touch path of src/input.c, fed wl_touch events directly (headless sway cannot make a
 * touch device): a finger is the same gesture as the pointer's button, so a tap, a swipe with
 * its release velocity, a button pressed, a second finger and a cancelled touch each end in
 * what presentd is sent. input.c is included whole, for its static listener; presentd's link
 * is replaced by a recorder of the notifications. Prints "ok N" or what differed, exit 1. */
#include "../src/input.c"

#include <stdarg.h>

static char sent[32][1024];
static int n_sent, failures;

void pw_link_notify(pw_app *app, const char *method, json_object *params) {
    if (n_sent < 32) snprintf(sent[n_sent++], sizeof sent[0], "%s %s", method, json_object_to_json_string_ext(params, JSON_C_TO_STRING_PLAIN));
    json_object_put(params);
}

static void expect(int line, int n, ...) {
    va_list ap;
    va_start(ap, n);
    int ok = n == n_sent;
    for (int i = 0; i < n; i++) {
        const char *want = va_arg(ap, const char *);
        if (ok && strcmp(want, sent[i]) != 0) ok = 0;
    }
    va_end(ap);
    if (!ok) {
        failures++;
        fprintf(stderr, "gesture_test.c:%d: presentd was sent %d notification(s):\n", line, n_sent);
        for (int i = 0; i < n_sent; i++) fprintf(stderr, "  %s\n", sent[i]);
        va_start(ap, n);
        fprintf(stderr, " expected %d:\n", n);
        for (int i = 0; i < n; i++) fprintf(stderr, "  %s\n", va_arg(ap, const char *));
        va_end(ap);
    }
    n_sent = 0;
}
#define EXPECT(...) expect(__LINE__, __VA_ARGS__)

static struct wl_surface *const SURFACE = (struct wl_surface *)&sent;  /* only compared */
static const struct wl_touch_listener *touch = &touch_listener;

static void down(pw_app *app, int32_t id, uint32_t ms, double x, double y) {
    touch->down(app, NULL, 0, ms, SURFACE, id, wl_fixed_from_double(x), wl_fixed_from_double(y));
}
static void motion(pw_app *app, int32_t id, uint32_t ms, double x, double y) {
    touch->motion(app, NULL, ms, id, wl_fixed_from_double(x), wl_fixed_from_double(y));
}
static void up(pw_app *app, int32_t id, uint32_t ms) { touch->up(app, NULL, 0, ms, id); }

int main(void) {
    pw_app app = {0};
    pw_input input = {0};
    app.input = &input;
    wl_list_init(&app.screens);
    pw_screen screen = { .app = &app, .surface = SURFACE, .screen = "main", .width = 800, .height = 600 };
    wl_list_insert(&app.screens, &screen.link);
    /* An alert with two buttons over its dimming: the card at 250,200 300×200; the dimming the
     * whole screen. */
    json_object *content = json_tokener_parse(
        "{\"title\":\"Delete?\",\"actions\":[{\"id\":\"ok\",\"title\":\"Delete\",\"dismisses\":true},"
        "{\"id\":\"no\",\"title\":\"Cancel\",\"role\":\"cancel\",\"dismisses\":true}]}");
    pw_content_put(&app, "a", 1, content);
    json_object_put(content);
    pw_record *r = pw_content_find(&app, "a");
    r->buttons[0] = (pw_target){ 10, 150, 135, 40, 1 };   /* Cancel, drawn first */
    r->buttons[1] = (pw_target){ 155, 150, 135, 40, 0 };  /* Delete */
    r->n_buttons = 2;
    screen.hits[0] = (pw_hit){ .id = "a", .dimming = 1, .x = 0, .y = 0, .width = 800, .height = 600, .scale = 1 };
    screen.hits[1] = (pw_hit){ .id = "a", .dimming = 0, .x = 250, .y = 200, .width = 300, .height = 200, .scale = 1 };
    screen.n_hits = 2;

    /* A tap on the dimming: `tap` at the point, in the screen's coordinates. */
    down(&app, 7, 1000, 40, 50);
    up(&app, 7, 1080);
    EXPECT(1, "tap {\"x\":40.0,\"y\":50.0,\"output\":\"main\"}");

    /* A finger on Cancel shows it pressed, and lifted there activates it. */
    down(&app, 3, 2000, 250 + 50, 200 + 170);
    if (r->pressed != 1) { failures++; fprintf(stderr, "a finger on Cancel: pressed %d, want 1\n", r->pressed); }
    up(&app, 3, 2100);
    EXPECT(1, "activate {\"id\":\"a\",\"action\":\"no\",\"fields\":{}}");
    if (r->pressed != -1) { failures++; fprintf(stderr, "lifted: pressed %d, want -1\n", r->pressed); }

    /* Slid off the button before lifting: nothing is activated. */
    down(&app, 3, 2500, 250 + 50, 200 + 170);
    motion(&app, 3, 2516, 250 + 50, 200 + 100);
    up(&app, 3, 2530);
    EXPECT(0);

    /* A drag on the card: swipe began, changed at each move, ended with the release velocity
     * over its last step (20 points in 16 ms: 1250 points a second down). */
    down(&app, 1, 3000, 400, 210);
    motion(&app, 1, 3016, 400, 230);
    motion(&app, 1, 3032, 400, 250);
    motion(&app, 1, 3048, 400, 270);
    up(&app, 1, 3050);
    double vy = 0;
    if (n_sent == 5 && sscanf(sent[4], "swipe {\"phase\":\"ended\",\"dx\":0.0,\"dy\":60.0,\"vx\":0.0,\"vy\":%lf", &vy) == 1 &&
        fabs(vy - 1250) < 1e-6)
        snprintf(sent[4], sizeof sent[4], "swipe ended at 1250 points a second");
    EXPECT(5, "swipe {\"phase\":\"began\",\"dx\":0.0,\"dy\":0.0,\"output\":\"main\"}",
           "swipe {\"phase\":\"changed\",\"dx\":0.0,\"dy\":20.0,\"output\":\"main\"}",
           "swipe {\"phase\":\"changed\",\"dx\":0.0,\"dy\":40.0,\"output\":\"main\"}",
           "swipe {\"phase\":\"changed\",\"dx\":0.0,\"dy\":60.0,\"output\":\"main\"}",
           "swipe ended at 1250 points a second");

    /* A second finger is not followed: only the first one's lift is the tap. */
    down(&app, 1, 4000, 40, 50);
    down(&app, 2, 4010, 700, 500);
    motion(&app, 2, 4026, 700, 400);
    up(&app, 2, 4040);
    EXPECT(0);
    up(&app, 1, 4050);
    EXPECT(1, "tap {\"x\":40.0,\"y\":50.0,\"output\":\"main\"}");

    /* The compositor takes a touch in the middle of a swipe: it is cancelled, and the lift that
     * never comes is not waited for. */
    down(&app, 5, 5000, 400, 210);
    motion(&app, 5, 5016, 400, 240);
    touch->cancel(&app, NULL);
    EXPECT(3, "swipe {\"phase\":\"began\",\"dx\":0.0,\"dy\":0.0,\"output\":\"main\"}",
           "swipe {\"phase\":\"changed\",\"dx\":0.0,\"dy\":30.0,\"output\":\"main\"}",
           "swipe {\"phase\":\"cancelled\",\"dx\":0.0,\"dy\":30.0,\"output\":\"main\"}");
    down(&app, 6, 6000, 40, 50);
    up(&app, 6, 6050);
    EXPECT(1, "tap {\"x\":40.0,\"y\":50.0,\"output\":\"main\"}");

    pw_content_clear(&app);
    if (failures) { fprintf(stderr, "gesture_test: %d failure(s)\n", failures); return 1; }
    printf("ok: the touch path's tap, button, swipe, second finger and cancel\n");
    return 0;
}
