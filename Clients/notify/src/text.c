/* Body markup to plain text, and cuts at a code point boundary. See text.h. */
#include "text.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

size_t text_length(const char *s) {
    size_t n = 0;
    for (; *s; s++)
        if (((unsigned char)*s & 0xC0) != 0x80) n++;
    return n;
}

char *text_cut(const char *s, size_t max) {
    if (text_length(s) <= max) return strdup(s);
    /* Keep max - 1 code points and end with the ellipsis (3 bytes). */
    size_t kept = 0;
    const char *p = s;
    for (; *p; p++) {
        if (((unsigned char)*p & 0xC0) != 0x80) {
            if (kept == max - 1) break;
            kept++;
        }
    }
    size_t bytes = (size_t)(p - s);
    char *out = malloc(bytes + 4);
    if (!out) return NULL;
    memcpy(out, s, bytes);
    memcpy(out + bytes, "\xE2\x80\xA6", 4);
    return out;
}

static int is_alpha(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
static int is_alnum(char c) { return is_alpha(c) || (c >= '0' && c <= '9'); }

/* The length of the tag at s ('<' ... '>'), or 0 when it is not one: <name attrs>, </name>,
 * <name/>. Attribute values may hold '>' only inside quotes. */
static size_t tag_length(const char *s, int *is_br) {
    const char *p = s + 1;
    if (*p == '/') p++;
    if (!is_alpha(*p)) return 0;
    const char *name = p;
    while (is_alnum(*p)) p++;
    size_t name_len = (size_t)(p - name);
    *is_br = name_len == 2 && (name[0] == 'b' || name[0] == 'B') && (name[1] == 'r' || name[1] == 'R');
    if (*p != '>' && *p != '/' && *p != ' ' && *p != '\t' && *p != '\n') return 0;
    char quote = 0;
    for (; *p; p++) {
        if (quote) { if (*p == quote) quote = 0; continue; }
        if (*p == '"' || *p == '\'') quote = *p;
        else if (*p == '<') return 0;
        else if (*p == '>') return (size_t)(p - s) + 1;
    }
    return 0;
}

/* Writes the code point as UTF-8; returns its length (0 for one that is not allowed). */
static size_t put_utf8(uint32_t cp, char *out) {
    if (cp == 0 || (cp >= 0xD800 && cp <= 0xDFFF) || cp > 0x10FFFF) return 0;
    if (cp < 0x80) { out[0] = (char)cp; return 1; }
    if (cp < 0x800) { out[0] = (char)(0xC0 | (cp >> 6)); out[1] = (char)(0x80 | (cp & 0x3F)); return 2; }
    if (cp < 0x10000) {
        out[0] = (char)(0xE0 | (cp >> 12)); out[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
        out[2] = (char)(0x80 | (cp & 0x3F)); return 3;
    }
    out[0] = (char)(0xF0 | (cp >> 18)); out[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
    out[2] = (char)(0x80 | ((cp >> 6) & 0x3F)); out[3] = (char)(0x80 | (cp & 0x3F)); return 4;
}

/* Decodes the entity at s ('&' ... ';') into out; returns how much of s it took, or 0
 * when it is not an entity. *written is how many bytes went to out (at most 4). */
static size_t entity(const char *s, char *out, size_t *written) {
    static const struct { const char *name; char c; } named[] = {
        {"&amp;", '&'}, {"&lt;", '<'}, {"&gt;", '>'}, {"&quot;", '"'}, {"&apos;", '\''},
    };
    for (size_t i = 0; i < sizeof named / sizeof named[0]; i++) {
        size_t n = strlen(named[i].name);
        if (strncmp(s, named[i].name, n) == 0) { out[0] = named[i].c; *written = 1; return n; }
    }
    if (s[1] != '#') return 0;
    const char *p = s + 2;
    int hex = *p == 'x' || *p == 'X';
    if (hex) p++;
    uint32_t cp = 0;
    const char *digits = p;
    for (; *p && *p != ';'; p++) {
        int d;
        if (*p >= '0' && *p <= '9') d = *p - '0';
        else if (hex && *p >= 'a' && *p <= 'f') d = *p - 'a' + 10;
        else if (hex && *p >= 'A' && *p <= 'F') d = *p - 'A' + 10;
        else return 0;
        if (p - digits >= 8) return 0;  /* past any code point */
        cp = cp * (hex ? 16u : 10u) + (uint32_t)d;
    }
    if (*p != ';' || p == digits) return 0;
    *written = put_utf8(cp, out);
    return *written ? (size_t)(p - s) + 1 : 0;
}

char *text_strip_markup(const char *body) {
    size_t len = strlen(body);
    char *out = malloc(len + 1);  /* plain text is never longer than its markup */
    if (!out) return NULL;
    size_t o = 0;
    for (const char *p = body; *p;) {
        if (*p == '<') {
            int is_br = 0;
            size_t n = tag_length(p, &is_br);
            if (!n) goto not_markup;
            if (is_br) out[o++] = '\n';
            p += n;
        } else if (*p == '&') {
            size_t written = 0, n = entity(p, out + o, &written);
            if (!n) goto not_markup;
            o += written;
            p += n;
        } else if (*p == '>') {
            goto not_markup;
        } else {
            out[o++] = *p++;
        }
    }
    out[o] = 0;
    return out;
not_markup:
    memcpy(out, body, len + 1);
    return out;
}
