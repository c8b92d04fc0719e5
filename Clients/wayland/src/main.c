/* presentd-wayland: presentd's renderer for Wayland compositors with wlr-layer-shell (sway,
 * Hyprland, river, labwc, …). Every output is a presentd screen; every presentation is drawn
 * above every window, on an overlay layer surface per output, from the daemon's animations
 * topic at the output's own refresh. One poll() loop: the compositor, the daemon, signals.
 * docs/WAYLAND.md. */
#include <errno.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <time.h>
#include <unistd.h>

#include "a11y.h"
#include "app.h"
#include "card.h"
#include "content.h"
#include "input.h"
#include "link.h"
#include "paint.h"
#include "stats.h"
#include "wayland.h"

double pw_now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* The real clock is CLOCK_MONOTONIC on this machine; the manual clock is what the daemon last
 * said, so that under tests the picture is the daemon's at that exact time. */
double pw_daemon_time(pw_app *app) {
    return app->manual_clock ? app->known_time : pw_now();
}

/* How long the compositor's pipeline is: the D for which a picture whose time is chosen at c
 * is shown at the first refresh at or after c + D. Each measured lead (c to the refresh it was
 * shown at) says D is in (lead − refresh, lead], whatever moment of the refresh c fell at; D is
 * the middle of the span most of the latest leads agree on, so that a frame the compositor
 * showed late or early (at the start of a motion, under load) does not move it. 0: none
 * measured. */
static double pipeline_depth(const pw_screen *s) {
    int best = 0;
    double depth = 0;
    for (int j = 0; j < s->n_leads; j++) {
        int agree = 0;
        double low = -1e9, high = 1e9, at = s->leads[j];
        for (int i = 0; i < s->n_leads; i++) {
            if (!(s->leads[i] - s->refresh < at && at <= s->leads[i])) continue;
            agree++;
            if (s->leads[i] - s->refresh > low) low = s->leads[i] - s->refresh;
            if (s->leads[i] < high) high = s->leads[i];
        }
        if (agree > best) {
            best = agree;
            depth = (low + high) / 2;
        }
    }
    return depth;
}

/* As Core Animation does: a picture is drawn for the moment it will be shown. That moment is a
 * refresh of the output, on the grid of the last presentation: the first one at or after now
 * plus the compositor's pipeline (measured from the latest pictures, as it differs between
 * compositors and backends), and never before the next one. --predict refresh, or before
 * any picture was shown, draws for the next refresh after now; without a fresh grid (no
 * feedback, or a second since the last), for now plus the pipeline. */
double pw_screen_time(pw_app *app, pw_screen *s, double now) {
    if (app->manual_clock) return pw_daemon_time(app);
    double depth = app->predict_refresh || s->refresh <= 0 ? 0 : pipeline_depth(s);
    if (s->presented_at <= 0 || s->refresh <= 0 || now - s->presented_at > 1) return now + depth;
    double next = ceil((now - s->presented_at) / s->refresh), reached = ceil((now + depth - s->presented_at) / s->refresh);
    if (next < 1) next = 1;
    return s->presented_at + (reached > next ? reached : next) * s->refresh;
}

static void usage(FILE *to) {
    fprintf(to,
            "usage: presentd-wayland [--socket PATH] [--main NAME] [--kiosk] [--theme PATH] [--predict latency|refresh]\n"
            "                        [--verbose] [--stats] [--trace]\n"
            "\n"
            "Draws presentd's presentations above every window of a wlr-layer-shell compositor.\n"
            "  --socket PATH  presentd's socket (default: $PRESENTD_SOCKET, else\n"
            "                 $XDG_RUNTIME_DIR/presentd/presentd.sock, else /run/presentd/presentd.sock)\n"
            "  --main NAME    the output that is presentd's \"main\" screen (default: the first)\n"
            "  --kiosk        one fullscreen window (xdg-shell: cage, any compositor) instead of overlay\n"
            "                 surfaces; it is main, and draws a status bar\n"
            "  --theme PATH   the theme file (default: $XDG_CONFIG_HOME/presentd/wayland.theme when it exists)\n"
            "  --predict HOW  the time each picture is drawn for, when the compositor tells when pictures\n"
            "                 are shown: latency (default), the refresh the compositor's measured pipeline\n"
            "                 says it will be shown at; refresh, the next refresh after now\n"
            "  --verbose      say which output is which screen\n"
            "  --stats        at exit, print the frames drawn, their draw times and the CPU used\n"
            "  --trace        a line on stderr per commit, frame callback and presentation feedback\n"
            "The compositor is $WAYLAND_DISPLAY's. See presentd-wayland(1) and docs/WAYLAND.md.\n");
}

