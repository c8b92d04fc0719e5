/* Drawing a card's content: icon, title, message, an app surface's placeholder, fields,
 * progress and buttons, top to bottom, the buttons at the bottom edge and the rest centred in
 * the space above them. Text is pango's: shaped for any script, right-to-left included,
 * wrapped and ellipsised to the room there is. */
#include "card.h"

#include <math.h>
#include <pango/pangocairo.h>
#include <fontconfig/fontconfig.h>
#include <string.h>

#include "content.h"
#include "icon.h"

void pw_card_shutdown(void) {
    pango_cairo_font_map_set_default(NULL);
    cairo_debug_reset_static_data();
    FcFini();
}

void pw_set_color(cairo_t *cr, const pw_color *c, double alpha) {
    cairo_set_source_rgba(cr, c->r, c->g, c->b, c->a * alpha);
}

void pw_rounded_rect(cairo_t *cr, double x, double y, double w, double h, double r) {
    r = fmin(r, fmin(w, h) / 2);
    if (r <= 0) { cairo_rectangle(cr, x, y, w, h); return; }
    cairo_new_sub_path(cr);
    cairo_arc(cr, x + w - r, y + r, r, -M_PI / 2, 0);
    cairo_arc(cr, x + w - r, y + h - r, r, 0, M_PI / 2);
    cairo_arc(cr, x + r, y + h - r, r, M_PI / 2, M_PI);
    cairo_arc(cr, x + r, y + r, r, M_PI, 3 * M_PI / 2);
    cairo_close_path(cr);
}

/* A paragraph `width` wide: wrapped, at most max_height tall (≤ 0: one line), ellipsised. */
static PangoLayout *paragraph(cairo_t *cr, const char *font, const char *text, double width, double max_height,
                              PangoAlignment align) {
    PangoLayout *layout = pango_cairo_create_layout(cr);
    PangoFontDescription *desc = pango_font_description_from_string(font);
    pango_layout_set_font_description(layout, desc);
    pango_font_description_free(desc);
    pango_layout_set_text(layout, text, -1);
    pango_layout_set_width(layout, (int)(fmax(width, 1) * PANGO_SCALE));
    pango_layout_set_wrap(layout, PANGO_WRAP_WORD_CHAR);
    pango_layout_set_ellipsize(layout, PANGO_ELLIPSIZE_END);
    /* Negative heights count lines: -1 is one line. */
    pango_layout_set_height(layout, max_height > 0 ? (int)(max_height * PANGO_SCALE) : -1);
    pango_layout_set_alignment(layout, align);
    pango_layout_set_auto_dir(layout, TRUE);
    return layout;
}

static double layout_height(PangoLayout *layout) {
    int w, h;
    pango_layout_get_pixel_size(layout, &w, &h);
    return h;
}

static double layout_width(PangoLayout *layout) {
    int w, h;
    pango_layout_get_pixel_size(layout, &w, &h);
    return w;
}

static void show(cairo_t *cr, PangoLayout *layout, double x, double y, const pw_color *c) {
    pw_set_color(cr, c, 1);
    cairo_move_to(cr, x, y);
    pango_cairo_show_layout(cr, layout);
}

/* The buttons: a row when every title fits its share of the width (two or three), else one
 * above another. In a row the cancel action is first (leftmost; rightmost right to left),
 * stacked it is last, as desktop and phone alerts put it. */
/* Keyboard focus: a ring in the accent colour just outside the part. */
static void focus_ring(pw_app *app, cairo_t *cr, double x, double y, double w, double h, double radius) {
    pw_rounded_rect(cr, x - 2, y - 2, w + 4, h + 4, radius + 2);
    pw_set_color(cr, &app->theme.accent, 1);
    cairo_set_line_width(cr, 2);
    cairo_stroke(cr);
}

