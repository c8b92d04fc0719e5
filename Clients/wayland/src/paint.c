/* Layers, bottom to top, as presentd computes them: dimming rectangles, and cards moved by
 * their frame, scale, alpha and rotation. What cannot be drawn exactly on a layer surface is
 * approximated (docs/WAYLAND.md): the background blur as a tint of the material, the flip as
 * a perspective made of vertical strips. */
#include "paint.h"

#include <math.h>
#include <pango/pangocairo.h>
#include <string.h>
#include <time.h>

#include "card.h"
#include "content.h"
#include "shadow.h"

#define MAX_LAYERS 128

/* A material's tint, for a dimming layer with a background blur: what is underneath cannot
 * be read from a layer surface, so the frosted glass is drawn as its colour alone. */
static int blur_tint(const char *blur, pw_color *out) {
    if (!blur) return 0;
    if (strcmp(blur, "extraLight") == 0) *out = (pw_color){1, 1, 1, 0.55};
    else if (strcmp(blur, "light") == 0) *out = (pw_color){0.97, 0.97, 0.97, 0.45};
    else if (strcmp(blur, "dark") == 0) *out = (pw_color){0.11, 0.11, 0.12, 0.55};
    else if (strcmp(blur, "prominent") == 0) *out = (pw_color){0.85, 0.85, 0.87, 0.6};
    else *out = (pw_color){0.6, 0.6, 0.62, 0.35};  /* regular */
    return 1;
}

static void dimming(cairo_t *cr, const presentd_layer *l, json_object *json) {
    pw_color c = {0, 0, 0, 1}, tint;
    json_object *blur = NULL;
    json_object_object_get_ex(json, "blur", &blur);
    if (blur_tint(blur ? json_object_get_string(blur) : NULL, &tint)) {
        /* The material shows as the dimming comes in: its tint follows the dimming's alpha. */
        cairo_rectangle(cr, l->x, l->y, l->width, l->height);
        pw_set_color(cr, &tint, fmin(1, l->alpha / 0.7));
        cairo_fill(cr);
    }
    if (l->color) pw_color_parse(l->color, &c);
    cairo_rectangle(cr, l->x, l->y, l->width, l->height);
    pw_set_color(cr, &c, l->alpha);
    cairo_fill(cr);
}

/* The shadow: the presentation's, else the theme's, blurred as a Gaussian (shadow.c) and
 * kept with the record while the card's size stays the same. */
static void shadow(pw_app *app, cairo_t *cr, pw_record *r, json_object *json, double w, double h, double radius,
                   double alpha, double scale) {
    pw_color c = app->theme.shadow;
    double blur = app->theme.shadow_radius, dx = 0, dy = app->theme.shadow_offset_y;
    json_object *s, *v, *offset;
    if (json_object_object_get_ex(json, "shadow", &s)) {
        if (json_object_object_get_ex(s, "color", &v)) pw_color_parse(json_object_get_string(v), &c);
        if (json_object_object_get_ex(s, "opacity", &v)) c.a = json_object_get_double(v);
        if (json_object_object_get_ex(s, "radius", &v)) blur = json_object_get_double(v);
        if (json_object_object_get_ex(s, "offset", &offset)) dx = presentd_number(offset, "x"), dy = presentd_number(offset, "y");
    }
    if (c.a <= 0 || (blur <= 0 && dx == 0 && dy == 0)) return;
    double key[5] = {w, h, radius, blur, scale};
    cairo_surface_t *mask = r && r->shadow && memcmp(r->shadow_key, key, sizeof key) == 0 ? r->shadow : NULL;
    if (!mask) {
        mask = pw_shadow_mask(w, h, radius, blur, scale);
        if (r) {
            if (r->shadow) cairo_surface_destroy(r->shadow);
            r->shadow = mask;
            memcpy(r->shadow_key, key, sizeof key);
        }
    }
    cairo_save(cr);
    cairo_translate(cr, dx - blur, dy - blur);
    cairo_scale(cr, 1 / scale, 1 / scale);
    pw_set_color(cr, &c, alpha);
    cairo_mask_surface(cr, mask, 0, 0);
    cairo_restore(cr);
    if (!r) cairo_surface_destroy(mask);
}

