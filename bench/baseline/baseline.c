/*
 * baseline: the yardstick for presentd's benchmark. A minimal libuv + json-c server
 * speaking the same wire format (JSON-RPC 2.0, one object per line on a Unix stream
 * socket) with the least work a server of that shape can do:
 *
 *   ping                -> {}
 *   subscribe           -> {"seq":0}, and the connection receives a frame-like
 *                          notification at FPS Hz (two layers, like a presented popup)
 *   any other method    -> its params echoed back as the result
 *   a line json-c cannot parse -> error -32700
 *
 * Frames are paced by a timerfd armed at absolute CLOCK_MONOTONIC deadlines k/FPS (exact,
 * no drift), serialised once per tick with json-c and shared by every subscriber (one
 * reference-counted buffer); a subscriber whose previous write is still pending skips the
 * frame, so a slow reader never builds a backlog. Frames run only while someone subscribes.
 *
 * Usage: baseline SOCKET [FPS]      (SIGINT/SIGTERM: remove the socket file and exit 0)
 */
#define _GNU_SOURCE
#include <errno.h>
#include <json.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>
#include <uv.h>

#define MAX_LINE (1 << 20)

/* Bytes shared by every write that sends them; freed by the last release. */
typedef struct {
    int refs;
    size_t len;
    char data[];
} shared_t;

typedef struct client {
    uv_pipe_t pipe;
    struct client *prev, *next;
    char *in;          /* bytes of an unfinished line */
    size_t in_len, in_cap;
    int subscribed;
    unsigned pending;  /* uv_writes in flight */
} client_t;

typedef struct {
    uv_write_t req;
    shared_t *buf;
} write_t;

static uv_loop_t *loop;
static uv_pipe_t server;
static uv_poll_t frame_poll;
static int frame_fd = -1;
static int frames_running;
static long fps = 120;
static uint64_t frame_tick;  /* index k of the next deadline k/fps */
static uint64_t frame_seq;
static client_t *clients;
static int subscribers;
static const char *socket_path;
static char read_buffer[65536];
static json_tokener *tokener;

static shared_t *shared_new(const char *bytes, size_t len) {
    shared_t *s = malloc(sizeof *s + len + 1);
    s->refs = 1;
    s->len = len + 1;
    memcpy(s->data, bytes, len);
    s->data[len] = '\n';
    return s;
}

static void shared_release(shared_t *s) {
    if (--s->refs == 0) free(s);
}

static void on_write(uv_write_t *req, int status) {
    (void)status;  /* errors surface as a read error or EOF, which closes */
    write_t *w = (write_t *)req;
    client_t *c = req->handle->data;
    c->pending--;
    shared_release(w->buf);
    free(w);
}

/* Sends `s`; `droppable` (a frame) is skipped while an earlier write is pending. */
static void client_send(client_t *c, shared_t *s, int droppable) {
    if (uv_is_closing((uv_handle_t *)&c->pipe)) return;
    size_t offset = 0;
    if (c->pending == 0) {
        uv_buf_t b = uv_buf_init(s->data, (unsigned)s->len);
        int n = uv_try_write((uv_stream_t *)&c->pipe, &b, 1);
        if (n == (int)s->len) return;
        if (n > 0) offset = (size_t)n;
        else if (n != UV_EAGAIN) return;
    } else if (droppable) {
        return;
    }
    write_t *w = malloc(sizeof *w);
    w->buf = s;
    s->refs++;
    uv_buf_t b = uv_buf_init(s->data + offset, (unsigned)(s->len - offset));
    if (uv_write(&w->req, (uv_stream_t *)&c->pipe, &b, 1, on_write) == 0) {
        c->pending++;
    } else {
        shared_release(s);
        free(w);
    }
}

static void send_json(client_t *c, json_object *message) {
    size_t len;
    const char *text = json_object_to_json_string_length(message, JSON_C_TO_STRING_PLAIN, &len);
    shared_t *s = shared_new(text, len);
    client_send(c, s, 0);
    shared_release(s);
}

/* ---- frames ---- */

static int64_t deadline_ns(uint64_t k) {
    return (int64_t)((__int128)k * 1000000000 / fps);
}

static void arm_frame_timer(void) {
    int64_t ns = deadline_ns(frame_tick);
    struct itimerspec spec = {.it_value = {.tv_sec = ns / 1000000000, .tv_nsec = ns % 1000000000}};
    timerfd_settime(frame_fd, TFD_TIMER_ABSTIME, &spec, NULL);
}

