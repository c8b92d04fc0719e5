/* The theme: defaults, and the file that changes them. The format is deliberately tiny
 * ("key = value", '#' comments) so that it needs no parser library and reads at a glance. */
#include "theme.h"

#include <ctype.h>
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void pw_theme_defaults(pw_theme *t) {
    /* A light alert as current desktops draw it (libadwaita's palette): near-white card,
     * soft shadow, generous radius, blue default and red destructive buttons. */
    *t = (pw_theme){
        .card = {0.98, 0.98, 0.98, 1}, .text = {0.14, 0.14, 0.15, 1}, .secondary_text = {0.36, 0.36, 0.38, 1},
        .accent = {0.21, 0.52, 0.89, 1}, .accent_text = {1, 1, 1, 1},
        .destructive = {0.88, 0.11, 0.14, 1}, .destructive_text = {1, 1, 1, 1},
        .button = {0.90, 0.90, 0.90, 1}, .button_text = {0.14, 0.14, 0.15, 1},
        .field = {1, 1, 1, 1}, .field_border = {0.80, 0.80, 0.82, 1}, .placeholder = {0.55, 0.55, 0.57, 1},
        .progress_track = {0.87, 0.87, 0.88, 1}, .progress_fill = {0.21, 0.52, 0.89, 1},
        .shadow = {0, 0, 0, 0.35}, .shadow_radius = 14, .shadow_offset_y = 3,
        .card_radius = 12, .button_radius = 8, .field_radius = 6,
        .background = {0, 0, 0, 1}, .status_bar_height = 28,
        .padding = 18, .spacing = 8, .button_height = 34, .field_height = 30, .icon_size = 32,
    };
    snprintf(t->title_font, sizeof t->title_font, "%s", "Sans Bold 15px");
    snprintf(t->body_font, sizeof t->body_font, "%s", "Sans 13px");
    snprintf(t->button_font, sizeof t->button_font, "%s", "Sans Bold 13px");
    snprintf(t->icon_theme, sizeof t->icon_theme, "%s", "Adwaita");
}

static int hex(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    c = (char)tolower((unsigned char)c);
    return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

int pw_color_parse(const char *text, pw_color *out) {
    size_t n = text ? strlen(text) : 0;
    if ((n != 7 && n != 9) || text[0] != '#') return -1;
    double parts[4] = {0, 0, 0, 1};
    for (size_t i = 0; i < (n - 1) / 2; i++) {
        int hi = hex(text[1 + 2 * i]), lo = hex(text[2 + 2 * i]);
        if (hi < 0 || lo < 0) return -1;
        parts[i] = (hi * 16 + lo) / 255.0;
    }
    *out = (pw_color){parts[0], parts[1], parts[2], parts[3]};
    return 0;
}

/* The keys, where each lives in pw_theme, and how it is read. */
enum kind { COLOR, NUMBER, TEXT };
static const struct key {
    const char *name;
    enum kind kind;
    size_t offset, size;
} keys[] = {
#define C(n, m) {n, COLOR, offsetof(pw_theme, m), 0}
#define N(n, m) {n, NUMBER, offsetof(pw_theme, m), 0}
#define T(n, m) {n, TEXT, offsetof(pw_theme, m), sizeof(((pw_theme *)0)->m)}
    C("card", card), C("text", text), C("secondary-text", secondary_text),
    C("accent", accent), C("accent-text", accent_text),
    C("destructive", destructive), C("destructive-text", destructive_text),
    C("button", button), C("button-text", button_text),
    C("field", field), C("field-border", field_border), C("placeholder", placeholder),
    C("progress-track", progress_track), C("progress-fill", progress_fill),
    C("shadow", shadow), N("shadow-radius", shadow_radius), N("shadow-offset-y", shadow_offset_y),
    N("card-radius", card_radius), N("button-radius", button_radius), N("field-radius", field_radius),
    N("padding", padding), N("spacing", spacing), N("button-height", button_height),
    N("field-height", field_height), N("icon-size", icon_size),
    C("background", background), N("status-bar-height", status_bar_height),
    T("title-font", title_font), T("body-font", body_font), T("button-font", button_font),
    T("icon-theme", icon_theme),
#undef C
#undef N
#undef T
};

static char *trim(char *s) {
    while (isspace((unsigned char)*s)) s++;
    char *end = s + strlen(s);
    while (end > s && isspace((unsigned char)end[-1])) *--end = 0;
    return s;
}

int pw_theme_load(pw_theme *t, const char *path) {
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, "presentd-wayland: cannot read the theme file %s: %s\n", path, strerror(errno));
        return -1;
    }
    char line[512];
    int number = 0, status = 0;
    while (status == 0 && fgets(line, sizeof line, f)) {
        number++;
        char *s = trim(line);
        if (!*s || *s == '#') continue;
        char *eq = strchr(s, '=');
        if (!eq) {
            fprintf(stderr, "presentd-wayland: %s:%d: expected \"key = value\"\n", path, number);
            status = -1;
            break;
        }
        *eq = 0;
        char *name = trim(s), *value = trim(eq + 1);
        const struct key *k = NULL;
        for (size_t i = 0; i < sizeof keys / sizeof keys[0] && !k; i++)
            if (strcmp(keys[i].name, name) == 0) k = &keys[i];
        char *field = (char *)t + (k ? k->offset : 0), *end = NULL;
        if (!k) {
            fprintf(stderr, "presentd-wayland: %s:%d: unknown key \"%s\"\n", path, number, name);
            status = -1;
        } else if (k->kind == COLOR && pw_color_parse(value, (pw_color *)(void *)field) != 0) {
            fprintf(stderr, "presentd-wayland: %s:%d: %s: \"%s\" is not #rrggbb or #rrggbbaa\n", path, number, name, value);
            status = -1;
        } else if (k->kind == NUMBER) {
            double v = strtod(value, &end);
            if (end == value || *end || v < 0 || v > 1000) {
                fprintf(stderr, "presentd-wayland: %s:%d: %s: \"%s\" is not a number from 0 to 1000\n", path, number, name, value);
                status = -1;
            } else *(double *)(void *)field = v;
        } else if (k->kind == TEXT) {
            if (strlen(value) >= k->size || !*value) {
                fprintf(stderr, "presentd-wayland: %s:%d: %s: empty or longer than %zu bytes\n", path, number, name, k->size - 1);
                status = -1;
            } else memcpy(field, value, strlen(value) + 1);
        }
    }
    fclose(f);
    return status;
}
