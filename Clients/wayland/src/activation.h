/* xdg-activation: a button pressed on a card sends its `activate` with the compositor's
 * activation token for that press, so the app that answers (through presentd, the
 * notification bridge's ActivationToken) may raise its window. */
#ifndef PW_ACTIVATION_H
#define PW_ACTIVATION_H

#include <stdint.h>

#include <json-c/json.h>

#include "app.h"

/* The compositor offered xdg_activation_v1 (registry name `name`). */
void pw_activation_bind(pw_app *app, struct wl_registry *registry, uint32_t name);

/* Sends activate's params (consumed): at once when there is no input event to ask a token for
 * (serial 0 or no surface: a screen reader's press) or the compositor has no xdg-activation,
 * else once it has given the token for the input event `serial` on `surface`. */
void pw_activation_send(pw_app *app, json_object *params, uint32_t serial, struct wl_surface *surface);

/* Sends an input request (tap, swipe, key, focus; params consumed) to the daemon: at once, or,
 * while an activate waits for its token, after it, in the order they came. */
void pw_activation_notify(pw_app *app, const char *method, json_object *params);

/* At disconnect: the requests still held go, an activate without its token, and the global is
 * destroyed. */
void pw_activation_release(pw_app *app);

#endif
