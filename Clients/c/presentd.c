/*
 * presentd client for C (see presentd.h). One non-blocking socket, a read buffer cut
 * into lines, a write buffer, and two queues: replies by id and events in order.
 * The blocking calls are the non-blocking primitives plus poll(); the readers of
 * frames, entries, content and answers only look into the JSON they are given.
 */
#define _GNU_SOURCE
#include "presentd.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

/* Longest line accepted from the daemon; its own are far shorter. */
#define MAX_LINE_BYTES (64u << 20)

typedef struct buffer {
    char *data;
    size_t len;  /* bytes held */
    size_t off;  /* bytes already consumed from the front */
    size_t cap;
} buffer;

/* A message kept for later: a reply (by id) or an event (in order). */
typedef struct kept {
    json_object *message;
    int64_t id;
    struct kept *next;
} kept;

typedef struct queue {
    kept *head, *tail;
} queue;

struct presentd_client {
    int fd;
    int closed;                 /* the daemon hung up */
    char closed_reason[64];     /* from its shutdown/closing notice */
    int64_t next_id;
    buffer in, out;
    queue replies, events;
    int64_t *abandoned;         /* ids whose caller stopped waiting: their replies are dropped */
    size_t n_abandoned, cap_abandoned;
    presentd_should_dismiss_fn should_dismiss;
    void *should_dismiss_user;
    const char *asking_action;  /* during the should_dismiss callback: the question's action */
    /* Coming back after the daemon restarts (presentd_set_reconnect). */
    char path[108];
    int reconnect_ms;           /* how long to keep trying; 0: never */
    int reconnecting;
    int refused;                /* thrown out (a closing notice), or it gave up: no more attempts */
    int reconnects;
    char token[80];             /* the first hello's resumeToken */
    char name[64];              /* the hello name, said again */
    json_object *topics;        /* the topics subscribed to, an array of strings */
    json_object *outputs;       /* the last subscribe's "outputs" filter (an array of names), or NULL: every screen */
    json_object *resumed;       /* the ids the last hello {resume} took back */
    json_object *held;          /* a shutdown notice, held back while it tries */
};

/* -- Errors -------------------------------------------------------------------------- */

static int fail(presentd_error *err, int status, const char *fmt, ...) {
    if (err) {
        memset(err, 0, sizeof *err);
        err->status = status;
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err->message, sizeof err->message, fmt, ap);
        va_end(ap);
    }
    return status;
}

static int fail_errno(presentd_error *err, const char *what) {
    int saved = errno;
    fail(err, PRESENTD_ERR_IO, "%s: %s", what, strerror(saved));
    if (err) err->sys_errno = saved;
    return PRESENTD_ERR_IO;
}

static int fail_closed(const presentd_client *c, presentd_error *err) {
    if (c->closed_reason[0])
        return fail(err, PRESENTD_ERR_CLOSED, "the daemon closed the connection (%s)", c->closed_reason);
    return fail(err, PRESENTD_ERR_CLOSED, "the daemon closed the connection");
}

static const char *string_member(json_object *obj, const char *key) {
    json_object *v;
    if (!obj || !json_object_object_get_ex(obj, key, &v) || !json_object_is_type(v, json_type_string)) return NULL;
    return json_object_get_string(v);
}

/* A member that is an object, or NULL. */
static json_object *object_member(json_object *obj, const char *key) {
    json_object *v;
    if (!obj || !json_object_object_get_ex(obj, key, &v) || !json_object_is_type(v, json_type_object)) return NULL;
    return v;
}

/* A boolean member, or fallback when absent or not a boolean. */
static int bool_member(json_object *obj, const char *key, int fallback) {
    json_object *v;
    if (!obj || !json_object_object_get_ex(obj, key, &v) || !json_object_is_type(v, json_type_boolean)) return fallback;
    return json_object_get_boolean(v);
}

/* An integer member, or 0. */
static int64_t int_member(json_object *obj, const char *key) {
    json_object *v;
    if (!obj || !json_object_object_get_ex(obj, key, &v) || !json_object_is_type(v, json_type_int)) return 0;
    return json_object_get_int64(v);
}

/* Fills err from a JSON-RPC error object. */
static int fail_rpc(presentd_error *err, json_object *error) {
    json_object *code = NULL, *data = NULL;
    json_object_object_get_ex(error, "code", &code);
    const char *message = string_member(error, "message");
    fail(err, PRESENTD_ERR_RPC, "%s", message ? message : "error without a message");
    if (err) {
        err->code = code ? json_object_get_int(code) : 0;
        if (json_object_object_get_ex(error, "data", &data)) {
            const char *field = string_member(data, "field");
            if (field) snprintf(err->field, sizeof err->field, "%s", field);
        }
    }
    return PRESENTD_ERR_RPC;
}

/* -- Buffers and queues -------------------------------------------------------------- */

static int buffer_reserve(buffer *b, size_t extra) {
    if (b->off > 0 && b->off == b->len) b->off = b->len = 0;
    if (b->len + extra <= b->cap) return 0;
    if (b->off > 0) {  /* slide what is left to the front before growing */
        memmove(b->data, b->data + b->off, b->len - b->off);
        b->len -= b->off;
        b->off = 0;
        if (b->len + extra <= b->cap) return 0;
    }
    size_t cap = b->cap ? b->cap : 4096;
    while (cap < b->len + extra) cap *= 2;
    char *data = realloc(b->data, cap);
    if (!data) return -1;
    b->data = data;
    b->cap = cap;
    return 0;
}

/* Which kept message queue_take takes. */
typedef int (*kept_match)(const kept *k, const void *arg);

static int match_any(const kept *k, const void *arg) { (void)k; (void)arg; return 1; }

static int match_id(const kept *k, const void *arg) { return k->id == *(const int64_t *)arg; }

static void queue_push(queue *q, json_object *message, int64_t id) {
    kept *k = calloc(1, sizeof *k);
    if (!k) { json_object_put(message); return; }
    k->message = message;
    k->id = id;
    if (q->tail) q->tail->next = k; else q->head = k;
    q->tail = k;
}

/* Removes and returns the first kept message that matches. */
static json_object *queue_take(queue *q, kept_match match, const void *arg) {
    kept *prev = NULL;
    for (kept *k = q->head; k; prev = k, k = k->next) {
        if (!match(k, arg)) continue;
        if (prev) prev->next = k->next; else q->head = k->next;
        if (q->tail == k) q->tail = prev;
        json_object *m = k->message;
        free(k);
        return m;
    }
    return NULL;
}

static void queue_clear(queue *q) {
    json_object *m;
    while ((m = queue_take(q, match_any, NULL))) json_object_put(m);
}

/* -- Connecting ---------------------------------------------------------------------- */

char *presentd_default_socket(char *buf, size_t size) {
    const char *env = getenv("PRESENTD_SOCKET");
    const char *runtime = getenv("XDG_RUNTIME_DIR");
    if (env && *env) snprintf(buf, size, "%s", env);
    else if (runtime && *runtime) snprintf(buf, size, "%s/presentd/presentd.sock", runtime);
    else snprintf(buf, size, "/run/presentd/presentd.sock");
    return buf;
}

/* A connected, non-blocking socket, or -1 with err filled. */
static int open_socket(const char *path, presentd_error *err) {
    struct sockaddr_un addr = { .sun_family = AF_UNIX };
    if (strlen(path) >= sizeof addr.sun_path)
        return fail(err, PRESENTD_ERR_USAGE, "socket path longer than %zu bytes: %s", sizeof addr.sun_path - 1, path), -1;
    strcpy(addr.sun_path, path);
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) return fail_errno(err, "socket"), -1;
    if (connect(fd, (struct sockaddr *)&addr, sizeof addr) < 0) {
        int saved = errno;
        close(fd);
        errno = saved;
        char what[sizeof addr.sun_path + 32];
        snprintf(what, sizeof what, "cannot connect to %s", path);
        return fail_errno(err, what), -1;
    }
    /* Non-blocking from here on, so the descriptor fits any poll loop as it is. */
    fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
    return fd;
}

