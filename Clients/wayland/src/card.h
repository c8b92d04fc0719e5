/* A card: what one entry shows (its content) on its chrome (background and rounded corners),
 * drawn once per revision and size into an image that the frames then move. */
#ifndef PW_CARD_H
#define PW_CARD_H

#include <cairo.h>

#include "app.h"

/* The card of record r (NULL: a blank card) at width×height points, `scale` pixels per point,
 * with corners of `radius`: kept in r and drawn again only when one of these changes.
 * Returns an image of ceil(width·scale)×ceil(height·scale) pixels, owned by r (or, for a
 * NULL r, by the caller). */
cairo_surface_t *pw_card(pw_app *app, pw_record *r, double width, double height, double scale, double radius);

/* The size content (a label or content object) needs in `shape`: at `width` points wide when
 * width > 0, else at its natural width (a toast's text, else between 200 and 420 points); the
 * height is what the layout that draws it needs at that width. */
void pw_card_measure(pw_app *app, pw_shape shape, json_object *content, double width, double *out_width, double *out_height);

/* A rounded rectangle path. */
void pw_rounded_rect(cairo_t *cr, double x, double y, double w, double h, double radius);

/* Releases the fonts and caches of pango, fontconfig and cairo, at exit (so that a leak check
 * shows only what is really lost). */
void pw_card_shutdown(void);

void pw_set_color(cairo_t *cr, const pw_color *c, double alpha);

#endif