/* Draws every screen whose picture changed, or moves, and whose last picture was shown. */
static void draw(pw_app *app) {
    if (app->kiosk_screen && !app->status_hidden && (long)(time(NULL) / 60) != app->clock_minute)
        app->kiosk_screen->dirty = 1;  /* the clock turned */
    pw_screen *s;
    wl_list_for_each(s, &app->screens, link) {
        if (!s->configured || s->frame) continue;  /* not mapped yet, or the last one not shown yet */
        double chosen_at = pw_now(), t = pw_screen_time(app, s, chosen_at);
        if (!s->dirty && !(s->moving && t != s->drawn_time)) continue;
        int empty = (!s->has_motion || s->motion.n_layers == 0) && s != app->kiosk_screen;
        if (empty && s->drawn_empty && s->draws > 0) { s->dirty = 0; s->moving = 0; continue; }
        pw_buffer *b = pw_screen_buffer(s);
        if (!b) continue;  /* both buffers with the compositor: again at the next release */
        int moving;
        size_t n = pw_paint(app, s, t, b, &moving);
        pw_input_picture_changed(app, s);
        s->drawn_time = t;  /* the time its presentation feedback reports */
        s->chosen_at = chosen_at;
        pw_screen_present(s, b, moving);
        pw_stats_frame(pw_now() - chosen_at);
        s->dirty = 0;
        s->moving = moving;
        s->drawn_time = t;
        s->drawn_empty = n == 0;
        s->draws++;
    }
    pw_a11y_sync(app);  /* the screen reader's tree follows what was drawn */
}

static int signals(void) {
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGINT);
    sigaddset(&set, SIGTERM);
    sigprocmask(SIG_BLOCK, &set, NULL);
    signal(SIGPIPE, SIG_IGN);
    return signalfd(-1, &set, SFD_CLOEXEC | SFD_NONBLOCK);
}

static int compositor_gone(const char *what) {
    fprintf(stderr, "presentd-wayland: the compositor went away (%s: %s)\n", what, strerror(errno));
    return 1;
}

static int run(pw_app *app) {
    int sfd = signals();
    app->retry_delay = 0.05;
    app->retry_at = pw_now();  /* connect at the first tick */
    for (;;) {
        pw_link_tick(app);
        pw_input_tick(app);
        draw(app);
        while (wl_display_prepare_read(app->display) != 0)
            if (wl_display_dispatch_pending(app->display) < 0) return compositor_gone("dispatch");
        if (wl_display_flush(app->display) < 0 && errno != EAGAIN) {
            wl_display_cancel_read(app->display);
            return compositor_gone("write");
        }
        enum { OWN_FDS = 3, A11Y_FDS = 16 };
        struct pollfd fds[OWN_FDS + A11Y_FDS] = {
            { .fd = wl_display_get_fd(app->display), .events = POLLIN },
            { .fd = pw_link_fd(app), .events = POLLIN | (pw_link_wants_write(app) ? POLLOUT : 0) },
            { .fd = sfd, .events = POLLIN },
        };
        int timeout = pw_link_timeout(app), repeat = pw_input_timeout(app);
        if (repeat >= 0 && (timeout < 0 || repeat < timeout)) timeout = repeat;
        if (app->kiosk_screen && !app->status_hidden) {
            /* The status bar's clock: a wake-up a minute, at the minute. */
            int clock = (int)(60 - time(NULL) % 60) * 1000;
            if (timeout < 0 || clock < timeout) timeout = clock;
        }
        int n_a11y = pw_a11y_poll_prepare(fds + OWN_FDS, A11Y_FDS, &timeout);
        int ready = poll(fds, OWN_FDS + n_a11y, timeout);
        if (ready < 0 && errno != EINTR) {
            wl_display_cancel_read(app->display);
            fprintf(stderr, "presentd-wayland: poll: %s\n", strerror(errno));
            return 1;
        }
        if (ready > 0 && fds[0].revents) {
            if (wl_display_read_events(app->display) < 0) return compositor_gone("read");
        } else {
            wl_display_cancel_read(app->display);
        }
        if (fds[0].revents & (POLLHUP | POLLERR)) { errno = ECONNRESET; return compositor_gone("hang-up"); }
        if (wl_display_dispatch_pending(app->display) < 0) return compositor_gone("dispatch");
        if (ready > 0 && fds[1].revents) pw_link_process(app);
        /* The screen reader's calls (a button pressed through AT-SPI) run after the compositor's
         * and presentd's news, out of the Wayland read. */
        if (ready < 0) for (int i = 0; i < n_a11y; i++) fds[OWN_FDS + i].revents = 0;
        pw_a11y_poll_done(fds + OWN_FDS, n_a11y);
        if (app->quit) {
            fprintf(stderr, "presentd-wayland: the compositor closed the kiosk window\n");
            close(sfd);
            return 0;
        }
        if (ready > 0 && fds[2].revents) {
            fprintf(stderr, "presentd-wayland: stopping\n");
            close(sfd);
            return 0;
        }
    }
}

