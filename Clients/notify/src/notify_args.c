/* See notify_args.h. */
#include "notify_args.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "log.h"

/* The icon sources of one call, in the spec's order of priority. */
typedef struct icon_sources {
    int has_image;        /* image-data or image_data */
    image_data image;
    int has_icon_data;    /* the deprecated icon_data */
    image_data icon_data;
    char *image_path;     /* image-path or image_path */
} icon_sources;

static int fail(sd_bus_error *err, const char *fmt, const char *arg) {
    sd_bus_error_setf(err, SD_BUS_ERROR_INVALID_ARGS, fmt, arg);
    return -EINVAL;
}

/* Reads "(iiibiiay)" (entered variant of that signature). */
static int read_image(sd_bus_message *m, image_data *img) {
    int r = sd_bus_message_enter_container(m, 'r', "iiibiiay");
    if (r < 0) return r;
    int alpha = 0;
    r = sd_bus_message_read(m, "iiibii", &img->width, &img->height, &img->rowstride, &alpha, &img->bits_per_sample,
                            &img->channels);
    if (r < 0) return r;
    img->has_alpha = alpha;
    const void *data = NULL;
    r = sd_bus_message_read_array(m, 'y', &data, &img->size);
    if (r < 0) return r;
    img->data = data;
    return sd_bus_message_exit_container(m);
}

/* An integer of any D-Bus integer type, in the variant just entered (contents: its
 * signature). 0 and *out, or -1 when it is not an integer. */
static int read_integer(sd_bus_message *m, const char *contents, int64_t *out) {
    if (strlen(contents) != 1) return -1;
    union { uint8_t y; int16_t n; uint16_t q; int32_t i; uint32_t u; int64_t x; uint64_t t; } v;
    switch (contents[0]) {
    case 'y': if (sd_bus_message_read_basic(m, 'y', &v.y) < 0) return -1; *out = v.y; return 0;
    case 'n': if (sd_bus_message_read_basic(m, 'n', &v.n) < 0) return -1; *out = v.n; return 0;
    case 'q': if (sd_bus_message_read_basic(m, 'q', &v.q) < 0) return -1; *out = v.q; return 0;
    case 'i': if (sd_bus_message_read_basic(m, 'i', &v.i) < 0) return -1; *out = v.i; return 0;
    case 'u': if (sd_bus_message_read_basic(m, 'u', &v.u) < 0) return -1; *out = v.u; return 0;
    case 'x': if (sd_bus_message_read_basic(m, 'x', &v.x) < 0) return -1; *out = v.x; return 0;
    case 't':
        if (sd_bus_message_read_basic(m, 't', &v.t) < 0) return -1;
        *out = v.t > INT64_MAX ? INT64_MAX : (int64_t)v.t;
        return 0;
    default: return -1;
    }
}

static int read_string(sd_bus_message *m, const char *contents, char **out) {
    const char *s = NULL;
    if (strcmp(contents, "s") != 0 || sd_bus_message_read_basic(m, 's', &s) < 0) return -1;
    char *copy = strdup(s);
    if (!copy) return -1;
    free(*out);
    *out = copy;
    return 0;
}

/* One hint: key, and the variant entered with its signature `contents`. Returns 0 when
 * the value was read (or is ignored on purpose), 1 when it has the wrong type (the caller
 * skips it), or a negative errno. */
