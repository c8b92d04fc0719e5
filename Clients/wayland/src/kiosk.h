/* --kiosk: the fullscreen window that is main (kiosk.c). */
#ifndef PW_KIOSK_H
#define PW_KIOSK_H

#include "app.h"

/* Makes the window: a fullscreen xdg_toplevel, added to app->screens as "main". */
void pw_kiosk_make(pw_app *app);

/* Answers xdg_wm_base's pings (a window that does not is deemed hung). */
void pw_kiosk_answer_pings(pw_app *app);

#endif
