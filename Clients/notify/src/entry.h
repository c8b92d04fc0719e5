/* A notification as presentd params: the overlay entry (present) and its content (update).
 * One place for the mapping of docs/NOTIFICATIONS.md ("What a notification becomes"). */
#ifndef NOTIFY_ENTRY_H
#define NOTIFY_ENTRY_H

#include <json-c/json.h>

#include "note.h"

/* A critical notification's priority: presentd's highest (0…1000), so it passes do not
 * disturb; the connection's role needs this maxPriority (checked at start-up). */
#define ENTRY_CRITICAL_PRIORITY 1000

/* The content object: title, message, icon, actions (role "default" for the "default"
 * key), the reply field, progress, and how a screen reader announces it. */
json_object *entry_content(const note_spec *spec);

/* autoDismiss {after} for a notification that expires after ms milliseconds, or NULL
 * (JSON null) when it never does. */
json_object *entry_auto_dismiss(int32_t ms);

/* present's params: entry id, the overlay level at the top, priority and droppable by
 * urgency, the countdown, the content. */
json_object *entry_present(const char *entry, const note_spec *spec, int32_t expire_ms);

/* update's params: the content and the countdown, started again. */
json_object *entry_update(const char *entry, const note_spec *spec, int32_t expire_ms);

#endif