int main(int argc, char **argv) {
    pw_app app = { .hello_id = -1, .subscribe_id = -1, .time_id = -1, .presentation_clock = -1 };
    const char *theme = NULL;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) { usage(stdout); return 0; }
        else if (strcmp(argv[i], "--socket") == 0 && i + 1 < argc) app.socket_path = argv[++i];
        else if (strcmp(argv[i], "--main") == 0 && i + 1 < argc) app.main_name = argv[++i];
        else if (strcmp(argv[i], "--theme") == 0 && i + 1 < argc) theme = argv[++i];
        else if (strcmp(argv[i], "--verbose") == 0) app.verbose = 1;
        else if (strcmp(argv[i], "--kiosk") == 0) app.kiosk = 1;
        else if (strcmp(argv[i], "--stats") == 0) pw_stats_start();
        else if (strcmp(argv[i], "--trace") == 0) app.trace = 1;
        else if (strcmp(argv[i], "--predict") == 0 && i + 1 < argc) {
            const char *how = argv[++i];
            if (strcmp(how, "refresh") == 0) app.predict_refresh = 1;
            else if (strcmp(how, "latency") != 0) {
                fprintf(stderr, "presentd-wayland: --predict takes latency or refresh, not \"%s\"\n", how);
                return 2;
            }
        }
        else {
            fprintf(stderr, "presentd-wayland: unknown or incomplete argument \"%s\"\n", argv[i]);
            usage(stderr);
            return 2;
        }
    }
    setvbuf(stderr, NULL, _IOLBF, 0);
    pw_theme_defaults(&app.theme);
    char default_theme[1024];
    if (!theme) {
        const char *config = getenv("XDG_CONFIG_HOME"), *home = getenv("HOME");
        if (config && *config) snprintf(default_theme, sizeof default_theme, "%s/presentd/wayland.theme", config);
        else snprintf(default_theme, sizeof default_theme, "%s/.config/presentd/wayland.theme", home ? home : "");
        if (access(default_theme, R_OK) == 0) theme = default_theme;
    }
    if (theme && pw_theme_load(&app.theme, theme) != 0) return 2;
    if (app.socket_path) snprintf(app.resolved_socket, sizeof app.resolved_socket, "%s", app.socket_path);
    else presentd_default_socket(app.resolved_socket, sizeof app.resolved_socket);
    if (pw_wayland_connect(&app) != 0) {
        pw_wayland_disconnect(&app);
        return 1;
    }
    pw_a11y_start(&app);
    int status = run(&app);
    pw_a11y_stop(&app);
    pw_link_close(&app);
    pw_wayland_disconnect(&app);
    pw_card_shutdown();
    pw_stats_report();
    return status;
}
