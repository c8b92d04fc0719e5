/* See entry.h. */
#include "entry.h"

#include <string.h>

/* Priorities (0…1000): under do not disturb (allowPriorityAbove 500 by default) low and
 * normal are held and critical passes. */
static const int urgency_priority[3] = {250, 500, ENTRY_CRITICAL_PRIORITY};

/* The card's width, points: between mako's and dunst's 300 and GNOME Shell's banner of
 * 34em. Its height until the renderer has measured it: the fixed card it used to be. */
enum { ENTRY_WIDTH = 360, ENTRY_HEIGHT = 96 };

json_object *entry_content(const note_spec *spec) {
    json_object *c = json_object_new_object();
    if (spec->title) json_object_object_add(c, "title", json_object_new_string(spec->title));
    if (spec->app_name && *spec->app_name) json_object_object_add(c, "appName", json_object_new_string(spec->app_name));
    if (spec->message) json_object_object_add(c, "message", json_object_new_string(spec->message));
    if (spec->message_markup)
        json_object_object_add(c, "messageMarkup", json_object_new_string(spec->message_markup));
    if (spec->icon_kind != ICON_NONE) {
        json_object *icon = json_object_new_object();
        json_object_object_add(icon, spec->icon_kind == ICON_NAME ? "name" : "path", json_object_new_string(spec->icon));
        json_object_object_add(c, "icon", icon);
    }
    if (spec->n_actions) {
        json_object *actions = json_object_new_array();
        for (size_t i = 0; i < spec->n_actions; i++) {
            const note_action *a = &spec->actions[i];
            json_object *o = json_object_new_object();
            json_object_object_add(o, "id", json_object_new_string(a->id));
            json_object_object_add(o, "title", json_object_new_string(a->title));
            /* "default" is the click on the notification: Enter, and the renderer's tap on it. */
            if (strcmp(a->key, "default") == 0) json_object_object_add(o, "role", json_object_new_string("default"));
            json_object_object_add(o, "dismisses", json_object_new_boolean(!spec->resident));
            json_object_array_add(actions, o);
        }
        json_object_object_add(c, "actions", actions);
    }
    if (spec->inline_reply) {
        json_object *field = json_object_new_object();
        json_object_object_add(field, "id", json_object_new_string(NOTE_REPLY_FIELD));
        json_object_object_add(field, "kind", json_object_new_string("text"));
        if (spec->reply_placeholder)
            json_object_object_add(field, "placeholder", json_object_new_string(spec->reply_placeholder));
        json_object *fields = json_object_new_array();
        json_object_array_add(fields, field);
        json_object_object_add(c, "fields", fields);
    }
    if (spec->progress >= 0) json_object_object_add(c, "progress", json_object_new_double(spec->progress / 100.0));
    json_object *a11y = json_object_new_object();
    json_object_object_add(a11y, "announce",
                           json_object_new_string(spec->urgency == URGENCY_CRITICAL ? "assertive" : "polite"));
    json_object_object_add(c, "accessibility", a11y);
    return c;
}

json_object *entry_auto_dismiss(int32_t ms) {
    if (ms <= 0) return NULL;
    double after = ms / 1000.0;
    if (after > 86400) after = 86400;  /* presentd's bound: a day */
    json_object *o = json_object_new_object();
    json_object_object_add(o, "after", json_object_new_double(after));
    return o;
}

json_object *entry_present(const char *entry, const note_spec *spec, int32_t expire_ms) {
    json_object *p = json_object_new_object();
    json_object_object_add(p, "id", json_object_new_string(entry));
    json_object_object_add(p, "level", json_object_new_string("overlay"));
    /* The top corner of the trailing side, as desktops show notifications (mirrored right to left). */
    json_object_object_add(p, "position", json_object_new_string("trailing"));
    /* As tall as its content: the renderer measures the card at this width and sends its
     * preferredContentSize; until then it is ENTRY_HEIGHT tall (presentd's "content" would
     * otherwise fall back to the default size, two thirds of the screen). */
    json_object *style = json_object_new_object(), *w = json_object_new_object(), *size = json_object_new_object();
    json_object_object_add(style, "type", json_object_new_string("custom"));
    json_object_object_add(w, "points", json_object_new_double(ENTRY_WIDTH));
    json_object_object_add(style, "width", w);
    json_object_object_add(style, "height", json_object_new_string("content"));
    json_object_object_add(p, "style", style);
    json_object_object_add(size, "height", json_object_new_double(ENTRY_HEIGHT));
    json_object_object_add(p, "preferredContentSize", size);
    json_object *transition = json_object_new_object();
    json_object_object_add(transition, "type", json_object_new_string("coverVerticalFromTop"));
    json_object_object_add(transition, "duration", json_object_new_double(0.25));
    json_object_object_add(p, "transition", transition);
    json_object_object_add(p, "dismissOnSwipe", json_object_new_boolean(1));
    json_object_object_add(p, "priority", json_object_new_int(urgency_priority[spec->urgency]));
    if (spec->urgency == URGENCY_LOW) json_object_object_add(p, "droppable", json_object_new_boolean(1));
    json_object *countdown = entry_auto_dismiss(expire_ms);
    if (countdown) json_object_object_add(p, "autoDismiss", countdown);
    json_object_object_add(p, "content", entry_content(spec));
    return p;
}

json_object *entry_update(const char *entry, const note_spec *spec, int32_t expire_ms) {
    json_object *p = json_object_new_object();
    json_object_object_add(p, "id", json_object_new_string(entry));
    json_object_object_add(p, "content", entry_content(spec));
    json_object_object_add(p, "autoDismiss", entry_auto_dismiss(expire_ms));
    return p;
}
