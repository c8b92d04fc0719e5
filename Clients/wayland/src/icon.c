/* Icon lookup and drawing: librsvg for SVG (what themes ship now), cairo's own reader for PNG. */
#include "icon.h"

#include <glob.h>
#include <librsvg/rsvg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* The directories that hold icon themes, in XDG order. */
static size_t icon_bases(char bases[][512], size_t max) {
    size_t n = 0;
    const char *home = getenv("HOME"), *data_home = getenv("XDG_DATA_HOME");
    if (data_home && *data_home) snprintf(bases[n++], 512, "%s/icons", data_home);
    else if (home && *home) snprintf(bases[n++], 512, "%s/.local/share/icons", home);
    const char *dirs = getenv("XDG_DATA_DIRS");
    if (!dirs || !*dirs) dirs = "/usr/local/share:/usr/share";
    char copy[2048];
    snprintf(copy, sizeof copy, "%s", dirs);
    for (char *save = NULL, *d = strtok_r(copy, ":", &save); d && n < max; d = strtok_r(NULL, ":", &save))
        snprintf(bases[n++], 512, "%s/icons", d);
    return n;
}

static int first_match(const char *pattern, char *buf, size_t size) {
    glob_t g;
    int found = glob(pattern, 0, NULL, &g) == 0 && g.gl_pathc > 0;
    if (found) snprintf(buf, size, "%s", g.gl_pathv[0]);
    globfree(&g);
    return found;
}

const char *pw_icon_find(const char *name, const char *theme, char *buf, size_t size) {
    if (!name || !*name || strchr(name, '/') || strchr(name, '*') || strchr(name, '?') || strchr(name, '[')) return NULL;
    static const char *const sizes[] = {"scalable", "256x256", "128x128", "96x96", "64x64", "48x48", "32x32"};
    static const char *const suffixes[] = {".svg", ".png", "-symbolic.svg", ".symbolic.png"};
    const char *themes[] = {theme, "hicolor", "Adwaita"};
    char bases[8][512], pattern[1200];
    size_t n_bases = icon_bases(bases, 8);
    for (size_t t = 0; t < 3; t++) {
        if (!themes[t] || (t > 0 && theme && strcmp(themes[t], theme) == 0)) continue;
        for (size_t b = 0; b < n_bases; b++)
            for (size_t z = 0; z < sizeof sizes / sizeof sizes[0]; z++)
                for (size_t x = 0; x < sizeof suffixes / sizeof suffixes[0]; x++) {
                    if (snprintf(pattern, sizeof pattern, "%s/%s/%s/*/%s%s", bases[b], themes[t], sizes[z], name,
                                 suffixes[x]) >= (int)sizeof pattern) continue;
                    if (first_match(pattern, buf, size)) return buf;
                }
    }
    for (size_t x = 0; x < 2; x++) {
        if (snprintf(pattern, sizeof pattern, "/usr/share/pixmaps/%s%s", name, suffixes[x]) >= (int)sizeof pattern) continue;
        if (first_match(pattern, buf, size)) return buf;
    }
    return NULL;
}

static int ends_with(const char *s, const char *suffix) {
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && strcasecmp(s + n - m, suffix) == 0;
}

int pw_icon_draw(cairo_t *cr, const char *path, double x, double y, double size) {
    if (ends_with(path, ".svg")) {
        GError *error = NULL;
        RsvgHandle *svg = rsvg_handle_new_from_file(path, &error);
        if (!svg) { g_clear_error(&error); return -1; }
        RsvgRectangle viewport = {x, y, size, size};
        int ok = rsvg_handle_render_document(svg, cr, &viewport, &error);
        g_clear_error(&error);
        g_object_unref(svg);
        return ok ? 0 : -1;
    }
    cairo_surface_t *png = cairo_image_surface_create_from_png(path);
    int w = cairo_image_surface_get_width(png), h = cairo_image_surface_get_height(png);
    if (cairo_surface_status(png) != CAIRO_STATUS_SUCCESS || w <= 0 || h <= 0) {
        cairo_surface_destroy(png);
        return -1;
    }
    cairo_save(cr);
    cairo_translate(cr, x, y);
    double k = size / (w > h ? w : h);
    cairo_scale(cr, k, k);
    cairo_set_source_surface(cr, png, (w > h ? 0 : (h - w) / 2.0), (w > h ? (w - h) / 2.0 : 0));
    cairo_pattern_set_filter(cairo_get_source(cr), CAIRO_FILTER_GOOD);
    cairo_paint(cr);
    cairo_restore(cr);
    cairo_surface_destroy(png);
    return 0;
}