static double buttons(pw_app *app, pw_record *r, cairo_t *cr, const presentd_content *c, double x, double bottom,
                      double width, int draw, int rtl) {
    const pw_theme *t = &app->theme;
    size_t n = c->n_actions;
    if (n == 0) return 0;
    size_t order[PRESENTD_MAX_ACTIONS], k = 0, cancel = n;
    for (size_t i = 0; i < n; i++)
        if (c->actions[i].role && strcmp(c->actions[i].role, "cancel") == 0) cancel = i;
    double share = (width - (double)(n - 1) * t->spacing) / (double)n;
    int row = n <= 3;
    for (size_t i = 0; i < n && row; i++) {
        PangoLayout *l = paragraph(cr, t->button_font, c->actions[i].title, 10000, 0, PANGO_ALIGN_LEFT);
        if (layout_width(l) + 2 * t->spacing > share) row = 0;
        g_object_unref(l);
    }
    if (row && cancel < n) order[k++] = cancel;
    for (size_t i = 0; i < n; i++) if (i != cancel) order[k++] = i;
    if (!row && cancel < n) order[k++] = cancel;
    double total = row ? t->button_height : (double)n * t->button_height + (double)(n - 1) * t->spacing;
    if (!draw) return total;
    double y = bottom - total;
    for (size_t j = 0; j < n; j++) {
        const presentd_content_action *a = &c->actions[order[j]];
        /* Right to left, a row reads from the right: the cancel action is rightmost. */
        size_t slot = row && rtl ? n - 1 - j : j;
        double bx = row ? x + (double)slot * (share + t->spacing) : x, bw = row ? share : width;
        double by = row ? y : y + (double)j * (t->button_height + t->spacing);
        const pw_color *fill = &t->button, *ink = &t->button_text;
        /* The accent marks the button Enter chooses: the focused one, else the default action's
         * (GTK moves the default look to the focused button). */
        int focused = r && r->focus == r->n_fields + (int)j, on_button = r && r->focus >= r->n_fields;
        if (on_button ? focused : a->role && strcmp(a->role, "default") == 0) fill = &t->accent, ink = &t->accent_text;
        if (a->role && strcmp(a->role, "destructive") == 0) fill = &t->destructive, ink = &t->destructive_text;
        pw_rounded_rect(cr, bx, by, bw, t->button_height, t->button_radius);
        pw_set_color(cr, fill, 1);
        cairo_fill(cr);
        if (r) {
            /* Where it is, in Tab order (drawing order), for the pointer and the keyboard. */
            r->buttons[j] = (pw_target){bx, by, bw, t->button_height, (int)order[j]};
            r->n_buttons = (int)j + 1;
            if (r->pressed == (int)order[j]) {
                /* Held down: darker, as a pressed button is. */
                pw_rounded_rect(cr, bx, by, bw, t->button_height, t->button_radius);
                cairo_set_source_rgba(cr, 0, 0, 0, 0.25);
                cairo_fill(cr);
            }
            if (focused) focus_ring(app, cr, bx, by, bw, t->button_height, t->button_radius);
        }
        PangoLayout *l = paragraph(cr, t->button_font, a->title, bw - t->spacing, 0, PANGO_ALIGN_CENTER);
        show(cr, l, bx + t->spacing / 2, by + (t->button_height - layout_height(l)) / 2, ink);
        g_object_unref(l);
    }
    return total;
}

/* A field shows what was typed into it (r's value), else the content's value, else its
 * placeholder. A secure field's own value never reaches renderers; what is typed into it is
 * drawn as bullets, one per character. */
