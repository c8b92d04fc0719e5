/* Reading a Notify call off the bus into a note_spec: the arguments in order, then the
 * hints, each checked for its type. Structural faults (an odd number of action strings, a
 * key too long) are D-Bus errors naming the argument; a hint of the wrong type or an
 * unusable icon is ignored, as if it had not been sent (docs/NOTIFICATIONS.md). */
#ifndef NOTIFY_ARGS_H
#define NOTIFY_ARGS_H

#include <systemd/sd-bus.h>

#include "image.h"
#include "note.h"

/* Fills spec (blank before) from m. *image is the image-data hint, pointing into m (valid
 * while m is), when *has_image is set: it was checked, and wins over spec->icon. Returns
 * 0, or a negative errno with err set (spec is then cleared). */
int notify_args_read(sd_bus_message *m, note_spec *spec, image_data *image, int *has_image, sd_bus_error *err);

#endif
