/* Three box blurs in each direction make a Gaussian to within a few percent (the central
 * limit theorem at work), in time independent of the radius: running sums, no kernel. */
#include "shadow.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "card.h"

/* One box blur of half-width r along a line of n samples, step apart, through tmp. */
static void box(unsigned char *line, int n, int step, int r, unsigned char *tmp) {
    int sum = 0, width = 2 * r + 1;
    for (int i = 0; i < n; i++) tmp[i] = line[i * step];
    for (int i = -r; i <= r; i++) sum += (i >= 0 && i < n) ? tmp[i] : 0;
    for (int i = 0; i < n; i++) {
        line[i * step] = (unsigned char)((sum + width / 2) / width);
        int out = i - r, in = i + r + 1;
        sum += (in < n ? tmp[in] : 0) - (out >= 0 ? tmp[out] : 0);
    }
}

cairo_surface_t *pw_shadow_mask(double width, double height, double radius, double blur, double scale) {
    int w = (int)ceil((width + 2 * blur) * scale), h = (int)ceil((height + 2 * blur) * scale);
    cairo_surface_t *mask = cairo_image_surface_create(CAIRO_FORMAT_A8, w > 0 ? w : 1, h > 0 ? h : 1);
    cairo_t *cr = cairo_create(mask);
    cairo_scale(cr, scale, scale);
    pw_rounded_rect(cr, blur, blur, width, height, radius);
    cairo_set_source_rgba(cr, 0, 0, 0, 1);
    cairo_fill(cr);
    cairo_destroy(cr);
    cairo_surface_flush(mask);
    int r = (int)lround(blur * scale / 2);  /* σ in pixels: three boxes of 2σ+1 come close to it */
    unsigned char *data = cairo_image_surface_get_data(mask), *tmp = malloc((size_t)(w > h ? w : h));
    int stride = cairo_image_surface_get_stride(mask);
    if (r > 0 && data && tmp) {
        for (int pass = 0; pass < 3; pass++) {
            for (int y = 0; y < h; y++) box(data + (size_t)y * stride, w, 1, r, tmp);
            for (int x = 0; x < w; x++) box(data + x, h, stride, r, tmp);
        }
    }
    free(tmp);
    cairo_surface_mark_dirty(mask);
    return mask;
}
