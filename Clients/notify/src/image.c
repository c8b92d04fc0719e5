/* image-data → PNG. The PNG is written by hand around zlib (IHDR, one IDAT, IEND): an 8-bit
 * RGB or RGBA image with no row filters, which every PNG reader takes. See image.h. */
#include "image.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

int image_check(const image_data *img, char *why, size_t why_size) {
    if (img->width <= 0 || img->height <= 0) {
        snprintf(why, why_size, "width and height must be positive, got %dx%d", img->width, img->height);
        return -1;
    }
    if (img->bits_per_sample != 8) {
        snprintf(why, why_size, "bits_per_sample must be 8, got %d", img->bits_per_sample);
        return -1;
    }
    if (img->channels != (img->has_alpha ? 4 : 3)) {
        snprintf(why, why_size, "channels must be %d with has_alpha %s, got %d", img->has_alpha ? 4 : 3,
                 img->has_alpha ? "true" : "false", img->channels);
        return -1;
    }
    int64_t row = (int64_t)img->width * img->channels;
    if (img->rowstride < row) {
        snprintf(why, why_size, "rowstride %d is less than width × channels (%lld)", img->rowstride, (long long)row);
        return -1;
    }
    /* GdkPixbuf's last row need not be padded to the rowstride. */
    int64_t needed = (int64_t)img->rowstride * (img->height - 1) + row;
    if ((uint64_t)needed > img->size) {
        snprintf(why, why_size, "%zu bytes of pixels, %dx%d with rowstride %d needs %lld", img->size, img->width,
                 img->height, img->rowstride, (long long)needed);
        return -1;
    }
    return 0;
}

static void put32(uint8_t *p, uint32_t v) {
    p[0] = (uint8_t)(v >> 24); p[1] = (uint8_t)(v >> 16); p[2] = (uint8_t)(v >> 8); p[3] = (uint8_t)v;
}

/* One chunk: length, type, data, CRC of type and data. */
static int chunk(FILE *f, const char *type, const uint8_t *data, uint32_t len) {
    uint8_t head[8];
    put32(head, len);
    memcpy(head + 4, type, 4);
    uLong crc = crc32(0L, (const Bytef *)type, 4);
    if (len) crc = crc32(crc, data, len);
    uint8_t tail[4];
    put32(tail, (uint32_t)crc);
    return fwrite(head, 1, 8, f) == 8 && (len == 0 || fwrite(data, 1, len, f) == len) && fwrite(tail, 1, 4, f) == 4
               ? 0 : -1;
}

int image_write_png(const image_data *img, const char *path, char *why, size_t why_size) {
    /* Nearest-neighbour scaling to fit IMAGE_MAX_SIDE: enough for an icon, and bounded. */
    int32_t w = img->width, h = img->height;
    if (w > IMAGE_MAX_SIDE || h > IMAGE_MAX_SIDE) {
        if (w >= h) { h = (int32_t)((int64_t)h * IMAGE_MAX_SIDE / w); w = IMAGE_MAX_SIDE; }
        else { w = (int32_t)((int64_t)w * IMAGE_MAX_SIDE / h); h = IMAGE_MAX_SIDE; }
        if (w < 1) w = 1;
        if (h < 1) h = 1;
    }
    int ch = img->channels;
    size_t row = (size_t)w * (size_t)ch + 1;  /* a filter byte (0: none) before each row */
    size_t raw_size = row * (size_t)h;
    uint8_t *raw = malloc(raw_size);
    uLongf packed_size = compressBound((uLong)raw_size);
    uint8_t *packed = malloc(packed_size);
    if (!raw || !packed) {
        free(raw); free(packed);
        snprintf(why, why_size, "out of memory");
        return -1;
    }
    for (int32_t y = 0; y < h; y++) {
        const uint8_t *src = img->data + (size_t)((int64_t)y * img->height / h) * (size_t)img->rowstride;
        uint8_t *dst = raw + (size_t)y * row;
        dst[0] = 0;
        for (int32_t x = 0; x < w; x++)
            memcpy(dst + 1 + (size_t)x * (size_t)ch, src + (size_t)((int64_t)x * img->width / w) * (size_t)ch, (size_t)ch);
    }
    int z = compress2(packed, &packed_size, raw, (uLong)raw_size, 6);
    free(raw);
    if (z != Z_OK) {
        free(packed);
        snprintf(why, why_size, "zlib failed (%d)", z);
        return -1;
    }
    char tmp[4200];
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    FILE *f = fopen(tmp, "wb");
    if (!f) {
        free(packed);
        snprintf(why, why_size, "cannot create %s: %s", tmp, strerror(errno));
        return -1;
    }
    static const uint8_t signature[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'};
    uint8_t ihdr[13];
    put32(ihdr, (uint32_t)w);
    put32(ihdr + 4, (uint32_t)h);
    ihdr[8] = 8;                      /* bits per sample */
    ihdr[9] = img->has_alpha ? 6 : 2; /* RGBA or RGB */
    ihdr[10] = ihdr[11] = ihdr[12] = 0;
    int bad = fwrite(signature, 1, 8, f) != 8 || chunk(f, "IHDR", ihdr, 13) ||
              chunk(f, "IDAT", packed, (uint32_t)packed_size) || chunk(f, "IEND", NULL, 0);
    free(packed);
    if (fclose(f) != 0) bad = 1;
    if (bad || rename(tmp, path) != 0) {
        snprintf(why, why_size, "cannot write %s: %s", path, strerror(errno));
        unlink(tmp);
        return -1;
    }
    return 0;
}
