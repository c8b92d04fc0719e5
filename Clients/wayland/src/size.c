/* Telling presentd the size a card needs: measured by card.c's layout, the one that draws it. */
#include "size.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "card.h"
#include "content.h"

static void size_entry(pw_app *app, json_object *entry) {
    json_object *style, *id, *content = NULL, *preferred = NULL, *frame = NULL;
    if (!json_object_object_get_ex(entry, "style", &style)) return;
    /* An alert's height follows its content too (the daemon clamps it; docs/WAYLAND.md). */
    int alert = json_object_is_type(style, json_type_string) && strcmp(json_object_get_string(style), "alert") == 0;
    int by_width = !alert && pw_style_by_content(style, "width"), by_height = alert || pw_style_by_content(style, "height");
    if ((!by_width && !by_height) || !json_object_object_get_ex(entry, "id", &id)) return;
    json_object_object_get_ex(entry, "content", &content);
    json_object_object_get_ex(entry, "preferredContentSize", &preferred);
    json_object_object_get_ex(entry, "frame", &frame);
    if (!content) return;
    double width, height;
    /* A fixed width is the frame's; the height is measured at it. */
    pw_card_measure(app, pw_shape_of(entry), content, by_width ? 0 : presentd_number(frame, "width"), &width, &height);
    json_object *size = json_object_new_object(), *had;
    int changed = 0;
    if (by_width) {
        changed |= !json_object_object_get_ex(preferred, "width", &had) || fabs(json_object_get_double(had) - width) > 0.5;
        json_object_object_add(size, "width", json_object_new_double(width));
    }
    if (by_height) {
        changed |= !json_object_object_get_ex(preferred, "height", &had) || fabs(json_object_get_double(had) - height) > 0.5;
        json_object_object_add(size, "height", json_object_new_double(height));
    }
    if (!changed) { json_object_put(size); return; }
    json_object *p = json_object_new_object();
    json_object_object_add(p, "id", json_object_get(id));
    json_object_object_add(p, "preferredContentSize", size);
    if (app->verbose)
        fprintf(stderr, "presentd-wayland: entry %s measures %s\n", json_object_get_string(id),
                json_object_to_json_string_ext(size, JSON_C_TO_STRING_PLAIN));
    presentd_notify(app->client, "update", p, NULL);  /* a refusal (roles, policy) leaves the default size */
}

void pw_size_entries(pw_app *app, json_object *obj) {
    json_object *entries;
    if (!app->client || !json_object_object_get_ex(obj, "entries", &entries) || !json_object_is_type(entries, json_type_array))
        return;
    for (size_t i = 0; i < json_object_array_length(entries); i++) size_entry(app, json_object_array_get_idx(entries, i));
}
