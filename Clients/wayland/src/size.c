/* Measuring a card: the same fonts, paddings and parts as card.c lays out, without drawing. */
#include "size.h"
#include "content.h"

#include <math.h>
#include <pango/pangocairo.h>
#include <string.h>

#define NATURAL_MIN 200.0
#define NATURAL_MAX 420.0

/* A paragraph's size with a font, wrapped at width (≤ 0: on one line). */
static void text_size(cairo_t *cr, const char *font, const char *text, double width, double *w, double *h) {
    PangoLayout *layout = pango_cairo_create_layout(cr);
    PangoFontDescription *desc = pango_font_description_from_string(font);
    pango_layout_set_font_description(layout, desc);
    pango_font_description_free(desc);
    pango_layout_set_text(layout, text, -1);
    if (width > 0) {
        pango_layout_set_width(layout, (int)(width * PANGO_SCALE));
        pango_layout_set_wrap(layout, PANGO_WRAP_WORD_CHAR);
    }
    int pw, ph;
    pango_layout_get_pixel_size(layout, &pw, &ph);
    *w = pw;
    *h = ph;
    g_object_unref(layout);
}

void pw_size_measure(pw_app *app, json_object *content, double width, double *out_width, double *out_height) {
    const pw_theme *t = &app->theme;
    cairo_surface_t *scratch = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, 1, 1);
    cairo_t *cr = cairo_create(scratch);
    double w, h, pad = t->padding, gap = t->spacing;
    presentd_content c = {0};
    const char *label = json_object_is_type(content, json_type_string) ? json_object_get_string(content) : NULL;
    if (!label && pw_content_read(content, &c)) label = c.label;
    if (label) {
        text_size(cr, t->body_font, label, 0, &w, &h);
        double natural = fmin(fmax(w + 2 * pad, NATURAL_MIN / 2), NATURAL_MAX);
        *out_width = width > 0 ? width : natural;
        text_size(cr, t->body_font, label, *out_width - 2 * pad, &w, &h);
        *out_height = ceil(h + 2 * pad);
    } else {
        /* The natural width: the widest line among title, message and the buttons' row. */
        double natural = NATURAL_MIN;
        if (c.title) text_size(cr, t->title_font, c.title, 0, &w, &h), natural = fmax(natural, w + 2 * pad);
        if (c.message) text_size(cr, t->body_font, c.message, 0, &w, &h), natural = fmax(natural, w + 2 * pad);
        double row = 0;
        for (size_t i = 0; i < c.n_actions; i++) {
            text_size(cr, t->button_font, c.actions[i].title, 0, &w, &h);
            row = fmax(row, w + 2 * gap);
        }
        natural = fmax(natural, row * (double)c.n_actions + gap * (double)(c.n_actions ? c.n_actions - 1 : 0) + 2 * pad);
        *out_width = width > 0 ? width : fmin(natural, NATURAL_MAX);
        double inner = *out_width - 2 * pad, total = pad;
        if (c.icon_name || c.icon_path) total += t->icon_size + gap;
        if (c.title) text_size(cr, t->title_font, c.title, inner, &w, &h), total += h + gap / 2;
        if (c.message) text_size(cr, t->body_font, c.message, inner, &w, &h), total += h + gap;
        if (c.surface_app_id || c.surface_handle) total += 120 + gap;
        total += (double)c.n_fields * (t->field_height + gap);
        if (c.progress_kind != PRESENTD_PROGRESS_NONE) total += 6 + gap;
        if (c.n_actions) {
            /* As card.c: one row when every title fits its share, else stacked. */
            int stacked = c.n_actions > 3 || row > (inner - (double)(c.n_actions - 1) * gap) / (double)c.n_actions;
            total += pad + (stacked ? (double)c.n_actions * (t->button_height + gap) - gap : t->button_height);
        }
        *out_height = ceil(total + pad - gap / 2);
    }
    *out_width = ceil(*out_width);
    cairo_destroy(cr);
    cairo_surface_destroy(scratch);
}

static int is_content(json_object *style, const char *key) {
    json_object *v;
    return json_object_object_get_ex(style, key, &v) && json_object_is_type(v, json_type_string) &&
           strcmp(json_object_get_string(v), "content") == 0;
}

static void size_entry(pw_app *app, json_object *entry) {
    json_object *style, *id, *content = NULL, *preferred = NULL, *frame = NULL;
    if (!json_object_object_get_ex(entry, "style", &style) || !json_object_is_type(style, json_type_object)) return;
    int by_width = is_content(style, "width"), by_height = is_content(style, "height");
    if ((!by_width && !by_height) || !json_object_object_get_ex(entry, "id", &id)) return;
    json_object_object_get_ex(entry, "content", &content);
    json_object_object_get_ex(entry, "preferredContentSize", &preferred);
    json_object_object_get_ex(entry, "frame", &frame);
    if (!content) return;
    double width, height;
    /* A fixed width is the frame's; the height is measured at it. */
    pw_size_measure(app, content, by_width ? 0 : presentd_number(frame, "width"), &width, &height);
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