static json_object *layer(const char *role, double x, double y, double w, double h, double alpha) {
    json_object *frame = json_object_new_object();
    json_object_object_add(frame, "x", json_object_new_double(x));
    json_object_object_add(frame, "y", json_object_new_double(y));
    json_object_object_add(frame, "width", json_object_new_double(w));
    json_object_object_add(frame, "height", json_object_new_double(h));
    json_object *l = json_object_new_object();
    json_object_object_add(l, "id", json_object_new_string("p1"));
    json_object_object_add(l, "role", json_object_new_string(role));
    json_object_object_add(l, "frame", frame);
    json_object_object_add(l, "alpha", json_object_new_double(alpha));
    json_object_object_add(l, "scale", json_object_new_double(1.0));
    json_object_object_add(l, "rotation", json_object_new_double(0.0));
    json_object_object_add(l, "cornerRadius", json_object_new_double(4.0));
    if (strcmp(role, "dimming") == 0) json_object_object_add(l, "color", json_object_new_string("#000000"));
    return l;
}

/* One frame: serialised once, shared by every subscriber. */
static void broadcast_frame(double time) {
    double progress = (double)(frame_seq % 7200) / 7200.0;
    json_object *layers = json_object_new_array();
    json_object_array_add(layers, layer("dimming", 0, 0, 390, 844, 0.4 * progress));
    json_object_array_add(layers, layer("content", 30, 844 - 557 * progress, 330, 557, 1.0));
    json_object *params = json_object_new_object();
    json_object_object_add(params, "seq", json_object_new_int64((int64_t)++frame_seq));
    json_object_object_add(params, "time", json_object_new_double(time));
    json_object_object_add(params, "layers", layers);
    json_object_object_add(params, "animating", json_object_new_boolean(1));
    json_object *message = json_object_new_object();
    json_object_object_add(message, "jsonrpc", json_object_new_string("2.0"));
    json_object_object_add(message, "method", json_object_new_string("frame"));
    json_object_object_add(message, "params", params);
    size_t len;
    const char *text = json_object_to_json_string_length(message, JSON_C_TO_STRING_PLAIN, &len);
    shared_t *s = shared_new(text, len);
    json_object_put(message);
    for (client_t *c = clients; c; c = c->next)
        if (c->subscribed) client_send(c, s, 1);
    shared_release(s);
}

static void on_frame_timer(uv_poll_t *handle, int status, int events) {
    (void)handle; (void)status; (void)events;
    uint64_t expirations;
    if (read(frame_fd, &expirations, sizeof expirations) != sizeof expirations) return;
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    int64_t now_ns = now.tv_sec * 1000000000LL + now.tv_nsec;
    /* Serve the latest deadline that has passed (skip, never bunch, when late). */
    while (deadline_ns(frame_tick + 1) <= now_ns) frame_tick++;
    broadcast_frame((double)frame_tick / (double)fps);
    frame_tick++;
    arm_frame_timer();
}

static void frames_update(void) {
    if (subscribers > 0 && !frames_running) {
        struct timespec now;
        clock_gettime(CLOCK_MONOTONIC, &now);
        __int128 now_ns = (__int128)now.tv_sec * 1000000000 + now.tv_nsec;
        frame_tick = (uint64_t)(now_ns * fps / 1000000000) + 1;
        arm_frame_timer();
        uv_poll_start(&frame_poll, UV_READABLE, on_frame_timer);
        frames_running = 1;
    } else if (subscribers == 0 && frames_running) {
        uv_poll_stop(&frame_poll);
        struct itimerspec off = {0};
        timerfd_settime(frame_fd, 0, &off, NULL);
        frames_running = 0;
    }
}

/* ---- requests ---- */

static json_object *reply(json_object *id) {
    json_object *r = json_object_new_object();
    json_object_object_add(r, "jsonrpc", json_object_new_string("2.0"));
    json_object_object_add(r, "id", json_object_get(id));
    return r;
}

static void handle_line(client_t *c, const char *line, size_t len) {
    json_tokener_reset(tokener);
    json_object *request = json_tokener_parse_ex(tokener, line, (int)len);
    int complete = request && json_tokener_get_parse_end(tokener) == len;
    if (!complete || !json_object_is_type(request, json_type_object)) {
        json_object_put(request);
        json_object *r = reply(NULL);
        json_object *error = json_object_new_object();
        json_object_object_add(error, "code", json_object_new_int(-32700));
        json_object_object_add(error, "message", json_object_new_string("parse error"));
        json_object_object_add(r, "error", error);
        send_json(c, r);
        json_object_put(r);
        return;
    }
    json_object *id = NULL, *method = NULL, *params = NULL;
    json_object_object_get_ex(request, "id", &id);
    json_object_object_get_ex(request, "method", &method);
    json_object_object_get_ex(request, "params", &params);
    const char *name = method ? json_object_get_string(method) : "";
    json_object *result;
    if (strcmp(name, "subscribe") == 0) {
        if (!c->subscribed) {
            c->subscribed = 1;
            subscribers++;
            frames_update();
        }
        result = json_object_new_object();
        json_object_object_add(result, "seq", json_object_new_int64(0));
    } else if (strcmp(name, "ping") == 0 || !params) {
        result = json_object_new_object();
    } else {
        result = json_object_get(params);
    }
    if (id) {
        json_object *r = reply(id);
        json_object_object_add(r, "result", result);
        send_json(c, r);
        json_object_put(r);
    } else {
        json_object_put(result);
    }
    json_object_put(request);
}

