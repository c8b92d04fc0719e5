/* `presentd-notify --history`: asks the running bridge for the notifications that ended
 * and prints them, one a line. */
#ifndef NOTIFY_HISTORY_CLI_H
#define NOTIFY_HISTORY_CLI_H

/* The exit status: 0, or 1 with a one-line error on stderr. */
int history_print(void);

#endif
