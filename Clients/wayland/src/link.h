/* The connection to presentd: the screens told, the motion and content heard, and coming back
 * when the daemon restarts. Never blocks: everything goes through the main loop's poll(). */
#ifndef PW_LINK_H
#define PW_LINK_H

#include "app.h"

/* The descriptor to poll (-1 while not connected) and whether to poll it for writing. */
int pw_link_fd(pw_app *app);
int pw_link_wants_write(pw_app *app);

/* The descriptor is ready: read, write, and apply what arrived. */
void pw_link_process(pw_app *app);

/* Connects when it is time to (at start, and after the daemon went away), and on the
 * manual clock asks the time while something moves. */
void pw_link_tick(pw_app *app);

/* Milliseconds until pw_link_tick has something to do, or -1: nothing (idle). */
int pw_link_timeout(pw_app *app);

/* An output was described or changed (size, scale, refresh): its screen is set accordingly. */
void pw_link_screen_changed(pw_app *app, pw_screen *s);

/* An output went away: its screen is removed, or, when it showed main, main moves to a remaining
 * output (whose own screen goes), or waits for the next output to come. */
void pw_link_screen_removed(pw_app *app, pw_screen *s);

void pw_link_close(pw_app *app);

/* Sends a request as a notification (no reply awaited; params consumed), said with --verbose;
 * dropped while not connected. */
void pw_link_notify(pw_app *app, const char *method, json_object *params);

#endif
