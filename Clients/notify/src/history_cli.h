/* `presentd-notify --history`: asks the running bridge for the notifications that ended
 * and those live now, and prints them, one a line. */
#ifndef NOTIFY_HISTORY_CLI_H
#define NOTIFY_HISTORY_CLI_H

/* json: one JSON array of objects (id, app, summary, posted, ended, how, reason; ended and
 * reason null for a live one) instead of lines; last: only the last N (-1: all). The exit status: 0, or 1 with a one-line error
 * on stderr. */
int history_print(int json, long last);

#endif
