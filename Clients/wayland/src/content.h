/* The content of the entries, by id: kept from stack and lifecycle events, looked up by the
 * layers' revisions when drawing. */
#ifndef PW_CONTENT_H
#define PW_CONTENT_H

#include "app.h"

/* Entry id shows `content` (a string label or a content object; NULL: nothing) at revision
 * rev. Returns 1 when this changed what is kept. */
int pw_content_put(pw_app *app, const char *id, int64_t rev, json_object *content);

/* Content (a string label, a content object, or NULL) read into out: returns 1 when it shows
 * something (as presentd_content_of). out's strings are content's: valid while it is. */
int pw_content_read(json_object *content, presentd_content *out);

/* The kept record of id, or NULL. */
pw_record *pw_content_find(pw_app *app, const char *id);

/* Entry id has gone. */
void pw_content_drop(pw_app *app, const char *id);

/* Every record (the daemon went away). */
void pw_content_clear(pw_app *app);

/* Whether a custom style's dimension `key` ("width", "height") follows the content. */
int pw_style_by_content(json_object *style, const char *key);

/* The shape entry (an entry of a stack event, stack result or snapshot) is drawn in, from its
 * level, style, frame and content (docs/WAYLAND.md, "What it draws"). */
pw_shape pw_shape_of(json_object *entry);

/* The entries of a stack event, a stack result or a snapshot's screen into the records. */
void pw_content_take_entries(pw_app *app, json_object *obj);

#endif
