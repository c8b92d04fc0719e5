/* Sizing to content: for an entry whose custom style has a "content" width or height, and for
 * an alert's height, the renderer measures what the card will show and tells presentd (update
 * {preferredContentSize}), as UIKit's preferredContentSize comes from the view that measured
 * itself. */
#ifndef PW_SIZE_H
#define PW_SIZE_H

#include "app.h"

/* The entries of a stack event, stack result or snapshot screen: each one sized to content
 * whose measured size differs from its preferredContentSize is sent an update. */
void pw_size_entries(pw_app *app, json_object *obj);

#endif
