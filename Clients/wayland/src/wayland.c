/* Outputs and their overlay surfaces. An output becomes a presentd screen once every property
 * has arrived (wl_output.done); its surface is made at once, and drawn once configured. */
#include "wayland.h"

#include <stdio.h>
#include <time.h>
#include <stdlib.h>
#include <string.h>

#include "activation.h"
#include "input.h"
#include "kiosk.h"
#include "link.h"
#include "wlr-layer-shell-unstable-v1-client-protocol.h"
#include "presentation-time-client-protocol.h"
#include "xdg-shell-client-protocol.h"
#include "xdg-output-unstable-v1-client-protocol.h"
#include "xdg-activation-v1-client-protocol.h"

static void forget_feedbacks(pw_screen *s);

/* -- The overlay surface ------------------------------------------------------------------ */

static void layer_configure(void *data, struct zwlr_layer_surface_v1 *layer, uint32_t serial, uint32_t w, uint32_t h) {
    pw_screen *s = data;
    zwlr_layer_surface_v1_ack_configure(layer, serial);
    if (w != s->width || h != s->height || !s->configured) s->dirty = 1;
    s->width = w;
    s->height = h;
    s->configured = 1;
}

static void destroy_surface(pw_screen *s) {
    if (s->frame) wl_callback_destroy(s->frame);
    forget_feedbacks(s);
    if (s->layer) zwlr_layer_surface_v1_destroy(s->layer);
    if (s->toplevel) xdg_toplevel_destroy(s->toplevel);
    if (s->xdg_surface) xdg_surface_destroy(s->xdg_surface);
    if (s->surface) wl_surface_destroy(s->surface);
    for (int i = 0; i < 2; i++) pw_buffer_destroy(&s->buffers[i]);
    s->frame = NULL;
    s->layer = NULL;
    s->toplevel = NULL;
    s->xdg_surface = NULL;
    s->surface = NULL;
    s->configured = 0;
}

static void layer_closed(void *data, struct zwlr_layer_surface_v1 *layer) {
    /* The compositor took it away (its output is going): the output's removal follows. */
    destroy_surface(data);
}

static const struct zwlr_layer_surface_v1_listener layer_listener = {
    .configure = layer_configure,
    .closed = layer_closed,
};

static void make_surface(pw_screen *s) {
    pw_app *app = s->app;
    s->surface = wl_compositor_create_surface(app->compositor);
    /* Nothing takes input until something is drawn (input.c then follows the picture). */
    struct wl_region *nothing = wl_compositor_create_region(app->compositor);
    wl_surface_set_input_region(s->surface, nothing);
    wl_region_destroy(nothing);
    wl_surface_set_buffer_scale(s->surface, s->scale);
    s->layer = zwlr_layer_shell_v1_get_layer_surface(app->layer_shell, s->surface, s->wl_output,
                                                     ZWLR_LAYER_SHELL_V1_LAYER_OVERLAY, "presentd");
    zwlr_layer_surface_v1_add_listener(s->layer, &layer_listener, s);
    zwlr_layer_surface_v1_set_anchor(s->layer, ZWLR_LAYER_SURFACE_V1_ANCHOR_TOP | ZWLR_LAYER_SURFACE_V1_ANCHOR_BOTTOM |
                                               ZWLR_LAYER_SURFACE_V1_ANCHOR_LEFT | ZWLR_LAYER_SURFACE_V1_ANCHOR_RIGHT);
    zwlr_layer_surface_v1_set_exclusive_zone(s->layer, -1);  /* over panels too, moving nothing */
    zwlr_layer_surface_v1_set_keyboard_interactivity(s->layer, ZWLR_LAYER_SURFACE_V1_KEYBOARD_INTERACTIVITY_NONE);
    zwlr_layer_surface_v1_set_size(s->layer, 0, 0);
    wl_surface_commit(s->surface);  /* no buffer: asks for the first configure */
}