static void field(pw_app *app, pw_record *r, size_t i, cairo_t *cr, const presentd_content_field *f, double x, double y,
                  double w) {
    const pw_theme *t = &app->theme;
    pw_rounded_rect(cr, x + 0.5, y + 0.5, w - 1, t->field_height - 1, t->field_radius);
    pw_set_color(cr, &t->field, 1);
    cairo_fill_preserve(cr);
    pw_set_color(cr, &t->field_border, 1);
    cairo_set_line_width(cr, 1);
    cairo_stroke(cr);
    int secure = strcmp(f->kind, "secure") == 0;
    const char *value = r && (int)i < r->n_fields ? r->value[i] : (secure ? NULL : f->value);
    char bullets[256 * 3 + 1] = "";
    if (secure && value) {
        size_t n = 0;
        for (const char *p = value; *p && n + 3 < sizeof bullets; p++)
            if (((unsigned char)*p & 0xc0) != 0x80) { memcpy(bullets + n, "\u2022", 3); n += 3; }
        bullets[n] = 0;
        value = bullets;
    }
    int focused = r && (int)i < r->n_fields && r->focus == (int)i;
    if (r && (int)i < r->n_fields) {
        r->fields[i] = (pw_target){x, y, w, t->field_height, (int)i};
        if (focused) focus_ring(app, cr, x, y, w, t->field_height, t->field_radius);
    }
    int has_value = value && *value, selected = focused && has_value && r->selected;
    const char *text = has_value ? value : f->placeholder;
    if (!text && !focused) return;
    PangoLayout *l = paragraph(cr, t->body_font, text ? text : "", w - 2 * t->spacing, 0, PANGO_ALIGN_LEFT);
    double tx = x + t->spacing, ty = y + (t->field_height - layout_height(l)) / 2;
    if (selected) {
        /* The selection: the accent, a third strong, behind the text (its logical extent). */
        PangoRectangle extent;
        pango_layout_get_pixel_extents(l, NULL, &extent);
        cairo_rectangle(cr, tx + extent.x, ty + extent.y, extent.width, extent.height);
        pw_set_color(cr, &t->accent, 0.3);
        cairo_fill(cr);
    }
    show(cr, l, tx, ty, has_value ? &t->text : &t->placeholder);
    if (focused && !selected) {
        /* The caret, 1 pt wide in the text's colour, where the text ends (before a placeholder);
         * it does not blink: a blink would wake the renderer at rest. */
        PangoRectangle caret;
        pango_layout_get_cursor_pos(l, has_value ? (int)strlen(text) : 0, &caret, NULL);
        double cx = tx + (double)caret.x / PANGO_SCALE, cy = ty + (double)caret.y / PANGO_SCALE;
        cairo_user_to_device(cr, &cx, &cy);
        cx = round(cx);  /* on a pixel's edge: sharp, not smeared over two */
        cairo_device_to_user(cr, &cx, &cy);
        cairo_rectangle(cr, cx, cy, 1, (double)caret.height / PANGO_SCALE);
        pw_set_color(cr, &t->text, 1);
        cairo_fill(cr);
    }
    g_object_unref(l);
}

/* Whether text reads right to left: its first strong character's direction, as pango
 * resolves a paragraph's (pango_find_base_dir is deprecated). */
static int right_to_left(cairo_t *cr, const char *text) {
    PangoLayout *layout = pango_cairo_create_layout(cr);
    pango_layout_set_text(layout, text, -1);
    PangoLayoutLine *line = pango_layout_get_line_readonly(layout, 0);
    int rtl = line && line->resolved_dir == PANGO_DIRECTION_RTL;
    g_object_unref(layout);
    return rtl;
}