static int read_hint(sd_bus_message *m, const char *key, const char *contents, note_spec *spec, icon_sources *icons) {
    int64_t n;
    if (strcmp(key, "urgency") == 0) {
        if (read_integer(m, contents, &n)) return 1;
        if (n < 0 || n > 2) log_line("hint urgency: %lld is not 0, 1 or 2: normal urgency", (long long)n);
        spec->urgency = n == 0 ? URGENCY_LOW : n == 2 ? URGENCY_CRITICAL : URGENCY_NORMAL;
        return 0;
    }
    if (strcmp(key, "value") == 0) {
        if (read_integer(m, contents, &n)) return 1;
        spec->progress = n < 0 ? -1 : n > 100 ? 100 : (int)n;
        return 0;
    }
    if (strcmp(key, "image-data") == 0 || strcmp(key, "image_data") == 0 || strcmp(key, "icon_data") == 0) {
        if (strcmp(contents, "(iiibiiay)") != 0) return 1;
        int deprecated = strcmp(key, "icon_data") == 0;
        image_data img = {0};
        int r = read_image(m, &img);
        if (r < 0) return r;
        char why[256];
        if (image_check(&img, why, sizeof why)) {
            log_line("hint %s: %s: ignored", key, why);
            return 0;
        }
        /* image-data (1.2) over image_data (1.1): the first seen of equal rank stays. */
        if (deprecated) { icons->icon_data = img; icons->has_icon_data = 1; }
        else if (!icons->has_image || strcmp(key, "image-data") == 0) { icons->image = img; icons->has_image = 1; }
        return 0;
    }
    if (strcmp(key, "image-path") == 0 || strcmp(key, "image_path") == 0) {
        if (icons->image_path && strcmp(key, "image_path") == 0) { /* image-path wins */
            return sd_bus_message_skip(m, contents) < 0 ? -EBADMSG : 0;
        }
        return read_string(m, contents, &icons->image_path) ? 1 : 0;
    }
    if (strcmp(key, "x-canonical-private-synchronous") == 0 || strcmp(key, "x-dunst-stack-tag") == 0) {
        if (read_string(m, contents, &spec->tag)) return 1;
        if (!spec->tag[0] || strlen(spec->tag) > NOTE_MAX_NAME) { free(spec->tag); spec->tag = NULL; }
        return 0;
    }
    if (strcmp(key, "x-kde-reply-placeholder-text") == 0) {
        if (read_string(m, contents, &spec->reply_placeholder)) return 1;
        char *cut = text_cut(spec->reply_placeholder, TEXT_MAX_TITLE);
        free(spec->reply_placeholder);
        spec->reply_placeholder = cut && cut[0] ? cut : NULL;
        if (cut && !cut[0]) free(cut);
        return 0;
    }
    if (strcmp(key, "resident") == 0 || strcmp(key, "transient") == 0) {
        int b = 0;
        if (strcmp(contents, "b") != 0 || sd_bus_message_read_basic(m, 'b', &b) < 0) return 1;
        if (key[0] == 'r') spec->resident = b; else spec->transient = b;
        return 0;
    }
    /* category, desktop-entry, suppress-sound, sound-file, sound-name, x, y,
     * action-icons and anything else: ignored on purpose (docs/NOTIFICATIONS.md). */
    return sd_bus_message_skip(m, contents) < 0 ? -EBADMSG : 0;
}

static int read_hints(sd_bus_message *m, note_spec *spec, icon_sources *icons) {
    int r = sd_bus_message_enter_container(m, 'a', "{sv}");
    if (r < 0) return r;
    while ((r = sd_bus_message_enter_container(m, 'e', "sv")) > 0) {
        const char *key = NULL, *contents = NULL;
        char type = 0;
        if ((r = sd_bus_message_read_basic(m, 's', &key)) < 0) return r;
        if ((r = sd_bus_message_peek_type(m, &type, &contents)) < 0) return r;
        if ((r = sd_bus_message_enter_container(m, 'v', contents)) < 0) return r;
        char name[64];
        snprintf(name, sizeof name, "%s", key);  /* key points into m; keep it for the log */
        r = read_hint(m, name, contents, spec, icons);
        if (r < 0) return r;
        if (r == 1) {
            log_line("hint %s: type %s is not the one the spec gives: ignored", name, contents);
            if ((r = sd_bus_message_skip(m, contents)) < 0) return r;
        }
        if ((r = sd_bus_message_exit_container(m)) < 0) return r;
        if ((r = sd_bus_message_exit_container(m)) < 0) return r;
    }
    if (r < 0) return r;
    return sd_bus_message_exit_container(m);
}

