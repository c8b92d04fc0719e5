/* Body markup to plain text and to the markup presentd carries, and cuts at a code point
 * boundary. See text.h. */
#include "text.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

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
static int is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

/* A tag's parts, as tag_length finds them. */
typedef struct tag {
    int closing;                 /* </name> */
    const char *name;            /* not terminated */
    size_t name_len;
    const char *attrs, *end;     /* after the name, up to the '>' (or "/>") */
} tag;

/* The length of the tag at s ('<' ... '>'), or 0 when it is not one: <name attrs>, </name>,
 * <name/>. Attribute values may hold '>' only inside quotes. */
static size_t tag_length(const char *s, tag *t) {
    const char *p = s + 1;
    t->closing = *p == '/';
    if (t->closing) p++;
    if (!is_alpha(*p)) return 0;
    t->name = p;
    while (is_alnum(*p)) p++;
    t->name_len = (size_t)(p - t->name);
    if (*p != '>' && *p != '/' && !is_space(*p)) return 0;
    t->attrs = p;
    char quote = 0;
    for (; *p; p++) {
        if (quote) { if (*p == quote) quote = 0; continue; }
        if (*p == '"' || *p == '\'') quote = *p;
        else if (*p == '<') return 0;
        else if (*p == '>') {
            t->end = p > t->attrs && p[-1] == '/' ? p - 1 : p;
            return (size_t)(p - s) + 1;
        }
    }
    return 0;
}

static int tag_is(const tag *t, const char *name) {
    size_t n = strlen(name);
    if (t->name_len != n) return 0;
    for (size_t i = 0; i < n; i++)
        if ((t->name[i] | 0x20) != name[i]) return 0;
    return 1;
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

/* A growing string (the markup can be longer than the body: entities and closing tags). */
typedef struct buffer { char *s; size_t len, cap; int failed; } buffer;

static void put(buffer *b, const char *s, size_t n) {
    if (b->failed) return;
    if (b->len + n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 64;
        while (b->len + n + 1 > cap) cap *= 2;
        char *grown = realloc(b->s, cap);
        if (!grown) { b->failed = 1; return; }
        b->s = grown;
        b->cap = cap;
    }
    memcpy(b->s + b->len, s, n);
    b->len += n;
    b->s[b->len] = 0;
}

static void put_str(buffer *b, const char *s) { put(b, s, strlen(s)); }

/* Text as markup: the characters Pango's parser reads as markup become entities. */
static void put_escaped(buffer *b, const char *s, size_t n) {
    for (size_t i = 0; i < n; i++) {
        switch (s[i]) {
        case '&': put_str(b, "&amp;"); break;
        case '<': put_str(b, "&lt;"); break;
        case '>': put_str(b, "&gt;"); break;
        case '"': put_str(b, "&quot;"); break;
        default: put(b, s + i, 1);
        }
    }
}

/* The href of an <a> tag's attributes, entities decoded, as a malloc'd string; NULL when
 * it has none (or is out of memory: the link is then dropped, its text kept). */
static char *href_of(const tag *t) {
    for (const char *p = t->attrs; p < t->end;) {
        while (p < t->end && is_space(*p)) p++;
        const char *name = p;
        while (p < t->end && !is_space(*p) && *p != '=') p++;
        size_t name_len = (size_t)(p - name);
        if (p == name) { p++; continue; }
        while (p < t->end && is_space(*p)) p++;
        const char *value = p, *value_end = p;
        if (p < t->end && *p == '=') {
            p++;
            while (p < t->end && is_space(*p)) p++;
            char quote = p < t->end && (*p == '"' || *p == '\'') ? *p++ : 0;
            value = p;
            while (p < t->end && (quote ? *p != quote : !is_space(*p))) p++;
            value_end = p;
            if (quote && p < t->end) p++;
        }
        if (name_len != 4 || strncasecmp(name, "href", 4) != 0) continue;
        char *out = malloc((size_t)(value_end - value) + 1);
        if (!out) return NULL;
        size_t o = 0;
        for (const char *v = value; v < value_end;) {
            size_t written = 0, n = *v == '&' ? entity(v, out + o, &written) : 0;
            if (n && v + n <= value_end) { o += written; v += n; }
            else out[o++] = *v++;
        }
        out[o] = 0;
        return out;
    }
    return NULL;
}

/* The tags kept in the markup: Pango's b, i, u, and a (its href alone). */
static const char *const kept_tags[] = {"b", "i", "u", "a"};
#define KEPT_TAGS (sizeof kept_tags / sizeof kept_tags[0])
/* Deeper nesting than this is dropped (its text kept): no real body nests so. */
#define MAX_DEPTH 32

int text_body(const char *body, char **plain, char **markup) {
    *plain = *markup = NULL;
    size_t len = strlen(body);
    char *out = malloc(len + 1);  /* plain text is never longer than its markup */
    if (!out) return -1;
    buffer m = {0};
    size_t open[MAX_DEPTH], depth = 0, o = 0;  /* kept_tags indices of the tags open in m */
    int formatted = 0;
    for (const char *p = body; *p;) {
        if (*p == '<') {
            tag t;
            size_t n = tag_length(p, &t);
            if (!n) goto not_markup;
            p += n;
            if (tag_is(&t, "br")) { out[o++] = '\n'; put_str(&m, "\n"); continue; }
            size_t k = 0;
            while (k < KEPT_TAGS && !tag_is(&t, kept_tags[k])) k++;
            if (k == KEPT_TAGS) continue;  /* img and the rest: dropped */
            if (t.closing) {
                /* Only the innermost open tag closes: the markup stays well nested. */
                if (!depth || open[depth - 1] != k) continue;
                depth--;
                put_str(&m, "</"); put_str(&m, kept_tags[k]); put_str(&m, ">");
                continue;
            }
            if (t.end > t.attrs && t.end[0] == '/') continue;  /* <b/>: nothing to format */
            if (depth == MAX_DEPTH) continue;
            if (strcmp(kept_tags[k], "a") == 0) {
                char *href = href_of(&t);
                if (!href) continue;  /* a link to nowhere is text */
                put_str(&m, "<a href=\"");
                put_escaped(&m, href, strlen(href));
                put_str(&m, "\">");
                free(href);
            } else {
                put_str(&m, "<"); put_str(&m, kept_tags[k]); put_str(&m, ">");
            }
            open[depth++] = k;
            formatted = 1;
        } else if (*p == '&') {
            size_t written = 0, n = entity(p, out + o, &written);
            if (!n) goto not_markup;
            put_escaped(&m, out + o, written);
            o += written;
            p += n;
        } else if (*p == '>') {
            goto not_markup;
        } else {
            put(&m, p, 1);
            out[o++] = *p++;
        }
    }
    out[o] = 0;
    while (depth) {
        size_t k = open[--depth];
        put_str(&m, "</"); put_str(&m, kept_tags[k]); put_str(&m, ">");
    }
    if (m.failed) { free(out); free(m.s); return -1; }
    *plain = out;
    if (formatted) *markup = m.s;
    else free(m.s);
    return 0;
not_markup:
    memcpy(out, body, len + 1);
    free(m.s);
    *plain = out;
    return 0;
}