pw_buffer *pw_screen_buffer(pw_screen *s) {
    if (!s->configured || !s->width || !s->height) return NULL;
    return pw_buffer_get(s->buffers, s->app->shm, (int)s->width * s->scale, (int)s->height * s->scale);
}

static void frame_done(void *data, struct wl_callback *callback, uint32_t ms) {
    pw_screen *s = data;
    if (s->app->trace) fprintf(stderr, "trace: done %s at %.6f\n", s->screen, pw_now());
    wl_callback_destroy(callback);
    s->frame = NULL;
}

static const struct wl_callback_listener frame_listener = { .done = frame_done };

/* -- When pictures are shown (wp_presentation) ---------------------------------------------
 * Every committed frame asks when it turned into light. The answers time the next pictures of
 * a motion (pw_screen_time: the refresh grid, and how far ahead of it to draw), and are
 * reported to presentd in batches (link.c), which keeps per screen and renderer how late frames
 * were shown, how far from the motion, and how many were discarded. */

typedef struct pw_feedback {
    struct wl_list link;
    pw_screen *screen;
    struct wp_presentation_feedback *feedback;
    double time, drawn_at;                 /* the daemon time drawn for, and when it was committed */
    double chosen_at;                      /* when that time was chosen */
} pw_feedback;

static void feedback_done(pw_feedback *fb) {
    wp_presentation_feedback_destroy(fb->feedback);
    wl_list_remove(&fb->link);
    free(fb);
}

static void forget_feedbacks(pw_screen *s) {
    pw_feedback *fb, *next;
    wl_list_for_each_safe(fb, next, &s->feedbacks, link) feedback_done(fb);
}

static void feedback_sync_output(void *data, struct wp_presentation_feedback *f, struct wl_output *o) {}

static void feedback_presented(void *data, struct wp_presentation_feedback *f, uint32_t sec_hi, uint32_t sec_lo,
                               uint32_t nsec, uint32_t refresh, uint32_t seq_hi, uint32_t seq_lo, uint32_t flags) {
    pw_feedback *fb = data;
    pw_screen *s = fb->screen;
    /* On the daemon's real clock, CLOCK_MONOTONIC: sway's clock is that already; weston's
     * headless one is another (CLOCK_MONOTONIC_RAW), translated by their offset now. */
    double at = (double)(((uint64_t)sec_hi << 32) | sec_lo) + nsec / 1e9;
    int clock = s->app->presentation_clock;
    if (clock >= 0 && clock != CLOCK_MONOTONIC) {
        struct timespec theirs;
        if (clock_gettime((clockid_t)clock, &theirs) == 0) at += pw_now() - ((double)theirs.tv_sec + theirs.tv_nsec / 1e9);
    }
    s->presented_at = at;
    s->refresh = refresh / 1e9;
    s->leads[s->next_lead] = at - fb->chosen_at;
    s->next_lead = (s->next_lead + 1) % PW_LEADS;
    if (s->n_leads < PW_LEADS) s->n_leads++;
    if (s->app->trace) fprintf(stderr, "trace: shown %s time %.6f at %.6f\n", s->screen, fb->time, at);
    if (s->n_shown < PW_REPORT_BATCH) {
        s->shown[s->n_shown].time = fb->time;
        s->shown[s->n_shown].drawn_at = fb->drawn_at;
        s->shown[s->n_shown].shown_at = s->presented_at;
        s->shown[s->n_shown].refresh = s->refresh;
        s->n_shown++;
    }
    feedback_done(fb);
}

static void feedback_discarded(void *data, struct wp_presentation_feedback *f) {
    pw_feedback *fb = data;
    fb->screen->discarded++;
    if (fb->screen->app->trace) fprintf(stderr, "trace: discarded %s time %.6f\n", fb->screen->screen, fb->time);
    feedback_done(fb);
}

static const struct wp_presentation_feedback_listener feedback_listener = {
    .sync_output = feedback_sync_output,
    .presented = feedback_presented,
    .discarded = feedback_discarded,
};

