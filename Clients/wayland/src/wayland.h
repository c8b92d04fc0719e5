/* The compositor: its globals, its outputs (each a presentd screen) and one overlay layer
 * surface per output. */
#ifndef PW_WAYLAND_H
#define PW_WAYLAND_H

#include "app.h"

/* Connects to $WAYLAND_DISPLAY and learns the globals and outputs. 0, or -1 after one line
 * saying what is missing (no compositor; no wlr-layer-shell). */
int pw_wayland_connect(pw_app *app);

void pw_wayland_disconnect(pw_app *app);

/* Attaches buffer-to-be-drawn: a free buffer of the screen's size in pixels, or NULL (both
 * busy: draw at the next release or frame). */
pw_buffer *pw_screen_buffer(pw_screen *s);

/* Shows the buffer drawn; asks for a frame callback when more is to come (animating). */
void pw_screen_present(pw_screen *s, pw_buffer *b, int animating);

#endif
