/* One screen's picture at one time of the daemon's clock. */
#ifndef PW_PAINT_H
#define PW_PAINT_H

#include "app.h"

/* Paints the screen's layers at daemon time t into b (cleared first). Returns how many
 * layers it drew; *moving says whether the picture changes after t (a segment runs, an
 * indeterminate bar turns). */
size_t pw_paint(pw_app *app, pw_screen *s, double t, pw_buffer *b, int *moving);

#endif