presentd_client *presentd_connect(const char *path, presentd_error *err) {
    char fallback[sizeof(((struct sockaddr_un *)0)->sun_path) + 64];
    if (!path) path = presentd_default_socket(fallback, sizeof fallback);
    int fd = open_socket(path, err);
    if (fd < 0) return NULL;
    presentd_client *c = calloc(1, sizeof *c);
    if (!c) { close(fd); fail(err, PRESENTD_ERR_IO, "out of memory"); return NULL; }
    c->fd = fd;
    c->next_id = 1;
    snprintf(c->path, sizeof c->path, "%s", path);
    c->reconnect_ms = PRESENTD_RECONNECT_MS;
    snprintf(c->name, sizeof c->name, "presentd-c");
    c->topics = json_object_new_array();
    return c;
}

void presentd_set_reconnect(presentd_client *c, int ms) { if (c) c->reconnect_ms = ms > 0 ? ms : 0; }

int presentd_reconnects(const presentd_client *c) { return c ? c->reconnects : 0; }

void presentd_close(presentd_client *c) {
    if (!c) return;
    close(c->fd);
    queue_clear(&c->replies);
    queue_clear(&c->events);
    free(c->in.data);
    free(c->out.data);
    free(c->abandoned);
    json_object_put(c->topics);
    json_object_put(c->outputs);
    json_object_put(c->resumed);
    json_object_put(c->held);
    free(c);
}

int presentd_fd(const presentd_client *c) { return c ? c->fd : -1; }

void presentd_set_should_dismiss(presentd_client *c, presentd_should_dismiss_fn fn, void *user) {
    c->should_dismiss = fn;
    c->should_dismiss_user = user;
}

const char *presentd_asking_action(const presentd_client *c) { return c ? c->asking_action : NULL; }

/* -- Writing ------------------------------------------------------------------------- */

/* Writes queued bytes until the socket would block. */
static int flush(presentd_client *c, presentd_error *err) {
    buffer *b = &c->out;
    while (b->off < b->len) {
        ssize_t n = send(c->fd, b->data + b->off, b->len - b->off, MSG_NOSIGNAL);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) return 0;
        if (n < 0 && (errno == EPIPE || errno == ECONNRESET)) { c->closed = 1; return fail_closed(c, err); }
        if (n < 0) return fail_errno(err, "write");
        b->off += (size_t)n;
    }
    return 0;
}

int presentd_wants_write(const presentd_client *c) { return c->out.off < c->out.len; }

/* Finite numbers only: json-c would write NaN, which is not JSON and the daemon refuses. */
static int all_finite(json_object *v) {
    switch (json_object_get_type(v)) {
    case json_type_double: return isfinite(json_object_get_double(v));
    case json_type_array:
        for (size_t i = 0; i < json_object_array_length(v); i++)
            if (!all_finite(json_object_array_get_idx(v, i))) return 0;
        return 1;
    case json_type_object: {
        json_object_object_foreach(v, key, member) { (void)key; if (!all_finite(member)) return 0; }
        return 1;
    }
    default: return 1;
    }
}

/* Serialises message as one line into the write buffer and consumes it. */
static int enqueue(presentd_client *c, json_object *message, presentd_error *err) {
    size_t len;
    const char *text = json_object_to_json_string_length(message, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE, &len);
    int status = 0;
    if (buffer_reserve(&c->out, len + 1) < 0) status = fail(err, PRESENTD_ERR_IO, "out of memory");
    else {
        memcpy(c->out.data + c->out.len, text, len);
        c->out.data[c->out.len + len] = '\n';
        c->out.len += len + 1;
    }
    json_object_put(message);
    return status ? status : flush(c, err);
}

/* A request (id >= 0) or a notification (id < 0), params consumed. */
static int send_message(presentd_client *c, int64_t id, const char *method, json_object *params, presentd_error *err) {
    if (!c || !method) { json_object_put(params); return fail(err, PRESENTD_ERR_USAGE, "no client or no method"); }
    if (c->closed) { json_object_put(params); return fail_closed(c, err); }
    if (params && !json_object_is_type(params, json_type_object) && !json_object_is_type(params, json_type_array)) {
        json_object_put(params);
        return fail(err, PRESENTD_ERR_USAGE, "params must be a JSON object or array");
    }
    if (params && !all_finite(params)) {
        json_object_put(params);
        return fail(err, PRESENTD_ERR_USAGE, "params hold a number that is not finite (NaN or infinity)");
    }
    json_object *m = json_object_new_object();
    json_object_object_add(m, "jsonrpc", json_object_new_string("2.0"));
    if (id >= 0) json_object_object_add(m, "id", json_object_new_int64(id));
    json_object_object_add(m, "method", json_object_new_string(method));
    if (params) json_object_object_add(m, "params", params);
    return enqueue(c, m, err);
}

int presentd_send(presentd_client *c, const char *method, json_object *params, int64_t *id, presentd_error *err) {
    int64_t mine = c ? c->next_id++ : 0;
    int status = send_message(c, mine, method, params, err);
    if (status == 0 && id) *id = mine;
    return status;
}

int presentd_notify(presentd_client *c, const char *method, json_object *params, presentd_error *err) {
    return send_message(c, -1, method, params, err);
}

/* -- Reading ------------------------------------------------------------------------- */

/* Answers a request from the daemon: shouldDismiss by the callback, anything else
 * with method-not-found. */
static int answer_question(presentd_client *c, json_object *request, presentd_error *err) {
    json_object *id = NULL, *params = NULL, *visible = NULL;
    json_object_object_get_ex(request, "id", &id);
    json_object_object_get_ex(request, "params", &params);
    const char *method = string_member(request, "method");
    json_object *reply = json_object_new_object();
    json_object_object_add(reply, "jsonrpc", json_object_new_string("2.0"));
    json_object_object_add(reply, "id", json_object_get(id));
    if (strcmp(method, "shouldDismiss") == 0) {
        const char *entry = string_member(params, "id"), *reason = string_member(params, "reason");
        json_object_object_get_ex(params, "keyboardVisible", &visible);
        c->asking_action = string_member(params, "action");
        int allow = c->should_dismiss
            ? c->should_dismiss(c->should_dismiss_user, entry ? entry : "", reason ? reason : "",
                                visible && json_object_get_boolean(visible))
            : 1;
        c->asking_action = NULL;
        json_object *result = json_object_new_object();
        json_object_object_add(result, "allow", json_object_new_boolean(allow != 0));
        json_object_object_add(reply, "result", result);
    } else {
        json_object *error = json_object_new_object();
        json_object_object_add(error, "code", json_object_new_int(PRESENTD_METHOD_NOT_FOUND));
        json_object_object_add(error, "message", json_object_new_string("method not found"));
        json_object_object_add(reply, "error", error);
    }
    return enqueue(c, reply, err);
}

static int was_abandoned(presentd_client *c, int64_t id) {
    for (size_t i = 0; i < c->n_abandoned; i++) {
        if (c->abandoned[i] != id) continue;
        c->abandoned[i] = c->abandoned[--c->n_abandoned];
        return 1;
    }
    return 0;
}

/* Sorts one message: reply, event, or a question to answer. Consumes it. */
static int route(presentd_client *c, json_object *m, presentd_error *err) {
    json_object *id = NULL;
    const char *version = string_member(m, "jsonrpc");
    if (!json_object_is_type(m, json_type_object) || !version || strcmp(version, "2.0") != 0) {
        json_object_put(m);
        return fail(err, PRESENTD_ERR_PROTOCOL, "the daemon sent a message that is not JSON-RPC 2.0");
    }
    int has_id = json_object_object_get_ex(m, "id", &id);
    if (string_member(m, "method")) {
        if (has_id) {
            int status = answer_question(c, m, err);
            json_object_put(m);
            return status;
        }
        const char *method = string_member(m, "method");
        if (strcmp(method, "shutdown") == 0 || strcmp(method, "closing") == 0) {
            json_object *params = NULL;
            json_object_object_get_ex(m, "params", &params);
            const char *reason = string_member(params, "reason");
            snprintf(c->closed_reason, sizeof c->closed_reason, "%s", reason ? reason : method);
            if (strcmp(method, "closing") == 0) c->refused = 1;  /* closing: thrown out, not restarted */
            else if (c->reconnect_ms > 0 && !c->refused) {
                json_object_put(c->held);  /* a shutdown: the daemon may be back in a moment */
                c->held = m;
                return 0;
            }
        }
        queue_push(&c->events, m, 0);
        return 0;
    }
    if (has_id && json_object_is_type(id, json_type_int)) {
        int64_t n = json_object_get_int64(id);
        if (was_abandoned(c, n)) json_object_put(m);
        else queue_push(&c->replies, m, n);
        return 0;
    }
    /* An error with a null id: the daemon could not read a line of ours (-32700) or it was
     * not a request (-32600), so it cannot say which call failed. Dropped, that call's
     * caller would wait for ever: it is this client's (or its user's) bug, surfaced. */
    json_object *error = object_member(m, "error");
    int64_t code = int_member(error, "code");
    if (error && (code == -32700 || code == -32600)) {
        const char *message = string_member(error, "message");
        fail(err, PRESENTD_ERR_PROTOCOL, "the daemon could not read a request (%lld: %s)", (long long)code,
             message ? message : "no message");
        if (err) err->code = (int)code;
        json_object_put(m);
        return PRESENTD_ERR_PROTOCOL;
    }
    json_object_put(m);  /* any other error about a line that had no id: nobody waits for it */
    return 0;
}

