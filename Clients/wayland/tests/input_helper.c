/* The input tests' helper, on the headless sway:
 *   - it gives the seat a pointer and a keyboard (a virtual pointer and a virtual keyboard that
 *     stay while it runs): without input devices a seat has no capabilities, and no client
 *     gets pointer or key events, however `swaymsg seat seat0 cursor` moves the cursor;
 *   - it is the window below: an ordinary xdg_toplevel, which sway tiles over the output, and
 *     which prints "click X Y" for every left click that reaches it (a click through a
 *     "forward" dimming).
 * It prints "ready" once the seat has both and the window is mapped. On stdin it takes
 * "move DX DY": its pointer moves by that much (points), as a mouse does, and it prints "moved"
 * once sway has handled it. `swaymsg seat seat0 cursor set|move` cannot drag: sway sends no
 * motion to the surface that holds a pressed button when the cursor is warped, only when a
 * device moves. "key CODE…" presses and releases each evdev key code in turn on its keyboard,
 * whose keymap is the layout given by `--layout NAME` (default: the default, us), and prints
 * "keyed": unlike wtype, which uploads a keymap of its own made for the text it types, these
 * are a physical keyboard's keys, read through that layout. Test code: no cleanup beyond what
 * exiting does. */
#include <linux/input-event-codes.h>
#include <poll.h>
#include <time.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <wayland-client.h>
#include <xkbcommon/xkbcommon.h>

#include "virtual-keyboard-unstable-v1-client-protocol.h"
#include "wlr-virtual-pointer-unstable-v1-client-protocol.h"
#include "xdg-shell-client-protocol.h"

static struct wl_compositor *compositor;
static struct wl_shm *shm;
static struct wl_seat *seat;
static struct xdg_wm_base *wm_base;
static struct zwlr_virtual_pointer_manager_v1 *pointers;
static struct zwp_virtual_keyboard_manager_v1 *keyboards;
static struct wl_surface *surface;
static struct wl_pointer *pointer;
static uint32_t capabilities;
static int configured, said_ready;
static double px, py;

static void global(void *data, struct wl_registry *r, uint32_t name, const char *interface, uint32_t version) {
    if (strcmp(interface, wl_compositor_interface.name) == 0) compositor = wl_registry_bind(r, name, &wl_compositor_interface, 4);
    else if (strcmp(interface, wl_shm_interface.name) == 0) shm = wl_registry_bind(r, name, &wl_shm_interface, 1);
    else if (strcmp(interface, wl_seat_interface.name) == 0 && !seat) seat = wl_registry_bind(r, name, &wl_seat_interface, 5);
    else if (strcmp(interface, xdg_wm_base_interface.name) == 0) wm_base = wl_registry_bind(r, name, &xdg_wm_base_interface, 1);
    else if (strcmp(interface, zwlr_virtual_pointer_manager_v1_interface.name) == 0)
        pointers = wl_registry_bind(r, name, &zwlr_virtual_pointer_manager_v1_interface, 1);
    else if (strcmp(interface, zwp_virtual_keyboard_manager_v1_interface.name) == 0)
        keyboards = wl_registry_bind(r, name, &zwp_virtual_keyboard_manager_v1_interface, 1);
}

static void global_remove(void *data, struct wl_registry *r, uint32_t name) {}
static const struct wl_registry_listener registry_listener = { global, global_remove };

static void ping(void *data, struct xdg_wm_base *b, uint32_t serial) { xdg_wm_base_pong(b, serial); }
static const struct xdg_wm_base_listener wm_listener = { ping };

/* A plain grey buffer of the configured size. */
static void draw(int w, int h) {
    int stride = w * 4, size = stride * h;
    int fd = memfd_create("input-helper", MFD_CLOEXEC);
    if (fd < 0 || ftruncate(fd, size) < 0) { perror("input-helper: buffer"); exit(1); }
    uint32_t *pixels = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    for (int i = 0; i < w * h; i++) pixels[i] = 0xff808080;
    munmap(pixels, size);
    struct wl_shm_pool *pool = wl_shm_create_pool(shm, fd, size);
    struct wl_buffer *buffer = wl_shm_pool_create_buffer(pool, 0, w, h, stride, WL_SHM_FORMAT_XRGB8888);
    wl_shm_pool_destroy(pool);
    close(fd);
    wl_surface_attach(surface, buffer, 0, 0);
    wl_surface_damage_buffer(surface, 0, 0, w, h);
    wl_surface_commit(surface);
}