/* Whether s is well-formed UTF-8 (no overlong forms, surrogates or code points past U+10FFFF). */
static int valid_utf8(const char *s) {
    const unsigned char *p = (const unsigned char *)s;
    while (*p) {
        unsigned c = *p, n = 0, min = 0;
        if (c < 0x80) { p++; continue; }
        if ((c & 0xE0) == 0xC0) { n = 1; min = 0x80; c &= 0x1F; }
        else if ((c & 0xF0) == 0xE0) { n = 2; min = 0x800; c &= 0x0F; }
        else if ((c & 0xF8) == 0xF0) { n = 3; min = 0x10000; c &= 0x07; }
        else return 0;
        for (unsigned k = 1; k <= n; k++) {
            if ((p[k] & 0xC0) != 0x80) return 0;  /* also stops at the terminating 0 */
            c = c << 6 | (p[k] & 0x3F);
        }
        if (c < min || c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF)) return 0;
        p += n + 1;
    }
    return 1;
}

/* An icon given as a theme name, a file:// URI or a path: into spec (kind and string),
 * or 0 when it cannot be used (presentd's renderers take .png and .svg files). */
static int use_icon(note_spec *spec, const char *icon) {
    if (!icon || !icon[0]) return 0;
    if (strncmp(icon, "file://", 7) == 0) {
        /* A local URI: its path, %XX decoded. */
        const char *p = icon + 7;
        size_t len = strlen(p);
        char *path = malloc(len + 1);
        if (!path) return 0;
        size_t o = 0;
        for (size_t i = 0; i < len; i++) {
            if (p[i] == '%' && isxdigit((unsigned char)p[i + 1]) && isxdigit((unsigned char)p[i + 2])) {
                char hex[3] = {p[i + 1], p[i + 2], 0};
                char c = (char)strtol(hex, NULL, 16);
                if (c == 0) { free(path); return 0; }
                path[o++] = c;
                i += 2;
            } else path[o++] = p[i];
        }
        path[o] = 0;
        /* %XX can spell bytes that are not UTF-8 (file:///x/%FF.png): presentd refuses such
         * a line outright, with no id to tie the refusal to, so the path is not used. */
        if (!valid_utf8(path)) {
            log_line("icon %s: its path is not UTF-8: not shown", icon);
            free(path);
            return 0;
        }
        int used = path[0] == '/' && use_icon(spec, path);
        free(path);
        return used;
    }
    size_t len = strlen(icon);
    if (icon[0] == '/') {
        if (text_length(icon) > TEXT_MAX_MESSAGE || len < 5 ||
            (strcasecmp(icon + len - 4, ".png") != 0 && strcasecmp(icon + len - 4, ".svg") != 0)) {
            log_line("icon %s: not a .png or .svg path: not shown", icon);
            return 0;
        }
        spec->icon_kind = ICON_PATH;
    } else {
        if (text_length(icon) > TEXT_MAX_TITLE) return 0;
        spec->icon_kind = ICON_NAME;
    }
    spec->icon = strdup(icon);
    if (!spec->icon) { spec->icon_kind = ICON_NONE; return 0; }
    return 1;
}

static int valid_action_id(const char *key, const note_spec *spec) {
    size_t n = text_length(key);
    if (n < 1 || n > TEXT_MAX_ID) return 0;
    for (size_t i = 0; i < spec->n_actions; i++)
        if (strcmp(spec->actions[i].id, key) == 0) return 0;
    return 1;
}