/* Parses and routes every complete line in the read buffer. */
static int drain_lines(presentd_client *c, presentd_error *err) {
    buffer *b = &c->in;
    while (b->off < b->len) {
        char *start = b->data + b->off;
        char *newline = memchr(start, '\n', b->len - b->off);
        if (!newline) {
            if (b->len - b->off > MAX_LINE_BYTES)
                return fail(err, PRESENTD_ERR_PROTOCOL, "a line from the daemon is over %u bytes", MAX_LINE_BYTES);
            return 0;
        }
        size_t len = (size_t)(newline - start);
        b->off += len + 1;
        json_tokener *tok = json_tokener_new();
        json_object *m = json_tokener_parse_ex(tok, start, (int)len);
        int complete = json_tokener_get_error(tok) == json_tokener_success && json_tokener_get_parse_end(tok) == len;
        json_tokener_free(tok);
        if (!m || !complete) {
            json_object_put(m);
            return fail(err, PRESENTD_ERR_PROTOCOL, "the daemon sent a line that is not JSON");
        }
        int status = route(c, m, err);
        if (status) return status;
    }
    return 0;
}

int presentd_process(presentd_client *c, presentd_error *err) {
    if (!c) return fail(err, PRESENTD_ERR_USAGE, "no client");
    int status = c->closed ? 0 : flush(c, err);
    if (status && status != PRESENTD_ERR_CLOSED) return status;
    while (!c->closed) {
        if (buffer_reserve(&c->in, 65536) < 0) return fail(err, PRESENTD_ERR_IO, "out of memory");
        ssize_t n = recv(c->fd, c->in.data + c->in.len, c->in.cap - c->in.len, 0);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) break;
        if (n < 0 && errno != ECONNRESET) return fail_errno(err, "read");
        if (n <= 0) { c->closed = 1; break; }
        c->in.len += (size_t)n;
        /* Sort as we go, so the buffer stays small however much is waiting. */
        if ((status = drain_lines(c, err))) return status;
    }
    if ((status = drain_lines(c, err))) return status;
    return c->closed ? fail_closed(c, err) : 0;
}

int presentd_take_reply(presentd_client *c, int64_t id, json_object **result, presentd_error *err) {
    json_object *m = queue_take(&c->replies, match_id, &id);
    if (!m) {
        if (c->closed) return fail_closed(c, err);
        return fail(err, PRESENTD_ERR_AGAIN, "no reply to request %lld yet", (long long)id);
    }
    json_object *value = NULL;
    int status = 0;
    if (json_object_object_get_ex(m, "error", &value)) status = fail_rpc(err, value);
    else if (json_object_object_get_ex(m, "result", &value)) {
        if (result) *result = json_object_get(value);
    } else status = fail(err, PRESENTD_ERR_PROTOCOL, "a reply with neither result nor error");
    json_object_put(m);
    return status;
}

/* Hands a kept notification out as an event. Consumes m. */
static void give_event(json_object *m, presentd_event *ev) {
    json_object *params = NULL;
    json_object_object_get_ex(m, "params", &params);
    snprintf(ev->method, sizeof ev->method, "%s", string_member(m, "method"));
    ev->params = json_object_get(params);
    json_object_put(m);
}

int presentd_poll_event(presentd_client *c, presentd_event *ev) {
    json_object *m = queue_take(&c->events, match_any, NULL);
    if (!m) return 0;
    give_event(m, ev);
    return 1;
}

void presentd_event_clear(presentd_event *ev) {
    json_object_put(ev->params);
    ev->params = NULL;
    ev->method[0] = 0;
}

/* -- Blocking -------------------------------------------------------------------------- */

static int64_t now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Waits until the socket is ready (or the deadline passes), then processes it.
 * deadline < 0: no deadline. */
static int wait_and_process(presentd_client *c, int64_t deadline, presentd_error *err) {
    struct pollfd p = { .fd = c->fd, .events = POLLIN | (presentd_wants_write(c) ? POLLOUT : 0) };
    int wait = deadline < 0 ? -1 : (int)(deadline > now_ms() ? deadline - now_ms() : 0);
    int ready = poll(&p, 1, wait);
    if (ready < 0 && errno != EINTR) return fail_errno(err, "poll");
    if (ready <= 0) return deadline >= 0 && now_ms() >= deadline ? fail(err, PRESENTD_ERR_TIMEOUT, "timed out") : 0;
    return presentd_process(c, err);
}

/* What a successful call tells about coming back later: hello's token, the topics. */
static void remember(presentd_client *c, const char *method, json_object *params, json_object *result) {
    if (c->reconnecting) return;
    if (strcmp(method, "hello") == 0) {
        const char *token = string_member(result, "resumeToken"), *name = string_member(params, "client");
        if (token) snprintf(c->token, sizeof c->token, "%s", token);
        if (name) snprintf(c->name, sizeof c->name, "%s", name);
        return;
    }
    int subscribe = strcmp(method, "subscribe") == 0;
    if (!subscribe && strcmp(method, "unsubscribe") != 0) return;
    if (subscribe) {  /* a subscribe replaces the screens filter; without one, it hears every screen again */
        json_object *outputs = NULL;
        json_object_object_get_ex(params, "outputs", &outputs);
        json_object_put(c->outputs);
        c->outputs = json_object_is_type(outputs, json_type_array) ? json_object_get(outputs) : NULL;
    }
    json_object *topics = NULL;
    json_object_object_get_ex(params, "topics", &topics);
    if (!json_object_is_type(topics, json_type_array)) topics = NULL;
    json_object *kept = json_object_new_array();
    size_t n = json_object_array_length(c->topics), m = topics ? json_object_array_length(topics) : 0;
    for (size_t i = 0; i < n; i++) {  /* the old ones, less those unsubscribed from */
        json_object *t = json_object_array_get_idx(c->topics, i);
        int named = 0;
        for (size_t j = 0; j < m && !subscribe; j++)
            named |= strcmp(json_object_get_string(t), json_object_get_string(json_object_array_get_idx(topics, j))) == 0;
        if (!named) json_object_array_add(kept, json_object_get(t));
    }
    for (size_t j = 0; j < m && subscribe; j++) {  /* and the new ones */
        json_object *t = json_object_array_get_idx(topics, j);
        int known = 0;
        for (size_t i = 0; i < json_object_array_length(kept); i++)
            known |= strcmp(json_object_get_string(t), json_object_get_string(json_object_array_get_idx(kept, i))) == 0;
        if (!known) json_object_array_add(kept, json_object_get(t));
    }
    json_object_put(c->topics);
    c->topics = kept;
}

