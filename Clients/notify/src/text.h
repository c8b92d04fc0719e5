/* Text for presentd's content: the spec's body markup made plain and made safe, and strings
 * cut to the lengths presentd accepts (counted in characters, which are never more than code
 * points, so a cut by code points is always short enough). */
#ifndef NOTIFY_TEXT_H
#define NOTIFY_TEXT_H

#include <stddef.h>

/* presentd's bounds (docs/PROTOCOL.md, "Content object"). */
#define TEXT_MAX_TITLE   256
#define TEXT_MAX_MESSAGE 4096
#define TEXT_MAX_MARKUP  8192
#define TEXT_MAX_ID      64

/* The body's markup (b, i, u, a, img, br and any other tag; the five XML entities and
 * numeric references), read once into two strings:
 * - *plain, the text: tags removed, <br> as a line break, entities decoded;
 * - *markup, Pango markup for renderers that draw it (content.messageMarkup): only b, i, u
 *   and a (with its href alone) kept, other tags dropped and their text kept, <br> a line
 *   break, the text escaped, and the tags well nested (a closing tag that closes nothing
 *   open inside is dropped, tags still open are closed at the end). NULL when it would
 *   format nothing: then the plain text says it all.
 * Text that is not well-formed markup ("a < b", "Tom & Jerry") is kept as it was, in
 * *plain, and *markup is NULL: bad markup falls back to the text. Both are malloc'd.
 * Returns 0, or -1 when out of memory (both NULL). */
int text_body(const char *body, char **plain, char **markup);

/* A malloc'd copy of s cut to at most max code points (the last one "…" when cut), or NULL
 * when out of memory. s is valid UTF-8 (D-Bus guarantees it for every string). */
char *text_cut(const char *s, size_t max);

/* Code points in s (valid UTF-8). */
size_t text_length(const char *s);

#endif