static void presentation_clock(void *data, struct wp_presentation *p, uint32_t clock) {
    ((pw_app *)data)->presentation_clock = (int)clock;
}

static const struct wp_presentation_listener presentation_listener = { .clock_id = presentation_clock };

static void ask_feedback(pw_screen *s) {
    pw_feedback *fb = calloc(1, sizeof *fb);
    if (!fb) return;
    fb->screen = s;
    fb->time = s->drawn_time;
    fb->drawn_at = pw_now();
    fb->chosen_at = s->chosen_at;
    fb->feedback = wp_presentation_feedback(s->app->presentation, s->surface);
    wp_presentation_feedback_add_listener(fb->feedback, &feedback_listener, fb);
    wl_list_insert(s->feedbacks.prev, &fb->link);
}

void pw_screen_present(pw_screen *s, pw_buffer *b, int animating) {
    /* On the manual clock the daemon's times are not the compositor's: nothing to time or report. */
    if (s->app->presentation && s->app->presentation_clock >= 0 && !s->app->manual_clock) ask_feedback(s);
    wl_surface_set_buffer_scale(s->surface, s->scale);
    wl_surface_attach(s->surface, b->wl, 0, 0);
    wl_surface_damage_buffer(s->surface, 0, 0, b->width, b->height);
    if (animating && !s->frame) {
        /* Paced by the output's refresh: the next picture when this one has been shown. */
        s->frame = wl_surface_frame(s->surface);
        wl_callback_add_listener(s->frame, &frame_listener, s);
    }
    wl_surface_commit(s->surface);
    if (s->app->trace) fprintf(stderr, "trace: commit %s time %.6f at %.6f\n", s->screen, s->drawn_time, pw_now());
    b->busy = 1;
}

/* -- Outputs ------------------------------------------------------------------------------- */

static void output_geometry(void *data, struct wl_output *o, int32_t x, int32_t y, int32_t pw, int32_t ph,
                            int32_t subpixel, const char *make, const char *model, int32_t transform) {}

static void output_mode(void *data, struct wl_output *o, uint32_t flags, int32_t w, int32_t h, int32_t refresh) {
    pw_screen *s = data;
    if (!(flags & WL_OUTPUT_MODE_CURRENT)) return;
    s->mode_width = w;
    s->mode_height = h;
    s->refresh_mhz = refresh;
}

static void output_scale(void *data, struct wl_output *o, int32_t factor) {
    ((pw_screen *)data)->scale = factor > 0 ? factor : 1;
}

static void output_name(void *data, struct wl_output *o, const char *name) {
    pw_screen *s = data;
    snprintf(s->name, sizeof s->name, "%s", name);
}

static void output_description(void *data, struct wl_output *o, const char *description) {}

static void output_done(void *data, struct wl_output *o) {
    pw_screen *s = data;
    if (!s->name[0]) return;  /* xdg-output's name comes with its own done */
    int first = !s->described;
    s->described = 1;
    if (s->logical_width <= 0) {  /* no xdg-output: the mode over the scale */
        s->logical_width = s->mode_width / s->scale;
        s->logical_height = s->mode_height / s->scale;
    }
    if (s->app->kiosk) return;  /* outputs are not screens: the kiosk window is */
    if (first) make_surface(s);
    else if (s->surface) wl_surface_set_buffer_scale(s->surface, s->scale);
    s->dirty = 1;
    pw_link_screen_changed(s->app, s);
}

static const struct wl_output_listener output_listener = {
    .geometry = output_geometry,
    .mode = output_mode,
    .done = output_done,
    .scale = output_scale,
    .name = output_name,
    .description = output_description,
};

static void xdg_position(void *data, struct zxdg_output_v1 *x, int32_t px, int32_t py) {}

static void xdg_size(void *data, struct zxdg_output_v1 *x, int32_t w, int32_t h) {
    pw_screen *s = data;
    s->logical_width = w;
    s->logical_height = h;
}

