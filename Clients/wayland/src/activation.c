/* See activation.h. The token is asked for with the press's serial and the card's surface,
 * as the protocol says a compositor may require; `done` always comes, with a token the
 * compositor may treat as invalid, and the activate goes out then. */
#include "activation.h"

#include <stdlib.h>

#include "link.h"
#include "xdg-activation-v1-client-protocol.h"

typedef struct pending {
    pw_app *app;
    json_object *params;
} pending;

void pw_activation_bind(pw_app *app, struct wl_registry *registry, uint32_t name) {
    app->activation = wl_registry_bind(registry, name, &xdg_activation_v1_interface, 1);
}

static void token_done(void *data, struct xdg_activation_token_v1 *token, const char *text) {
    pending *p = data;
    if (text && *text) json_object_object_add(p->params, "activationToken", json_object_new_string(text));
    pw_link_notify(p->app, "activate", p->params);
    xdg_activation_token_v1_destroy(token);
    free(p);
}

static const struct xdg_activation_token_v1_listener token_listener = {.done = token_done};

void pw_activation_send(pw_app *app, json_object *params, uint32_t serial, struct wl_surface *surface) {
    pending *p = app->activation && app->seat && serial && surface ? malloc(sizeof *p) : NULL;
    struct xdg_activation_token_v1 *token = p ? xdg_activation_v1_get_activation_token(app->activation) : NULL;
    if (!token) {
        free(p);
        pw_link_notify(app, "activate", params);
        return;
    }
    *p = (pending){.app = app, .params = params};
    xdg_activation_token_v1_add_listener(token, &token_listener, p);
    xdg_activation_token_v1_set_serial(token, serial, app->seat);
    xdg_activation_token_v1_set_surface(token, surface);
    xdg_activation_token_v1_commit(token);
}