/* The moving part of an indeterminate bar: a third of the track, crossing it every 1.2 s. */
static void indeterminate(pw_app *app, cairo_t *cr, const pw_record *r, double t) {
    double phase = fmod(t, 1.2) / 1.2, seg = r->bar_width / 3;
    cairo_save(cr);
    pw_rounded_rect(cr, r->bar_x, r->bar_y, r->bar_width, r->bar_height, r->bar_height / 2);
    cairo_clip(cr);
    pw_rounded_rect(cr, r->bar_x - seg + phase * (r->bar_width + seg), r->bar_y, seg, r->bar_height, r->bar_height / 2);
    pw_set_color(cr, &app->theme.progress_fill, 1);
    cairo_fill(cr);
    cairo_restore(cr);
}

/* The flip: rotation about the vertical axis through the centre, with the perspective of a
 * viewer 1000 points away (Core Animation's usual m34 of -1/1000, scaled). The card is cut
 * into vertical strips; each is placed where its projected edges fall and scaled vertically
 * by its depth, which a 2D affine transform cannot do in one piece. */
#define FLIP_STRIPS 24
#define FLIP_EYE 1000.0

/* The front face only: facing away (cos < 0), the card's back is drawn blank instead. */
static void flipped(cairo_t *cr, cairo_surface_t *card, double w, double h, double scale, double rotation, double alpha) {
    double c = cos(rotation), s = sin(rotation);
    for (int i = 0; i < FLIP_STRIPS; i++) {
        double u0 = -w / 2 + w * i / FLIP_STRIPS, u1 = u0 + w / FLIP_STRIPS;
        double z0 = u0 * s, z1 = u1 * s;
        double k0 = FLIP_EYE / (FLIP_EYE + z0), k1 = FLIP_EYE / (FLIP_EYE + z1);
        double x0 = u0 * c * k0, x1 = u1 * c * k1;
        double left = fmin(x0, x1), width = fabs(x1 - x0), k = (k0 + k1) / 2;
        if (width < 1e-3) continue;
        cairo_save(cr);
        cairo_rectangle(cr, left - 0.02, -h * k / 2, width + 0.04, h * k);  /* overlap a hair: no seams */
        cairo_clip(cr);
        cairo_translate(cr, left, -h * k / 2);
        cairo_scale(cr, width / (u1 - u0), k);
        cairo_translate(cr, -(u0 + w / 2), 0);
        cairo_scale(cr, 1 / scale, 1 / scale);
        cairo_set_source_surface(cr, card, 0, 0);
        cairo_pattern_set_filter(cairo_get_source(cr), CAIRO_FILTER_GOOD);
        cairo_paint_with_alpha(cr, alpha);
        cairo_restore(cr);
    }
}