/* The dialog's parts. */
static void dialog(pw_app *app, pw_record *r, cairo_t *cr, const presentd_content *c, double w, double h) {
    const pw_theme *t = &app->theme;
    double pad = t->padding, gap = t->spacing, inner = w - 2 * pad;
    /* The dialog's direction is its text's: an Arabic or Hebrew title mirrors the buttons. */
    const char *words = c->title ? c->title : c->message;
    int rtl = words && right_to_left(cr, words);
    double bottom = h - pad, buttons_height = buttons(app, r, cr, c, pad, bottom, inner, 0, rtl);
    double room_bottom = bottom - (buttons_height > 0 ? buttons_height + pad : 0);
    char found[1024];
    const char *icon = c->icon_path ? c->icon_path : pw_icon_find(c->icon_name, t->icon_theme, found, sizeof found);
    int progress = c->progress_kind != PRESENTD_PROGRESS_NONE, surface = c->surface_app_id || c->surface_handle;
    /* Fixed heights first; the message takes what is left, then the surface's placeholder. */
    double fixed = (icon ? t->icon_size + gap : 0) + (double)c->n_fields * (t->field_height + gap) + (progress ? 6 + gap : 0);
    PangoLayout *title = c->title ? paragraph(cr, t->title_font, c->title, inner, -2, PANGO_ALIGN_CENTER) : NULL;
    double title_h = title ? layout_height(title) + gap / 2 : 0;
    double room = room_bottom - pad - fixed - title_h - (surface ? 24 + gap : 0);
    PangoLayout *message = c->message && room > 8 ? paragraph(cr, t->body_font, c->message, inner, room, PANGO_ALIGN_CENTER) : NULL;
    double message_h = message ? layout_height(message) + gap : 0;
    double surface_h = surface ? fmax(24, room - message_h + 24) : 0;
    double used = fixed + title_h + message_h + (surface ? surface_h + gap : 0) - gap;
    double y = pad + fmax(0, (room_bottom - pad - used) / 2);
    if (icon) {
        if (pw_icon_draw(cr, icon, (w - t->icon_size) / 2, y, t->icon_size) != 0 && app->verbose)
            fprintf(stderr, "presentd-wayland: entry %s: cannot draw the icon %s\n", r ? r->id : "?", icon);
        y += t->icon_size + gap;
    }
    if (title) { show(cr, title, pad, y, &t->text); y += title_h; g_object_unref(title); }
    if (message) { show(cr, message, pad, y, &t->secondary_text); y += message_h; g_object_unref(message); }
    if (surface) {
        /* The app's own window belongs here; embedding it is another renderer's matter. */
        pw_rounded_rect(cr, pad + 0.5, y + 0.5, inner - 1, surface_h - 1, t->field_radius);
        double dash[] = {4, 3};
        cairo_set_dash(cr, dash, 2, 0);
        pw_set_color(cr, &t->field_border, 1);
        cairo_set_line_width(cr, 1);
        cairo_stroke(cr);
        cairo_set_dash(cr, NULL, 0, 0);
        PangoLayout *l = paragraph(cr, t->body_font, c->surface_app_id ? c->surface_app_id : c->surface_handle, inner - 2 * gap, 0,
                                   PANGO_ALIGN_CENTER);
        show(cr, l, pad + gap, y + (surface_h - layout_height(l)) / 2, &t->placeholder);
        g_object_unref(l);
        y += surface_h + gap;
    }
    for (size_t i = 0; i < c->n_fields; i++) {
        field(app, r, i, cr, &c->fields[i], pad, y, inner);
        y += t->field_height + gap;
    }
    if (progress) {
        pw_rounded_rect(cr, pad, y, inner, 6, 3);
        pw_set_color(cr, &t->progress_track, 1);
        cairo_fill(cr);
        if (c->progress_kind == PRESENTD_PROGRESS_FRACTION && c->progress > 0) {
            pw_rounded_rect(cr, pad, y, inner * fmin(c->progress, 1), 6, 3);
            pw_set_color(cr, &t->progress_fill, 1);
            cairo_fill(cr);
        }
        if (r && c->progress_kind == PRESENTD_PROGRESS_INDETERMINATE) {
            /* Its moving part is drawn with each frame, over the card (paint.c). */
            r->indeterminate = 1;
            r->bar_x = pad, r->bar_y = y, r->bar_width = inner, r->bar_height = 6;
        }
    }
    buttons(app, r, cr, c, pad, bottom, inner, 1, rtl);
}

static void label(pw_app *app, cairo_t *cr, const char *text, double w, double h) {
    const pw_theme *t = &app->theme;
    PangoLayout *l = paragraph(cr, t->body_font, text, w - 2 * t->padding, h - 2 * t->spacing, PANGO_ALIGN_CENTER);
    show(cr, l, t->padding, (h - layout_height(l)) / 2, &t->text);
    g_object_unref(l);
}

cairo_surface_t *pw_card(pw_app *app, pw_record *r, double width, double height, double scale, double radius) {
    if (r && r->card && r->card_width == width && r->card_height == height && r->card_scale == scale &&
        r->card_radius == radius && r->card_revision == r->revision && r->card_input_revision == r->input_revision)
        return r->card;
    if (r && r->card) cairo_surface_destroy(r->card);
    int pw = (int)ceil(width * scale), ph = (int)ceil(height * scale);
    cairo_surface_t *image = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, pw > 0 ? pw : 1, ph > 0 ? ph : 1);
    cairo_t *cr = cairo_create(image);
    cairo_scale(cr, scale, scale);
    pw_rounded_rect(cr, 0, 0, width, height, radius);
    pw_set_color(cr, &app->theme.card, 1);
    cairo_fill_preserve(cr);
    cairo_clip(cr);
    if (r) {
        r->indeterminate = 0;
        presentd_content c;
        if (r->content && json_object_is_type(r->content, json_type_string))
            label(app, cr, json_object_get_string(r->content), width, height);
        else if (r->content) {
            if (pw_content_read(r->content, &c)) {
                if (c.label) label(app, cr, c.label, width, height);
                else dialog(app, r, cr, &c, width, height);
            }
        }
        r->card = image;
        r->card_width = width, r->card_height = height, r->card_scale = scale, r->card_radius = radius;
        r->card_revision = r->revision;
        r->card_input_revision = r->input_revision;
    }
    cairo_destroy(cr);
    return image;
}
