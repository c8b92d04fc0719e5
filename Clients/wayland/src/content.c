/* Records of what entries show. A handful at a time, so a list is the right map. */
#include "content.h"

#include <cairo.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

int pw_content_put(pw_app *app, const char *id, int64_t rev, json_object *content) {
    pw_record *r = pw_content_find(app, id);
    if (r && r->revision == rev && r->content) return 0;
    if (!r) {
        r = calloc(1, sizeof *r);
        if (!r) return 0;
        snprintf(r->id, sizeof r->id, "%s", id);
        r->next = app->records;
        app->records = r;
    }
    json_object_put(r->content);
    r->content = content ? json_object_get(content) : NULL;
    r->revision = rev;
    forget_card(r);
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
    }
}