int presentd_reconnect(presentd_client *c, presentd_error *err) {
    if (!c) return fail(err, PRESENTD_ERR_USAGE, "no client");
    if (c->reconnecting) return fail_closed(c, err);  /* the new connection ended too: the attempt goes on */
    if (c->reconnect_ms > 0 && !c->refused) {
        c->reconnecting = 1;
        int64_t deadline = now_ms() + c->reconnect_ms;
        for (int delay = 0; now_ms() + delay < deadline; delay = delay ? (delay * 2 > 1000 ? 1000 : delay * 2) : 50) {
            if (delay) usleep((useconds_t)delay * 1000);
            int fd = open_socket(c->path, NULL);
            if (fd < 0) continue;
            close(c->fd);
            c->fd = fd;
            c->closed = 0;
            c->closed_reason[0] = 0;
            c->in.len = c->in.off = c->out.len = c->out.off = 0;
            queue_clear(&c->replies);
            json_object *hello = json_object_new_object(), *result = NULL;
            json_object_object_add(hello, "client", json_object_new_string(c->name));
            json_object_object_add(hello, "protocol", json_object_new_int(1));
            if (c->token[0]) json_object_object_add(hello, "resume", json_object_new_string(c->token));
            if (presentd_call(c, "hello", hello, &result, PRESENTD_RECONNECT_CALL_MS, NULL)) continue;
            json_object_put(c->resumed);
            json_object *resumed = NULL;
            json_object_object_get_ex(result, "resumed", &resumed);
            c->resumed = json_object_is_type(resumed, json_type_array) ? json_object_get(resumed) : NULL;
            json_object_put(result);
            if (json_object_array_length(c->topics) > 0) {
                json_object *sub = json_object_new_object();
                json_object_object_add(sub, "topics", json_object_get(c->topics));
                if (c->outputs) json_object_object_add(sub, "outputs", json_object_get(c->outputs));
                if (presentd_call(c, "subscribe", sub, NULL, PRESENTD_RECONNECT_CALL_MS, NULL)) continue;
            }
            c->reconnecting = 0;
            c->reconnects++;
            json_object_put(c->held);
            c->held = NULL;
            return 0;
        }
        c->reconnecting = 0;
        c->refused = 1;  /* given up: the end is final */
    }
    if (c->held) {  /* the shutdown notice is the last event after all */
        queue_push(&c->events, c->held, 0);
        c->held = NULL;
    }
    c->closed = 1;
    return fail_closed(c, err);
}

int presentd_call(presentd_client *c, const char *method, json_object *params, json_object **result,
                  int timeout_ms, presentd_error *err) {
    if (c && method && strcmp(method, "present") == 0 && !c->token[0] && c->reconnect_ms > 0 && !c->reconnecting) {
        /* An entry is worth resuming: a token first, from a hello. */
        json_object *hello = json_object_new_object();
        json_object_object_add(hello, "client", json_object_new_string(c->name));
        json_object_object_add(hello, "protocol", json_object_new_int(1));
        int status = presentd_call(c, "hello", hello, NULL, timeout_ms, err);
        if (status) { json_object_put(params); return status; }
    }
    json_object *again = json_object_get(params);  /* to send it again on a new connection */
    int64_t id = 0;
    int status = presentd_send(c, method, json_object_get(params), &id, err);
    json_object_put(params);
    int64_t deadline = timeout_ms < 0 ? -1 : now_ms() + timeout_ms;
    json_object *mine = NULL;
    while (status == 0 || status == PRESENTD_ERR_CLOSED) {
        if (status == 0 && (status = presentd_take_reply(c, id, &mine, err)) != PRESENTD_ERR_AGAIN &&
            status != PRESENTD_ERR_CLOSED)
            break;
        if (status == PRESENTD_ERR_CLOSED) {
            /* The daemon went away with the reply: on a new connection, the request again. */
            if (presentd_reconnect(c, err)) break;
            status = presentd_send(c, method, json_object_get(again), &id, err);
            continue;
        }
        status = wait_and_process(c, deadline, err);
        if (status == PRESENTD_ERR_CLOSED) status = 0;  /* the reply may have come before the end */
        if (status == PRESENTD_ERR_TIMEOUT) {
            if (c->n_abandoned == c->cap_abandoned) {
                size_t cap = c->cap_abandoned ? c->cap_abandoned * 2 : 8;
                int64_t *grown = realloc(c->abandoned, cap * sizeof *grown);
                if (grown) { c->abandoned = grown; c->cap_abandoned = cap; }
            }
            if (c->n_abandoned < c->cap_abandoned) c->abandoned[c->n_abandoned++] = id;
            status = fail(err, PRESENTD_ERR_TIMEOUT, "no reply to %s within %d ms", method, timeout_ms);
        }
    }
    if (status == 0) remember(c, method, again, mine);
    json_object_put(again);
    if (status == 0 && result) *result = mine;
    else json_object_put(mine);
    return status;
}

int presentd_call_json(presentd_client *c, const char *method, const char *params_json, json_object **result,
                       int timeout_ms, presentd_error *err) {
    json_object *params = NULL;
    if (params_json) {
        params = json_tokener_parse(params_json);
        if (!params) return fail(err, PRESENTD_ERR_USAGE, "params are not valid JSON: %s", params_json);
    }
    return presentd_call(c, method, params, result, timeout_ms, err);
}

int presentd_next_event(presentd_client *c, presentd_event *ev, int timeout_ms, presentd_error *err) {
    int64_t deadline = timeout_ms < 0 ? -1 : now_ms() + timeout_ms;
    while (!presentd_poll_event(c, ev)) {
        if (c->closed) {
            int status = presentd_reconnect(c, err);
            if (status && !c->events.head) return status;  /* else the held shutdown comes first */
            continue;
        }
        int status = wait_and_process(c, deadline, err);
        if (status && status != PRESENTD_ERR_CLOSED) return status;
    }
    return 0;
}

/* -- Answers --------------------------------------------------------------------------- */

/* Whether a kept event is the answer to entry arg: its action, or its leaving. */
static int match_answer(const kept *k, const void *arg) {
    json_object *params = NULL;
    json_object_object_get_ex(k->message, "params", &params);
    const char *method = string_member(k->message, "method"), *entry = string_member(params, "id");
    if (!method || !entry || strcmp(entry, (const char *)arg) != 0) return 0;
    if (strcmp(method, "action") == 0) return 1;
    const char *event = string_member(params, "event");
    return strcmp(method, "lifecycle") == 0 && event &&
           (strcmp(event, "willDismiss") == 0 || strcmp(event, "didDismiss") == 0);
}

int presentd_next_answer(presentd_client *c, const char *id, presentd_event *ev, int timeout_ms, presentd_error *err) {
    if (!c || !id || !ev) return fail(err, PRESENTD_ERR_USAGE, "no client, id or event");
    int64_t deadline = timeout_ms < 0 ? -1 : now_ms() + timeout_ms;
    json_object *m;
    while (!(m = queue_take(&c->events, match_answer, id))) {
        if (c->closed) {
            int status = presentd_reconnect(c, err);
            if (status) return status;
            int back = 0;  /* did the entry come back with the daemon? */
            for (size_t i = 0; c->resumed && i < json_object_array_length(c->resumed); i++)
                back |= strcmp(json_object_get_string(json_object_array_get_idx(c->resumed, i)), id) == 0;
            if (!back) return fail(err, PRESENTD_ERR_CLOSED, "presentd restarted without %s", id);
            continue;
        }
        int status = wait_and_process(c, deadline, err);
        if (status == PRESENTD_ERR_TIMEOUT) return fail(err, status, "no answer to %s within %d ms", id, timeout_ms);
        if (status && status != PRESENTD_ERR_CLOSED) return status;
    }
    give_event(m, ev);
    return 0;
}

void presentd_answer_clear(presentd_answer *answer) {
    if (!answer) return;
    json_object_put(answer->result);
    memset(answer, 0, sizeof *answer);
}

/* params gains "fields": {id: value, …} when there are any. 0, or a usage error. */
static int add_fields(json_object *params, const presentd_field_value *fields, size_t n, presentd_error *err) {
    if (n == 0) return 0;
    if (!fields) return fail(err, PRESENTD_ERR_USAGE, "%zu fields but no array of them", n);
    json_object *values = json_object_new_object();
    for (size_t i = 0; i < n; i++) {
        if (!fields[i].id) { json_object_put(values); return fail(err, PRESENTD_ERR_USAGE, "field %zu has no id", i); }
        json_object_object_add(values, fields[i].id, json_object_new_string(fields[i].value ? fields[i].value : ""));
    }
    json_object_object_add(params, "fields", values);
    return 0;
}

/* Calls activate or key and reads what it did into answer (when not NULL). */
static int call_for_answer(presentd_client *c, const char *method, json_object *params, presentd_answer *answer,
                           int timeout_ms, presentd_error *err) {
    json_object *result = NULL;
    if (answer) memset(answer, 0, sizeof *answer);
    int status = presentd_call(c, method, params, &result, timeout_ms, err);
    if (status) return status;
    if (!answer) { json_object_put(result); return 0; }
    answer->result = result;
    answer->handled = bool_member(result, "handled", 1);
    answer->dismissed = bool_member(result, "dismissed", 0);
    answer->id = string_member(result, "id");
    answer->action = string_member(result, "action");
    answer->confirmation = string_member(result, "confirmation");
    return 0;
}