static void xdg_done(void *data, struct zxdg_output_v1 *x) {
    /* Version 3 leaves "done" to wl_output; before it, this one ends the batch. */
    if (zxdg_output_v1_get_version(x) < 3) output_done(data, ((pw_screen *)data)->wl_output);
}

static void xdg_name(void *data, struct zxdg_output_v1 *x, const char *name) {
    pw_screen *s = data;
    if (!s->name[0]) snprintf(s->name, sizeof s->name, "%s", name);
}

static void xdg_description(void *data, struct zxdg_output_v1 *x, const char *description) {}

static const struct zxdg_output_v1_listener xdg_output_listener = {
    .logical_position = xdg_position,
    .logical_size = xdg_size,
    .done = xdg_done,
    .name = xdg_name,
    .description = xdg_description,
};

static void watch_xdg_output(pw_screen *s) {
    if (!s->app->xdg_output_manager || s->xdg_output) return;
    s->xdg_output = zxdg_output_manager_v1_get_xdg_output(s->app->xdg_output_manager, s->wl_output);
    zxdg_output_v1_add_listener(s->xdg_output, &xdg_output_listener, s);
}

static void remove_screen(pw_screen *s) {
    pw_input_screen_gone(s->app, s);
    pw_link_screen_removed(s->app, s);
    destroy_surface(s);
    if (s->xdg_output) zxdg_output_v1_destroy(s->xdg_output);
    if (s->wl_output && wl_output_get_version(s->wl_output) >= WL_OUTPUT_RELEASE_SINCE_VERSION) wl_output_release(s->wl_output);
    else if (s->wl_output) wl_output_destroy(s->wl_output);
    if (s == s->app->kiosk_screen) s->app->kiosk_screen = NULL;
    presentd_animations_clear(&s->motion);
    wl_list_remove(&s->link);
    free(s);
}

/* -- Globals ------------------------------------------------------------------------------- */

static void global(void *data, struct wl_registry *registry, uint32_t name, const char *interface, uint32_t version) {
    pw_app *app = data;
    if (strcmp(interface, wl_compositor_interface.name) == 0) {
        app->compositor = wl_registry_bind(registry, name, &wl_compositor_interface, version < 4 ? version : 4);
    } else if (strcmp(interface, wl_shm_interface.name) == 0) {
        app->shm = wl_registry_bind(registry, name, &wl_shm_interface, 1);
    } else if (strcmp(interface, zwlr_layer_shell_v1_interface.name) == 0) {
        app->layer_shell = wl_registry_bind(registry, name, &zwlr_layer_shell_v1_interface, version < 3 ? version : 3);
    } else if (strcmp(interface, wp_presentation_interface.name) == 0) {
        app->presentation = wl_registry_bind(registry, name, &wp_presentation_interface, 1);
        wp_presentation_add_listener(app->presentation, &presentation_listener, app);
    } else if (strcmp(interface, xdg_wm_base_interface.name) == 0) {
        app->wm_base = wl_registry_bind(registry, name, &xdg_wm_base_interface, 1);
        pw_kiosk_answer_pings(app);
    } else if (strcmp(interface, zxdg_output_manager_v1_interface.name) == 0) {
        app->xdg_output_manager = wl_registry_bind(registry, name, &zxdg_output_manager_v1_interface, version < 3 ? version : 3);
        pw_screen *s;
        wl_list_for_each(s, &app->screens, link) watch_xdg_output(s);
    } else if (strcmp(interface, wl_seat_interface.name) == 0) {
        pw_input_bind_seat(app, registry, name, version);
    } else if (strcmp(interface, xdg_activation_v1_interface.name) == 0) {
        pw_activation_bind(app, registry, name);
    } else if (strcmp(interface, wl_output_interface.name) == 0) {
        pw_screen *s = calloc(1, sizeof *s);
        if (!s) return;
        s->app = app;
        s->global = name;
        s->scale = 1;
        wl_list_init(&s->feedbacks);
        s->wl_output = wl_registry_bind(registry, name, &wl_output_interface, version < 4 ? version : 4);
        wl_output_add_listener(s->wl_output, &output_listener, s);
        wl_list_insert(app->screens.prev, &s->link);  /* in the order the compositor lists them */
        watch_xdg_output(s);
    }
}

