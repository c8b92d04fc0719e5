/* Drawing a card's content: icon, title, message, an app surface's placeholder, fields,
 * progress and buttons, laid out in the shape of its entry (a banner, a toast, a sheet, an
 * alert: lay_out) by one pass that also measures it for size.c. Text is pango's: shaped for any
 * script, right-to-left included, wrapped and ellipsised to the room there is. */
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
    /* Unhinted metrics: text measures the same at every scale, so what size.c measured at one
     * fits when drawn at two (hinted advances grow by a pixel here and there). */
    cairo_font_options_t *options = cairo_font_options_create();
    cairo_font_options_set_hint_metrics(options, CAIRO_HINT_METRICS_OFF);
    pango_cairo_context_set_font_options(pango_layout_get_context(layout), options);
    pango_layout_context_changed(layout);
    cairo_font_options_destroy(options);
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
                      double width, int draw, int rtl, int skip) {
    const pw_theme *t = &app->theme;
    /* `skip`, when ≥ 0, is an action that is not a button (a banner's default: its body). */
    size_t n = c->n_actions - (skip >= 0 && (size_t)skip < c->n_actions);
    if (n == 0) return 0;
    size_t order[PRESENTD_MAX_ACTIONS], k = 0, cancel = c->n_actions;
    for (size_t i = 0; i < c->n_actions; i++)
        if ((int)i != skip && c->actions[i].role && strcmp(c->actions[i].role, "cancel") == 0) cancel = i;
    double share = (width - (double)(n - 1) * t->spacing) / (double)n;
    int row = n <= 3;
    for (size_t i = 0; i < c->n_actions && row; i++) {
        if ((int)i == skip) continue;
        PangoLayout *l = paragraph(cr, t->button_font, c->actions[i].title, 10000, 0, PANGO_ALIGN_LEFT);
        if (layout_width(l) + 2 * t->spacing > share) row = 0;
        g_object_unref(l);
    }
    if (row && cancel < c->n_actions) order[k++] = cancel;
    for (size_t i = 0; i < c->n_actions; i++) if (i != cancel && (int)i != skip) order[k++] = i;
    if (!row && cancel < c->n_actions) order[k++] = cancel;
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

/* -- Layout -----------------------------------------------------------------------------------
 * One pass lays a card out for both its uses: measuring (size.c asks for the height at a
 * width, or the natural width) and drawing (at the frame the daemon gave). Every number is in
 * this table; docs/WAYLAND.md ("What it draws") gives the source of each. Points. */
static const struct {
    /* libadwaita AdwAlertDialog: the message area's padding and spacing, the response area's. */
    struct { double top, side, heading_gap, message_bottom, response_top, response_bottom; } alert;
    /* A header bar (UIKit's navigation bar, 44), then the content from the top. */
    struct { double header, side, top, bottom; } sheet;
    /* GNOME Shell's banner (icon 48, at least 64 tall, the body to 6 lines), dunst's padding 8. */
    struct { double padding, icon, icon_gap, title_gap, title_lines, body_lines, min_height; } banner;
    /* libadwaita AdwToast: padding 6, 12 at the sides; ours: 36 tall at least, at most 600 wide. */
    struct { double pad_y, pad_x, min_height, max_width; } toast;
    /* libadwaita's buttons: padded 20 at the sides, 60 wide at least (a sheet's are as wide as that). */
    struct { double padding, min_width; } button;
    /* A dialog or label measured for its natural width: between these (ours). */
    struct { double min_width, max_width; } natural;
} M = {
    .alert = {.top = 32, .side = 24, .heading_gap = 10, .message_bottom = 9, .response_top = 12, .response_bottom = 24},
    .sheet = {.header = 44, .side = 18, .top = 18, .bottom = 18},
    .banner = {.padding = 8, .icon = 48, .icon_gap = 12, .title_gap = 4, .title_lines = 2, .body_lines = 6, .min_height = 64},
    .toast = {.pad_y = 6, .pad_x = 12, .min_height = 36, .max_width = 600},
    .button = {.padding = 20, .min_width = 60},
    .natural = {.min_width = 200, .max_width = 420},
};

/* Where a card's parts go, at a width: computed once, then drawn or measured. */
typedef struct layout {
    pw_shape shape;
    int rtl;                       /* the card mirrors: its text reads right to left */
    double width, height;          /* the card's; height: what its content needs */
    const char *icon;              /* the icon's file, or NULL */
    char found[1024];
    double icon_x, icon_y, icon_size;
    PangoLayout *title, *message;  /* NULL: not shown (a toast's line is its title) */
    PangoLayout *app;              /* a banner's app name, one line above its title; NULL: none */
    double title_x, title_y, message_x, message_y, app_y;
    double header;                 /* a sheet's header bar's height (its separator under it); 0: none */
    double column_x, column_w;     /* the text column, where fields, progress and surface go */
    double surface_y, surface_h;   /* the app surface's placeholder (surface_h 0: none) */
    double fields_y;               /* the first field's top */
    double progress_y;             /* the progress bar's top (< 0: none) */
    double buttons_x, buttons_w, buttons_bottom, buttons_h;
    int skip;                      /* the action drawn as no button (a banner's default), −1: none */
} layout;

#define PROGRESS_HEIGHT 6.0
#define SURFACE_MIN 24.0           /* the placeholder's least height, drawn */
#define SURFACE_MEASURED 120.0     /* and measured: a window's worth of room */

static double line_height(cairo_t *cr, const char *font) {
    PangoLayout *l = paragraph(cr, font, "Ag", 10000, 0, PANGO_ALIGN_LEFT);
    double h = layout_height(l);
    g_object_unref(l);
    return h;
}

/* Body markup as pango reads it: notifications' <a href> has no pango tag, so a link is drawn
 * underlined in the accent colour. NULL when there is none or it does not parse (the plain
 * message is drawn then, as mako does); the caller frees it. */
static char *pango_markup_of(const char *markup, const pw_color *link) {
    if (!markup) return NULL;
    char open[96];
    snprintf(open, sizeof open, "<span underline=\"single\" foreground=\"#%02x%02x%02x\">", (int)(link->r * 255),
             (int)(link->g * 255), (int)(link->b * 255));
    GString *out = g_string_new(NULL);
    for (const char *p = markup; *p;) {
        if (strncmp(p, "<a", 2) == 0 && (p[2] == '>' || p[2] == ' ')) {
            const char *close = strchr(p, '>');
            if (!close) break;
            g_string_append(out, open);
            p = close + 1;
        } else if (strncmp(p, "</a>", 4) == 0) {
            g_string_append(out, "</span>");
            p += 4;
        } else {
            g_string_append_c(out, *p++);
        }
    }
    char *text = g_string_free(out, FALSE);
    if (!pango_parse_markup(text, -1, 0, NULL, NULL, NULL, NULL)) { g_free(text); return NULL; }
    return text;
}

/* The message paragraph, its markup when it has some that parses. */
static PangoLayout *message_paragraph(pw_app *app, cairo_t *cr, const presentd_content *c, double width, double max_height,
                                      PangoAlignment align) {
    PangoLayout *l = paragraph(cr, app->theme.body_font, c->message, width, max_height, align);
    char *markup = pango_markup_of(c->message_markup, &app->theme.accent);
    if (markup) pango_layout_set_markup(l, markup, -1);
    g_free(markup);
    return l;
}

/* The message at most `room` tall and, for lines > 0, that many lines: ellipsised at the end
 * when it is longer, one line at the least. */
static PangoLayout *fitted_message(pw_app *app, cairo_t *cr, const presentd_content *c, double width, double room,
                                   int lines, PangoAlignment align) {
    double line = line_height(cr, app->theme.body_font);
    PangoLayout *l = message_paragraph(app, cr, c, width, 0, align);
    /* A negative height counts lines, a positive one is pango units. */
    if (room < line) pango_layout_set_height(l, -1);
    else if (lines > 0 && lines * line <= room) pango_layout_set_height(l, -lines);
    else pango_layout_set_height(l, (int)(fmin(room, 100000) * PANGO_SCALE));
    return l;
}

/* What comes under the text of every shape but the toast: the surface (surface_h tall), fields
 * and progress, from y down, `gap` before each but the first when nothing is above (`first`).
 * Where they go is kept in L (NULL: measuring); returns the y under them. */
static double parts_below(pw_app *app, layout *L, const presentd_content *c, double y, double gap, int first,
                          double surface_h) {
    double before = first ? 0 : gap;
    if (c->surface_app_id || c->surface_handle) {
        if (L) L->surface_y = y + before, L->surface_h = surface_h;
        y += before + surface_h;
        before = gap;
    }
    if (L) L->fields_y = y + before;
    if (c->n_fields) {
        y += before + (double)c->n_fields * (app->theme.field_height + gap) - gap;
        before = gap;
    }
    if (c->progress_kind != PRESENTD_PROGRESS_NONE) {
        if (L) L->progress_y = y + before;
        y += before + PROGRESS_HEIGHT;
    }
    return y;
}

/* The text a toast shows in its one line. */
static void toast_text(const presentd_content *c, const char *label, char *out, size_t size) {
    if (label) snprintf(out, size, "%s", label);
    else if (c->title && c->message) snprintf(out, size, "%s \u2014 %s", c->title, c->message);
    else snprintf(out, size, "%s", c->title ? c->title : c->message ? c->message : "");
}

static int default_action(const presentd_content *c) {
    for (size_t i = 0; i < c->n_actions; i++)
        if (c->actions[i].role && strcmp(c->actions[i].role, "default") == 0) return (int)i;
    return -1;
}

/* The natural width of content: its widest line, as wide as the toolkit would make it. */
static double natural_width(pw_app *app, cairo_t *cr, pw_shape shape, const presentd_content *c, const char *label) {
    const pw_theme *t = &app->theme;
    if (shape == PW_SHAPE_TOAST) {
        char text[4096 + 256 + 8];
        toast_text(c, label, text, sizeof text);
        PangoLayout *l = paragraph(cr, t->body_font, text, 100000, 0, PANGO_ALIGN_LEFT);
        double w = ceil(layout_width(l)) + 2 * M.toast.pad_x;
        g_object_unref(l);
        return fmin(fmax(w, M.toast.min_height), M.toast.max_width);
    }
    double pad = shape == PW_SHAPE_ALERT ? M.alert.side : shape == PW_SHAPE_BANNER ? M.banner.padding : t->padding;
    double extra = shape == PW_SHAPE_BANNER && (c->icon_name || c->icon_path) ? M.banner.icon + M.banner.icon_gap : 0;
    double natural = M.natural.min_width;
    const char *texts[] = {label ? label : c->title, label ? NULL : c->message};
    const char *fonts[] = {label ? t->body_font : t->title_font, t->body_font};
    for (int i = 0; i < 2; i++) {
        if (!texts[i]) continue;
        PangoLayout *l = paragraph(cr, fonts[i], texts[i], 100000, 0, PANGO_ALIGN_LEFT);
        natural = fmax(natural, layout_width(l) + 2 * pad + extra);
        g_object_unref(l);
    }
    double row = 0;
    for (size_t i = 0; i < c->n_actions; i++) {
        PangoLayout *l = paragraph(cr, t->button_font, c->actions[i].title, 100000, 0, PANGO_ALIGN_LEFT);
        row = fmax(row, layout_width(l) + 2 * t->spacing);
        g_object_unref(l);
    }
    natural = fmax(natural, row * (double)c->n_actions + t->spacing * (double)(c->n_actions ? c->n_actions - 1 : 0) + 2 * pad + extra);
    return fmin(ceil(natural), M.natural.max_width);
}

/* The width of a row of buttons each as wide as the widest title with libadwaita's padding
 * (20 a side, 60 at least). */
static double button_row_width(pw_app *app, cairo_t *cr, const presentd_content *c, int skip) {
    double widest = M.button.min_width;
    size_t n = 0;
    for (size_t i = 0; i < c->n_actions; i++) {
        if ((int)i == skip) continue;
        PangoLayout *l = paragraph(cr, app->theme.button_font, c->actions[i].title, 100000, 0, PANGO_ALIGN_LEFT);
        widest = fmax(widest, ceil(layout_width(l)) + 2 * M.button.padding);
        g_object_unref(l);
        n++;
    }
    return n ? (double)n * widest + (double)(n - 1) * app->theme.spacing : 0;
}

/* Lays content out in `shape` at `width` (≤ 0: its natural width) for a card `height` tall
 * (≤ 0: measuring, as tall as it needs). L->height is then what the content needs at most
 * lines; drawn in a shorter card, the message gives up lines first, ellipsised. */
static void lay_out(pw_app *app, cairo_t *cr, pw_shape shape, const presentd_content *c, const char *label, double width,
                    double height, layout *L) {
    const pw_theme *t = &app->theme;
    memset(L, 0, sizeof *L);
    L->shape = shape;
    L->progress_y = -1;
    L->skip = -1;
    L->width = width = width > 0 ? width : natural_width(app, cr, shape, c, label);
    int measuring = height <= 0;
    double gap = t->spacing;
    const char *words = label ? label : c->title ? c->title : c->message;
    L->rtl = words && right_to_left(cr, words);
    if (!label) {
        L->icon = c->icon_path ? c->icon_path : pw_icon_find(c->icon_name, t->icon_theme, L->found, sizeof L->found);
        L->icon_size = t->icon_size;
    }
    /* The buttons' row (or stack) is measured once, at the column's width. */
#define BUTTONS_H(w) buttons(app, NULL, cr, c, 0, 0, (w), 0, L->rtl, L->skip)
    switch (shape) {
    case PW_SHAPE_TOAST: {
        char text[4096 + 256 + 8];
        toast_text(c, label, text, sizeof text);
        L->title = paragraph(cr, t->body_font, text, width - 2 * M.toast.pad_x, 0, PANGO_ALIGN_CENTER);
        L->height = fmax(M.toast.min_height, layout_height(L->title) + 2 * M.toast.pad_y);
        double h = measuring ? L->height : height;
        L->title_x = M.toast.pad_x, L->title_y = (h - layout_height(L->title)) / 2;
        return;
    }
    case PW_SHAPE_LABEL: {
        double pad = t->padding, room = measuring ? 0 : height - 2 * gap;
        L->title = paragraph(cr, t->body_font, label, width - 2 * pad, measuring ? 100000 : room, PANGO_ALIGN_CENTER);
        L->height = ceil(layout_height(L->title) + 2 * pad);
        L->title_x = pad, L->title_y = ((measuring ? L->height : height) - layout_height(L->title)) / 2;
        return;
    }
    case PW_SHAPE_BANNER: {
        double pad = M.banner.padding, icon = L->icon ? M.banner.icon : 0;
        L->icon_size = icon;
        L->skip = default_action(c);
        L->column_w = width - 2 * pad - (icon ? icon + M.banner.icon_gap : 0);
        L->column_x = L->rtl || !icon ? pad : pad + icon + M.banner.icon_gap;
        L->icon_x = L->rtl ? width - pad - icon : pad, L->icon_y = pad;
        /* Where it comes from first, small and one line, as GNOME Shell and macOS head a banner. */
        L->app = c->app_name ? paragraph(cr, t->body_font, c->app_name, L->column_w, 0, PANGO_ALIGN_LEFT) : NULL;
        double app_h = L->app ? layout_height(L->app) + M.banner.title_gap : 0;
        L->title = c->title ? paragraph(cr, t->title_font, c->title, L->column_w, -M.banner.title_lines, PANGO_ALIGN_LEFT) : NULL;
        double title_h = app_h + (L->title ? layout_height(L->title) : 0);
        int first = !L->title && !c->message && !L->app;
        double buttons_h = BUTTONS_H(L->column_w);
        double fixed = parts_below(app, NULL, c, 0, gap, first, measuring ? SURFACE_MEASURED : SURFACE_MIN) + (buttons_h ? gap + buttons_h : 0);
        double head = title_h + (L->title && c->message ? M.banner.title_gap : 0);
        double room = measuring ? 100000 : height - 2 * pad - head - fixed;
        L->message = c->message ? fitted_message(app, cr, c, L->column_w, room, (int)M.banner.body_lines, PANGO_ALIGN_LEFT) : NULL;
        double column = head + (L->message ? layout_height(L->message) : 0) + fixed;
        L->height = ceil(fmax(M.banner.min_height, fmax(column, icon) + 2 * pad));
        /* A column shorter than the icon is centred on it, as dunst centres its text. */
        double y = pad + fmax(0, (icon - column) / 2);
        L->title_x = L->message_x = L->column_x;
        L->app_y = y;
        L->title_y = y + app_h;
        y += head;
        L->message_y = y;
        y += L->message ? layout_height(L->message) : 0;
        y = parts_below(app, L, c, y, gap, first, SURFACE_MIN);
        L->buttons_x = L->column_x, L->buttons_w = L->column_w, L->buttons_h = buttons_h;
        L->buttons_bottom = y + (buttons_h ? gap + buttons_h : 0);
        return;
    }
    case PW_SHAPE_SHEET: {
        double side = M.sheet.side;
        L->column_x = side, L->column_w = width - 2 * side;
        if (c->title) {
            L->header = M.sheet.header;
            L->title = paragraph(cr, t->title_font, c->title, width - 2 * side, 0, PANGO_ALIGN_CENTER);
            L->title_x = side, L->title_y = (L->header - layout_height(L->title)) / 2;
        }
        /* The buttons at the trailing end, each as wide as the widest title needs (GTK's dialogs). */
        double row = fmin(L->column_w, button_row_width(app, cr, c, L->skip));
        double buttons_h = BUTTONS_H(row);
        double y = L->header + M.sheet.top, icon = L->icon ? L->icon_size + gap : 0;
        L->icon_x = L->rtl ? width - side - L->icon_size : side, L->icon_y = y;
        y += icon;
        int first = !c->message;  /* the icon's room has its gap */
        double fixed = parts_below(app, NULL, c, 0, gap, first, measuring ? SURFACE_MEASURED : SURFACE_MIN);
        double foot = (buttons_h ? buttons_h + M.sheet.top : 0) + M.sheet.bottom;
        double room = measuring ? 100000 : height - y - fixed - foot;
        L->message = c->message ? fitted_message(app, cr, c, L->column_w, room, 0, PANGO_ALIGN_LEFT) : NULL;
        L->message_x = side, L->message_y = y;
        double message_h = L->message ? layout_height(L->message) : 0;
        y += message_h;
        /* The surface's placeholder takes the room left over, as an embedded window would. */
        double surface = measuring ? SURFACE_MEASURED : SURFACE_MIN + fmax(0, room - message_h);
        y = parts_below(app, L, c, y, gap, first, surface);
        L->height = ceil(y + foot);
        L->buttons_x = L->rtl ? side : width - side - row, L->buttons_w = row, L->buttons_h = buttons_h;
        L->buttons_bottom = (measuring ? L->height : height) - M.sheet.bottom;
        return;
    }
    case PW_SHAPE_ALERT: {
        double side = M.alert.side;
        L->column_x = side, L->column_w = width - 2 * side;
        double buttons_h = BUTTONS_H(L->column_w);
        double icon = L->icon ? L->icon_size + gap : 0;
        L->title = c->title ? paragraph(cr, t->title_font, c->title, L->column_w, -2, PANGO_ALIGN_CENTER) : NULL;
        double title_h = L->title ? layout_height(L->title) : 0, heading = L->title && c->message ? M.alert.heading_gap : 0;
        int first = !L->title && !c->message;  /* the icon's room has its gap */
        double fixed = parts_below(app, NULL, c, 0, gap, first, measuring ? SURFACE_MEASURED : SURFACE_MIN);
        /* Without buttons the bottom padding is the top's. */
        double foot = buttons_h ? M.alert.message_bottom + M.alert.response_top + buttons_h + M.alert.response_bottom : M.alert.top;
        double room = measuring ? 100000 : height - M.alert.top - icon - title_h - heading - fixed - foot;
        L->message = c->message ? fitted_message(app, cr, c, L->column_w, room, 0, PANGO_ALIGN_CENTER) : NULL;
        double message_h = L->message ? layout_height(L->message) : 0;
        L->height = ceil(M.alert.top + icon + title_h + heading + message_h + fixed + foot);
        /* A card taller than its content (the style's fixed 180) keeps the parts together, the
         * room shared above and below them: the paddings stay even. */
        double y = M.alert.top + (measuring ? 0 : fmax(0, (height - L->height) / 2));
        L->icon_x = (width - L->icon_size) / 2, L->icon_y = y;
        y += icon;
        L->title_x = side, L->title_y = y;
        y += title_h + heading;
        L->message_x = side, L->message_y = y;
        y = parts_below(app, L, c, y + message_h, gap, first, SURFACE_MIN);
        L->buttons_x = side, L->buttons_w = L->column_w, L->buttons_h = buttons_h;
        L->buttons_bottom = y + (buttons_h ? M.alert.message_bottom + M.alert.response_top + buttons_h : 0);
        return;
    }
    }
#undef BUTTONS_H
}

static void layout_free(layout *L) {
    if (L->title) g_object_unref(L->title);
    if (L->message) g_object_unref(L->message);
    if (L->app) g_object_unref(L->app);
}

/* Draws a laid-out card's parts; records where its buttons and fields are in r. */
static void draw(pw_app *app, pw_record *r, cairo_t *cr, const presentd_content *c, const layout *L) {
    const pw_theme *t = &app->theme;
    if (r) r->body_action = L->shape == PW_SHAPE_BANNER ? L->skip : -1;
    if (L->icon && L->icon_size > 0) {
        if (pw_icon_draw(cr, L->icon, L->icon_x, L->icon_y, L->icon_size) != 0 && app->verbose)
            fprintf(stderr, "presentd-wayland: entry %s: cannot draw the icon %s\n", r ? r->id : "?", L->icon);
    }
    if (L->app) show(cr, L->app, L->title_x, L->app_y, &t->secondary_text);
    if (L->title) show(cr, L->title, L->title_x, L->title_y, &t->text);
    if (L->header > 0) {
        /* The header bar's separator: a hairline, as GTK's header bar and UIKit's bar have. */
        cairo_rectangle(cr, 0, L->header - 1, L->width, 1);
        pw_set_color(cr, &t->field_border, 1);
        cairo_fill(cr);
    }
    if (L->message) show(cr, L->message, L->message_x, L->message_y, &t->secondary_text);
    if (L->shape == PW_SHAPE_TOAST || L->shape == PW_SHAPE_LABEL) return;
    double x = L->column_x, inner = L->column_w, gap = t->spacing;
    if (L->surface_h > 0) {
        /* The app's own window belongs here; embedding it is another renderer's matter. */
        double y = L->surface_y, h = L->surface_h;
        pw_rounded_rect(cr, x + 0.5, y + 0.5, inner - 1, h - 1, t->field_radius);
        double dash[] = {4, 3};
        cairo_set_dash(cr, dash, 2, 0);
        pw_set_color(cr, &t->field_border, 1);
        cairo_set_line_width(cr, 1);
        cairo_stroke(cr);
        cairo_set_dash(cr, NULL, 0, 0);
        PangoLayout *l = paragraph(cr, t->body_font, c->surface_app_id ? c->surface_app_id : c->surface_handle, inner - 2 * gap, 0,
                                   PANGO_ALIGN_CENTER);
        show(cr, l, x + gap, y + (h - layout_height(l)) / 2, &t->placeholder);
        g_object_unref(l);
    }
    for (size_t i = 0; i < c->n_fields; i++)
        field(app, r, i, cr, &c->fields[i], x, L->fields_y + (double)i * (t->field_height + gap), inner);
    if (L->progress_y >= 0) {
        double y = L->progress_y;
        pw_rounded_rect(cr, x, y, inner, PROGRESS_HEIGHT, PROGRESS_HEIGHT / 2);
        pw_set_color(cr, &t->progress_track, 1);
        cairo_fill(cr);
        if (c->progress_kind == PRESENTD_PROGRESS_FRACTION && c->progress > 0) {
            pw_rounded_rect(cr, x, y, inner * fmin(c->progress, 1), PROGRESS_HEIGHT, PROGRESS_HEIGHT / 2);
            pw_set_color(cr, &t->progress_fill, 1);
            cairo_fill(cr);
        }
        if (r && c->progress_kind == PRESENTD_PROGRESS_INDETERMINATE) {
            /* Its moving part is drawn with each frame, over the card (paint.c). */
            r->indeterminate = 1;
            r->bar_x = x, r->bar_y = y, r->bar_width = inner, r->bar_height = PROGRESS_HEIGHT;
        }
    }
    buttons(app, r, cr, c, L->buttons_x, L->buttons_bottom, L->buttons_w, 1, L->rtl, L->skip);
}

void pw_card_measure(pw_app *app, pw_shape shape, json_object *content, double width, double *out_width, double *out_height) {
    cairo_surface_t *scratch = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, 1, 1);
    cairo_t *cr = cairo_create(scratch);
    presentd_content c = {0};
    const char *label = json_object_is_type(content, json_type_string) ? json_object_get_string(content) : NULL;
    if (!label && pw_content_read(content, &c)) label = c.label;
    if (label && shape != PW_SHAPE_TOAST) shape = PW_SHAPE_LABEL;
    layout L;
    lay_out(app, cr, shape, &c, label, width, 0, &L);
    *out_width = ceil(L.width);
    *out_height = ceil(L.height);
    layout_free(&L);
    cairo_destroy(cr);
    cairo_surface_destroy(scratch);
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
        r->body_action = -1;
        if (r->content && pw_content_read(r->content, &c)) {
            pw_shape shape = c.label && r->shape != PW_SHAPE_TOAST ? PW_SHAPE_LABEL : r->shape;
            layout L;
            lay_out(app, cr, shape, &c, c.label, width, height, &L);
            draw(app, r, cr, &c, &L);
            layout_free(&L);
        }
        r->card = image;
        r->card_width = width, r->card_height = height, r->card_scale = scale, r->card_radius = radius;
        r->card_revision = r->revision;
        r->card_input_revision = r->input_revision;
    }
    cairo_destroy(cr);
    return image;
}