static int32_t width = 640, height = 480;
static void toplevel_configure(void *data, struct xdg_toplevel *t, int32_t w, int32_t h, struct wl_array *states) {
    if (w > 0) width = w;
    if (h > 0) height = h;
}
static void toplevel_close(void *data, struct xdg_toplevel *t) { exit(0); }
static const struct xdg_toplevel_listener toplevel_listener = { .configure = toplevel_configure, .close = toplevel_close };

static void surface_configure(void *data, struct xdg_surface *x, uint32_t serial) {
    xdg_surface_ack_configure(x, serial);
    draw(width, height);
    configured = 1;
}
static const struct xdg_surface_listener xdg_surface_listener = { surface_configure };

static void enter(void *data, struct wl_pointer *p, uint32_t serial, struct wl_surface *s, wl_fixed_t x, wl_fixed_t y) {
    px = wl_fixed_to_double(x), py = wl_fixed_to_double(y);
}
static void leave(void *data, struct wl_pointer *p, uint32_t serial, struct wl_surface *s) {}
static void motion(void *data, struct wl_pointer *p, uint32_t time, wl_fixed_t x, wl_fixed_t y) {
    px = wl_fixed_to_double(x), py = wl_fixed_to_double(y);
}
static void button(void *data, struct wl_pointer *p, uint32_t serial, uint32_t time, uint32_t b, uint32_t state) {
    if (b == BTN_LEFT && state == WL_POINTER_BUTTON_STATE_PRESSED) printf("click %.0f %.0f\n", px, py);
}
static void axis(void *data, struct wl_pointer *p, uint32_t time, uint32_t a, wl_fixed_t v) {}
static void frame(void *data, struct wl_pointer *p) {}
static void axis_source(void *data, struct wl_pointer *p, uint32_t s) {}
static void axis_stop(void *data, struct wl_pointer *p, uint32_t time, uint32_t a) {}
static void axis_discrete(void *data, struct wl_pointer *p, uint32_t a, int32_t d) {}
static const struct wl_pointer_listener pointer_listener = {
    .enter = enter, .leave = leave, .motion = motion, .button = button, .axis = axis, .frame = frame,
    .axis_source = axis_source, .axis_stop = axis_stop, .axis_discrete = axis_discrete,
};

static void seat_capabilities(void *data, struct wl_seat *s, uint32_t caps) {
    capabilities = caps;
    if ((caps & WL_SEAT_CAPABILITY_POINTER) && !pointer) {
        pointer = wl_seat_get_pointer(s);
        wl_pointer_add_listener(pointer, &pointer_listener, NULL);
    }
}
static void seat_name(void *data, struct wl_seat *s, const char *name) {}
static const struct wl_seat_listener seat_listener = { seat_capabilities, seat_name };

/* The virtual keyboard's keymap (sway needs one before it is a keyboard): the layout's. */
static void give_keymap(struct zwp_virtual_keyboard_v1 *k, const char *layout) {
    struct xkb_context *ctx = xkb_context_new(XKB_CONTEXT_NO_FLAGS);
    struct xkb_rule_names names = { .layout = layout };
    struct xkb_keymap *map = xkb_keymap_new_from_names(ctx, &names, XKB_KEYMAP_COMPILE_NO_FLAGS);
    char *text = map ? xkb_keymap_get_as_string(map, XKB_KEYMAP_FORMAT_TEXT_V1) : NULL;
    if (!text) { fprintf(stderr, "input-helper: no default keymap\n"); exit(1); }
    size_t size = strlen(text) + 1;
    int fd = memfd_create("keymap", MFD_CLOEXEC);
    if (fd < 0 || write(fd, text, size) != (ssize_t)size) { perror("input-helper: keymap"); exit(1); }
    zwp_virtual_keyboard_v1_keymap(k, WL_KEYBOARD_KEYMAP_FORMAT_XKB_V1, fd, (uint32_t)size);
    close(fd);
    free(text);
    xkb_keymap_unref(map);
    xkb_context_unref(ctx);
}

