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
        r->focus = r->pressed = r->told = -1;
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
        r->forward = json_object_object_get_ex(e, "interaction", &interaction) &&
                     strcmp(json_object_get_string(interaction), "forward") == 0;
        r->leaving = json_object_object_get_ex(e, "state", &state) && strcmp(json_object_get_string(state), "dismissing") == 0;
    }
}
