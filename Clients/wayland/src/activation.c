/* See activation.h. The token is asked for with the press's serial and the card's surface,
 * as the protocol says a compositor may require; `done` always comes, with a token the
 * compositor may treat as invalid, and the activate goes out then, with what was held
 * behind it. */
#include "activation.h"

#include <stdlib.h>

#include "link.h"
#include "xdg-activation-v1-client-protocol.h"

/* A request held in order: an activate waiting for its token, or whatever came after one. */
typedef struct held {
    struct held *next;
    pw_app *app;
    const char *method;          /* a static string */
    json_object *params;
    struct xdg_activation_token_v1 *token;  /* while the compositor has not given it */
    int waiting;                 /* the compositor has not given its token yet */
} held;

/* The requests held, first to go first: the daemon hears input in the order it came (an Enter's
 * activate, then a quick Escape's key, never the other way round). */
static held *first, **last = &first;

void pw_activation_bind(pw_app *app, struct wl_registry *registry, uint32_t name) {
    app->activation = wl_registry_bind(registry, name, &xdg_activation_v1_interface, 1);
}

static held *hold(pw_app *app, const char *method, json_object *params, int waiting) {
    held *h = malloc(sizeof *h);
    if (!h) return NULL;
    *h = (held){.app = app, .method = method, .params = params, .waiting = waiting};
    *last = h;
    last = &h->next;
    return h;
}

/* What no longer waits goes, in order, up to the first activate still waiting. */
static void flush(void) {
    while (first && !first->waiting) {
        held *h = first;
        first = h->next;
        if (!first) last = &first;
        pw_link_notify(h->app, h->method, h->params);
        free(h);
    }
}

void pw_activation_notify(pw_app *app, const char *method, json_object *params) {
    if (!first || !hold(app, method, params, 0)) pw_link_notify(app, method, params);
}

static void token_done(void *data, struct xdg_activation_token_v1 *token, const char *text) {
    held *h = data;
    if (text && *text) json_object_object_add(h->params, "activationToken", json_object_new_string(text));
    h->waiting = 0;
    h->token = NULL;
    xdg_activation_token_v1_destroy(token);
    flush();
}

static const struct xdg_activation_token_v1_listener token_listener = {.done = token_done};

void pw_activation_send(pw_app *app, json_object *params, uint32_t serial, struct wl_surface *surface) {
    if (!app->activation || !app->seat || !serial || !surface) {
        pw_activation_notify(app, "activate", params);
        return;
    }
    struct xdg_activation_token_v1 *token = xdg_activation_v1_get_activation_token(app->activation);
    held *h = token ? hold(app, "activate", params, 1) : NULL;
    if (!h) {
        if (token) xdg_activation_token_v1_destroy(token);
        pw_activation_notify(app, "activate", params);
        return;
    }
    h->token = token;
    xdg_activation_token_v1_add_listener(token, &token_listener, h);
    xdg_activation_token_v1_set_serial(token, serial, app->seat);
    xdg_activation_token_v1_set_surface(token, surface);
    xdg_activation_token_v1_commit(token);
}

void pw_activation_release(pw_app *app) {
    /* The compositor is going: a press whose token it never gave still answers, without one. */
    for (held *h = first; h; h = h->next) {
        if (h->token) xdg_activation_token_v1_destroy(h->token);
        h->token = NULL;
        h->waiting = 0;
    }
    flush();
    if (app->activation) xdg_activation_v1_destroy(app->activation);
    app->activation = NULL;
}