static uint32_t now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint32_t)(ts.tv_sec * 1000 + ts.tv_nsec / 1000000);
}

int main(int argc, char **argv) {
    setvbuf(stdout, NULL, _IOLBF, 0);
    const char *layout = argc == 3 && strcmp(argv[1], "--layout") == 0 ? argv[2] : NULL;
    struct wl_display *display = wl_display_connect(NULL);
    if (!display) { fprintf(stderr, "input-helper: no compositor\n"); return 1; }
    struct wl_registry *registry = wl_display_get_registry(display);
    wl_registry_add_listener(registry, &registry_listener, NULL);
    wl_display_roundtrip(display);
    if (!compositor || !shm || !seat || !wm_base || !pointers || !keyboards) {
        fprintf(stderr, "input-helper: the compositor lacks a global it needs (virtual pointer %s, virtual keyboard %s)\n",
                pointers ? "yes" : "no", keyboards ? "yes" : "no");
        return 1;
    }
    wl_seat_add_listener(seat, &seat_listener, NULL);
    xdg_wm_base_add_listener(wm_base, &wm_listener, NULL);
    struct zwlr_virtual_pointer_v1 *mouse = zwlr_virtual_pointer_manager_v1_create_virtual_pointer(pointers, seat);
    struct zwp_virtual_keyboard_v1 *keyboard = zwp_virtual_keyboard_manager_v1_create_virtual_keyboard(keyboards, seat);
    give_keymap(keyboard, layout);
    surface = wl_compositor_create_surface(compositor);
    struct xdg_surface *xs = xdg_wm_base_get_xdg_surface(wm_base, surface);
    xdg_surface_add_listener(xs, &xdg_surface_listener, NULL);
    struct xdg_toplevel *top = xdg_surface_get_toplevel(xs);
    xdg_toplevel_add_listener(top, &toplevel_listener, NULL);
    xdg_toplevel_set_title(top, "presentd input test");
    wl_surface_commit(surface);
    int reading = 1, stamped = 0;
    uint32_t last_ms = 0;
    for (;;) {
        uint32_t both = WL_SEAT_CAPABILITY_POINTER | WL_SEAT_CAPABILITY_KEYBOARD;
        if (!said_ready && configured && (capabilities & both) == both) {
            said_ready = 1;
            printf("ready\n");
        }
        if (wl_display_flush(display) < 0) break;
        struct pollfd fds[2] = { { .fd = wl_display_get_fd(display), .events = POLLIN }, { .fd = 0, .events = POLLIN } };
        if (poll(fds, reading ? 2 : 1, -1) < 0) continue;
        if (fds[0].revents && wl_display_dispatch(display) < 0) break;
        if (reading && fds[1].revents) {
            char line[128];
            double dx, dy;
            if (!fgets(line, sizeof line, stdin)) { reading = 0; continue; }
            if (sscanf(line, "move %lf %lf", &dx, &dy) == 2) {
                /* A mouse reports at most every 8 ms, a finger every 16: the test's moves come
                 * within the same millisecond, so each is stamped 16 ms after the last, or now. */
                uint32_t ms = now_ms();
                if (stamped && (int32_t)(ms - (last_ms + 16)) < 0) ms = last_ms + 16;
                last_ms = ms;
                stamped = 1;
                zwlr_virtual_pointer_v1_motion(mouse, ms, wl_fixed_from_double(dx), wl_fixed_from_double(dy));
                zwlr_virtual_pointer_v1_frame(mouse);
                if (wl_display_roundtrip(display) < 0) break;
                printf("moved\n");
            } else if (strncmp(line, "key ", 4) == 0) {
                char *at = line + 4, *end;
                for (long code; (code = strtol(at, &end, 10)), end != at; at = end) {
                    zwp_virtual_keyboard_v1_key(keyboard, now_ms(), (uint32_t)code, WL_KEYBOARD_KEY_STATE_PRESSED);
                    zwp_virtual_keyboard_v1_key(keyboard, now_ms(), (uint32_t)code, WL_KEYBOARD_KEY_STATE_RELEASED);
                }
                if (wl_display_roundtrip(display) < 0) break;
                printf("keyed\n");
            }
        }
    }
    fprintf(stderr, "input-helper: the compositor went away\n");
    return 0;
}
