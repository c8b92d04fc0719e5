/* What the renderer's parts share: the compositor's outputs (each a presentd screen), the
 * connection to presentd, and the content of the entries on screen. */
#ifndef PW_APP_H
#define PW_APP_H

#include <wayland-client.h>

#include "presentd.h"
#include "shm.h"
#include "theme.h"

struct pw_app;

/* Where a layer was drawn last, for input: its frame before scale, which scales about the
 * centre (rotation is left out: a flipping card is in motion, and takes its taps as the
 * daemon does, by its frame). */
#define PW_MAX_HITS 64
typedef struct pw_hit {
    char id[257];
    int dimming;
    double x, y, width, height, scale;
} pw_hit;

/* A rectangle of a card (points, the card's own coordinates) that takes input: a button (of
 * action `index`) or a field (`index` into the content's fields). */
typedef struct pw_target {
    double x, y, width, height;
    int index;
} pw_target;

/* One compositor output, which is one presentd screen, with its overlay surface. */
typedef struct pw_screen {
    struct wl_list link;
    struct pw_app *app;
    uint32_t global;                       /* the registry name of its wl_output */
    struct wl_output *wl_output;
    struct zxdg_output_v1 *xdg_output;
    char name[128];                        /* the compositor's output name ("HEADLESS-1", "DP-1") */
    char screen[128];                      /* its presentd screen: "main" or name; "" while unknown */
    int32_t scale;                         /* wl_output.scale */
    int logical_width, logical_height;     /* xdg-output, points */
    int mode_width, mode_height;           /* pixels, from the current mode (a fallback for the size) */
    int refresh_mhz;                       /* the current mode's */
    int described;                         /* every property arrived (wl_output.done) */
    /* The overlay surface. */
    struct wl_surface *surface;
    struct zwlr_layer_surface_v1 *layer;   /* on a desktop */
    struct xdg_surface *xdg_surface;       /* --kiosk: a fullscreen toplevel instead */
    struct xdg_toplevel *toplevel;
    int32_t pending_width, pending_height; /* the toplevel's configure, applied with the xdg_surface's */
    uint32_t width, height;                /* as configured, points */
    int configured;
    pw_buffer buffers[2];
    struct wl_callback *frame;             /* a frame callback asked for and not done yet */
    struct wl_list feedbacks;              /* pw_feedback.link: a frame's presentation feedback asked for,
                                              not answered yet (one per committed frame) */
    /* Frames shown and not yet reported to presentd (`presented`, sent in batches). */
#define PW_REPORT_BATCH 32
    struct { double time, drawn_at, shown_at, refresh; } shown[PW_REPORT_BATCH];
    int n_shown;
    int discarded;                         /* discarded since the last report */
    double presented_at, refresh;          /* wp_presentation: when the last picture was shown, and the
                                              period then (monotonic seconds; 0: not known) */
#define PW_LEADS 8
    double leads[PW_LEADS];                /* the latest frames' time from choosing their time to being
                                              shown (seconds): the compositor's pipeline is measured on them */
    int n_leads, next_lead;
    double chosen_at;                      /* when the last picture's time was chosen (monotonic) */
    /* The picture. */
    presentd_animations motion;            /* the payload in force (n_layers 0: none) */
    int has_motion;
    int dirty;                             /* something changed since the last draw */
    int moving;                            /* the last draw was of a picture in motion */
    double drawn_time;                     /* the daemon time of the last draw */
    int drawn_empty;                       /* the last draw was of nothing at all */
    unsigned long draws;                   /* how many pictures it drew */
    /* Input: what the last picture showed where (paint.c), bottom to top. */
    pw_hit hits[PW_MAX_HITS];
    size_t n_hits;
    char top_id[257];                      /* the entry that takes keys ("" : none) */
    int keyboard_exclusive;                /* the interactivity asked of the compositor now */
} pw_screen;

/* The shape a card is laid out in (card.c), chosen from what the stack says of its entry
 * (pw_shape_of): a desktop's banner, toast, sheet or alert, or a label on a modal card. */
typedef enum pw_shape {
    PW_SHAPE_ALERT,                        /* a modal dialog: centred, buttons at the bottom */
    PW_SHAPE_SHEET,                        /* a panel: a header bar, content from the top */
    PW_SHAPE_BANNER,                       /* a notification: icon at the leading edge, text beside it */
    PW_SHAPE_TOAST,                        /* a pill of one line */
    PW_SHAPE_LABEL,                        /* a string label on a modal card: one centred paragraph */
} pw_shape;

