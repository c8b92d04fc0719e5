/* One Notify call, read and checked: what the bridge presents. Every string is valid UTF-8
 * (D-Bus guarantees it) and already cut to what presentd accepts, so presentd never refuses
 * a notification for a reason the bridge could have checked. */
#ifndef NOTIFY_NOTE_H
#define NOTIFY_NOTE_H

#include <stddef.h>
#include <stdint.h>

#include "text.h"

/* presentd's content takes at most 8 actions (docs/PROTOCOL.md, "Content object"). */
#define NOTE_MAX_ACTIONS 8
/* An action key longer than this is refused: ActionInvoked gives it back, so it is kept. */
#define NOTE_MAX_KEY 1024
/* app_name and the synchronous tag, kept for matching. */
#define NOTE_MAX_NAME 256

enum note_urgency { URGENCY_LOW = 0, URGENCY_NORMAL = 1, URGENCY_CRITICAL = 2 };
enum note_icon { ICON_NONE = 0, ICON_NAME, ICON_PATH };

/* The action key KDE's inline reply uses, and the presentd field that carries the text. */
#define NOTE_REPLY_KEY "inline-reply"
#define NOTE_REPLY_FIELD "reply"

typedef struct note_action {
    char *key;                   /* as the app sent it: what ActionInvoked gives back */
    char id[TEXT_MAX_ID * 4 + 1];/* presentd's action id: the key when it is a valid one, else "action-N" */
    char *title;                 /* the label (the key when the label is empty), cut */
} note_action;

typedef struct note_spec {
    char *app_name;              /* cut to NOTE_MAX_NAME */
    uint32_t replaces_id;
    char *title;                 /* summary, cut; NULL when empty */
    char *message;               /* body as plain text, cut; NULL when empty */
    char *message_markup;        /* body as safe Pango markup (text_body); NULL when it formats nothing */
    int icon_kind;               /* enum note_icon */
    char *icon;                  /* a theme name or an absolute .png/.svg path */
    int icon_is_image_data;      /* icon is a PNG the bridge wrote: removed when the notification ends */
    size_t n_actions;
    note_action actions[NOTE_MAX_ACTIONS];
    int inline_reply;            /* actions has NOTE_REPLY_KEY: the entry gets a text field */
    char *reply_placeholder;     /* x-kde-reply-placeholder-text, cut; or NULL */
    int urgency;                 /* enum note_urgency */
    int32_t expire_timeout;      /* as sent: -1 default, 0 never, else ms */
    int progress;                /* value: 0…100, or -1 for no bar */
    char *tag;                   /* x-canonical-private-synchronous / x-dunst-stack-tag, or NULL */
    int resident;                /* actions do not dismiss */
    int transient;               /* not kept in the history */
} note_spec;

/* Whether it asks something: an action besides "default" (the click on the body, which
 * answers nothing the notification asked), a button or the inline reply. */
int note_asks(const note_spec *s);

void note_spec_clear(note_spec *s);

/* Moves src into dst (dst cleared first); src is left blank. */
void note_spec_move(note_spec *dst, note_spec *src);

#endif
