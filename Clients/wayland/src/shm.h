/* Shared-memory buffers for a surface: a pair, so that one can be drawn while the
 * compositor still reads the other. */
#ifndef PW_SHM_H
#define PW_SHM_H

#include <cairo.h>
#include <stdint.h>
#include <wayland-client.h>

typedef struct pw_buffer {
    struct wl_buffer *wl;
    cairo_surface_t *surface;   /* over the mapped memory */
    void *data;
    size_t size;
    int width, height;          /* pixels */
    int busy;                   /* attached and not released yet */
} pw_buffer;

/* A buffer of the pair that is free and width×height pixels (made or remade as needed), or
 * NULL when both are busy or the memory could not be had (then a line says why). */
pw_buffer *pw_buffer_get(pw_buffer pair[2], struct wl_shm *shm, int width, int height);

void pw_buffer_destroy(pw_buffer *b);

#endif
