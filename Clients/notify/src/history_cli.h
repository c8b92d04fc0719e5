/* `presentd-notify --history`: asks the running bridge for the notifications that ended
 * and those live now, and prints them, one a line; or, with --count, how many are live. */
#ifndef NOTIFY_HISTORY_CLI_H
#define NOTIFY_HISTORY_CLI_H

/* json: one JSON array of objects (id, app, summary, posted, ended, how, reason; ended and
 * reason null for a live one) instead of lines; last: only the last N (-1: all). The exit status: 0, or 1 with a one-line error
 * on stderr. */
int history_print(int json, long last);

/* --history --count: how many notifications are live (on screen and waiting), the number
 * alone; with json, waybar's custom-module object on one line: {text: the count, alt:
 * "notification", "none", "dnd-notification" or "dnd-none", tooltip, class: "dnd" while
 * presentd's do not disturb is on, "none" while off, "unknown" when the bridge cannot say}.
 * The exit status as history_print's. */
int history_count(int json);

#endif
