/* The image-data hint (raw pixels, GdkPixbuf's layout) as a PNG file presentd's renderers
 * can read: checked, scaled down to at most IMAGE_MAX_SIDE pixels a side (so the file is
 * bounded whatever was sent), written atomically into the bridge's own directory. */
#ifndef NOTIFY_IMAGE_H
#define NOTIFY_IMAGE_H

#include <stddef.h>
#include <stdint.h>

#define IMAGE_MAX_SIDE 256
/* The bridge's PNGs together: 64 MiB, some 250 images of the largest size. Past it a
 * notification's image-data is not shown (logged). */
#define IMAGE_DIR_MAX_BYTES (64u << 20)

typedef struct image_data {
    int32_t width, height, rowstride;
    int has_alpha;
    int32_t bits_per_sample, channels;
    const uint8_t *data;
    size_t size;
} image_data;

/* Checks that the pixels are what their header says: 0, or -1 with why (for the log). */
int image_check(const image_data *img, char *why, size_t why_size);

/* Writes img (checked) as a PNG file at path (through path.tmp and a rename). 0, or -1
 * with why. */
int image_write_png(const image_data *img, const char *path, char *why, size_t why_size);

#endif
