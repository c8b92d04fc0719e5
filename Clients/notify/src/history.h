/* The last notifications that ended, for the user to look back at (`presentd-notify
 * --history`): a ring of at most `capacity`, the oldest dropped first. Notifications with
 * the `transient` hint are never kept, as the spec asks. */
#ifndef NOTIFY_HISTORY_H
#define NOTIFY_HISTORY_H

#include <stddef.h>
#include <stdint.h>

typedef struct history_item {
    uint32_t id;
    char *app_name, *summary;    /* as shown: cut to presentd's bounds */
    uint64_t posted_us, ended_us;/* CLOCK_REALTIME, microseconds */
    uint32_t reason;             /* NotificationClosed's */
} history_item;

typedef struct history {
    size_t capacity, count, next;  /* next: where the next item goes */
    history_item *items;
} history;

/* 0, or -1 when out of memory. capacity 0 keeps nothing. */
int history_init(history *h, size_t capacity);
void history_clear(history *h);

/* Keeps a copy of app_name and summary (NULL: ""). */
void history_add(history *h, uint32_t id, const char *app_name, const char *summary, uint64_t posted_us,
                 uint64_t ended_us, uint32_t reason);

/* The i-th item, oldest first (i < h->count). */
const history_item *history_at(const history *h, size_t i);

/* CLOCK_REALTIME now, microseconds. */
uint64_t history_now_us(void);

#endif
