#include "note.h"

#include <stdlib.h>
#include <string.h>

int note_asks(const note_spec *s) {
    for (size_t i = 0; i < s->n_actions; i++)
        if (strcmp(s->actions[i].key, "default") != 0) return 1;
    return 0;
}

void note_spec_clear(note_spec *s) {
    free(s->app_name);
    free(s->title);
    free(s->message);
    free(s->message_markup);
    free(s->icon);
    for (size_t i = 0; i < s->n_actions; i++) {
        free(s->actions[i].key);
        free(s->actions[i].title);
    }
    free(s->reply_placeholder);
    free(s->tag);
    memset(s, 0, sizeof *s);
    s->progress = -1;
}

void note_spec_move(note_spec *dst, note_spec *src) {
    note_spec_clear(dst);
    *dst = *src;
    memset(src, 0, sizeof *src);
    src->progress = -1;
}