int presentd_activate(presentd_client *c, const char *id, const char *action,
                      const presentd_field_value *fields, size_t n_fields,
                      presentd_answer *answer, int timeout_ms, presentd_error *err) {
    if (answer) memset(answer, 0, sizeof *answer);
    if (!id || !action) return fail(err, PRESENTD_ERR_USAGE, "activate needs an entry id and an action");
    json_object *params = json_object_new_object();
    json_object_object_add(params, "id", json_object_new_string(id));
    json_object_object_add(params, "action", json_object_new_string(action));
    int status = add_fields(params, fields, n_fields, err);
    if (status) { json_object_put(params); return status; }
    return call_for_answer(c, "activate", params, answer, timeout_ms, err);
}

int presentd_key(presentd_client *c, const char *key, const char *id, const presentd_field_value *fields,
                 size_t n_fields, presentd_answer *answer, int timeout_ms, presentd_error *err) {
    return presentd_key_on(c, NULL, key, id, fields, n_fields, answer, timeout_ms, err);
}

int presentd_key_on(presentd_client *c, const char *output, const char *key, const char *id,
                    const presentd_field_value *fields, size_t n_fields, presentd_answer *answer, int timeout_ms,
                    presentd_error *err) {
    if (answer) memset(answer, 0, sizeof *answer);
    if (!key) return fail(err, PRESENTD_ERR_USAGE, "no key");
    json_object *params = json_object_new_object();
    json_object_object_add(params, "key", json_object_new_string(key));
    if (id) json_object_object_add(params, "id", json_object_new_string(id));
    if (output) json_object_object_add(params, "output", json_object_new_string(output));
    int status = add_fields(params, fields, n_fields, err);
    if (status) { json_object_put(params); return status; }
    return call_for_answer(c, "key", params, answer, timeout_ms, err);
}

int presentd_focus(presentd_client *c, const char *id, const char *field, int timeout_ms, presentd_error *err) {
    if (!id) return fail(err, PRESENTD_ERR_USAGE, "no entry id");
    json_object *params = json_object_new_object();
    json_object_object_add(params, "id", json_object_new_string(id));
    if (field) json_object_object_add(params, "field", json_object_new_string(field));
    return presentd_call(c, "focus", params, NULL, timeout_ms, err);
}

int presentd_tap(presentd_client *c, double x, double y, presentd_tap_result *out, int timeout_ms,
                 presentd_error *err) {
    return presentd_tap_on(c, NULL, x, y, out, timeout_ms, err);
}

int presentd_tap_on(presentd_client *c, const char *output, double x, double y, presentd_tap_result *out,
                    int timeout_ms, presentd_error *err) {
    if (out) memset(out, 0, sizeof *out);
    json_object *params = json_object_new_object(), *result = NULL;
    json_object_object_add(params, "x", json_object_new_double(x));
    json_object_object_add(params, "y", json_object_new_double(y));
    if (output) json_object_object_add(params, "output", json_object_new_string(output));
    int status = presentd_call(c, "tap", params, &result, timeout_ms, err);
    if (status) return status;
    if (!out) { json_object_put(result); return 0; }
    *out = (presentd_tap_result){
        .part = string_member(result, "part"), .dismissed = bool_member(result, "dismissed", 0),
        .id = string_member(result, "id"), .role = string_member(result, "role"),
        .level = string_member(result, "level"), .forwarded = bool_member(result, "forwarded", 0),
        .confirmation = string_member(result, "confirmation"), .result = result,
    };
    return 0;
}

void presentd_tap_result_clear(presentd_tap_result *out) {
    if (!out) return;
    json_object_put(out->result);
    memset(out, 0, sizeof *out);
}

/* Calls method and hands out its result's member `key` (a reference of the caller's own),
 * or the whole result when key is NULL; *out may be NULL to discard it. */
static int call_for_member(presentd_client *c, const char *method, json_object *params, const char *key,
                           json_object **out, int timeout_ms, presentd_error *err) {
    json_object *result = NULL, *member = NULL;
    if (out) *out = NULL;
    int status = presentd_call(c, method, params, &result, timeout_ms, err);
    if (status) return status;
    if (out) {
        if (key && json_object_object_get_ex(result, key, &member)) *out = json_object_get(member);
        else if (!key) *out = json_object_get(result);
    }
    json_object_put(result);
    return 0;
}

int presentd_define_context(presentd_client *c, const char *name, presentd_rect frame, double duration,
                            const char *output, json_object **contexts, int timeout_ms, presentd_error *err) {
    if (contexts) *contexts = NULL;
    if (!name) return fail(err, PRESENTD_ERR_USAGE, "defineContext needs a name");
    json_object *params = json_object_new_object(), *rect = json_object_new_object();
    json_object_object_add(params, "name", json_object_new_string(name));
    json_object_object_add(rect, "x", json_object_new_double(frame.x));
    json_object_object_add(rect, "y", json_object_new_double(frame.y));
    json_object_object_add(rect, "width", json_object_new_double(frame.width));
    json_object_object_add(rect, "height", json_object_new_double(frame.height));
    json_object_object_add(params, "frame", rect);
    if (duration >= 0) json_object_object_add(params, "duration", json_object_new_double(duration));
    if (output) json_object_object_add(params, "output", json_object_new_string(output));
    return call_for_member(c, "defineContext", params, NULL, contexts, timeout_ms, err);
}

int presentd_remove_context(presentd_client *c, const char *name, json_object **dismissed, int timeout_ms,
                            presentd_error *err) {
    if (dismissed) *dismissed = NULL;
    if (!name) return fail(err, PRESENTD_ERR_USAGE, "removeContext needs a name");
    json_object *params = json_object_new_object();
    json_object_object_add(params, "name", json_object_new_string(name));
    return call_for_member(c, "removeContext", params, "dismissed", dismissed, timeout_ms, err);
}

int presentd_action_of(const presentd_event *ev, presentd_action_event *out) {
    memset(out, 0, sizeof *out);
    if (!ev || strcmp(ev->method, "action") != 0 || !ev->params) return 0;
    out->seq = int_member(ev->params, "seq");
    out->id = string_member(ev->params, "id");
    out->action = string_member(ev->params, "action");
    json_object *fields = object_member(ev->params, "fields");
    if (fields) {
        json_object_object_foreach(fields, key, value) {
            if (out->n_fields == PRESENTD_MAX_FIELDS) break;
            out->fields[out->n_fields++] = (presentd_field_value){ key, json_object_get_string(value) };
        }
    }
    return out->id && out->action;
}

const char *presentd_action_field(const presentd_action_event *action, const char *field) {
    for (size_t i = 0; action && field && i < action->n_fields; i++)
        if (strcmp(action->fields[i].id, field) == 0) return action->fields[i].value;
    return NULL;
}

/* -- Content and entries ------------------------------------------------------------------ */

/* A string member, or a number's text (a number field's value may come as either). */
static const char *text_member(json_object *obj, const char *key) {
    json_object *v;
    if (!obj || !json_object_object_get_ex(obj, key, &v)) return NULL;
    if (json_object_is_type(v, json_type_string) || json_object_is_type(v, json_type_int) ||
        json_object_is_type(v, json_type_double))
        return json_object_get_string(v);
    return NULL;
}

/* The elements of obj's array member key, or NULL with *n = 0. */
static json_object *array_member(json_object *obj, const char *key, size_t *n) {
    json_object *v;
    *n = 0;
    if (!obj || !json_object_object_get_ex(obj, key, &v) || !json_object_is_type(v, json_type_array)) return NULL;
    *n = json_object_array_length(v);
    return v;
}