static void card_layer(pw_app *app, cairo_t *cr, const presentd_layer *l, json_object *json, double scale, double t,
                       int *moving) {
    if (l->alpha <= 0 || l->scale <= 0 || l->width <= 0 || l->height <= 0) return;
    pw_record *r = pw_content_find(app, l->id);
    /* A toast is a pill: fully rounded ends, as libadwaita's toast (radius 150: half any height). */
    double radius = r && r->shape == PW_SHAPE_TOAST ? fmin(l->width, l->height) / 2
                                                    : fmin(fmax(l->corner_radius, app->theme.card_radius), fmin(l->width, l->height) / 2);
    cairo_surface_t *card = pw_card(app, r, l->width, l->height, scale, radius);
    cairo_save(cr);
    cairo_translate(cr, l->x + l->width / 2, l->y + l->height / 2);
    cairo_scale(cr, l->scale, l->scale);
    double c = cos(l->rotation);
    if (fabs(l->rotation) > 1e-9) {
        /* The shadow, and the back face when the card faces away, are squeezed by |cos θ| alone,
         * without the strips' perspective: the shadow is soft and the back is blank, so the
         * difference does not show. */
        cairo_save(cr);
        cairo_scale(cr, fabs(c), 1);
        cairo_translate(cr, -l->width / 2, -l->height / 2);
        shadow(app, cr, r, json, l->width, l->height, radius, l->alpha, scale);
        if (c < 0) {
            pw_rounded_rect(cr, 0, 0, l->width, l->height, radius);
            pw_set_color(cr, &app->theme.card, l->alpha);
            cairo_fill(cr);
        }
        cairo_restore(cr);
        if (c >= 0) flipped(cr, card, l->width, l->height, scale, l->rotation, l->alpha);
    } else {
        cairo_translate(cr, -l->width / 2, -l->height / 2);
        shadow(app, cr, r, json, l->width, l->height, radius, l->alpha, scale);
        cairo_save(cr);
        if (l->scale == 1) {
            /* At rest: on whole pixels, so that the text is as crisp as it was drawn. */
            double ux = 0, uy = 0;
            cairo_user_to_device(cr, &ux, &uy);
            cairo_identity_matrix(cr);
            cairo_set_source_surface(cr, card, round(ux), round(uy));
        } else {
            cairo_scale(cr, 1 / scale, 1 / scale);
            cairo_set_source_surface(cr, card, 0, 0);
            cairo_pattern_set_filter(cairo_get_source(cr), CAIRO_FILTER_GOOD);
        }
        cairo_paint_with_alpha(cr, l->alpha);
        cairo_restore(cr);
        json_object *tint;
        if (json_object_object_get_ex(json, "tintDimmed", &tint) && json_object_get_boolean(tint)) {
            /* An entry above asked for its presenter's tint to dim (UIKit's tintAdjustmentMode
             * .dimmed): approximated by veiling the card in grey, accent colours included. */
            pw_rounded_rect(cr, 0, 0, l->width, l->height, radius);
            cairo_set_source_rgba(cr, 0.5, 0.5, 0.5, 0.35 * l->alpha);
            cairo_fill(cr);
        }
        if (r && r->indeterminate) {
            indeterminate(app, cr, r, t);
            *moving = 1;
        }
    }
    cairo_restore(cr);
    if (!r) cairo_surface_destroy(card);
}

/* A sheet's grabber: the bar its frame and colour say, at the content's alpha. */
static void grabber(cairo_t *cr, const presentd_layer *l) {
    pw_color c = {0.5, 0.5, 0.5, 1};
    if (l->color) pw_color_parse(l->color, &c);
    pw_rounded_rect(cr, l->x, l->y, l->width, l->height, l->corner_radius);
    pw_set_color(cr, &c, l->alpha);
    cairo_fill(cr);
}

/* --kiosk: the status bar across the top, over everything, as a phone draws it: the clock, in
 * light or dark ink as the top presentation captured it, or nothing when it is hidden. */
static void status_bar(pw_app *app, cairo_t *cr, double width) {
    if (app->status_hidden) return;
    pw_color ink = strcmp(app->status_style, "darkContent") == 0 ? (pw_color){0, 0, 0, 1} : (pw_color){1, 1, 1, 1};
    char clock[16];
    time_t now = time(NULL);
    struct tm local;
    localtime_r(&now, &local);
    strftime(clock, sizeof clock, "%H:%M", &local);
    app->clock_minute = (long)(now / 60);
    PangoLayout *layout = pango_cairo_create_layout(cr);
    PangoFontDescription *font = pango_font_description_from_string(app->theme.button_font);
    pango_layout_set_font_description(layout, font);
    pango_font_description_free(font);
    pango_layout_set_text(layout, clock, -1);
    int w, h;
    pango_layout_get_pixel_size(layout, &w, &h);
    pw_set_color(cr, &ink, 1);
    cairo_move_to(cr, (width - w) / 2, (app->theme.status_bar_height - h) / 2);
    pango_cairo_show_layout(cr, layout);
    g_object_unref(layout);
}

