/* Unit tests of src/input.c where headless sway cannot drive it, on an injected clock:
 *   - the touch path, fed wl_touch events directly (sway cannot make a touch device): a finger
 *     is the same gesture as the pointer's button, so a tap, a swipe with its release velocity,
 *     a button pressed, a second finger and a cancelled touch each end in what presentd is sent;
 *   - key repeat by wl_keyboard.repeat_info, to the millisecond.
 * input.c is included whole, for its static listeners; presentd's link is replaced by a
 * recorder of the notifications. Prints "ok" or what differed, and exits 1. */
#include "../src/input.c"

#include <stdarg.h>

static double clock_now;
double pw_now(void) { return clock_now; }

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
        fprintf(stderr, "input_test.c:%d: presentd was sent %d notification(s):\n", line, n_sent);
        for (int i = 0; i < n_sent; i++) fprintf(stderr, "  %s\n", sent[i]);
        va_start(ap, n);
        fprintf(stderr, " expected %d:\n", n);
        for (int i = 0; i < n; i++) fprintf(stderr, "  %s\n", va_arg(ap, const char *));
        va_end(ap);
    }
    n_sent = 0;
}
#define EXPECT(...) expect(__LINE__, __VA_ARGS__)

/* activation.c without a compositor's xdg-activation: the answer goes at once, as there. The
 * serial and surface of the input that caused it are kept, for the tests that check them. */
static uint32_t activation_serial;
static struct wl_surface *activation_surface;
void pw_activation_send(pw_app *app, json_object *params, uint32_t serial, struct wl_surface *surface) {
    activation_serial = serial;
    activation_surface = surface;
    pw_link_notify(app, "activate", params);
}
void pw_activation_notify(pw_app *app, const char *method, json_object *params) { pw_link_notify(app, method, params); }

static struct wl_surface *const SURFACE = (struct wl_surface *)&sent;  /* only compared */
static const struct wl_touch_listener *touch = &touch_listener;

static void down(pw_app *app, int32_t id, uint32_t ms, double x, double y) {
    touch->down(app, NULL, ms /* a serial of its own */, ms, SURFACE, id, wl_fixed_from_double(x), wl_fixed_from_double(y));
}
static void motion(pw_app *app, int32_t id, uint32_t ms, double x, double y) {
    touch->motion(app, NULL, ms, id, wl_fixed_from_double(x), wl_fixed_from_double(y));
}
static void up(pw_app *app, int32_t id, uint32_t ms) { touch->up(app, NULL, 0, ms, id); }

static void key(pw_app *app, uint32_t code, int pressed) {
    keyboard_listener.key(app, NULL, 0, 0, code, pressed ? WL_KEYBOARD_KEY_STATE_PRESSED : WL_KEYBOARD_KEY_STATE_RELEASED);
}

static void value_is(int line, pw_record *r, const char *want) {
    if (strcmp(r->value[0], want) == 0) return;
    failures++;
    fprintf(stderr, "input_test.c:%d: the field holds \"%s\", want \"%s\"\n", line, r->value[0], want);
}
#define VALUE_IS(r, want) value_is(__LINE__, r, want)

/* At 20 a second after 300 ms (sway's repeat_info), on the injected clock. */
static void key_repeat(void) {
    pw_app app = {0};
    pw_input input = {0};
    app.input = &input;
    wl_list_init(&app.screens);
    pw_screen screen = { .app = &app, .surface = SURFACE, .screen = "main", .top_id = "f" };
    wl_list_insert(&app.screens, &screen.link);
    input.keys_on = &screen;
    input.xkb = xkb_context_new(XKB_CONTEXT_NO_FLAGS);
    struct xkb_rule_names us = { .layout = "us" };
    input.keymap = xkb_keymap_new_from_names(input.xkb, &us, XKB_KEYMAP_COMPILE_NO_FLAGS);
    input.state = input.keymap ? xkb_state_new(input.keymap) : NULL;
    if (!input.state) { failures++; fprintf(stderr, "no us keymap (xkb-data)\n"); return; }
    json_object *content = json_tokener_parse("{\"title\":\"Name?\",\"fields\":[{\"id\":\"n\",\"kind\":\"text\"}],"
                                              "\"actions\":[{\"id\":\"no\",\"title\":\"Cancel\",\"role\":\"cancel\",\"dismisses\":true}]}");
    pw_content_put(&app, "f", 1, content);
    json_object_put(content);
    pw_record *r = pw_content_find(&app, "f");
    keyboard_listener.repeat_info(&app, NULL, 20, 300);

    clock_now = 100;
    key(&app, KEY_A, 1);
    VALUE_IS(r, "a");
    n_sent = 0;  /* the field's focus */
    clock_now = 100.299;
    pw_input_tick(&app);
    VALUE_IS(r, "a");                    /* not before the delay */
    if (pw_input_timeout(&app) != 1) { failures++; fprintf(stderr, "timeout %d ms, want 1\n", pw_input_timeout(&app)); }
    clock_now = 100.3001;
    pw_input_tick(&app);
    VALUE_IS(r, "aa");                   /* at the delay */
    clock_now = 100.399;
    pw_input_tick(&app);
    VALUE_IS(r, "aaa");                  /* then every 50 ms: at 350 */
    key(&app, KEY_A, 0);
    clock_now = 101;
    pw_input_tick(&app);
    VALUE_IS(r, "aaa");                  /* released: no more */
    if (pw_input_timeout(&app) != -1) { failures++; fprintf(stderr, "released: a timeout of %d ms\n", pw_input_timeout(&app)); }

    /* BackSpace held erases on; a loop held up for seconds types no burst. */
    snprintf(r->value[0], sizeof r->value[0], "%s", "0123456789");
    key(&app, KEY_BACKSPACE, 1);
    VALUE_IS(r, "012345678");
    clock_now = 101.34;
    pw_input_tick(&app);
    VALUE_IS(r, "01234567");
    clock_now = 160;
    pw_input_tick(&app);
    VALUE_IS(r, "0123");                 /* REPEAT_CATCH_UP at once, not the thousand that fell due */
    clock_now = 160.05;
    pw_input_tick(&app);
    VALUE_IS(r, "012");                  /* and on from then */
    key(&app, KEY_BACKSPACE, 0);

    /* Escape held answers once. */
    key(&app, KEY_ESC, 1);
    clock_now = 170;
    pw_input_tick(&app);
    clock_now = 171;
    pw_input_tick(&app);
    key(&app, KEY_ESC, 0);
    EXPECT(1, "key {\"key\":\"escape\",\"id\":\"f\",\"fields\":{\"n\":\"012\"},\"output\":\"main\"}");

    /* A second key pressed ends the first one's repeat. */
    key(&app, KEY_C, 1);
    key(&app, KEY_D, 1);
    key(&app, KEY_C, 0);
    clock_now = 171.3;
    pw_input_tick(&app);
    VALUE_IS(r, "012cdd");
    key(&app, KEY_D, 0);
    n_sent = 0;
    pw_content_clear(&app);
    xkb_state_unref(input.state);
    xkb_keymap_unref(input.keymap);
    xkb_context_unref(input.xkb);
}

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
    /* The compositor's activation token is asked for with the press's serial, on its surface. */
    if (activation_serial != 2000 || activation_surface != SURFACE) {
        failures++;
        fprintf(stderr, "a finger's activate: token asked with serial %u, want the press's 2000\n", activation_serial);
    }
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
    key_repeat();
    if (failures) { fprintf(stderr, "input_test: %d failure(s)\n", failures); return 1; }
    printf("ok: the touch path's tap, button, swipe, second finger and cancel; key repeat\n");
    return 0;
}