int presentd_content_of(json_object *obj, presentd_content *out) {
    memset(out, 0, sizeof *out);
    json_object *content;
    if (!obj || !json_object_object_get_ex(obj, "content", &content) || !content) return 0;
    if (json_object_is_type(content, json_type_string)) {
        out->label = json_object_get_string(content);
        return 1;
    }
    if (!json_object_is_type(content, json_type_object)) return 0;
    out->title = string_member(content, "title");
    out->message = string_member(content, "message");
    out->message_markup = string_member(content, "messageMarkup");
    out->app_name = string_member(content, "appName");
    json_object *icon = object_member(content, "icon"), *surface = object_member(content, "surface"),
                *accessibility = object_member(content, "accessibility"), *progress;
    out->icon_name = string_member(icon, "name");
    out->icon_path = string_member(icon, "path");
    if (json_object_object_get_ex(content, "progress", &progress)) {
        out->progress_kind = progress ? PRESENTD_PROGRESS_FRACTION : PRESENTD_PROGRESS_INDETERMINATE;
        out->progress = presentd_number(content, "progress");
    }
    out->surface_app_id = string_member(surface, "appId");
    out->surface_handle = string_member(surface, "handle");
    out->accessibility_label = string_member(accessibility, "label");
    out->accessibility_hint = string_member(accessibility, "hint");
    out->accessibility_announce = string_member(accessibility, "announce");
    size_t n;
    json_object *actions = array_member(content, "actions", &n);
    for (size_t i = 0; i < n && out->n_actions < PRESENTD_MAX_ACTIONS; i++) {
        json_object *a = json_object_array_get_idx(actions, i);
        out->actions[out->n_actions++] = (presentd_content_action){
            .id = string_member(a, "id"), .title = string_member(a, "title"), .role = string_member(a, "role"),
            .dismisses = bool_member(a, "dismisses", 1),
        };
    }
    json_object *fields = array_member(content, "fields", &n);
    for (size_t i = 0; i < n && out->n_fields < PRESENTD_MAX_FIELDS; i++) {
        json_object *f = json_object_array_get_idx(fields, i);
        out->fields[out->n_fields++] = (presentd_content_field){
            .id = string_member(f, "id"), .kind = string_member(f, "kind"),
            .placeholder = string_member(f, "placeholder"), .value = text_member(f, "value"),
        };
    }
    return 1;
}

const presentd_content_action *presentd_content_action_named(const presentd_content *content, const char *id) {
    for (size_t i = 0; content && id && i < content->n_actions; i++)
        if (content->actions[i].id && strcmp(content->actions[i].id, id) == 0) return &content->actions[i];
    return NULL;
}

size_t presentd_entries(json_object *obj, presentd_entry *out, size_t max) {
    size_t n;
    json_object *entries = array_member(obj, "entries", &n);
    for (size_t i = 0; i < n && i < max; i++) {
        json_object *e = json_object_array_get_idx(entries, i), *frame = object_member(e, "frame");
        presentd_entry *entry = &out[i];
        *entry = (presentd_entry){
            .id = string_member(e, "id"), .owner = int_member(e, "owner"), .state = string_member(e, "state"),
            .style = string_member(e, "style"),
            .x = presentd_number(frame, "x"), .y = presentd_number(frame, "y"),
            .width = presentd_number(frame, "width"), .height = presentd_number(frame, "height"),
            .priority = (int)int_member(e, "priority"), .adapted = bool_member(e, "adapted", 0),
            .kind = string_member(e, "kind"), .content_revision = int_member(e, "contentRevision"),
            .level = string_member(e, "level"), .position = string_member(e, "position"),
            .context = string_member(e, "context"), .output = string_member(e, "output"),
            .detent = string_member(e, "detent"),
        };
        entry->has_content = presentd_content_of(e, &entry->content);
    }
    return n;
}

static presentd_rect rect_of(json_object *o) {
    return (presentd_rect){ presentd_number(o, "x"), presentd_number(o, "y"), presentd_number(o, "width"),
                            presentd_number(o, "height") };
}

size_t presentd_contexts(json_object *obj, presentd_context *out, size_t max) {
    json_object *contexts = object_member(obj, "contexts");
    size_t n = 0;
    if (!contexts) return 0;
    json_object_object_foreach(contexts, name, frame) {
        if (n < max) out[n] = (presentd_context){ name, rect_of(frame) };
        n++;
    }
    return n;
}

/* -- Several screens ----------------------------------------------------------------------- */

int presentd_container_of(json_object *obj, presentd_container *out) {
    memset(out, 0, sizeof *out);
    json_object *container = object_member(obj, "container");
    if (!container) return 0;
    json_object *safe = object_member(container, "safeArea");
    *out = (presentd_container){
        .width = presentd_number(container, "width"), .height = presentd_number(container, "height"),
        .safe_area = { presentd_number(safe, "top"), presentd_number(safe, "left"), presentd_number(safe, "bottom"),
                       presentd_number(safe, "right") },
        .scale = presentd_number(container, "scale"),
        .horizontal_size_class = string_member(container, "horizontalSizeClass"),
        .vertical_size_class = string_member(container, "verticalSizeClass"),
        .keyboard_height = presentd_number(container, "keyboardHeight"),
    };
    return 1;
}

size_t presentd_outputs_of(json_object *obj, presentd_output *out, size_t max) {
    size_t n;
    json_object *outputs = array_member(obj, "outputs", &n);
    for (size_t i = 0; i < n && i < max; i++) {
        json_object *o = json_object_array_get_idx(outputs, i);
        out[i] = (presentd_output){ .name = string_member(o, "name"), .fps = (int)int_member(o, "fps"), .object = o };
        presentd_container_of(o, &out[i].container);
    }
    return n;
}

void presentd_output_list_clear(presentd_output_list *list) {
    if (!list) return;
    free(list->outputs);
    json_object_put(list->result);
    memset(list, 0, sizeof *list);
}

const presentd_output *presentd_output_named(const presentd_output_list *list, const char *name) {
    for (size_t i = 0; list && name && i < list->n; i++)
        if (list->outputs[i].name && strcmp(list->outputs[i].name, name) == 0) return &list->outputs[i];
    return NULL;
}

const char *presentd_output_of(json_object *params) {
    if (!params) return NULL;
    const char *output = string_member(params, "output");
    return output ? output : PRESENTD_MAIN_OUTPUT;
}

/* Calls method (addOutput or outputs) and reads its "outputs" into list (when not NULL). */
static int call_for_outputs(presentd_client *c, const char *method, json_object *params, presentd_output_list *list,
                            int timeout_ms, presentd_error *err) {
    json_object *result = NULL;
    if (list) memset(list, 0, sizeof *list);
    int status = presentd_call(c, method, params, &result, timeout_ms, err);
    if (status) return status;
    if (!list) { json_object_put(result); return 0; }
    size_t n = presentd_outputs_of(result, NULL, 0);
    presentd_output *outputs = n ? calloc(n, sizeof *outputs) : NULL;
    if (n && !outputs) {
        json_object_put(result);
        return fail(err, PRESENTD_ERR_IO, "out of memory");
    }
    presentd_outputs_of(result, outputs, n);
    *list = (presentd_output_list){ .n = n, .outputs = outputs, .result = result };
    return 0;
}

int presentd_add_output(presentd_client *c, const presentd_output_spec *spec, presentd_output_list *outputs,
                        int timeout_ms, presentd_error *err) {
    if (outputs) memset(outputs, 0, sizeof *outputs);
    if (!spec || !spec->name) return fail(err, PRESENTD_ERR_USAGE, "addOutput needs a name");
    json_object *params = json_object_new_object();
    json_object_object_add(params, "name", json_object_new_string(spec->name));
    json_object_object_add(params, "width", json_object_new_double(spec->width));
    json_object_object_add(params, "height", json_object_new_double(spec->height));
    if (spec->safe_area) {
        json_object *safe = json_object_new_object();
        json_object_object_add(safe, "top", json_object_new_double(spec->safe_area->top));
        json_object_object_add(safe, "left", json_object_new_double(spec->safe_area->left));
        json_object_object_add(safe, "bottom", json_object_new_double(spec->safe_area->bottom));
        json_object_object_add(safe, "right", json_object_new_double(spec->safe_area->right));
        json_object_object_add(params, "safeArea", safe);
    }
    if (spec->scale != 0) json_object_object_add(params, "scale", json_object_new_double(spec->scale));
    if (spec->horizontal_size_class)
        json_object_object_add(params, "horizontalSizeClass", json_object_new_string(spec->horizontal_size_class));
    if (spec->vertical_size_class)
        json_object_object_add(params, "verticalSizeClass", json_object_new_string(spec->vertical_size_class));
    if (spec->fps != 0) json_object_object_add(params, "fps", json_object_new_int(spec->fps));
    return call_for_outputs(c, "addOutput", params, outputs, timeout_ms, err);
}