static void global_remove(void *data, struct wl_registry *registry, uint32_t name) {
    pw_app *app = data;
    pw_screen *s, *next;
    wl_list_for_each_safe(s, next, &app->screens, link)
        if (s->global == name) remove_screen(s);
}

static const struct wl_registry_listener registry_listener = { .global = global, .global_remove = global_remove };

int pw_wayland_connect(pw_app *app) {
    wl_list_init(&app->screens);
    app->display = wl_display_connect(NULL);
    if (!app->display) {
        const char *name = getenv("WAYLAND_DISPLAY");
        fprintf(stderr, "presentd-wayland: no Wayland compositor at %s (is WAYLAND_DISPLAY set, and the compositor running?)\n",
                name ? name : "$WAYLAND_DISPLAY (unset)");
        return -1;
    }
    app->registry = wl_display_get_registry(app->display);
    wl_registry_add_listener(app->registry, &registry_listener, app);
    if (wl_display_roundtrip(app->display) < 0) {
        fprintf(stderr, "presentd-wayland: the compositor went away while listing its globals\n");
        return -1;
    }
    if (!app->compositor || !app->shm) {
        fprintf(stderr, "presentd-wayland: the compositor offers no %s\n", app->compositor ? "wl_shm" : "wl_compositor");
        return -1;
    }
    if (app->kiosk) {
        if (!app->wm_base) {
            fprintf(stderr, "presentd-wayland: --kiosk: this compositor has no xdg-shell (xdg_wm_base)\n");
            return -1;
        }
        if (wl_display_roundtrip(app->display) < 0) {  /* the outputs, whose scale the window takes */
            fprintf(stderr, "presentd-wayland: the compositor went away while describing its outputs\n");
            return -1;
        }
        pw_kiosk_make(app);
        return 0;
    }
    if (!app->layer_shell) {
        fprintf(stderr, "presentd-wayland: this compositor has no wlr-layer-shell (GNOME's Mutter and Weston do not "
                        "offer it): nothing can be drawn above its windows; --kiosk draws in a fullscreen window instead\n");
        return -1;
    }
    /* The outputs' properties, then their surfaces' first configure. */
    if (wl_display_roundtrip(app->display) < 0 || wl_display_roundtrip(app->display) < 0) {
        fprintf(stderr, "presentd-wayland: the compositor went away while describing its outputs\n");
        return -1;
    }
    return 0;
}

void pw_wayland_disconnect(pw_app *app) {
    pw_screen *s, *next;
    wl_list_for_each_safe(s, next, &app->screens, link) remove_screen(s);
    pw_input_release(app);
    pw_activation_release(app);
    if (app->xdg_output_manager) zxdg_output_manager_v1_destroy(app->xdg_output_manager);
    if (app->layer_shell && zwlr_layer_shell_v1_get_version(app->layer_shell) >= ZWLR_LAYER_SHELL_V1_DESTROY_SINCE_VERSION)
        zwlr_layer_shell_v1_destroy(app->layer_shell);
    else if (app->layer_shell) wl_proxy_destroy((struct wl_proxy *)app->layer_shell);
    if (app->wm_base) xdg_wm_base_destroy(app->wm_base);
    if (app->presentation) wp_presentation_destroy(app->presentation);
    if (app->shm) wl_shm_destroy(app->shm);
    if (app->compositor) wl_compositor_destroy(app->compositor);
    if (app->registry) wl_registry_destroy(app->registry);
    if (app->display) wl_display_disconnect(app->display);
}
