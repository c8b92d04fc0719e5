/* One line to stderr (the journal, under systemd), prefixed with the program's name. */
#ifndef NOTIFY_LOG_H
#define NOTIFY_LOG_H

void log_line(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