/* What one entry shows, kept from stack and lifecycle events, and its drawn card. */
typedef struct pw_record {
    struct pw_record *next;
    char id[257];
    int64_t revision;
    json_object *content;                  /* a reference: a string label or a content object */
    /* The card drawn for it (content and chrome, without shadow or motion). */
    void *card;                            /* cairo_surface_t *, NULL: not drawn yet */
    double card_width, card_height, card_scale, card_radius;
    int64_t card_revision;
    void *shadow;                          /* cairo_surface_t *: its shadow's mask, NULL: not made yet */
    double shadow_key[5];                  /* width, height, radius, blur, scale of that mask */
    int indeterminate;                     /* an indeterminate progress bar moves on the card */
    double bar_x, bar_y, bar_width, bar_height;  /* where it is, card points */
    /* Input (input.c): the entry as the stack describes it, and what the person did to it. */
    int forward;                           /* interaction "forward": taps on its dimming go below */
    char style[32], level[16];             /* its style's name ("" for a style object) and level, from the
                                              stack: what a screen reader is told it is (a11y.c) */
    int leaving;                           /* willDismiss came: it takes no more keys */
    pw_shape shape;                        /* how its card is laid out (pw_shape_of) */
    int body_action;                       /* the action a tap on the card's body activates (a banner's
                                              `default`, not drawn as a button), from the last card; −1: none */
    int n_actions, n_fields;
    char field_id[PRESENTD_MAX_FIELDS][64];
    char field_kind[PRESENTD_MAX_FIELDS][8];
    char value[PRESENTD_MAX_FIELDS][256];  /* what is in each field now (typed, else its own value) */
    int focus;                             /* Tab order: fields 0…n_fields−1, then the buttons in
                                              drawing order; −1: nothing focused */
    int selected;                          /* the focused field's whole text is selected: typing
                                              replaces it, Backspace erases it */
    int told;                              /* the field the daemon last heard has focus, −1: none
                                              (the focus given at first is not said: input.c) */
    int pressed;                           /* the action whose button is held down, −1: none */
    pw_target buttons[PRESENTD_MAX_ACTIONS];  /* in drawing order (the Tab order), from the last card */
    int n_buttons;
    pw_target fields[PRESENTD_MAX_FIELDS];
    unsigned input_revision, card_input_revision;  /* the card is drawn again when input changed it */
} pw_record;

typedef struct pw_app {
    /* The compositor. */
    struct wl_display *display;
    struct wl_registry *registry;
    struct wl_compositor *compositor;
    struct wl_shm *shm;
    struct zwlr_layer_shell_v1 *layer_shell;
    struct zxdg_output_manager_v1 *xdg_output_manager;
    struct xdg_wm_base *wm_base;           /* --kiosk */
    struct wl_seat *seat;                  /* input (input.c) */
    struct xdg_activation_v1 *activation;  /* tokens for the app a press answers (activation.c) */
    struct pw_input *input;
    struct wp_presentation *presentation;  /* when pictures are shown, to draw the time they will be */
    int presentation_clock;                /* its clock's id (clock_gettime); −1: not said yet */
    int predict_refresh;                   /* --predict refresh: draw for the next refresh after now,
                                              not past the compositor's measured pipeline */
    int trace;                             /* --trace: a line per commit, frame callback and feedback */
    int kiosk;                             /* one fullscreen toplevel, which is main, with a status bar */
    pw_screen *kiosk_screen;
    char status_style[32];                 /* the status bar presentd says is in force on main */
    int status_hidden;
    long clock_minute;                     /* the minute the kiosk's clock last showed */
    int quit;                              /* the compositor asked the kiosk window to close */
    struct wl_list screens;                /* pw_screen.link */
    const char *main_name;                 /* --main NAME, or NULL: the first output */
    presentd_animations main_motion;       /* main's picture while no output shows main: the next */
    int has_main_motion;                   /* output to come draws it (link.c) */
    /* presentd. */
    const char *socket_path;               /* NULL: as presentctl finds it */
    char resolved_socket[512];
    presentd_client *client;               /* NULL while not connected */
    int64_t hello_id, subscribe_id, time_id;  /* replies awaited (-1: none) */
    int subscribed;
    int manual_clock;
    double known_time;                     /* the manual clock's latest time the daemon told */
    double time_asked_at;                  /* when the manual clock's time was last asked (monotonic) */
    double retry_at, retry_delay;          /* reconnecting: when to try next, and the backoff */
    int said_waiting;
    pw_record *records;
    pw_theme theme;
    int verbose;
} pw_app;

/* Monotonic seconds: the daemon's real clock on this machine. */
double pw_now(void);

/* The daemon time the screens are to be drawn at now. */
double pw_daemon_time(pw_app *app);

/* The daemon time screen s's next picture, chosen `now`, is for: on the real clock, when the
 * compositor will show it (predicted from its presentation feedback), else pw_daemon_time. */
double pw_screen_time(pw_app *app, pw_screen *s, double now);

#endif
