/* Input: the compositor's seat (pointer and keyboard) turned into presentd's tap, swipe,
 * activate, key and focus, and the input region and keyboard interactivity of each overlay
 * surface, which decide what reaches the renderer at all and what goes to the windows below. */
#ifndef PW_INPUT_H
#define PW_INPUT_H

#include "app.h"

typedef struct pw_input pw_input;

/* The compositor offered a wl_seat (registry name `name`, version `version`). */
void pw_input_bind_seat(pw_app *app, struct wl_registry *registry, uint32_t name, uint32_t version);

/* Screen s has just been painted (its hits filled): its input region and keyboard
 * interactivity follow the picture, before the commit that shows it. */
void pw_input_picture_changed(pw_app *app, pw_screen *s);

/* Action `action` (its index in r's content) of r is activated: `activate` with the fields'
 * values, as a click on its button sends, with the activation token of the input event `serial`
 * on `surface`; a screen reader's press (a11y.c) is no input event of ours: 0, NULL. */
void pw_input_activate(pw_app *app, pw_record *r, int action, uint32_t serial, struct wl_surface *surface);

/* Entry id has gone: nothing of it stays pressed or focused. */
void pw_input_forget(pw_app *app, const char *id);

/* Screen s's surface goes away: the pointer and keyboard are no longer on it. */
void pw_input_screen_gone(pw_app *app, pw_screen *s);

/* A held key repeats when it is time to (wl_keyboard.repeat_info); pw_input_timeout: the
 * milliseconds until then, −1: no key repeats. */
void pw_input_tick(pw_app *app);
int pw_input_timeout(pw_app *app);

void pw_input_release(pw_app *app);

#endif
