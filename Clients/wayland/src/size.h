/* Sizing to content: for an entry whose custom style has a "content" width or height, the
 * renderer measures what the card will show and tells presentd (update {preferredContentSize}),
 * as UIKit's preferredContentSize comes from the view that measured itself. */
#ifndef PW_SIZE_H
#define PW_SIZE_H

#include "app.h"

/* The entries of a stack event, stack result or snapshot screen: each one sized to content
 * whose measured size differs from its preferredContentSize is sent an update. */
void pw_size_entries(pw_app *app, json_object *obj);

/* The size a card needs for content (a label or content object): at `width` points wide when
 * width > 0, else at its natural width (between 200 and 420 points). */
void pw_size_measure(pw_app *app, json_object *content, double width, double *out_width, double *out_height);

#endif
