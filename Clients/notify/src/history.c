/* See history.h. */
#include "history.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

int history_init(history *h, size_t capacity) {
    memset(h, 0, sizeof *h);
    h->capacity = capacity;
    if (!capacity) return 0;
    h->items = calloc(capacity, sizeof *h->items);
    return h->items ? 0 : -1;
}

static void item_clear(history_item *it) {
    free(it->app_name);
    free(it->summary);
    memset(it, 0, sizeof *it);
}

void history_clear(history *h) {
    for (size_t i = 0; i < h->capacity && h->items; i++) item_clear(&h->items[i]);
    free(h->items);
    memset(h, 0, sizeof *h);
}

void history_add(history *h, uint32_t id, const char *app_name, const char *summary, uint64_t posted_us,
                 uint64_t ended_us, uint32_t reason) {
    if (!h->capacity) return;
    char *app = strdup(app_name ? app_name : ""), *text = strdup(summary ? summary : "");
    if (!app || !text) { free(app); free(text); return; }  /* out of memory: not kept */
    history_item *it = &h->items[h->next];
    item_clear(it);
    it->app_name = app;
    it->summary = text;
    it->id = id;
    it->posted_us = posted_us;
    it->ended_us = ended_us;
    it->reason = reason;
    h->next = (h->next + 1) % h->capacity;
    if (h->count < h->capacity) h->count++;
}

const history_item *history_at(const history *h, size_t i) {
    size_t oldest = (h->next + h->capacity - h->count) % h->capacity;
    return &h->items[(oldest + i) % h->capacity];
}

uint64_t history_now_us(void) {
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (uint64_t)ts.tv_sec * 1000000u + (uint64_t)ts.tv_nsec / 1000u;
}
