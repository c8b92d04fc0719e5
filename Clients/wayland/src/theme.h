/* The look: colours, fonts, radii and spacing, with defaults and a small "key = value" file
 * that changes them (docs/WAYLAND.md, "Theme"). */
#ifndef PW_THEME_H
#define PW_THEME_H

typedef struct pw_color {
    double r, g, b, a;
} pw_color;

typedef struct pw_theme {
    pw_color card, text, secondary_text;
    pw_color accent, accent_text;             /* the default button */
    pw_color destructive, destructive_text;   /* the destructive button */
    pw_color button, button_text;             /* any other button */
    pw_color field, field_border, placeholder;
    pw_color progress_track, progress_fill;
    pw_color shadow;                          /* the card's shadow when the presentation has none */
    double shadow_radius, shadow_offset_y;    /* points; radius 0: no default shadow */
    double card_radius;                       /* the least corner radius of a card, points */
    double button_radius, field_radius;
    double padding, spacing;                  /* around and between the card's parts, points */
    double button_height, field_height, icon_size;
    pw_color background;                      /* --kiosk: under everything */
    double status_bar_height;                 /* --kiosk: the status bar, points */
    char title_font[128], body_font[128], button_font[128];
    char icon_theme[64];
} pw_theme;

/* The documented defaults (a light desktop alert). */
void pw_theme_defaults(pw_theme *t);

/* Reads the file at path over t. Returns 0, or -1 after printing one line naming the file,
 * the line and what is wrong with it (t keeps what was read before). */
int pw_theme_load(pw_theme *t, const char *path);

/* "#rrggbb" or "#rrggbbaa" into out: 0, or -1 when it is neither. */
int pw_color_parse(const char *text, pw_color *out);

#endif
