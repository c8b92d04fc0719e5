/* A card's shadow: its rounded rectangle blurred, as an alpha mask drawn once per size. */
#ifndef PW_SHADOW_H
#define PW_SHADOW_H

#include <cairo.h>

/* An A8 mask of a width×height rectangle with corners of radius, blurred by `blur` points (a
 * Gaussian of σ = blur/2, as CSS and UIKit read a shadow's radius), at `scale` pixels per
 * point. The rectangle sits `blur` points in from the mask's top-left corner. */
cairo_surface_t *pw_shadow_mask(double width, double height, double radius, double blur, double scale);

#endif
