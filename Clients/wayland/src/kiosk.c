/* --kiosk: one fullscreen xdg_toplevel instead of overlay layer surfaces, for cage and any other
 * compositor. The window is presentd's main screen, sized by the compositor, at the scale of the
 * output it is on; the outputs themselves are not screens. */
#include "kiosk.h"

#include <stdio.h>
#include <stdlib.h>

#include "link.h"
#include "xdg-shell-client-protocol.h"


static pw_screen *screen_of_output(pw_app *app, struct wl_output *o) {
    pw_screen *s;
    wl_list_for_each(s, &app->screens, link)
        if (s->wl_output == o) return s;
    return NULL;
}

static void kiosk_resized(pw_screen *k) {
    k->dirty = 1;
    if (k->configured && k->logical_width > 0) pw_link_screen_changed(k->app, k);
}

static void xdg_surface_configure(void *data, struct xdg_surface *xdg, uint32_t serial) {
    pw_screen *k = data;
    xdg_surface_ack_configure(xdg, serial);
    pw_screen *first = wl_list_empty(&k->app->screens) ? NULL : wl_container_of(k->app->screens.next, first, link);
    /* 0: ours to choose, so the output's size (fullscreen in all but name). */
    int w = k->pending_width > 0 ? k->pending_width : first && first != k ? first->logical_width : 0;
    int h = k->pending_height > 0 ? k->pending_height : first && first != k ? first->logical_height : 0;
    if (w <= 0 || h <= 0) w = 800, h = 600;
    k->width = (uint32_t)w;
    k->height = (uint32_t)h;
    k->logical_width = w;
    k->logical_height = h;
    k->configured = 1;
    kiosk_resized(k);
}

static const struct xdg_surface_listener xdg_surface_listener = { .configure = xdg_surface_configure };

static void toplevel_configure(void *data, struct xdg_toplevel *t, int32_t w, int32_t h, struct wl_array *states) {
    pw_screen *k = data;
    k->pending_width = w;
    k->pending_height = h;
}

static void toplevel_close(void *data, struct xdg_toplevel *t) {
    ((pw_screen *)data)->app->quit = 1;
}

static const struct xdg_toplevel_listener toplevel_listener = {
    .configure = toplevel_configure,
    .close = toplevel_close,
};

static void surface_enter(void *data, struct wl_surface *surface, struct wl_output *o) {
    pw_screen *k = data, *out = screen_of_output(k->app, o);
    if (!out || out->scale == k->scale) return;
    k->scale = out->scale;
    kiosk_resized(k);
}

static void surface_leave(void *data, struct wl_surface *surface, struct wl_output *o) {}

static const struct wl_surface_listener surface_listener = { .enter = surface_enter, .leave = surface_leave };

static void wm_ping(void *data, struct xdg_wm_base *wm, uint32_t serial) { xdg_wm_base_pong(wm, serial); }

static const struct xdg_wm_base_listener wm_listener = { .ping = wm_ping };

void pw_kiosk_answer_pings(pw_app *app) {
    xdg_wm_base_add_listener(app->wm_base, &wm_listener, app);
}

void pw_kiosk_make(pw_app *app) {
    pw_screen *k = calloc(1, sizeof *k);
    if (!k) return;
    wl_list_init(&k->feedbacks);
    k->app = app;
    k->scale = 1;
    snprintf(k->name, sizeof k->name, "%s", "kiosk");
    snprintf(k->screen, sizeof k->screen, "%s", PRESENTD_MAIN_OUTPUT);
    k->described = 1;
    wl_list_insert(app->screens.prev, &k->link);
    app->kiosk_screen = k;
    k->surface = wl_compositor_create_surface(app->compositor);
    wl_surface_add_listener(k->surface, &surface_listener, k);
    k->xdg_surface = xdg_wm_base_get_xdg_surface(app->wm_base, k->surface);
    xdg_surface_add_listener(k->xdg_surface, &xdg_surface_listener, k);
    k->toplevel = xdg_surface_get_toplevel(k->xdg_surface);
    xdg_toplevel_add_listener(k->toplevel, &toplevel_listener, k);
    xdg_toplevel_set_title(k->toplevel, "presentd");
    xdg_toplevel_set_app_id(k->toplevel, "presentd-wayland");
    xdg_toplevel_set_fullscreen(k->toplevel, NULL);
    wl_surface_commit(k->surface);
}