int presentd_remove_output(presentd_client *c, const char *name, json_object **dismissed, int timeout_ms,
                           presentd_error *err) {
    if (dismissed) *dismissed = NULL;
    if (!name) return fail(err, PRESENTD_ERR_USAGE, "removeOutput needs a name");
    json_object *params = json_object_new_object();
    json_object_object_add(params, "name", json_object_new_string(name));
    return call_for_member(c, "removeOutput", params, "dismissed", dismissed, timeout_ms, err);
}

int presentd_outputs(presentd_client *c, presentd_output_list *outputs, int timeout_ms, presentd_error *err) {
    if (!outputs) return fail(err, PRESENTD_ERR_USAGE, "outputs needs a list to fill");
    return call_for_outputs(c, "outputs", NULL, outputs, timeout_ms, err);
}

/* -- Frames ---------------------------------------------------------------------------- */

double presentd_number(json_object *obj, const char *key) {
    json_object *v;
    if (!obj || !json_object_object_get_ex(obj, key, &v)) return 0;
    if (!json_object_is_type(v, json_type_double) && !json_object_is_type(v, json_type_int)) return 0;
    return json_object_get_double(v);
}

size_t presentd_frame_layers(json_object *params, presentd_layer *out, size_t max) {
    json_object *layers;
    if (!params || !json_object_object_get_ex(params, "layers", &layers) || !json_object_is_type(layers, json_type_array))
        return 0;
    size_t n = json_object_array_length(layers);
    for (size_t i = 0; i < n && i < max; i++) {
        json_object *l = json_object_array_get_idx(layers, i), *frame = NULL, *clip = object_member(l, "clip");
        json_object_object_get_ex(l, "frame", &frame);
        const char *role = string_member(l, "role");
        out[i] = (presentd_layer){
            .id = string_member(l, "id"),
            .dimming = role && strcmp(role, "dimming") == 0,
            .x = presentd_number(frame, "x"), .y = presentd_number(frame, "y"),
            .width = presentd_number(frame, "width"), .height = presentd_number(frame, "height"),
            .alpha = presentd_number(l, "alpha"), .scale = presentd_number(l, "scale"),
            .rotation = presentd_number(l, "rotation"), .corner_radius = presentd_number(l, "cornerRadius"),
            .color = string_member(l, "color"), .content_revision = int_member(l, "contentRevision"),
            .level = string_member(l, "level"), .has_clip = clip != NULL,
            .clip = clip ? rect_of(clip) : (presentd_rect){ 0, 0, 0, 0 },
            .role = role, .grabber = role && strcmp(role, "grabber") == 0,
        };
    }
    return n;
}

/* -- Animations: the render-server model ------------------------------------------------
 * The arithmetic of Sources/PresentCore/Motion (CubicBezier.swift, Spring.swift,
 * TimingCurve.swift, Animation.swift, Motion.swift's VisualState.adding), transcribed
 * operation for operation so that the same doubles come out: the same formulas, in the same
 * order, on the same libm (exp, sin, cos). The Makefile builds with -ffp-contract=off, as
 * Swift compiles: no multiply-add fused behind our back. */

/* One coordinate of a Bézier as ((a·t + b)·t + c)·t (end points 0 and 1). */
typedef struct bezier_poly { double a, b, c; } bezier_poly;

static bezier_poly bezier_poly_of(double p1, double p2) {
    bezier_poly p;
    p.c = 3 * p1;
    p.b = 3 * (p2 - p1) - p.c;
    p.a = 1 - p.c - p.b;
    return p;
}

static double poly_value(bezier_poly p, double t) { return ((p.a * t + p.b) * t + p.c) * t; }
static double poly_derivative(bezier_poly p, double t) { return (3 * p.a * t + 2 * p.b) * t + p.c; }

/* Swift's min and max (y < x ? y : x and y >= x ? y : x), not fmin/fmax. */
static double swift_min(double x, double y) { return y < x ? y : x; }
static double swift_max(double x, double y) { return y >= x ? y : x; }

#define BEZIER_TOLERANCE 1e-14
#define BEZIER_SAMPLES 11
#define BEZIER_NEWTON_STEPS 8

/* CubicBezier.parameter(for:): the t whose x(t) is x (x in [0, 1]). */
static double bezier_parameter(double x1, double x2, double x) {
    if (x <= 0) return 0;
    if (x >= 1) return 1;
    bezier_poly curve = bezier_poly_of(x1, x2);
    double step = 1.0 / (double)(BEZIER_SAMPLES - 1), lo = 1 - step, hi = 1;
    for (int i = 1; i < BEZIER_SAMPLES; i++) {
        if (x <= poly_value(curve, (double)i * step)) {
            lo = (double)(i - 1) * step;
            hi = (double)i * step;
            break;
        }
    }
    double xlo = poly_value(curve, lo), xhi = poly_value(curve, hi);
    double t = xhi > xlo ? swift_min(swift_max(lo + (hi - lo) * (x - xlo) / (xhi - xlo), lo), hi) : lo;
    for (int i = 0; i < BEZIER_NEWTON_STEPS; i++) {
        double error = poly_value(curve, t) - x;
        if (error == 0) return t;
        if (error < 0) lo = t; else hi = t;
        double slope = poly_derivative(curve, t);
        if (!(slope > 0)) break;
        double next = t - error / slope;
        if (!(next >= lo && next <= hi)) break;
        if (fabs(next - t) < BEZIER_TOLERANCE) return next;
        t = next;
    }
    while (hi - lo > BEZIER_TOLERANCE) {
        double mid = (lo + hi) / 2;
        if (poly_value(curve, mid) < x) lo = mid; else hi = mid;
    }
    return (lo + hi) / 2;
}

double presentd_bezier_value(double x1, double y1, double x2, double y2, double x) {
    x = swift_min(swift_max(x, 0), 1);
    return poly_value(bezier_poly_of(y1, y2), bezier_parameter(x1, x2, x));
}

double presentd_spring_position(double mass, double stiffness, double damping, double initial_velocity,
                                double duration, double t) {
    if (t >= duration) return 1;
    if (t <= 0) return 0;
    /* Spring.displacement: x(t) − 1 as e^(−βt)·(p·cos ωt + q·sin ωt), or e^(−βt)·(p + q·t)
     * at (or within rounding of) critical damping, which an overdamped spring moves as. */
    double omega0 = sqrt(stiffness / mass), beta = damping / (2 * mass), omega, p = -1, q;
    if (beta >= omega0 * (1 - 1e-12)) {
        omega = 0;
        q = initial_velocity - omega0;
        beta = omega0;
    } else {
        omega = sqrt((omega0 - beta) * (omega0 + beta));
        q = (initial_velocity - beta) / omega;
    }
    double decay = exp(-beta * t), u;
    if (decay == 0) u = 0;
    else u = omega > 0 ? decay * (p * cos(omega * t) + q * sin(omega * t)) : decay * (p + q * t);
    return 1 + u;
}

double presentd_timing_progress(const presentd_timing *timing, double elapsed, double duration) {
    if (timing->kind == PRESENTD_TIMING_SPRING)
        return presentd_spring_position(timing->mass, timing->stiffness, timing->damping, timing->initial_velocity,
                                        timing->duration, elapsed);
    if (elapsed >= duration) return 1;
    if (elapsed <= 0) return 0;
    double x = elapsed / duration;
    if (timing->kind == PRESENTD_TIMING_LINEAR) return x;
    return presentd_bezier_value(timing->x1, timing->y1, timing->x2, timing->y2, x);
}

static int bezier_timing(presentd_timing *out, double x1, double y1, double x2, double y2) {
    *out = (presentd_timing){ .kind = PRESENTD_TIMING_BEZIER, .x1 = x1, .y1 = y1, .x2 = x2, .y2 = y2 };
    return 0;
}

