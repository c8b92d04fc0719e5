/* Icons: a freedesktop icon-theme name or an absolute PNG or SVG path, drawn in a square. */
#ifndef PW_ICON_H
#define PW_ICON_H

#include <cairo.h>
#include <stddef.h>

/* The file for icon `name` in `theme` (then hicolor, Adwaita, pixmaps): a PNG or SVG path
 * into buf, or NULL when there is none. A plain lookup: scalable first, then the larger
 * fixed sizes; index.theme is not read. */
const char *pw_icon_find(const char *name, const char *theme, char *buf, size_t size);

/* Draws the PNG or SVG at path into the square x, y, size×size of cr. 0, or -1 when the
 * file cannot be read as either. */
int pw_icon_draw(cairo_t *cr, const char *path, double x, double y, double size);

#endif