/* ---- connections ---- */

static void on_close(uv_handle_t *handle) {
    client_t *c = handle->data;
    free(c->in);
    free(c);
}

static void client_close(client_t *c) {
    if (uv_is_closing((uv_handle_t *)&c->pipe)) return;
    if (c->prev) c->prev->next = c->next; else clients = c->next;
    if (c->next) c->next->prev = c->prev;
    if (c->subscribed) {
        subscribers--;
        frames_update();
    }
    uv_close((uv_handle_t *)&c->pipe, on_close);
}

static void on_alloc(uv_handle_t *handle, size_t suggested, uv_buf_t *buf) {
    (void)handle; (void)suggested;
    *buf = uv_buf_init(read_buffer, sizeof read_buffer);
}

static void on_read(uv_stream_t *stream, ssize_t n, const uv_buf_t *buf) {
    client_t *c = stream->data;
    if (n < 0) return client_close(c);
    const char *p = buf->base, *end = buf->base + n;
    while (p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        size_t chunk = (size_t)((nl ? nl : end) - p);
        if (c->in_len == 0 && nl) {
            handle_line(c, p, chunk);  /* a whole line in this read: no copy */
        } else {
            if (c->in_len + chunk > MAX_LINE) return client_close(c);
            if (c->in_len + chunk > c->in_cap) {
                c->in_cap = (c->in_len + chunk) * 2;
                c->in = realloc(c->in, c->in_cap);
            }
            memcpy(c->in + c->in_len, p, chunk);
            c->in_len += chunk;
            if (nl) {
                handle_line(c, c->in, c->in_len);
                c->in_len = 0;
            }
        }
        if (uv_is_closing((uv_handle_t *)&c->pipe)) return;
        p += chunk + (nl ? 1 : 0);
    }
}

static void on_connection(uv_stream_t *listener, int status) {
    if (status < 0) return;
    client_t *c = calloc(1, sizeof *c);
    uv_pipe_init(loop, &c->pipe, 0);
    c->pipe.data = c;
    if (uv_accept(listener, (uv_stream_t *)&c->pipe) != 0) {
        uv_close((uv_handle_t *)&c->pipe, on_close);
        return;
    }
    c->next = clients;
    if (clients) clients->prev = c;
    clients = c;
    uv_read_start((uv_stream_t *)&c->pipe, on_alloc, on_read);
}

static void on_signal(uv_signal_t *handle, int signum) {
    (void)handle; (void)signum;
    unlink(socket_path);
    exit(0);
}

int main(int argc, char **argv) {
    if (argc < 2 || argc > 3) {
        fprintf(stderr, "usage: baseline SOCKET [FPS]\n");
        return 2;
    }
    socket_path = argv[1];
    if (argc == 3) fps = strtol(argv[2], NULL, 10);
    if (fps < 1 || fps > 1000) {
        fprintf(stderr, "baseline: FPS must be 1-1000\n");
        return 2;
    }
    signal(SIGPIPE, SIG_IGN);
    tokener = json_tokener_new();
    loop = uv_default_loop();
    unlink(socket_path);
    uv_pipe_init(loop, &server, 0);
    int rc = uv_pipe_bind(&server, socket_path);
    if (rc == 0) rc = uv_listen((uv_stream_t *)&server, 128, on_connection);
    if (rc != 0) {
        fprintf(stderr, "baseline: cannot listen on %s: %s\n", socket_path, uv_strerror(rc));
        return 1;
    }
    frame_fd = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
    uv_poll_init(loop, &frame_poll, frame_fd);
    uv_signal_t sigint, sigterm;
    uv_signal_init(loop, &sigint);
    uv_signal_start(&sigint, on_signal, SIGINT);
    uv_signal_init(loop, &sigterm);
    uv_signal_start(&sigterm, on_signal, SIGTERM);
    return uv_run(loop, UV_RUN_DEFAULT);
}