/* What takes input where (input.c): a dimming within its context, a drawn card by its frame. */
static void add_hit(pw_screen *s, const presentd_layer *l, const char *kind) {
    if (s->n_hits >= PW_MAX_HITS || !(l->dimming || strcmp(kind, "content") == 0)) return;
    if (!l->dimming && (l->alpha <= 0 || l->scale <= 0)) return;  /* not drawn: takes nothing */
    pw_hit *h = &s->hits[s->n_hits++];
    snprintf(h->id, sizeof h->id, "%s", l->id);
    h->dimming = l->dimming;
    h->x = l->x, h->y = l->y, h->width = l->width, h->height = l->height, h->scale = l->dimming ? 1 : l->scale;
    if (l->dimming && l->has_clip) {
        double x1 = fmin(h->x + h->width, l->clip.x + l->clip.width), y1 = fmin(h->y + h->height, l->clip.y + l->clip.height);
        h->x = fmax(h->x, l->clip.x), h->y = fmax(h->y, l->clip.y);
        h->width = fmax(0, x1 - h->x), h->height = fmax(0, y1 - h->y);
    }
}

size_t pw_paint(pw_app *app, pw_screen *s, double t, pw_buffer *b, int *moving) {
    cairo_t *cr = cairo_create(b->surface);
    presentd_layer layers[MAX_LAYERS];
    size_t n = s->has_motion ? presentd_animations_layers_at(&s->motion, t, layers, MAX_LAYERS) : 0;
    if (n > MAX_LAYERS) n = MAX_LAYERS;
    json_object *list = NULL;
    if (n) json_object_object_get_ex(s->motion.params, "layers", &list);
    /* A bottom dimming over the whole screen is every pixel's first value: written as it is
     * (one pass over the buffer), instead of clearing and then blending (two). */
    int opaque_start = s != app->kiosk_screen && n > 0 && layers[0].dimming && !layers[0].has_clip &&
                       layers[0].x <= 0 && layers[0].y <= 0 && layers[0].x + layers[0].width >= s->width &&
                       layers[0].y + layers[0].height >= s->height && !json_object_object_get_ex(json_object_array_get_idx(list, 0), "blur", NULL);
    if (opaque_start) {
        pw_color c = {0, 0, 0, 1};
        if (layers[0].color) pw_color_parse(layers[0].color, &c);
        cairo_set_operator(cr, CAIRO_OPERATOR_SOURCE);
        pw_set_color(cr, &c, layers[0].alpha);
    } else {
        cairo_set_operator(cr, CAIRO_OPERATOR_CLEAR);
    }
    cairo_paint(cr);
    cairo_set_operator(cr, CAIRO_OPERATOR_OVER);
    if (s == app->kiosk_screen) {
        pw_set_color(cr, &app->theme.background, 1);  /* the kiosk's window is all there is */
        cairo_paint(cr);
    }
    *moving = 0;
    s->n_hits = 0;
    if (opaque_start) add_hit(s, &layers[0], "dimming");  /* drawn above, in the one pass */
    if (s->has_motion) {
        *moving = presentd_animations_moving(&s->motion, t);
        cairo_scale(cr, s->scale, s->scale);
        for (size_t i = opaque_start ? 1 : 0; i < n; i++) {
            const presentd_layer *l = &layers[i];
            json_object *json = list ? json_object_array_get_idx(list, i) : NULL;
            cairo_save(cr);
            if (l->has_clip) {
                cairo_rectangle(cr, l->clip.x, l->clip.y, l->clip.width, l->clip.height);
                cairo_clip(cr);
            }
            json_object *role = NULL;
            const char *kind = json_object_object_get_ex(json, "role", &role) ? json_object_get_string(role) : "content";
            add_hit(s, l, kind);
            if (l->dimming) dimming(cr, l, json);
            else if (strcmp(kind, "content") == 0) card_layer(app, cr, l, json, s->scale, t, moving);
            else if (strcmp(kind, "grabber") == 0) grabber(cr, l);
            /* A role a later daemon adds is not guessed at: drawn as a card it would cover the content. */
            cairo_restore(cr);
        }
    }
    if (s == app->kiosk_screen) {
        cairo_identity_matrix(cr);
        cairo_scale(cr, s->scale, s->scale);
        status_bar(app, cr, s->width);
    }
    cairo_destroy(cr);
    cairo_surface_flush(b->surface);
    return n;
}
