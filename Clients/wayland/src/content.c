/* Records of what entries show. A handful at a time, so a list is the right map. */
#include "content.h"

#include <cairo.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int pw_content_read(json_object *content, presentd_content *out) {
    /* presentd_content_of reads the "content" member of an object; the holder only lends it. */
    json_object *holder = json_object_new_object();
    json_object_object_add(holder, "content", json_object_get(content));
    int shows = presentd_content_of(holder, out);
    json_object_put(holder);
    return shows;
}

pw_record *pw_content_find(pw_app *app, const char *id) {
    for (pw_record *r = app->records; r; r = r->next)
        if (strcmp(r->id, id) == 0) return r;
    return NULL;
}

static void forget_card(pw_record *r) {
    if (r->card) cairo_surface_destroy(r->card);
    if (r->shadow) cairo_surface_destroy(r->shadow);
    r->card = NULL;
    r->shadow = NULL;
}

/* The fields and actions a new revision of the content has. A field keeps what was typed
 * into it while its id stays; a new field starts with its own value. */
static void take_inputs(pw_record *r) {
    char ids[PRESENTD_MAX_FIELDS][64], values[PRESENTD_MAX_FIELDS][256];
    int n = r->n_fields;
    memcpy(ids, r->field_id, sizeof ids);
    memcpy(values, r->value, sizeof values);
    presentd_content c = {0};
    if (r->content && json_object_is_type(r->content, json_type_object)) {
        pw_content_read(r->content, &c);
        r->n_actions = (int)c.n_actions;
        r->n_fields = (int)c.n_fields;
        for (size_t i = 0; i < c.n_fields; i++) {
            snprintf(r->field_id[i], sizeof r->field_id[i], "%s", c.fields[i].id);
            snprintf(r->field_kind[i], sizeof r->field_kind[i], "%s", c.fields[i].kind);
            snprintf(r->value[i], sizeof r->value[i], "%s", c.fields[i].value ? c.fields[i].value : "");
            for (int k = 0; k < n; k++)
                if (strcmp(ids[k], r->field_id[i]) == 0) memcpy(r->value[i], values[k], sizeof values[k]);
        }
    } else {
        r->n_actions = r->n_fields = 0;
    }
    if (r->focus >= r->n_fields + r->n_actions) r->focus = -1;
    if (r->focus < 0 && r->n_fields > 0) {
        /* As a GTK dialog maps: its first field has focus, with its text selected
         * (gtk-entry-select-on-focus; zenity --entry's preset text). */
        r->focus = 0;
        r->selected = 1;
    }
    r->pressed = -1;
    r->n_buttons = 0;
    r->input_revision++;
}

int pw_content_put(pw_app *app, const char *id, int64_t rev, json_object *content) {
    pw_record *r = pw_content_find(app, id);
    if (r && r->revision == rev && r->content) return 0;
    if (!r) {
        r = calloc(1, sizeof *r);
        if (!r) return 0;
        snprintf(r->id, sizeof r->id, "%s", id);
        r->focus = r->pressed = r->body_action = r->told = -1;
        r->next = app->records;
        app->records = r;
    }
    json_object_put(r->content);
    r->content = content ? json_object_get(content) : NULL;
    r->revision = rev;
    forget_card(r);
    take_inputs(r);
    return 1;
}

void pw_content_drop(pw_app *app, const char *id) {
    for (pw_record **p = &app->records; *p; p = &(*p)->next) {
        if (strcmp((*p)->id, id) != 0) continue;
        pw_record *r = *p;
        *p = r->next;
        forget_card(r);
        json_object_put(r->content);
        free(r);
        return;
    }
}

void pw_content_clear(pw_app *app) {
    while (app->records) pw_content_drop(app, app->records->id);
}

int pw_style_by_content(json_object *style, const char *key) {
    json_object *v;
    return json_object_object_get_ex(style, key, &v) && json_object_is_type(v, json_type_string) &&
           strcmp(json_object_get_string(v), "content") == 0;
}