static int read_actions(sd_bus_message *m, note_spec *spec, sd_bus_error *err) {
    char **strv = NULL;
    int r = sd_bus_message_read_strv(m, &strv);
    if (r < 0) return r;
    size_t n = 0;
    while (strv && strv[n]) n++;
    if (n % 2) {
        char count[32];
        snprintf(count, sizeof count, "%zu", n);
        r = fail(err, "actions: %s strings, an odd number: they are pairs of key and label", count);
        goto done;
    }
    for (size_t i = 0; i < n; i += 2) {
        const char *key = strv[i], *label = strv[i + 1];
        if (strlen(key) > NOTE_MAX_KEY) {
            sd_bus_error_setf(err, SD_BUS_ERROR_INVALID_ARGS, "actions[%zu]: the key is over %d bytes", i, NOTE_MAX_KEY);
            r = -EINVAL;
            goto done;
        }
        int duplicate = 0;
        for (size_t j = 0; j < spec->n_actions; j++) duplicate |= strcmp(spec->actions[j].key, key) == 0;
        if (!key[0] || duplicate) {
            log_line("actions[%zu]: %s key: ignored", i, key[0] ? "a repeated" : "an empty");
            continue;
        }
        if (spec->n_actions == NOTE_MAX_ACTIONS) {
            log_line("actions: more than %d: the rest are ignored", NOTE_MAX_ACTIONS);
            break;
        }
        note_action *a = &spec->actions[spec->n_actions];
        a->key = strdup(key);
        a->title = text_cut(label[0] ? label : key, TEXT_MAX_TITLE);
        if (!a->key || !a->title) {
            free(a->key); free(a->title);
            r = -ENOMEM;
            goto done;
        }
        if (valid_action_id(key, spec)) snprintf(a->id, sizeof a->id, "%s", key);
        else {
            /* action-N, N bumped past any id already given: a key may be "action-1" itself,
             * and presentd refuses two actions of one id. At most 8 ids are taken, so this ends. */
            size_t k = spec->n_actions;
            do snprintf(a->id, sizeof a->id, "action-%zu", k++);
            while (!valid_action_id(a->id, spec));
        }
        if (strcmp(key, NOTE_REPLY_KEY) == 0) spec->inline_reply = 1;
        spec->n_actions++;
    }
    r = 0;
done:
    for (size_t i = 0; strv && strv[i]; i++) free(strv[i]);
    free(strv);
    return r;
}

int notify_args_read(sd_bus_message *m, note_spec *spec, image_data *image, int *has_image, sd_bus_error *err) {
    const char *app_name, *app_icon, *summary, *body;
    icon_sources icons = {0};
    char *app_icon_copy = NULL;
    *has_image = 0;
    spec->progress = -1;
    spec->urgency = URGENCY_NORMAL;
    int r = sd_bus_message_read(m, "susss", &app_name, &spec->replaces_id, &app_icon, &summary, &body);
    if (r < 0) goto bad;
    spec->app_name = text_cut(app_name, NOTE_MAX_NAME);
    spec->title = summary[0] ? text_cut(summary, TEXT_MAX_TITLE) : NULL;
    char *plain = NULL, *markup = NULL;
    if (text_body(body, &plain, &markup)) { r = -ENOMEM; goto bad; }
    spec->message = plain[0] ? text_cut(plain, TEXT_MAX_MESSAGE) : NULL;
    /* The markup goes only with the whole text: a cut message would not match it. */
    if (markup && spec->message && text_length(plain) <= TEXT_MAX_MESSAGE && text_length(markup) <= TEXT_MAX_MARKUP)
        spec->message_markup = markup;
    else free(markup);
    int lost = plain[0] && !spec->message;
    free(plain);
    app_icon_copy = strdup(app_icon);
    if (!spec->app_name || (summary[0] && !spec->title) || lost || !app_icon_copy) { r = -ENOMEM; goto bad; }
    if ((r = read_actions(m, spec, err)) < 0) goto bad;
    if ((r = read_hints(m, spec, &icons)) < 0) goto bad;
    if ((r = sd_bus_message_read_basic(m, 'i', &spec->expire_timeout)) < 0) goto bad;
    if (spec->expire_timeout < -1) {
        log_line("expire_timeout %d: negative, taken as -1 (the default)", spec->expire_timeout);
        spec->expire_timeout = -1;
    }
    /* The spec's order: image-data, image-path, app_icon, icon_data. */
    if (icons.has_image) { *image = icons.image; *has_image = 1; }
    else if (!use_icon(spec, icons.image_path) && !use_icon(spec, app_icon_copy) && icons.has_icon_data) {
        *image = icons.icon_data;
        *has_image = 1;
    }
    free(icons.image_path);
    free(app_icon_copy);
    return 0;
bad:
    free(icons.image_path);
    free(app_icon_copy);
    note_spec_clear(spec);
    if (!sd_bus_error_is_set(err)) sd_bus_error_set_errno(err, r);
    return r;
}
