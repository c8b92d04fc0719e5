/* Buffers in memfd memory, ARGB8888 premultiplied: what cairo draws and every compositor reads. */
#include "shm.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

static void released(void *data, struct wl_buffer *wl) {
    ((pw_buffer *)data)->busy = 0;
}

static const struct wl_buffer_listener buffer_listener = { .release = released };

void pw_buffer_destroy(pw_buffer *b) {
    if (b->surface) cairo_surface_destroy(b->surface);
    if (b->wl) wl_buffer_destroy(b->wl);
    if (b->data) munmap(b->data, b->size);
    *b = (pw_buffer){0};
}

static int make(pw_buffer *b, struct wl_shm *shm, int width, int height) {
    int stride = cairo_format_stride_for_width(CAIRO_FORMAT_ARGB32, width);
    size_t size = (size_t)stride * (size_t)height;
    int fd = memfd_create("presentd-wayland", MFD_CLOEXEC);
    if (fd < 0 || ftruncate(fd, (off_t)size) < 0) {
        fprintf(stderr, "presentd-wayland: a %dx%d buffer: memfd: %s\n", width, height, strerror(errno));
        if (fd >= 0) close(fd);
        return -1;
    }
    void *data = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (data == MAP_FAILED) {
        fprintf(stderr, "presentd-wayland: a %dx%d buffer: mmap: %s\n", width, height, strerror(errno));
        close(fd);
        return -1;
    }
    struct wl_shm_pool *pool = wl_shm_create_pool(shm, fd, (int32_t)size);
    b->wl = wl_shm_pool_create_buffer(pool, 0, width, height, stride, WL_SHM_FORMAT_ARGB8888);
    wl_shm_pool_destroy(pool);
    close(fd);  /* the pool holds the memory now */
    wl_buffer_add_listener(b->wl, &buffer_listener, b);
    b->data = data;
    b->size = size;
    b->width = width;
    b->height = height;
    b->surface = cairo_image_surface_create_for_data(data, CAIRO_FORMAT_ARGB32, width, height, stride);
    return 0;
}

pw_buffer *pw_buffer_get(pw_buffer pair[2], struct wl_shm *shm, int width, int height) {
    for (int i = 0; i < 2; i++) {
        pw_buffer *b = &pair[i];
        if (b->busy) continue;
        if (b->wl && (b->width != width || b->height != height)) pw_buffer_destroy(b);
        if (!b->wl && make(b, shm, width, height) != 0) return NULL;
        return b;
    }
    return NULL;
}