int presentd_timing_parse(json_object *timing, presentd_timing *out) {
    memset(out, 0, sizeof *out);
    if (json_object_is_type(timing, json_type_string)) {
        const char *name = json_object_get_string(timing);
        if (strcmp(name, "linear") == 0) { out->kind = PRESENTD_TIMING_LINEAR; out->x2 = out->y2 = 1; return 0; }
        if (strcmp(name, "easeIn") == 0) return bezier_timing(out, 0.42, 0, 1, 1);
        if (strcmp(name, "easeOut") == 0) return bezier_timing(out, 0, 0, 0.58, 1);
        if (strcmp(name, "easeInEaseOut") == 0) return bezier_timing(out, 0.42, 0, 0.58, 1);
        if (strcmp(name, "default") == 0) return bezier_timing(out, 0.25, 0.1, 0.25, 1);
        if (strcmp(name, "system") == 0) {
            *out = (presentd_timing){ .kind = PRESENTD_TIMING_SPRING, .mass = 3, .stiffness = 1000, .damping = 500,
                                      .duration = 0.5 };
            return 0;
        }
        return -1;
    }
    json_object *v;
    if (json_object_object_get_ex(timing, "bezier", &v) && json_object_is_type(v, json_type_array) &&
        json_object_array_length(v) == 4) {
        double b[4];
        for (size_t i = 0; i < 4; i++) {
            json_object *n = json_object_array_get_idx(v, i);
            if (!json_object_is_type(n, json_type_double) && !json_object_is_type(n, json_type_int)) return -1;
            b[i] = json_object_get_double(n);
        }
        return bezier_timing(out, b[0], b[1], b[2], b[3]);
    }
    json_object *spring = object_member(timing, "spring");
    if (!spring) return -1;
    const char *keys[] = { "mass", "stiffness", "damping", "initialVelocity", "duration" };
    double s[5];
    for (size_t i = 0; i < 5; i++) {
        if (!json_object_object_get_ex(spring, keys[i], &v) ||
            (!json_object_is_type(v, json_type_double) && !json_object_is_type(v, json_type_int)))
            return -1;
        s[i] = json_object_get_double(v);
    }
    /* Spring(…, duration:) keeps max(0, duration). */
    *out = (presentd_timing){ .kind = PRESENTD_TIMING_SPRING, .mass = s[0], .stiffness = s[1], .damping = s[2],
                              .initial_velocity = s[3], .duration = s[4] > 0 ? s[4] : 0 };
    return 0;
}

/* Offsets named as frames name them: frame.{x,y,width,height}, alpha, scale, rotation (0 when absent). */
static int read_offsets(json_object *o, double out[PRESENTD_PROPERTY_COUNT]) {
    for (int k = 0; k < PRESENTD_PROPERTY_COUNT; k++) out[k] = 0;
    if (!o) return 0;
    if (!json_object_is_type(o, json_type_object)) return -1;
    static const char *frame_keys[] = { "x", "y", "width", "height" };
    static const char *keys[] = { "alpha", "scale", "rotation" };
    json_object *frame = NULL, *v;
    if (json_object_object_get_ex(o, "frame", &frame) && !json_object_is_type(frame, json_type_object)) return -1;
    for (int k = 0; k < PRESENTD_PROPERTY_COUNT; k++) {
        json_object *in = k < 4 ? frame : o;
        const char *key = k < 4 ? frame_keys[k] : keys[k - 4];
        if (!in || !json_object_object_get_ex(in, key, &v)) continue;
        if (!json_object_is_type(v, json_type_double) && !json_object_is_type(v, json_type_int)) return -1;
        out[k] = json_object_get_double(v);
    }
    return 0;
}

void presentd_animations_clear(presentd_animations *a) {
    if (!a) return;
    free(a->layers);
    free(a->segments);
    json_object_put(a->params);
    memset(a, 0, sizeof *a);
}

static int animations_fail(presentd_animations *a, presentd_error *err, const char *what) {
    presentd_animations_clear(a);
    return fail(err, PRESENTD_ERR_PROTOCOL, "animations payload: %s", what);
}

int presentd_animations_parse(json_object *params, presentd_animations *out, presentd_error *err) {
    memset(out, 0, sizeof *out);
    json_object *layers, *v;
    if (!params || !json_object_object_get_ex(params, "layers", &layers) || !json_object_is_type(layers, json_type_array) ||
        !json_object_object_get_ex(params, "time", &v) || !json_object_object_get_ex(params, "end", &v))
        return fail(err, PRESENTD_ERR_PROTOCOL, "animations payload: needs time, end and layers");
    out->params = json_object_get(params);
    out->seq = int_member(params, "seq");
    out->output = presentd_output_of(params);
    out->time = presentd_number(params, "time");
    out->end = presentd_number(params, "end");
    out->has_until = json_object_object_get_ex(params, "until", &v) && !json_object_is_type(v, json_type_null);
    out->until = out->has_until ? presentd_number(params, "until") : 0;
    size_t n = json_object_array_length(layers), total = 0;
    for (size_t i = 0; i < n; i++) {
        json_object *segments;
        if (!json_object_object_get_ex(json_object_array_get_idx(layers, i), "segments", &segments) ||
            !json_object_is_type(segments, json_type_array))
            return animations_fail(out, err, "a layer needs segments");
        total += json_object_array_length(segments);
    }
    presentd_layer *base = n ? calloc(n, sizeof *base) : NULL;
    out->layers = n ? calloc(n, sizeof *out->layers) : NULL;
    out->segments = total ? calloc(total, sizeof *out->segments) : NULL;
    if ((n && (!base || !out->layers)) || (total && !out->segments)) {
        free(base);
        return animations_fail(out, err, "out of memory");
    }
    presentd_frame_layers(params, base, n);
    out->n_layers = n;
    size_t used = 0;
    for (size_t i = 0; i < n; i++) {
        json_object *segments;
        json_object_object_get_ex(json_object_array_get_idx(layers, i), "segments", &segments);
        presentd_animated_layer *l = &out->layers[i];
        l->layer = base[i];
        l->segments = out->segments + used;
        l->n_segments = json_object_array_length(segments);
        for (size_t j = 0; j < l->n_segments; j++) {
            json_object *s = json_object_array_get_idx(segments, j), *start, *duration, *timing, *from = NULL, *to = NULL;
            presentd_segment *seg = &l->segments[j];
            if (!json_object_object_get_ex(s, "start", &start) || !json_object_object_get_ex(s, "duration", &duration) ||
                !json_object_object_get_ex(s, "timing", &timing) || presentd_timing_parse(timing, &seg->timing) != 0) {
                free(base);
                return animations_fail(out, err, "a segment needs start, duration and a timing curve");
            }
            json_object_object_get_ex(s, "from", &from);
            json_object_object_get_ex(s, "to", &to);
            if (read_offsets(from, seg->from) || read_offsets(to, seg->to)) {
                free(base);
                return animations_fail(out, err, "an offset is not a number");
            }
            seg->start = json_object_get_double(start);
            /* Animation.init: a spring runs for its own duration; never less than 0. */
            double d = seg->timing.kind == PRESENTD_TIMING_SPRING ? seg->timing.duration : json_object_get_double(duration);
            seg->duration = d > 0 ? d : 0;
        }
        used += l->n_segments;
    }
    free(base);
    return 0;
}

double presentd_segment_progress(const presentd_segment *s, double t) {
    if (!(s->duration > 0)) return t >= s->start ? 1 : 0;
    if (t >= s->start + s->duration) return 1;
    return presentd_timing_progress(&s->timing, swift_max(0, t - s->start), s->duration);
}

static double *property_of(presentd_layer *l, int k) {
    double *p[PRESENTD_PROPERTY_COUNT] = { &l->x, &l->y, &l->width, &l->height, &l->alpha, &l->scale, &l->rotation };
    return p[k];
}

void presentd_animated_layer_at(const presentd_animated_layer *l, double t, presentd_layer *out) {
    *out = l->layer;
    for (size_t j = 0; j < l->n_segments; j++) {
        const presentd_segment *s = &l->segments[j];
        /* Animation.value: `to` from the end on, else from + p·(to − from). */
        int done = t >= s->start + s->duration;
        double p = done ? 1 : presentd_segment_progress(s, t);
        for (int k = 0; k < PRESENTD_PROPERTY_COUNT; k++)
            *property_of(out, k) += done ? s->to[k] : s->from[k] + p * (s->to[k] - s->from[k]);
    }
}

size_t presentd_animations_layers_at(const presentd_animations *a, double t, presentd_layer *out, size_t max) {
    if (!a) return 0;
    for (size_t i = 0; i < a->n_layers && i < max; i++) presentd_animated_layer_at(&a->layers[i], t, &out[i]);
    return a->n_layers;
}

int presentd_animations_animating(const presentd_animations *a, double t) {
    return a && t < a->end;
}

int presentd_animations_moving(const presentd_animations *a, double t) {
    for (size_t i = 0; a && i < a->n_layers; i++)
        for (size_t j = 0; j < a->layers[i].n_segments; j++) {
            const presentd_segment *s = &a->layers[i].segments[j];
            if (t < s->start + s->duration) return 1;
        }
    return 0;
}