/* Taller than this, a custom modal is a panel (a sheet), not a dialog: the height of a tall alert
 * (docs/WAYLAND.md, "What it draws"). */
#define SHEET_MIN_HEIGHT 300.0

pw_shape pw_shape_of(json_object *entry) {
    json_object *content = NULL, *level = NULL, *style = NULL, *type = NULL;
    json_object_object_get_ex(entry, "content", &content);
    json_object_object_get_ex(entry, "style", &style);
    int overlay = json_object_object_get_ex(entry, "level", &level) && strcmp(json_object_get_string(level), "overlay") == 0;
    presentd_content c = {0};
    int label = json_object_is_type(content, json_type_string) || (pw_content_read(content, &c) && c.label);
    if (overlay) {
        /* A toast is a line of text, sized to it (presentctl toast); anything more is a banner. */
        int text_only = !c.icon_name && !c.icon_path && !c.n_actions && !c.n_fields &&
                        c.progress_kind == PRESENTD_PROGRESS_NONE && !c.surface_app_id && !c.surface_handle;
        return label || (text_only && pw_style_by_content(style, "width")) ? PW_SHAPE_TOAST : PW_SHAPE_BANNER;
    }
    if (label) return PW_SHAPE_LABEL;
    if (json_object_object_get_ex(entry, "detent", NULL)) return PW_SHAPE_SHEET;
    if (json_object_is_type(style, json_type_string)) {
        static const char *const panels[] = {"sheet", "bottomHalf", "topHalf", "popup", "fullScreen", "overFullScreen", "slideIn"};
        for (size_t i = 0; i < sizeof panels / sizeof panels[0]; i++)
            if (strcmp(json_object_get_string(style), panels[i]) == 0) return PW_SHAPE_SHEET;
        return PW_SHAPE_ALERT;
    }
    if (json_object_object_get_ex(style, "type", &type) && strcmp(json_object_get_string(type), "slideIn") == 0)
        return PW_SHAPE_SHEET;
    /* Sized to its content, a dialog stays one: its measure would otherwise choose its shape. */
    if (pw_style_by_content(style, "height")) return PW_SHAPE_ALERT;
    json_object *frame = NULL;
    json_object_object_get_ex(entry, "frame", &frame);
    return presentd_number(frame, "height") > SHEET_MIN_HEIGHT ? PW_SHAPE_SHEET : PW_SHAPE_ALERT;
}

void pw_content_take_entries(pw_app *app, json_object *obj) {
    json_object *entries;
    if (!json_object_object_get_ex(obj, "entries", &entries) || !json_object_is_type(entries, json_type_array)) return;
    for (size_t i = 0; i < json_object_array_length(entries); i++) {
        json_object *e = json_object_array_get_idx(entries, i), *id, *content = NULL;
        if (!json_object_object_get_ex(e, "id", &id)) continue;
        json_object_object_get_ex(e, "content", &content);
        pw_content_put(app, json_object_get_string(id), (int64_t)presentd_number(e, "contentRevision"), content);
        pw_record *r = pw_content_find(app, json_object_get_string(id));
        json_object *interaction, *state, *style, *level;
        if (!r) continue;
        snprintf(r->style, sizeof r->style, "%s",
                 json_object_object_get_ex(e, "style", &style) && json_object_is_type(style, json_type_string) ? json_object_get_string(style) : "");
        snprintf(r->level, sizeof r->level, "%s", json_object_object_get_ex(e, "level", &level) ? json_object_get_string(level) : "");
        pw_shape shape = pw_shape_of(e);
        if (shape != r->shape) { r->shape = shape; forget_card(r); }
        r->forward = json_object_object_get_ex(e, "interaction", &interaction) &&
                     strcmp(json_object_get_string(interaction), "forward") == 0;
        r->leaving = json_object_object_get_ex(e, "state", &state) && strcmp(json_object_get_string(state), "dismissing") == 0;
    }
}
