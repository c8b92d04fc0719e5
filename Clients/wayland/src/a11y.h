/* A screen reader's view of what is drawn: the entries on screen as ATK objects, exposed on the
 * AT-SPI accessibility bus by atk-bridge. The renderer tells it when the picture changed
 * (pw_a11y_sync) and lets it run its D-Bus traffic from the main loop's poll()
 * (pw_a11y_poll_prepare, pw_a11y_poll_done). Without an accessibility bus it says so once and
 * does nothing. docs/WAYLAND.md, "A screen reader". */
#ifndef PW_A11Y_H
#define PW_A11Y_H

#include <poll.h>

#include "app.h"

/* Connects to the accessibility bus and registers the application; 0: exposed, -1: not (said
 * in one line: no bus, or NO_AT_BRIDGE set). */
int pw_a11y_start(pw_app *app);

/* The entries shown changed (a picture was drawn, an entry came, changed or left): the ATK
 * tree follows, with the events a screen reader hears (children-changed, showing, window
 * activate, and announcements for content with `accessibility.announce`). */
void pw_a11y_sync(pw_app *app);

/* The main loop's turn: adds the descriptors to poll (at most room) and lowers *timeout
 * (milliseconds, −1: none) to when it must run; returns how many it added. Every prepare is
 * followed by pw_a11y_poll_done with the same fds once poll() returned. */
int pw_a11y_poll_prepare(struct pollfd *fds, int room, int *timeout);
void pw_a11y_poll_done(struct pollfd *fds, int n);

void pw_a11y_stop(pw_app *app);

#endif
