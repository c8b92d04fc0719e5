/*
 * Tests of the C client against the real daemon ($PRESENTD), each on its own daemon
 * and temporary socket. Prints "N passed, N failed" last; exits 1 on any failure.
 */
#define _GNU_SOURCE
#include "presentd.h"

#include <errno.h>
#include <math.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* How long to wait for a reply or an event that must come, in milliseconds: only against a
 * hang, so generous (a loaded machine can be slow by seconds); on success it costs nothing. */
#define WAIT_MS 30000

static int passed, failed, failed_checks;
static const char *current;

/* Runs one test; it passes when none of its checks failed. */
#define RUN(name, call) do { \
        int before = failed_checks; \
        current = (name); \
        call; \
        if (failed_checks == before) passed++; else failed++; \
    } while (0)

#define CHECK(cond) check((cond), #cond, __LINE__)
static int check(int ok, const char *what, int line) {
    if (ok) return 1;
    failed_checks++;
    printf("FAIL %s (line %d): %s\n", current, line, what);
    return 0;
}
#define CHECK_OK(status, err) check_ok((status), (err), #status, __LINE__)
static int check_ok(int status, const presentd_error *err, const char *what, int line) {
    if (status == 0) return 1;
    failed_checks++;
    printf("FAIL %s (line %d): %s returned %d: %s\n", current, line, what, status, err->message);
    return 0;
}

/* -- A daemon of our own ----------------------------------------------------------------- */

typedef struct daemon_proc {
    pid_t pid;   /* 0 once reaped: never signalled again (the number may be someone else's) */
    int status;  /* its wait status, once reaped */
    char dir[64];
    char socket[128];
    char clock[16];
    char fps[8];  /* --fps (start_daemon_at; start_daemon: 10) */
} daemon_proc;

static double monotonic_now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void file_path(const daemon_proc *d, const char *name, char *path, size_t size) {
    snprintf(path, size, "%s/%s", d->dir, name);
}

/* What the daemon wrote to stderr, for failure messages. */
static void print_log(const daemon_proc *d) {
    char path[160], text[4096];
    file_path(d, "log", path, sizeof path);
    FILE *f = fopen(path, "r");
    size_t n = f ? fread(text, 1, sizeof text - 1, f) : 0;
    if (f) fclose(f);
    text[n] = 0;
    printf("its stderr: %s\n", n ? text : "(nothing)");
}

/* Reaps the daemon if it has exited (without waiting); 1 if it has. */
static int reaped(daemon_proc *d) {
    if (d->pid > 0 && waitpid(d->pid, &d->status, WNOHANG) == d->pid) d->pid = 0;
    return d->pid == 0;
}

/* SIGTERM, then up to 30 s for it to exit (a loaded machine can be slow), then SIGKILL.
 * Returns its wait status. */
static int stop_daemon(daemon_proc *d) {
    if (!reaped(d)) {
        kill(d->pid, SIGTERM);
        double deadline = monotonic_now() + WAIT_MS / 1000.0;
        while (!reaped(d) && monotonic_now() < deadline) usleep(10000);
        if (!reaped(d)) {
            printf("presentd (pid %d) did not exit within %d s of SIGTERM: killed\n", (int)d->pid, WAIT_MS / 1000);
            kill(d->pid, SIGKILL);
            waitpid(d->pid, &d->status, 0);
            d->pid = 0;
        }
    }
    const char *files[] = { "log", "presentd.json", "presentd-state.json", "presentd.sock" };
    for (size_t i = 0; i < sizeof files / sizeof *files; i++) {
        char path[160];
        file_path(d, files[i], path, sizeof path);
        unlink(path);
    }
    rmdir(d->dir);
    return d->status;
}

/* Starts the daemon of d (again: on the same socket, in the same directory, where it
 * finds the state it saved) and waits until it accepts a connection. */
static int launch_daemon(daemon_proc *d) {
    const char *binary = getenv("PRESENTD"), *clock = d->clock, *fps = d->fps[0] ? d->fps : "10";
    char config[160];
    file_path(d, "presentd.json", config, sizeof config);
    d->status = -1;
    d->pid = fork();
    if (d->pid == 0) {
        char log[160];
        file_path(d, "log", log, sizeof log);
        if (!freopen(log, "a", stderr)) _exit(127);
        execl(binary, binary, "--socket", d->socket, "--clock", clock, "--fps", fps, "--config", config, (char *)NULL);
        _exit(127);
    }
    /* Ready means a connection is accepted, as a client would see it (the socket file
     * exists from bind(), a moment before listen()). A cold start on a loaded machine can
     * take seconds: up to 60. */
    double deadline = monotonic_now() + 60;
    while (monotonic_now() < deadline) {
        presentd_client *c = presentd_connect(d->socket, NULL);
        if (c) { presentd_close(c); return 0; }
        if (reaped(d)) {
            printf("presentd (%s clock) exited with wait status %d before it accepted a connection on %s\n",
                   clock, d->status, d->socket);
            print_log(d);
            stop_daemon(d);
            return -1;
        }
        usleep(10000);
    }
    printf("presentd (%s clock, pid %d, still running) did not accept a connection on %s within 60 s\n",
           clock, (int)d->pid, d->socket);
    print_log(d);
    stop_daemon(d);
    return -1;
}

static int start_daemon_at(daemon_proc *d, const char *clock, const char *fps) {
    if (!getenv("PRESENTD")) { fprintf(stderr, "set PRESENTD to the presentd binary\n"); exit(2); }
    strcpy(d->dir, "/tmp/presentd-c-XXXXXX");
    if (!mkdtemp(d->dir)) return -1;
    snprintf(d->socket, sizeof d->socket, "%s/presentd.sock", d->dir);
    snprintf(d->clock, sizeof d->clock, "%s", clock);
    snprintf(d->fps, sizeof d->fps, "%s", fps);
    /* An owner gets 30 s, not the default 1 s, to answer shouldDismiss before the daemon
     * allows on its own (the tests answer, and a loaded machine can take longer than that),
     * and restored entries 30 s, not 10, to be resumed. */
    char config[160];
    file_path(d, "presentd.json", config, sizeof config);
    FILE *f = fopen(config, "w");
    if (!f) return -1;
    fputs("{\"shouldDismissTimeout\": 30, \"resumeGrace\": 30}\n", f);
    fclose(f);
    return launch_daemon(d);
}

static int start_daemon(daemon_proc *d, const char *clock) {
    return start_daemon_at(d, clock, "10");
}

/* kill -9, then start it again on the same socket. */
static int kill_9_and_restart(daemon_proc *d) {
    if (!reaped(d)) {
        kill(d->pid, SIGKILL);
        waitpid(d->pid, &d->status, 0);
        d->pid = 0;
    }
    return launch_daemon(d);
}

static presentd_client *connect_or_die(daemon_proc *d) {
    presentd_error err;
    presentd_client *c = presentd_connect(d->socket, &err);
    if (!c) { printf("cannot connect: %s\n", err.message); exit(1); }
    return c;
}

/* Every event written before a sync reply, counted by method; frames handed to visit. */
static int drain(presentd_client *c, const char *method, void (*visit)(json_object *, void *), void *user) {
    presentd_error err;
    int count = 0;
    CHECK_OK(presentd_call_json(c, "sync", "{\"nonce\":1}", NULL, WAIT_MS, &err), &err);
    presentd_event ev;
    while (presentd_poll_event(c, &ev)) {
        if (strcmp(ev.method, method) == 0) {
            count++;
            if (visit) visit(ev.params, user);
        }
        presentd_event_clear(&ev);
    }
    return count;
}

/* -- Tests ----------------------------------------------------------------------------- */

static void test_connect_failure(void) {
    presentd_error err;
    CHECK(presentd_connect("/nonexistent/presentd.sock", &err) == NULL);
    CHECK(err.status == PRESENTD_ERR_IO && err.sys_errno == ENOENT);
    CHECK(strstr(err.message, "/nonexistent/presentd.sock") != NULL);
    char path[200];
    setenv("PRESENTD_SOCKET", "/x/y.sock", 1);
    CHECK(strcmp(presentd_default_socket(path, sizeof path), "/x/y.sock") == 0);
    unsetenv("PRESENTD_SOCKET");
    setenv("XDG_RUNTIME_DIR", "/run/user/5", 1);
    CHECK(strcmp(presentd_default_socket(path, sizeof path), "/run/user/5/presentd/presentd.sock") == 0);
    unsetenv("XDG_RUNTIME_DIR");
    CHECK(strcmp(presentd_default_socket(path, sizeof path), "/run/presentd/presentd.sock") == 0);
}

static void test_calls_and_errors(daemon_proc *d) {
    presentd_client *c = connect_or_die(d);
    presentd_error err;
    json_object *r = NULL;
    if (CHECK_OK(presentd_call_json(c, "hello", "{\"client\":\"c-test\",\"protocol\":1}", &r, WAIT_MS, &err), &err)) {
        CHECK(presentd_number(r, "protocol") == 1);
        json_object_put(r);
    }
    int status = presentd_call_json(c, "present",
        "{\"style\":\"alert\",\"transition\":{\"type\":\"zoom\",\"timing\":{\"bezier\":[0.1,\"x\",0.2,1]}}}",
        NULL, WAIT_MS, &err);
    CHECK(status == PRESENTD_ERR_RPC && err.code == PRESENTD_INVALID_PARAMS);
    CHECK(strcmp(err.field, "transition.timing.bezier[1]") == 0);
    status = presentd_call_json(c, "dismiss", "{\"id\":\"ghost\"}", NULL, WAIT_MS, &err);
    CHECK(status == PRESENTD_ERR_RPC && err.code == PRESENTD_NOT_FOUND && strcmp(err.field, "id") == 0);
    status = presentd_call_json(c, "teleport", NULL, NULL, WAIT_MS, &err);
    CHECK(status == PRESENTD_ERR_RPC && err.code == PRESENTD_METHOD_NOT_FOUND && err.field[0] == 0);
    /* Refused before sending: NaN is not JSON, and params must be an object. */
    json_object *nan = json_object_new_object();
    json_object_object_add(nan, "seconds", json_object_new_double(NAN));
    CHECK(presentd_call(c, "advance", nan, NULL, WAIT_MS, &err) == PRESENTD_ERR_USAGE);
    CHECK(presentd_call(c, "ping", json_object_new_int(3), NULL, WAIT_MS, &err) == PRESENTD_ERR_USAGE);
    /* Still working after every error. */
    if (CHECK_OK(presentd_call_json(c, "present", "{\"style\":\"popup\",\"id\":\"p\"}", &r, WAIT_MS, &err), &err)) {
        json_object *id;
        CHECK(json_object_object_get_ex(r, "id", &id) && strcmp(json_object_get_string(id), "p") == 0);
        json_object_put(r);
    }
    presentd_close(c);
}

/* A line the daemon cannot read gets an error with a null id: no caller can be told, so
 * presentd_process reports it instead of dropping it (a sender waiting for ever otherwise). */
static void test_an_unreadable_line_is_a_protocol_error(daemon_proc *d) {
    presentd_client *c = connect_or_die(d);
    presentd_error err;
    static const char garbage[] = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\",\n";
    CHECK(write(presentd_fd(c), garbage, sizeof garbage - 1) == (ssize_t)(sizeof garbage - 1));
    int status = 0;
    for (int turns = 0; status == 0 && turns < 100; turns++) {
        struct pollfd p = {.fd = presentd_fd(c), .events = POLLIN};
        if (poll(&p, 1, WAIT_MS) <= 0) break;
        status = presentd_process(c, &err);
    }
    CHECK(status == PRESENTD_ERR_PROTOCOL && err.code == -32700);
    /* The connection goes on: the error was about that line only. */
    CHECK_OK(presentd_call_json(c, "ping", NULL, NULL, WAIT_MS, &err), &err);
    presentd_close(c);
}

struct frames { int n; double alpha[8], time[8]; };

static void record_frame(json_object *frame, void *user) {
    struct frames *f = user;
    presentd_layer layers[4];
    size_t n = presentd_frame_layers(frame, layers, 4);
    if (f->n < 8 && n == 2 && !layers[1].dimming && strcmp(layers[1].id, "fade") == 0) {
        f->alpha[f->n] = layers[1].alpha;
        f->time[f->n++] = presentd_number(frame, "time");
    }
}

static void test_events_and_frames(daemon_proc *d) {
    presentd_client *c = connect_or_die(d);
    presentd_error err;
    json_object *snapshot = NULL;
    CHECK_OK(presentd_call_json(c, "subscribe", "{\"topics\":[\"frames\",\"lifecycle\"]}", &snapshot, WAIT_MS, &err), &err);
    json_object *inner = NULL;
    presentd_layer none[1];
    CHECK(json_object_object_get_ex(snapshot, "snapshot", &inner) && presentd_frame_layers(inner, none, 1) == 0);
    json_object_put(snapshot);
    CHECK_OK(presentd_call_json(c, "present", "{\"style\":\"popup\",\"id\":\"fade\",\"transition\":"
                                "{\"type\":\"crossDissolve\",\"duration\":0.2,\"timing\":\"linear\"}}", NULL, WAIT_MS, &err), &err);
    presentd_event ev;
    CHECK_OK(presentd_next_event(c, &ev, WAIT_MS, &err), &err);
    CHECK(strcmp(ev.method, "lifecycle") == 0);
    json_object *event = NULL;
    CHECK(json_object_object_get_ex(ev.params, "event", &event) && strcmp(json_object_get_string(event), "willPresent") == 0);
    presentd_event_clear(&ev);
    CHECK_OK(presentd_call_json(c, "advance", "{\"seconds\":0.2}", NULL, WAIT_MS, &err), &err);
    struct frames f = { 0 };
    CHECK(drain(c, "frame", record_frame, &f) == 2);
    CHECK(f.n == 2 && fabs(f.time[0] - 0.1) < 1e-9 && fabs(f.alpha[0] - 0.5) < 1e-9 && f.alpha[1] == 1);
    CHECK(presentd_next_event(c, &ev, 50, &err) == PRESENTD_ERR_TIMEOUT);  /* nothing can come on the manual clock: a short look */
    presentd_close(c);
}

static int veto_calls;
static int veto(void *user, const char *id, const char *reason, int keyboard_visible) {
    veto_calls++;
    return !(strcmp(id, (const char *)user) == 0 && strcmp(reason, "tap") == 0 && !keyboard_visible);
}

static void test_should_dismiss(daemon_proc *d) {
    presentd_client *c = connect_or_die(d);
    presentd_set_should_dismiss(c, veto, "guarded");
    presentd_error err;
    json_object *r = NULL;
    CHECK_OK(presentd_call_json(c, "present", "{\"style\":\"alert\",\"id\":\"guarded\",\"confirmDismiss\":true,"
                                "\"transition\":{\"duration\":0}}", NULL, WAIT_MS, &err), &err);
    /* The owner taps its own dimming: the question arrives while it waits for the reply. */
    if (CHECK_OK(presentd_call_json(c, "tap", "{\"x\":3,\"y\":3}", &r, WAIT_MS, &err), &err)) {
        json_object *dismissed, *how;
        CHECK(json_object_object_get_ex(r, "dismissed", &dismissed) && !json_object_get_boolean(dismissed));
        CHECK(json_object_object_get_ex(r, "confirmation", &how) && strcmp(json_object_get_string(how), "vetoed") == 0);
        json_object_put(r);
    }
    CHECK(veto_calls == 1);
    presentd_close(c);
}

static void test_non_blocking_poll_loop(daemon_proc *d) {
    presentd_client *renderer = connect_or_die(d), *app = connect_or_die(d);
    presentd_error err;
    int64_t sub, presented;
    CHECK_OK(presentd_send(renderer, "subscribe", json_tokener_parse("{\"topics\":[\"lifecycle\"]}"), &sub, &err), &err);
    CHECK_OK(presentd_send(app, "present", json_tokener_parse("{\"style\":\"topHalf\",\"id\":\"nb\"}"), &presented, &err), &err);
    CHECK(presentd_take_reply(app, presented, NULL, &err) == PRESENTD_ERR_AGAIN);
    int got_reply = 0, got_sub = 0, got_event = 0, rounds = 0;
    /* The subscription may be answered before or after the present: loop until both
     * replies are in and the renderer saw the entry's willPresent. */
    while ((!got_reply || !got_sub || !got_event) && rounds++ < 100) {
        struct pollfd fds[2] = {
            { .fd = presentd_fd(renderer), .events = POLLIN | (presentd_wants_write(renderer) ? POLLOUT : 0) },
            { .fd = presentd_fd(app), .events = POLLIN | (presentd_wants_write(app) ? POLLOUT : 0) },
        };
        if (poll(fds, 2, WAIT_MS) <= 0) break;
        if (fds[0].revents) CHECK_OK(presentd_process(renderer, &err), &err);
        if (fds[1].revents) CHECK_OK(presentd_process(app, &err), &err);
        json_object *r = NULL;
        if (!got_sub && presentd_take_reply(renderer, sub, &r, &err) == 0) { got_sub = 1; json_object_put(r); }
        if (!got_reply && presentd_take_reply(app, presented, &r, &err) == 0) { got_reply = 1; json_object_put(r); }
        presentd_event ev;
        while (presentd_poll_event(renderer, &ev)) {
            json_object *id;
            if (json_object_object_get_ex(ev.params, "id", &id) && strcmp(json_object_get_string(id), "nb") == 0) got_event = 1;
            presentd_event_clear(&ev);
        }
    }
    CHECK(got_reply && got_sub);
    /* The subscription might have come after the present: then the next present shows it. */
    if (!got_event) {
        CHECK_OK(presentd_call_json(app, "present", "{\"style\":\"popup\",\"id\":\"nb\"}", NULL, WAIT_MS, &err), &err);
        presentd_event ev;
        CHECK_OK(presentd_next_event(renderer, &ev, WAIT_MS, &err), &err);
        presentd_event_clear(&ev);
    }
    presentd_close(renderer);
    presentd_close(app);
}

/* -- Content and answers ------------------------------------------------------------------ */

static const char *DIALOG =
    "\"style\":\"alert\",\"content\":{\"title\":\"Save changes?\",\"message\":\"Or lose them.\","
    "\"messageMarkup\":\"Or <b>lose</b> them.\",\"icon\":{\"name\":\"document-save\"},\"progress\":null,"
    "\"actions\":[{\"id\":\"save\",\"title\":\"Save\",\"role\":\"default\"},"
    "{\"id\":\"later\",\"title\":\"Later\",\"dismisses\":false},"
    "{\"id\":\"cancel\",\"title\":\"Cancel\",\"role\":\"cancel\"}],"
    "\"fields\":[{\"id\":\"name\",\"kind\":\"text\",\"value\":\"report.txt\"},"
    "{\"id\":\"pin\",\"kind\":\"secure\",\"placeholder\":\"PIN\"}]}";

/* The app that owns the entries, and the screen that answers them. */
static void open_pair(daemon_proc *d, presentd_client **owner, presentd_client **screen) {
    *owner = connect_or_die(d);
    *screen = connect_or_die(d);
}

static void close_pair(presentd_client *owner, presentd_client *screen) {
    presentd_close(owner);
    presentd_close(screen);
}

/* Presents DIALOG as entry id (with more members, e.g. ",\"confirmDismiss\":true"). */
static int present_dialog(presentd_client *c, const char *id, const char *more, presentd_error *err) {
    char params[1024];
    snprintf(params, sizeof params, "{\"id\":\"%s\",%s%s}", id, DIALOG, more);
    return presentd_call_json(c, "present", params, NULL, 5000, err);
}

static void check_dialog(const presentd_content *c) {
    CHECK(c->label == NULL && c->title && strcmp(c->title, "Save changes?") == 0);
    CHECK(c->message && strcmp(c->message, "Or lose them.") == 0);
    CHECK(c->message_markup && strcmp(c->message_markup, "Or <b>lose</b> them.") == 0);
    CHECK(c->icon_name && strcmp(c->icon_name, "document-save") == 0 && c->icon_path == NULL);
    CHECK(c->progress_kind == PRESENTD_PROGRESS_INDETERMINATE);
    CHECK(c->n_actions == 3 && strcmp(c->actions[0].role, "default") == 0 && c->actions[0].dismisses);
    CHECK(strcmp(c->actions[1].id, "later") == 0 && c->actions[1].role == NULL && !c->actions[1].dismisses);
    const presentd_content_action *cancel = presentd_content_action_named(c, "cancel");
    CHECK(cancel && strcmp(cancel->title, "Cancel") == 0 && presentd_content_action_named(c, "nope") == NULL);
    CHECK(c->n_fields == 2 && strcmp(c->fields[0].value, "report.txt") == 0 && c->fields[1].value == NULL);
    CHECK(strcmp(c->fields[1].kind, "secure") == 0 && strcmp(c->fields[1].placeholder, "PIN") == 0);
}

struct seen { int will_present, updated, frames, revision_1, revision_2, dimming_without, content_in_frame; };

static void look_at_lifecycle(json_object *params, void *user) {
    struct seen *s = user;
    presentd_content content;
    const char *event = NULL;
    json_object *v;
    if (json_object_object_get_ex(params, "event", &v)) event = json_object_get_string(v);
    if (event && strcmp(event, "willPresent") == 0 && presentd_content_of(params, &content)) {
        s->will_present++;
        check_dialog(&content);
        CHECK(presentd_number(params, "contentRevision") == 1);
    }
    if (event && strcmp(event, "updated") == 0 && presentd_content_of(params, &content)) {
        s->updated++;
        CHECK(content.label && strcmp(content.label, "saved") == 0 && content.title == NULL);
        CHECK(presentd_number(params, "contentRevision") == 2);
    }
}

static void look_at_frame(json_object *params, void *user) {
    struct seen *s = user;
    presentd_layer layers[4];
    size_t n = presentd_frame_layers(params, layers, 4);
    json_object *list = NULL;
    json_object_object_get_ex(params, "layers", &list);
    for (size_t i = 0; i < n && i < 4; i++) {
        if (layers[i].dimming) s->dimming_without += layers[i].content_revision == 0;
        else if (layers[i].content_revision == 1) s->revision_1++;
        else if (layers[i].content_revision == 2) s->revision_2++;
        s->content_in_frame += json_object_object_get_ex(json_object_array_get_idx(list, i), "content", NULL);
    }
    s->frames++;
}

static void test_content_in_entries_lifecycle_and_frames(daemon_proc *d) {
    presentd_client *app = connect_or_die(d), *renderer = connect_or_die(d);
    presentd_error err;
    CHECK_OK(presentd_call_json(renderer, "subscribe", "{\"topics\":[\"frames\",\"lifecycle\"]}", NULL, 5000, &err), &err);
    CHECK_OK(present_dialog(app, "q", "", &err), &err);
    CHECK_OK(presentd_call_json(app, "advance", "{\"seconds\":0.5}", NULL, 5000, &err), &err);
    json_object *stack = NULL;
    if (CHECK_OK(presentd_call_json(renderer, "stack", NULL, &stack, 5000, &err), &err)) {
        presentd_entry entries[4];
        CHECK(presentd_entries(stack, entries, 4) == 1);
        CHECK(strcmp(entries[0].id, "q") == 0 && strcmp(entries[0].state, "presented") == 0);
        CHECK(strcmp(entries[0].style, "alert") == 0 && entries[0].width == 270 && entries[0].owner > 0);
        CHECK(entries[0].has_content && entries[0].content_revision == 1 && entries[0].kind == NULL);
        check_dialog(&entries[0].content);
        json_object_put(stack);
    }
    struct seen seen = { 0 };
    CHECK(drain(renderer, "lifecycle", look_at_lifecycle, &seen) >= 2);  /* willPresent, didPresent */
    CHECK(seen.will_present == 1);
    /* An update: the content comes in the updated event, and frames name its new revision. */
    CHECK_OK(presentd_call_json(app, "update", "{\"id\":\"q\",\"content\":\"saved\"}", NULL, 5000, &err), &err);
    CHECK_OK(presentd_call_json(app, "advance", "{\"seconds\":0.1}", NULL, 5000, &err), &err);
    CHECK_OK(presentd_call_json(renderer, "sync", "{\"nonce\":2}", NULL, 5000, &err), &err);
    presentd_event ev;
    while (presentd_poll_event(renderer, &ev)) {
        if (strcmp(ev.method, "lifecycle") == 0) look_at_lifecycle(ev.params, &seen);
        if (strcmp(ev.method, "frame") == 0) look_at_frame(ev.params, &seen);
        presentd_event_clear(&ev);
    }
    CHECK(seen.updated == 1 && seen.frames >= 1 && seen.revision_2 >= 1 && seen.dimming_without >= 1);
    CHECK(seen.content_in_frame == 0);
    /* Content cleared: presentd_content_of says there is none. */
    CHECK_OK(presentd_call_json(app, "update", "{\"id\":\"q\",\"content\":null}", NULL, 5000, &err), &err);
    if (CHECK_OK(presentd_call_json(renderer, "stack", NULL, &stack, 5000, &err), &err)) {
        presentd_entry entry;
        CHECK(presentd_entries(stack, &entry, 1) == 1 && !entry.has_content && entry.content_revision == 3);
        json_object_put(stack);
    }
    CHECK_OK(presentd_call_json(app, "dismiss", "{\"id\":\"q\",\"animated\":false}", NULL, 5000, &err), &err);
    presentd_close(app);
    presentd_close(renderer);
}

static void test_activate_key_and_the_owners_action_events(daemon_proc *d) {
    presentd_client *owner, *screen;
    open_pair(d, &owner, &screen);
    presentd_error err;
    presentd_answer answer;
    presentd_event ev;
    presentd_action_event action;
    CHECK_OK(present_dialog(owner, "a", "", &err), &err);
    /* A button that does not dismiss, pressed with a value typed into a field. */
    presentd_field_value typed[] = { { "name", "final.txt" } };
    if (CHECK_OK(presentd_activate(screen, "a", "later", typed, 1, &answer, 5000, &err), &err)) {
        CHECK(answer.handled && !answer.dismissed && strcmp(answer.id, "a") == 0 && strcmp(answer.action, "later") == 0);
        CHECK(answer.confirmation == NULL);
        presentd_answer_clear(&answer);
    }
    if (CHECK_OK(presentd_next_answer(owner, "a", &ev, 5000, &err), &err)) {
        CHECK(presentd_action_of(&ev, &action) && strcmp(action.id, "a") == 0 && strcmp(action.action, "later") == 0);
        CHECK(action.seq > 0 && action.n_fields == 2);
        CHECK(strcmp(presentd_action_field(&action, "name"), "final.txt") == 0);
        CHECK(strcmp(presentd_action_field(&action, "pin"), "") == 0 && presentd_action_field(&action, "x") == NULL);
        presentd_event_clear(&ev);
    }
    /* A bad action is refused with its field, and changes nothing. */
    CHECK(presentd_activate(screen, "a", "nope", NULL, 0, &answer, 5000, &err) == PRESENTD_ERR_RPC);
    CHECK(err.code == PRESENTD_INVALID_PARAMS && strcmp(err.field, "action") == 0 && answer.result == NULL);
    presentd_field_value stray[] = { { "colour", "red" } };
    CHECK(presentd_activate(screen, "a", "save", stray, 1, NULL, 5000, &err) == PRESENTD_ERR_RPC);
    CHECK(strcmp(err.field, "fields.colour") == 0);
    /* A key meant for another entry does nothing; Escape activates the cancel action, which dismisses. */
    if (CHECK_OK(presentd_key(screen, "escape", "gone", NULL, 0, &answer, 5000, &err), &err)) {
        CHECK(!answer.handled && strcmp(answer.id, "a") == 0);
        presentd_answer_clear(&answer);
    }
    if (CHECK_OK(presentd_key(screen, "escape", "a", NULL, 0, &answer, 5000, &err), &err)) {
        CHECK(answer.handled && answer.dismissed && strcmp(answer.action, "cancel") == 0 && strcmp(answer.id, "a") == 0);
        presentd_answer_clear(&answer);
    }
    if (CHECK_OK(presentd_next_answer(owner, "a", &ev, 5000, &err), &err)) {
        CHECK(presentd_action_of(&ev, &action) && strcmp(action.action, "cancel") == 0);
        presentd_event_clear(&ev);
    }
    /* Nothing left that takes keys. */
    if (CHECK_OK(presentd_key(screen, "enter", NULL, NULL, 0, &answer, 5000, &err), &err)) {
        CHECK(!answer.handled && answer.action == NULL);
        presentd_answer_clear(&answer);
    }
    CHECK(presentd_key(screen, "space", NULL, NULL, 0, NULL, 5000, &err) == PRESENTD_ERR_RPC && strcmp(err.field, "key") == 0);
    CHECK(presentd_next_answer(owner, "a", &ev, 50, &err) == PRESENTD_ERR_TIMEOUT);
    close_pair(owner, screen);
}

static void test_next_answer_sees_the_entry_leave_and_keeps_other_events(daemon_proc *d) {
    presentd_client *owner, *screen;
    open_pair(d, &owner, &screen);
    presentd_error err;
    presentd_event ev;
    CHECK_OK(presentd_call_json(owner, "subscribe", "{\"topics\":[\"lifecycle\"]}", NULL, 5000, &err), &err);
    /* A dialog ignores a tap beside it unless it asks for dismissOnTap. */
    CHECK_OK(present_dialog(owner, "tap", ",\"transition\":{\"duration\":0},\"dismissOnTap\":true", &err), &err);
    json_object *r = NULL;
    CHECK_OK(presentd_call_json(screen, "tap", "{\"x\":2,\"y\":2}", &r, 5000, &err), &err);
    json_object_put(r);
    if (CHECK_OK(presentd_next_answer(owner, "tap", &ev, 5000, &err), &err)) {
        json_object *event = NULL, *reason = NULL;
        CHECK(strcmp(ev.method, "lifecycle") == 0);
        CHECK(json_object_object_get_ex(ev.params, "event", &event) && strcmp(json_object_get_string(event), "willDismiss") == 0);
        CHECK(json_object_object_get_ex(ev.params, "reason", &reason) && strcmp(json_object_get_string(reason), "tap") == 0);
        presentd_event_clear(&ev);
    }
    /* The events before it are still there, in order. */
    if (CHECK_OK(presentd_next_event(owner, &ev, 5000, &err), &err)) {
        json_object *event = NULL;
        CHECK(json_object_object_get_ex(ev.params, "event", &event) && strcmp(json_object_get_string(event), "willPresent") == 0);
        presentd_event_clear(&ev);
    }
    close_pair(owner, screen);
}

static int asked_with_action;
static int veto_saving(void *user, const char *id, const char *reason, int keyboard_visible) {
    const char *action = presentd_asking_action((presentd_client *)user);
    asked_with_action += strcmp(reason, "action") == 0 && action && strcmp(action, "save") == 0;
    return !(action && strcmp(action, "save") == 0);
}

static void test_should_dismiss_names_the_action(daemon_proc *d) {
    presentd_client *owner = connect_or_die(d);
    presentd_set_should_dismiss(owner, veto_saving, owner);
    presentd_error err;
    presentd_answer answer;
    CHECK_OK(present_dialog(owner, "guarded", ",\"confirmDismiss\":true", &err), &err);
    /* The owner presses its own button: the question arrives while it waits for the reply. */
    if (CHECK_OK(presentd_activate(owner, "guarded", "save", NULL, 0, &answer, 5000, &err), &err)) {
        CHECK(!answer.dismissed && answer.confirmation && strcmp(answer.confirmation, "vetoed") == 0);
        presentd_answer_clear(&answer);
    }
    CHECK(asked_with_action == 1 && presentd_asking_action(owner) == NULL);
    presentd_event ev;
    if (CHECK_OK(presentd_next_answer(owner, "guarded", &ev, 5000, &err), &err)) {
        presentd_action_event action;
        CHECK(presentd_action_of(&ev, &action) && strcmp(action.action, "save") == 0);
        presentd_event_clear(&ev);
    }
    presentd_close(owner);
}

/* -- Levels and contexts ------------------------------------------------------------------ */

static int same_rect(presentd_rect a, presentd_rect b) {
    return a.x == b.x && a.y == b.y && a.width == b.width && a.height == b.height;
}

static int str_is(const char *s, const char *expected) {
    return s && expected ? strcmp(s, expected) == 0 : s == expected;
}

/* What the last frame before a sync showed of a sheet in a context and a toast above it. */
struct scene { int frames, sheet_clipped, sheet_levels_normal, toast_overlay, toast_dimming, toast_clipped, order_ok; };

static void look_at_scene(json_object *params, void *user) {
    struct scene *s = user;
    presentd_layer layers[8];
    size_t n = presentd_frame_layers(params, layers, 8);
    const presentd_rect mail = { 0, 100, 390, 600 };
    *s = (struct scene){ .frames = s->frames + 1, .order_ok = n == 3 };
    for (size_t i = 0; i < n && i < 8; i++) {
        presentd_layer *l = &layers[i];
        if (str_is(l->id, "compose")) {
            s->sheet_clipped += l->has_clip && same_rect(l->clip, mail);
            s->sheet_levels_normal += str_is(l->level, "normal");
            if (l->dimming) s->sheet_clipped += same_rect((presentd_rect){ l->x, l->y, l->width, l->height }, mail);
        } else if (str_is(l->id, "saved")) {
            s->toast_overlay += str_is(l->level, "overlay");
            s->toast_dimming += l->dimming;
            s->toast_clipped += l->has_clip;
            s->order_ok = s->order_ok && i == n - 1;  /* the overlay level is drawn above the normal one */
        }
    }
}

/* Counts the willDismiss events of entry "compose" with reason contextGone. */
static void look_for_context_gone(json_object *params, void *user) {
    json_object *v;
    const char *id = json_object_object_get_ex(params, "id", &v) ? json_object_get_string(v) : NULL;
    const char *event = json_object_object_get_ex(params, "event", &v) ? json_object_get_string(v) : NULL;
    const char *reason = json_object_object_get_ex(params, "reason", &v) ? json_object_get_string(v) : NULL;
    if (str_is(id, "compose") && str_is(event, "willDismiss") && str_is(reason, "contextGone")) ++*(int *)user;
}

static void test_levels_taps_and_contexts(daemon_proc *d) {
    presentd_client *shell = connect_or_die(d), *app = connect_or_die(d), *renderer = connect_or_die(d);
    presentd_error err;
    json_object *r = NULL;
    presentd_context contexts[4];
    const presentd_rect mail = { 0, 100, 390, 600 };
    if (CHECK_OK(presentd_define_context(shell, "mail", mail, -1, NULL, &r, WAIT_MS, &err), &err)) {
        CHECK(presentd_contexts(r, contexts, 4) == 1);
        CHECK(str_is(contexts[0].name, "mail") && same_rect(contexts[0].frame, mail));
        json_object_put(r);
    }
    CHECK_OK(presentd_call_json(renderer, "subscribe", "{\"topics\":[\"frames\",\"lifecycle\"]}", NULL, WAIT_MS, &err), &err);
    CHECK_OK(presentd_call_json(app, "present", "{\"id\":\"compose\",\"style\":\"bottomHalf\",\"context\":\"mail\","
                                "\"transition\":{\"duration\":0}}", NULL, WAIT_MS, &err), &err);
    CHECK_OK(presentd_call_json(app, "present", "{\"id\":\"saved\",\"level\":\"overlay\",\"content\":\"Saved\","
                                "\"style\":{\"type\":\"custom\",\"width\":{\"points\":300},\"height\":{\"points\":50}},"
                                "\"transition\":{\"duration\":0}}", NULL, WAIT_MS, &err), &err);
    CHECK_OK(presentd_call_json(app, "advance", "{\"seconds\":0.1}", NULL, WAIT_MS, &err), &err);
    struct scene scene = { 0 };
    CHECK(drain(renderer, "frame", look_at_scene, &scene) >= 1);
    CHECK(scene.order_ok && scene.sheet_clipped == 3 && scene.sheet_levels_normal == 2);
    CHECK(scene.toast_overlay == 1 && scene.toast_dimming == 0 && scene.toast_clipped == 0);
    if (CHECK_OK(presentd_call_json(renderer, "stack", NULL, &r, WAIT_MS, &err), &err)) {
        presentd_entry entries[4];
        CHECK(presentd_entries(r, entries, 4) == 2);
        CHECK(str_is(entries[0].id, "compose") && str_is(entries[0].level, "normal"));
        CHECK(str_is(entries[0].context, "mail") && entries[0].position == NULL);
        CHECK(entries[0].y >= 100 && entries[0].y + entries[0].height <= 700);
        CHECK(str_is(entries[1].id, "saved") && str_is(entries[1].level, "overlay"));
        CHECK(str_is(entries[1].position, "top") && entries[1].context == NULL);
        CHECK(str_is(entries[0].output, "main") && str_is(entries[1].output, "main"));  /* the daemon always names it */
        CHECK(str_is(presentd_output_of(r), "main"));
        CHECK(presentd_contexts(r, contexts, 4) == 1);
        json_object_put(r);
    }
    /* The toast takes a tap on itself; outside the context, above it, nothing does. */
    presentd_tap_result tap;
    if (CHECK_OK(presentd_tap(shell, 195, 80, &tap, WAIT_MS, &err), &err)) {
        CHECK(str_is(tap.part, "content") && str_is(tap.id, "saved") && str_is(tap.role, "content"));
        CHECK(str_is(tap.level, "overlay") && !tap.forwarded && !tap.dismissed);
        presentd_tap_result_clear(&tap);
    }
    if (CHECK_OK(presentd_tap(shell, 10, 40, &tap, WAIT_MS, &err), &err)) {
        CHECK(str_is(tap.part, "none") && tap.forwarded && tap.id == NULL && tap.level == NULL);
        presentd_tap_result_clear(&tap);
    }
    if (CHECK_OK(presentd_remove_context(shell, "mail", &r, WAIT_MS, &err), &err)) {
        CHECK(json_object_is_type(r, json_type_array) && json_object_array_length(r) == 1);
        CHECK(str_is(json_object_get_string(json_object_array_get_idx(r, 0)), "compose"));
        json_object_put(r);
    }
    int gone = 0;
    CHECK(drain(renderer, "lifecycle", look_for_context_gone, &gone) >= 1 && gone == 1);
    CHECK(presentd_remove_context(shell, "mail", NULL, WAIT_MS, &err) == PRESENTD_ERR_RPC);
    CHECK(err.code == PRESENTD_INVALID_PARAMS);
    if (CHECK_OK(presentd_call_json(renderer, "stack", NULL, &r, WAIT_MS, &err), &err)) {
        CHECK(presentd_contexts(r, contexts, 4) == 0);
        json_object_put(r);
    }
    presentd_close(shell);
    presentd_close(app);
    presentd_close(renderer);
}

/* -- Several screens ---------------------------------------------------------------------- */

/* What arrived about the second screen, "cluster", and its entry "gauge". */
struct cluster_seen {
    int frames, frames_on_ticks, frames_of_main, gauge_layers;
    double times[16];
    int lifecycle_on_cluster, will_present_on_cluster, gone_on_cluster, other_lifecycle, outputs_events, outputs_last_n;
};

static void look_at_cluster_events(presentd_client *c, struct cluster_seen *s) {
    presentd_error err;
    CHECK_OK(presentd_call_json(c, "sync", "{\"nonce\":3}", NULL, WAIT_MS, &err), &err);
    presentd_event ev;
    while (presentd_poll_event(c, &ev)) {
        const char *output = presentd_output_of(ev.params);
        if (strcmp(ev.method, "frame") == 0 && !str_is(output, "cluster")) s->frames_of_main++;
        else if (strcmp(ev.method, "frame") == 0) {
            double t = presentd_number(ev.params, "time");
            double k = round(t * 30);
            if (s->frames < 16) s->times[s->frames] = t;
            s->frames++;
            s->frames_on_ticks += k >= 1 && fabs(t - k / 30) < 1e-9;
            presentd_layer layers[4];
            size_t n = presentd_frame_layers(ev.params, layers, 4);
            for (size_t i = 0; i < n && i < 4; i++) s->gauge_layers += str_is(layers[i].id, "gauge");
        } else if (strcmp(ev.method, "lifecycle") == 0) {
            json_object *v;
            const char *id = json_object_object_get_ex(ev.params, "id", &v) ? json_object_get_string(v) : NULL;
            const char *event = json_object_object_get_ex(ev.params, "event", &v) ? json_object_get_string(v) : NULL;
            const char *reason = json_object_object_get_ex(ev.params, "reason", &v) ? json_object_get_string(v) : NULL;
            int ours = str_is(id, "gauge") && str_is(output, "cluster");
            s->other_lifecycle += !ours;
            s->lifecycle_on_cluster += ours;
            s->will_present_on_cluster += ours && str_is(event, "willPresent");
            s->gone_on_cluster += ours && str_is(event, "didDismiss") && str_is(reason, "outputGone");
        } else if (strcmp(ev.method, "outputs") == 0) {
            presentd_output outputs[4];
            s->outputs_events++;
            s->outputs_last_n = (int)presentd_outputs_of(ev.params, outputs, 4);
            CHECK(s->outputs_last_n >= 1 && str_is(outputs[0].name, "main"));
        }
        presentd_event_clear(&ev);
    }
}

/* A second screen: added, listed, presented on (its own 30 fps frames, which name it),
 * tapped and keyed on its own, and removed (its entry leaves with reason outputGone). */
static void test_several_screens(daemon_proc *d) {
    presentd_client *shell = connect_or_die(d), *app = connect_or_die(d), *renderer = connect_or_die(d);
    presentd_error err;
    json_object *r = NULL;
    CHECK_OK(presentd_call_json(renderer, "subscribe", "{\"topics\":[\"frames\",\"lifecycle\",\"stack\"]}", NULL,
                                WAIT_MS, &err), &err);
    presentd_output_list list;
    const presentd_output_spec cluster = { .name = "cluster", .width = 1280, .height = 480, .fps = 30 };
    if (CHECK_OK(presentd_add_output(shell, &cluster, &list, WAIT_MS, &err), &err)) {
        CHECK(list.n == 2 && str_is(list.outputs[0].name, "main") && str_is(list.outputs[1].name, "cluster"));
        presentd_output_list_clear(&list);
        CHECK(list.n == 0 && list.outputs == NULL && list.result == NULL);
    }
    if (CHECK_OK(presentd_outputs(app, &list, WAIT_MS, &err), &err)) {
        CHECK(list.n == 2 && str_is(list.outputs[0].name, "main") && list.outputs[0].fps == 10);
        CHECK(list.outputs[0].container.width == 390 && list.outputs[0].container.height == 844);
        const presentd_output *o = presentd_output_named(&list, "cluster");
        if (CHECK(o != NULL && o == &list.outputs[1])) {
            CHECK(o->fps == 30 && o->container.width == 1280 && o->container.height == 480);
            CHECK(o->container.scale == 1 && o->container.keyboard_height == 0 && o->container.safe_area.top == 0);
            CHECK(o->container.horizontal_size_class && o->container.vertical_size_class);
        }
        CHECK(presentd_output_named(&list, "nowhere") == NULL);
        presentd_output_list_clear(&list);
    }
    /* A bad one is refused with its field, and changes nothing. */
    const presentd_output_spec flat = { .name = "flat", .width = 100, .height = 0 };
    CHECK(presentd_add_output(shell, &flat, &list, WAIT_MS, &err) == PRESENTD_ERR_RPC);
    CHECK(err.code == PRESENTD_INVALID_PARAMS && strcmp(err.field, "height") == 0 && list.result == NULL);
    CHECK(presentd_add_output(shell, &(presentd_output_spec){ .width = 1, .height = 1 }, NULL, WAIT_MS, &err) ==
          PRESENTD_ERR_USAGE);

    CHECK_OK(presentd_call_json(app, "present", "{\"id\":\"gauge\",\"style\":\"alert\",\"output\":\"cluster\","
                                "\"transition\":{\"type\":\"crossDissolve\",\"duration\":0.2,\"timing\":\"linear\"}}",
                                NULL, WAIT_MS, &err), &err);
    CHECK_OK(presentd_call_json(app, "advance", "{\"seconds\":0.2}", NULL, WAIT_MS, &err), &err);
    struct cluster_seen seen = { 0 };
    look_at_cluster_events(renderer, &seen);
    /* 0.2 s at the cluster's 30 fps: the ticks at 1/30 … 6/30; main, with nothing moving, has none. */
    CHECK(seen.frames == 6 && seen.frames_on_ticks == 6 && seen.frames_of_main == 0);
    CHECK(fabs(seen.times[0] - 1.0 / 30) < 1e-9 && fabs(seen.times[5] - 0.2) < 1e-9);
    CHECK(seen.gauge_layers == 2 * 6);  /* its dimming and its content in every frame */
    CHECK(seen.will_present_on_cluster == 1 && seen.lifecycle_on_cluster == 2 && seen.other_lifecycle == 0);  /* and didPresent */
    CHECK(seen.outputs_events == 1 && seen.outputs_last_n == 2);  /* the addOutput */
    if (CHECK_OK(presentd_call_json(renderer, "stack", "{\"output\":\"cluster\"}", &r, WAIT_MS, &err), &err)) {
        presentd_entry entries[4];
        CHECK(presentd_entries(r, entries, 4) == 1 && str_is(entries[0].id, "gauge"));
        CHECK(str_is(entries[0].output, "cluster") && str_is(presentd_output_of(r), "cluster"));
        json_object_put(r);
    }
    if (CHECK_OK(presentd_call_json(renderer, "stack", NULL, &r, WAIT_MS, &err), &err)) {
        presentd_entry entries[4];
        CHECK(presentd_entries(r, entries, 4) == 0 && str_is(presentd_output_of(r), "main"));
        json_object_put(r);
    }

    /* The cluster's middle is the gauge's; main's same point is nobody's. */
    presentd_tap_result tap;
    if (CHECK_OK(presentd_tap_on(shell, "cluster", 640, 240, &tap, WAIT_MS, &err), &err)) {
        CHECK(str_is(tap.part, "content") && str_is(tap.id, "gauge") && str_is(tap.role, "content"));
        CHECK(!tap.dismissed && !tap.forwarded);
        presentd_tap_result_clear(&tap);
    }
    if (CHECK_OK(presentd_tap(shell, 195, 422, &tap, WAIT_MS, &err), &err)) {
        CHECK(str_is(tap.part, "none") && tap.forwarded && tap.id == NULL);
        presentd_tap_result_clear(&tap);
    }
    CHECK(presentd_tap_on(shell, "nowhere", 1, 1, &tap, WAIT_MS, &err) == PRESENTD_ERR_RPC);
    CHECK(err.code == PRESENTD_INVALID_PARAMS && strcmp(err.field, "output") == 0 && tap.result == NULL);
    /* Keys go to a screen's topmost entry: the gauge has the cluster's (it has no default
     * action, so Enter does nothing), main has no entry to take one. */
    presentd_answer answer;
    if (CHECK_OK(presentd_key_on(shell, "cluster", "enter", NULL, NULL, 0, &answer, WAIT_MS, &err), &err)) {
        CHECK(!answer.handled && str_is(answer.id, "gauge"));
        presentd_answer_clear(&answer);
    }
    if (CHECK_OK(presentd_key(shell, "enter", NULL, NULL, 0, &answer, WAIT_MS, &err), &err)) {
        CHECK(!answer.handled && answer.id == NULL);
        presentd_answer_clear(&answer);
    }

    /* Away with it: the gauge leaves at once with reason outputGone. */
    json_object *dismissed = NULL;
    if (CHECK_OK(presentd_remove_output(shell, "cluster", &dismissed, WAIT_MS, &err), &err)) {
        CHECK(json_object_is_type(dismissed, json_type_array) && json_object_array_length(dismissed) == 1);
        CHECK(str_is(json_object_get_string(json_object_array_get_idx(dismissed, 0)), "gauge"));
        json_object_put(dismissed);
    }
    seen = (struct cluster_seen){ 0 };
    look_at_cluster_events(renderer, &seen);
    CHECK(seen.gone_on_cluster == 1 && seen.other_lifecycle == 0 && seen.frames_of_main == 0);  /* willDismiss, didDismiss */
    CHECK(seen.lifecycle_on_cluster == 2 && seen.outputs_events == 1 && seen.outputs_last_n == 1);
    if (CHECK_OK(presentd_outputs(app, &list, WAIT_MS, &err), &err)) {
        CHECK(list.n == 1 && str_is(list.outputs[0].name, "main"));
        presentd_output_list_clear(&list);
    }
    CHECK(presentd_remove_output(shell, "cluster", NULL, WAIT_MS, &err) == PRESENTD_ERR_RPC);
    CHECK(err.code == PRESENTD_INVALID_PARAMS && strcmp(err.field, "name") == 0);
    CHECK(presentd_remove_output(shell, "main", NULL, WAIT_MS, &err) == PRESENTD_ERR_RPC);
    CHECK(err.code == PRESENTD_INVALID_PARAMS && strcmp(err.field, "name") == 0);
    presentd_close(renderer);
    presentd_close(app);
    presentd_close(shell);
}

/* The stack's entry id, its owner (-1 when it is not there). */
static int64_t owner_of(presentd_client *c, const char *id) {
    json_object *r = NULL;
    int64_t owner = -1;
    if (presentd_call_json(c, "stack", NULL, &r, WAIT_MS, NULL)) return -1;
    presentd_entry entries[16];
    size_t n = presentd_entries(r, entries, 16);
    for (size_t i = 0; i < n && i < 16; i++)
        if (strcmp(entries[i].id, id) == 0) owner = entries[i].owner;
    json_object_put(r);
    return owner;
}

/* Waits (up to WAIT_MS) for entry id to belong to a connection again after a restart:
 * restored entries belong to stand-in owners (numbers from 2^62) until resumed. */
static int wait_until_resumed(daemon_proc *d, const char *id) {
    presentd_client *screen = connect_or_die(d);
    int64_t owner = -1;
    for (double deadline = monotonic_now() + WAIT_MS / 1000.0; monotonic_now() < deadline; usleep(10000))
        if ((owner = owner_of(screen, id)) >= 0 && owner < ((int64_t)1 << 62)) break;
    presentd_close(screen);
    if (owner >= 0 && owner < ((int64_t)1 << 62)) return 1;
    printf("waited %d s for %s to be resumed after the restart; its owner: %lld\n", WAIT_MS / 1000, id, (long long)owner);
    print_log(d);
    return 0;
}

/* Waits (up to WAIT_MS) until the daemon saved entry id, so a kill -9 finds it there. */
static int wait_until_saved(daemon_proc *d, const char *id) {
    char path[160], text[8192], needle[80];
    file_path(d, "presentd-state.json", path, sizeof path);
    snprintf(needle, sizeof needle, "\"id\":\"%s\"", id);
    for (double deadline = monotonic_now() + WAIT_MS / 1000.0; monotonic_now() < deadline; usleep(10000)) {
        FILE *f = fopen(path, "r");
        size_t n = f ? fread(text, 1, sizeof text - 1, f) : 0;
        if (f) fclose(f);
        text[n] = 0;
        if (strstr(text, needle)) return 1;
    }
    printf("waited %d s for presentd to save %s in %s\n", WAIT_MS / 1000, id, path);
    return 0;
}

typedef struct waiter {
    presentd_client *c;
    const char *id;
    int status;
    presentd_event ev;
    presentd_error err;
} waiter;

static void *wait_for_answer(void *arg) {
    waiter *w = arg;
    w->status = presentd_next_answer(w->c, w->id, &w->ev, 2 * WAIT_MS, &w->err);
    return NULL;
}

#define QUESTION "\"content\":{\"title\":\"Go on?\",\"actions\":[{\"id\":\"yes\",\"title\":\"Yes\"}]}"

/* kill -9 while the owner waits: it reconnects with hello {resume}, its entry stays, a call
 * whose reply went with the daemon is sent again, and the answer reaches it. */
static void test_reconnect_after_kill_9(void) {
    daemon_proc d;
    if (!CHECK(start_daemon(&d, "monotonic") == 0)) return;
    presentd_client *owner = connect_or_die(&d);
    presentd_error err;
    CHECK_OK(presentd_call_json(owner, "subscribe", "{\"topics\":[\"lifecycle\"]}", NULL, WAIT_MS, &err), &err);
    CHECK_OK(presentd_call_json(owner, "present", "{\"id\":\"first\",\"style\":\"alert\"," QUESTION "}", NULL,
                                WAIT_MS, &err), &err);
    /* Blocked in a call: the ping's reply goes with the daemon, the ping goes again. */
    if (CHECK(wait_until_saved(&d, "first")) && CHECK(kill_9_and_restart(&d) == 0)) {
        CHECK_OK(presentd_call_json(owner, "ping", NULL, NULL, WAIT_MS, &err), &err);
        CHECK(presentd_reconnects(owner) == 1);
        CHECK(wait_until_resumed(&d, "first"));
    }
    /* Blocked waiting for the answer: it comes after the restart. */
    CHECK_OK(presentd_call_json(owner, "present", "{\"id\":\"second\",\"style\":\"alert\"," QUESTION "}", NULL,
                                WAIT_MS, &err), &err);
    waiter w = { .c = owner, .id = "second" };
    pthread_t thread;
    if (CHECK(wait_until_saved(&d, "second")) && CHECK(pthread_create(&thread, NULL, wait_for_answer, &w) == 0)) {
        if (CHECK(kill_9_and_restart(&d) == 0) && CHECK(wait_until_resumed(&d, "second"))) {
            presentd_client *screen = connect_or_die(&d);
            CHECK_OK(presentd_call_json(screen, "activate", "{\"id\":\"second\",\"action\":\"yes\"}", NULL,
                                        WAIT_MS, &err), &err);
            presentd_close(screen);
        }
        pthread_join(thread, NULL);
        if (!CHECK_OK(w.status, &w.err)) print_log(&d);
        else {
            presentd_action_event action;
            CHECK(presentd_action_of(&w.ev, &action) && strcmp(action.id, "second") == 0 &&
                  strcmp(action.action, "yes") == 0);
            presentd_event_clear(&w.ev);
        }
        CHECK(presentd_reconnects(owner) == 2);
    }
    presentd_close(owner);
    stop_daemon(&d);
}

/* The ids of the lifecycle events before a sync reply, comma-separated into ids. */
static void lifecycle_ids(presentd_client *c, char *ids, size_t size) {
    presentd_error err;
    ids[0] = 0;
    CHECK_OK(presentd_call_json(c, "sync", "{\"nonce\":4}", NULL, WAIT_MS, &err), &err);
    presentd_event ev;
    while (presentd_poll_event(c, &ev)) {
        json_object *id;
        if (strcmp(ev.method, "lifecycle") == 0 && json_object_object_get_ex(ev.params, "id", &id) &&
            !strstr(ids, json_object_get_string(id)))
            snprintf(ids + strlen(ids), size - strlen(ids), "%s%s", ids[0] ? "," : "", json_object_get_string(id));
        presentd_event_clear(&ev);
    }
}

/* A renderer of one screen (subscribe {outputs}) still hears that screen alone after the
 * daemon restarts: the client subscribes again with the same outputs. */
static void test_reconnect_keeps_the_screens_filter(void) {
    daemon_proc d;
    if (!CHECK(start_daemon(&d, "manual") == 0)) return;
    presentd_client *shell = connect_or_die(&d), *renderer = connect_or_die(&d);
    presentd_error err;
    const presentd_output_spec cluster = { .name = "cluster", .width = 1280, .height = 480, .fps = 30 };
    CHECK_OK(presentd_add_output(shell, &cluster, NULL, WAIT_MS, &err), &err);
    CHECK_OK(presentd_call_json(renderer, "subscribe", "{\"topics\":[\"lifecycle\"],\"outputs\":[\"cluster\"]}", NULL,
                                WAIT_MS, &err), &err);
    char ids[64];
    CHECK_OK(presentd_call_json(shell, "present", "{\"id\":\"m1\",\"style\":\"popup\"}", NULL, WAIT_MS, &err), &err);
    CHECK_OK(presentd_call_json(shell, "present", "{\"id\":\"c1\",\"style\":\"popup\",\"output\":\"cluster\"}", NULL,
                                WAIT_MS, &err), &err);
    lifecycle_ids(renderer, ids, sizeof ids);
    CHECK(strcmp(ids, "c1") == 0);
    if (CHECK(kill_9_and_restart(&d) == 0)) {
        CHECK_OK(presentd_call_json(renderer, "ping", NULL, NULL, WAIT_MS, &err), &err);  /* comes back */
        CHECK(presentd_reconnects(renderer) == 1);
        presentd_close(shell);
        shell = connect_or_die(&d);
        /* The shell says again what its screens are (whether or not the daemon had saved it). */
        CHECK_OK(presentd_add_output(shell, &cluster, NULL, WAIT_MS, &err), &err);
        CHECK_OK(presentd_call_json(shell, "present", "{\"id\":\"m2\",\"style\":\"popup\"}", NULL, WAIT_MS, &err), &err);
        CHECK_OK(presentd_call_json(shell, "present", "{\"id\":\"c2\",\"style\":\"popup\",\"output\":\"cluster\"}",
                                    NULL, WAIT_MS, &err), &err);
        lifecycle_ids(renderer, ids, sizeof ids);
        if (!CHECK(strstr(ids, "c2") && !strstr(ids, "m2"))) printf("lifecycle after the restart: %s\n", ids);
    }
    presentd_close(renderer);
    presentd_close(shell);
    stop_daemon(&d);
}

static void test_shutdown(void) {
    daemon_proc d;
    if (!CHECK(start_daemon(&d, "monotonic") == 0)) return;
    presentd_client *c = connect_or_die(&d);
    presentd_set_reconnect(c, 0);  /* test_reconnect_after_kill_9: with reconnecting */
    presentd_error err;
    CHECK_OK(presentd_call_json(c, "subscribe", "{\"topics\":[\"lifecycle\"]}", NULL, WAIT_MS, &err), &err);
    int status = stop_daemon(&d);
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    presentd_event ev;
    CHECK_OK(presentd_next_event(c, &ev, WAIT_MS, &err), &err);
    CHECK(strcmp(ev.method, "shutdown") == 0);
    presentd_event_clear(&ev);
    CHECK(presentd_next_event(c, &ev, WAIT_MS, &err) == PRESENTD_ERR_CLOSED && strstr(err.message, "SIGTERM"));
    CHECK(presentd_call_json(c, "ping", NULL, NULL, WAIT_MS, &err) == PRESENTD_ERR_CLOSED);
    presentd_close(c);
}

/* -- The animations topic: a renderer that computes every frame itself -------------------- */

struct interpolation {
    presentd_animations motion;   /* the last animations payload received */
    int have_motion;
    int frames, payloads, retargets, identical, springs, beziers, reported;
    double worst;
};

static const char *property_names[PRESENTD_PROPERTY_COUNT] = { "frame.x", "frame.y", "frame.width", "frame.height",
                                                                "alpha", "scale", "rotation" };

static double layer_property(const presentd_layer *l, int k) {
    const double v[PRESENTD_PROPERTY_COUNT] = { l->x, l->y, l->width, l->height, l->alpha, l->scale, l->rotation };
    return v[k];
}

static int same_string(const char *a, const char *b) {
    return a == b || (a && b && strcmp(a, b) == 0);
}

/* A frame against the interpolation of the last payload before it, in every layer property. */
static void compare_frame(struct interpolation *s, json_object *frame) {
    double t = presentd_number(frame, "time");
    presentd_layer drawn[16], computed[16];
    size_t n = presentd_frame_layers(frame, drawn, 16);
    if (!CHECK(s->have_motion) || !CHECK(n <= 16)) return;
    size_t m = presentd_animations_layers_at(&s->motion, t, computed, 16);
    s->frames++;
    if (!CHECK(m == n)) {
        printf("  frame %lld at %.17g: %zu layers, the interpolation %zu\n", (long long)presentd_number(frame, "seq"),
               t, n, m);
        return;
    }
    json_object *animating = NULL;
    CHECK(json_object_object_get_ex(frame, "animating", &animating) &&
          json_object_get_boolean(animating) == presentd_animations_animating(&s->motion, t));
    int identical = 1;
    for (size_t i = 0; i < n; i++) {
        const presentd_layer *a = &drawn[i], *b = &computed[i];
        CHECK(same_string(a->id, b->id) && a->dimming == b->dimming && same_string(a->level, b->level));
        CHECK(a->corner_radius == b->corner_radius && a->content_revision == b->content_revision &&
              same_string(a->color, b->color) && a->has_clip == b->has_clip);
        for (int k = 0; k < PRESENTD_PROPERTY_COUNT; k++) {
            double x = layer_property(a, k), y = layer_property(b, k), gap = fabs(x - y);
            if (x != y) identical = 0;
            if (gap > s->worst) s->worst = gap;
            if (!(gap <= 1e-9) && s->reported++ < 10) {
                failed_checks++;
                printf("FAIL %s: frame %lld at %.17g, %s %s %s: the daemon drew %.17g, the interpolation of payload "
                       "%lld gives %.17g (off by %g)\n", current, (long long)presentd_number(frame, "seq"), t,
                       a->id, a->dimming ? "dimming" : "content", property_names[k], x,
                       (long long)s->motion.seq, y, gap);
            }
        }
    }
    s->identical += identical;
}

/* Everything the renderer connection received up to now, in order. */
static void follow(presentd_client *renderer, struct interpolation *s) {
    presentd_error err;
    CHECK_OK(presentd_call_json(renderer, "sync", "{\"nonce\":1}", NULL, WAIT_MS, &err), &err);
    presentd_event ev;
    while (presentd_poll_event(renderer, &ev)) {
        if (strcmp(ev.method, "animations") == 0) {
            presentd_animations next;
            if (CHECK_OK(presentd_animations_parse(ev.params, &next, &err), &err)) {
                presentd_animations_clear(&s->motion);
                s->motion = next;
                s->have_motion = 1;
                s->payloads++;
                for (size_t i = 0; i < next.n_layers; i++)
                    for (size_t j = 0; j < next.layers[i].n_segments; j++) {
                        int kind = next.layers[i].segments[j].timing.kind;
                        s->springs += kind == PRESENTD_TIMING_SPRING;
                        s->beziers += kind == PRESENTD_TIMING_BEZIER;
                    }
            }
        } else if (strcmp(ev.method, "frame") == 0) {
            compare_frame(s, ev.params);
        } else if (strcmp(ev.method, "lifecycle") == 0) {
            json_object *event = NULL;
            if (json_object_object_get_ex(ev.params, "event", &event) &&
                strcmp(json_object_get_string(event), "retargeted") == 0) {
                presentd_animations one;  /* the same layers, for one entry */
                if (CHECK_OK(presentd_animations_parse(ev.params, &one, &err), &err)) {
                    CHECK(one.n_layers > 0);
                    presentd_animations_clear(&one);
                }
                s->retargets++;
            }
        }
        presentd_event_clear(&ev);
    }
}

static void call_ok(presentd_client *c, const char *method, const char *params) {
    presentd_error err;
    if (!CHECK_OK(presentd_call_json(c, method, params, NULL, WAIT_MS, &err), &err))
        printf("  (%s %s)\n", method, params ? params : "");
}

/* The curves themselves, at points whose values the daemon's documentation gives. */
static void test_timing_curves(void) {
    presentd_timing ease;
    json_object *name = json_object_new_string("easeInEaseOut");
    CHECK(presentd_timing_parse(name, &ease) == 0);
    json_object_put(name);
    CHECK(ease.kind == PRESENTD_TIMING_BEZIER && ease.x1 == 0.42 && ease.y2 == 1);
    /* docs/PROTOCOL.md, "animations topic": easeInEaseOut at 0.25 / 0.4. */
    CHECK(presentd_timing_progress(&ease, 0.25, 0.4) == 0.7072291976232149);
    CHECK(presentd_timing_progress(&ease, 0, 0.4) == 0 && presentd_timing_progress(&ease, 0.4, 0.4) == 1);
    json_object *system = json_object_new_string("system"), *bad = json_tokener_parse("{\"bezier\":[0,1]}");
    presentd_timing spring;
    CHECK(presentd_timing_parse(system, &spring) == 0 && spring.kind == PRESENTD_TIMING_SPRING && spring.duration == 0.5);
    CHECK(presentd_timing_progress(&spring, 0.5, 99) == 1 && presentd_timing_progress(&spring, 0.25, 99) > 0.9);
    CHECK(presentd_timing_parse(bad, &spring) == -1);
    json_object_put(system);
    json_object_put(bad);
    /* The worked example of the animations topic, evaluated at 0.25. */
    json_object *payload = json_tokener_parse(
        "{\"time\":0.1,\"until\":0.4,\"end\":0.4,\"layers\":["
        "{\"id\":\"a\",\"role\":\"dimming\",\"level\":\"normal\",\"frame\":{\"x\":0.0,\"y\":0.0,\"width\":844.0,\"height\":390.0},"
        "\"alpha\":0.7,\"scale\":1.0,\"rotation\":0.0,\"cornerRadius\":0.0,\"color\":\"#000000\","
        "\"segments\":[{\"start\":0.0,\"duration\":0.4,\"timing\":\"easeInEaseOut\",\"from\":{\"alpha\":-0.7}}]},"
        "{\"id\":\"a\",\"role\":\"content\",\"level\":\"normal\",\"frame\":{\"x\":287.0,\"y\":105.0,\"width\":270.0,\"height\":180.0},"
        "\"alpha\":1.0,\"scale\":1.0,\"rotation\":0.0,\"cornerRadius\":4.0,\"contentRevision\":1,"
        "\"segments\":[{\"start\":0.0,\"duration\":0.4,\"timing\":\"easeInEaseOut\",\"from\":{\"frame\":{\"y\":512.0}}},"
        "{\"start\":0.1,\"duration\":0.30000000000000004,\"timing\":\"easeInEaseOut\",\"from\":{\"frame\":{\"x\":-227.0,\"y\":227.0}}}]}]}");
    presentd_animations a;
    presentd_error err;
    if (CHECK_OK(presentd_animations_parse(payload, &a, &err), &err)) {
        json_object_put(payload);  /* a keeps its own reference */
        presentd_layer l[2];
        CHECK(presentd_animations_layers_at(&a, 0.25, l, 2) == 2);
        CHECK(l[1].x == 173.49999999999994 && l[1].y == 368.398650816914 && l[0].alpha == 0.4950604383362504);
        CHECK(strcmp(l[1].id, "a") == 0 && l[0].dimming && l[1].corner_radius == 4 && l[1].content_revision == 1);
        CHECK(a.has_until && a.until == 0.4 && presentd_animations_animating(&a, 0.39) && !presentd_animations_animating(&a, 0.4));
        CHECK(presentd_animations_layers_at(&a, 0.4, l, 2) == 2 && l[1].x == 287 && l[1].y == 105 && l[0].alpha == 0.7);
        CHECK(!presentd_animations_moving(&a, 0.4) && presentd_animations_moving(&a, 0.3));
        presentd_animations_clear(&a);
        presentd_animations_clear(&a);  /* blank: harmless */
    }
    json_object *incomplete = json_tokener_parse("{\"layers\":[]}");  /* no time, no end */
    CHECK(presentd_animations_parse(incomplete, &a, &err) == PRESENTD_ERR_PROTOCOL && a.params == NULL);
    json_object_put(incomplete);
}

/* One connection subscribed to frames and animations: every frame equals the interpolation
 * of the last animations payload received before it, through a rotation mid-transition, a
 * spring, the keyboard, a swipe that springs back and one that dismisses, an update and an
 * interrupted dismissal (the session of AnimationsTopicIntegrationTests.swift). */
static void test_animations_interpolate_every_frame(void) {
    daemon_proc d;
    if (!CHECK(start_daemon_at(&d, "manual", "120") == 0)) return;
    presentd_client *app = connect_or_die(&d), *shell = connect_or_die(&d), *renderer = connect_or_die(&d);
    presentd_error err;
    struct interpolation s = { 0 };
    json_object *r = NULL, *snapshot, *motion;
    if (CHECK_OK(presentd_call_json(renderer, "subscribe", "{\"topics\":[\"frames\",\"animations\",\"lifecycle\"]}", &r,
                                    WAIT_MS, &err), &err)) {
        CHECK(json_object_object_get_ex(r, "snapshot", &snapshot) &&
              json_object_object_get_ex(snapshot, "animations", &motion));
        if (CHECK_OK(presentd_animations_parse(motion, &s.motion, &err), &err)) {
            s.have_motion = 1;
            CHECK(s.motion.n_layers == 0 && s.motion.seq == 0 && strcmp(s.motion.output, "main") == 0);
        }
        json_object_put(r);
    }
    call_ok(app, "present", "{\"id\":\"sheet\",\"style\":\"bottomHalf\",\"dismissOnSwipe\":true,\"transition\":"
            "{\"duration\":0.5,\"timing\":{\"spring\":{\"response\":0.5,\"dampingFraction\":0.7}}}}");
    call_ok(app, "advance", "{\"seconds\":0.15}");
    follow(renderer, &s);
    /* A rotation mid-spring, then the keyboard while it settles. */
    call_ok(shell, "setContainer", "{\"width\":844,\"height\":390,\"duration\":0.3}");
    call_ok(app, "advance", "{\"seconds\":0.1}");
    call_ok(shell, "keyboard", "{\"height\":200,\"duration\":0.25}");
    call_ok(app, "advance", "{\"seconds\":0.8}");
    follow(renderer, &s);
    /* A swipe that springs back, then an update. */
    call_ok(shell, "swipe", "{\"phase\":\"began\",\"dx\":0,\"dy\":0}");
    call_ok(shell, "swipe", "{\"phase\":\"changed\",\"dx\":0,\"dy\":40}");
    call_ok(app, "advance", "{\"seconds\":0.05}");
    call_ok(shell, "swipe", "{\"phase\":\"ended\",\"dx\":0,\"dy\":40,\"vx\":0,\"vy\":10}");
    call_ok(app, "advance", "{\"seconds\":0.1}");
    call_ok(app, "update", "{\"id\":\"sheet\",\"preferredContentSize\":{\"height\":300}}");
    call_ok(app, "advance", "{\"seconds\":0.6}");
    follow(renderer, &s);
    /* An alert presented with a custom Bézier and dismissed mid-way (interrupted), then
     * rotated back while it leaves. */
    call_ok(app, "present", "{\"id\":\"ask\",\"style\":\"alert\",\"transition\":{\"type\":\"zoom\",\"duration\":0.4,"
            "\"timing\":{\"bezier\":[0.3,0.2,0.1,1]}}}");
    call_ok(app, "advance", "{\"seconds\":0.2}");
    call_ok(app, "dismiss", "{\"id\":\"ask\"}");
    call_ok(app, "advance", "{\"seconds\":0.05}");
    call_ok(shell, "setContainer", "{\"width\":390,\"height\":844,\"duration\":0.3}");
    call_ok(app, "advance", "{\"seconds\":0.5}");
    follow(renderer, &s);
    /* A swipe that dismisses the sheet. */
    call_ok(shell, "swipe", "{\"phase\":\"began\",\"dx\":0,\"dy\":0}");
    call_ok(shell, "swipe", "{\"phase\":\"changed\",\"dx\":0,\"dy\":120}");
    call_ok(app, "advance", "{\"seconds\":0.05}");
    call_ok(shell, "swipe", "{\"phase\":\"ended\",\"dx\":0,\"dy\":300,\"vx\":0,\"vy\":2000}");
    call_ok(app, "advance", "{\"seconds\":1}");
    follow(renderer, &s);
    printf("animations: %d frames matched by %d animations payloads (%d retargeted events, %d spring and %d Bezier "
           "segments): worst difference %g, %d of %d frames identical to the bit\n", s.frames, s.payloads, s.retargets,
           s.springs, s.beziers, s.worst, s.identical, s.frames);
    CHECK(s.frames > 200);
    CHECK(s.payloads < s.frames / 4);
    CHECK(s.retargets >= 5);
    CHECK(s.springs > 0 && s.beziers > 0);
    CHECK(s.worst <= 1e-9);
    CHECK(s.have_motion && s.motion.n_layers == 0);  /* all gone */
    presentd_animations_clear(&s.motion);
    presentd_close(app);
    presentd_close(shell);
    presentd_close(renderer);
    stop_daemon(&d);
}

/* -- Sheets: the grabber layer, and detents ------------------------------------------------ */

/* What the frames and animations payloads before a sync said of sheet "s": the last frame's
 * layers by role, and whether an animations payload carried the grabber with its role. */
struct sheet_seen { int frames, roles_ok, flags_ok, grabber_ok, animations_grabber; };

static void look_at_sheet(presentd_client *c, struct sheet_seen *s) {
    presentd_error err;
    CHECK_OK(presentd_call_json(c, "sync", "{\"nonce\":5}", NULL, WAIT_MS, &err), &err);
    presentd_event ev;
    while (presentd_poll_event(c, &ev)) {
        if (strcmp(ev.method, "frame") == 0) {
            presentd_layer l[4];
            size_t n = presentd_frame_layers(ev.params, l, 4);
            s->frames++;
            s->roles_ok = n == 3 && str_is(l[0].role, "dimming") && str_is(l[1].role, "content") &&
                          str_is(l[2].role, "grabber");
            s->flags_ok = n == 3 && l[0].dimming && !l[0].grabber && !l[1].dimming && !l[1].grabber &&
                          !l[2].dimming && l[2].grabber;
            /* A 36 × 5 bar, 5 points below the content's top and centred on it, in a colour of its own. */
            s->grabber_ok = n == 3 && l[2].width == 36 && l[2].height == 5 && l[2].y == l[1].y + 5 &&
                            l[2].x + 18 == l[1].x + l[1].width / 2 && l[2].color && l[2].color[0] == '#' &&
                            l[2].content_revision == 0 && l[1].content_revision == 1;
        } else if (strcmp(ev.method, "animations") == 0) {
            presentd_animations a;
            if (CHECK_OK(presentd_animations_parse(ev.params, &a, &err), &err)) {
                for (size_t i = 0; i < a.n_layers; i++)
                    s->animations_grabber += a.layers[i].layer.grabber && str_is(a.layers[i].layer.role, "grabber");
                presentd_animations_clear(&a);
            }
        }
        presentd_event_clear(&ev);
    }
}

/* The detent the stack says sheet "s" rests at is `detent`. */
static void check_detent(presentd_client *c, const char *detent) {
    presentd_error err;
    json_object *r = NULL;
    if (CHECK_OK(presentd_call_json(c, "stack", NULL, &r, WAIT_MS, &err), &err)) {
        presentd_entry entries[2];
        CHECK(presentd_entries(r, entries, 2) == 1 && str_is(entries[0].id, "s") && str_is(entries[0].detent, detent));
        json_object_put(r);
    }
}

/* A sheet with a grabber: frames and animations payloads carry its third layer, which
 * role and grabber tell from the content; a flick settles it at large (stack: detent). */
static void test_sheet_grabber_and_detents(void) {
    daemon_proc d;
    if (!CHECK(start_daemon(&d, "manual") == 0)) return;
    presentd_client *app = connect_or_die(&d), *shell = connect_or_die(&d), *renderer = connect_or_die(&d);
    call_ok(renderer, "subscribe", "{\"topics\":[\"frames\",\"animations\"]}");
    call_ok(app, "present", "{\"id\":\"s\",\"content\":\"Sheet\",\"style\":{\"type\":\"sheet\","
            "\"detents\":[\"medium\",\"large\"],\"grabber\":true}}");
    call_ok(app, "advance", "{\"seconds\":1}");
    struct sheet_seen seen = { 0 };
    look_at_sheet(renderer, &seen);
    CHECK(seen.frames >= 1 && seen.roles_ok && seen.flags_ok && seen.grabber_ok);
    CHECK(seen.animations_grabber >= 1);
    check_detent(shell, "medium");
    call_ok(shell, "swipe", "{\"phase\":\"began\",\"dx\":0,\"dy\":0}");
    call_ok(shell, "swipe", "{\"phase\":\"changed\",\"dx\":0,\"dy\":-80}");
    call_ok(shell, "swipe", "{\"phase\":\"ended\",\"dx\":0,\"dy\":-80,\"vx\":0,\"vy\":-900}");
    call_ok(app, "advance", "{\"seconds\":1}");
    seen = (struct sheet_seen){ 0 };
    look_at_sheet(renderer, &seen);
    CHECK(seen.frames >= 1 && seen.roles_ok && seen.flags_ok && seen.grabber_ok && seen.animations_grabber >= 1);
    check_detent(shell, "large");
    presentd_close(app);
    presentd_close(shell);
    presentd_close(renderer);
    stop_daemon(&d);
}

/* The example renderer presents, draws every frame of the transition and stops when idle;
 * what the entry shows comes from its willPresent, and the frames name its revision.
 * On a manual clock of its own: on the real clock a tick that a loaded machine serves late
 * is merged with the next (the daemon skips missed deadlines), so the number of frames
 * would depend on the load. Time moves once the renderer's alert is on the stack: its
 * 0.4 s (the default transition) at 10 fps is the frames at 0.1, 0.2, 0.3 and 0.4. */
static void test_example_renderer(const char *renderer) {
    daemon_proc d;
    if (!CHECK(start_daemon(&d, "manual") == 0)) return;
    char command[768];
    /* timeout(1): the renderer waits for frames for ever, and a hang would hang the suite. */
    snprintf(command, sizeof command, "timeout 60 %s --socket %s --present alert --content "
             "'{\"title\":\"Hello\",\"actions\":[{\"id\":\"ok\",\"title\":\"OK\",\"role\":\"default\"}],"
             "\"fields\":[{\"id\":\"who\",\"kind\":\"text\"}]}' --until-idle </dev/null", renderer, d.socket);
    FILE *out = popen(command, "r");
    if (CHECK(out != NULL)) {
        presentd_client *c = connect_or_die(&d);
        presentd_error err;
        /* It subscribes, then presents, on one connection: with the alert on the stack, it
         * is subscribed. Its start-up can take a while on a loaded machine: up to 60 s. */
        int presented = 0;
        for (double deadline = monotonic_now() + 60; !presented && monotonic_now() < deadline; ) {
            json_object *r = NULL, *entries;
            if (!CHECK_OK(presentd_call_json(c, "stack", NULL, &r, WAIT_MS, &err), &err)) break;
            presented = json_object_object_get_ex(r, "entries", &entries) && json_object_array_length(entries) == 1;
            json_object_put(r);
            if (!presented) usleep(10000);
        }
        if (CHECK(presented))  /* else the renderer never presented: timeout(1) ends it */
            CHECK_OK(presentd_call_json(c, "advance", "{\"seconds\":0.4}", NULL, WAIT_MS, &err), &err);
        char line[1024];
        int frames = 0, content = 0, revision = 0, will_present = 0, shows = 0;
        while (fgets(line, sizeof line, out)) {
            frames += strncmp(line, "frame ", 6) == 0;
            content += strstr(line, "  content") == line;
            revision += strstr(line, "  content") == line && strstr(line, " rev=1\n") != NULL;
            will_present += strstr(line, "\"willPresent\"") != NULL;
            shows += strcmp(line, "  shows rev=1 title=\"Hello\" [OK:default] <text who>\n") == 0;
        }
        CHECK(pclose(out) == 0);
        CHECK(frames == 4 && content == frames && revision == frames && will_present == 1 && shows == 1);
        presentd_close(c);
    }
    stop_daemon(&d);
}

/* The example renderer with --interpolate: no frames subscribed, the layers computed at every
 * 1/60 s of the daemon's clock from the animations topic. On the manual clock it learns the
 * time by asking (hello): advancing 0.4 s draws the ticks 1/60 … 24/60, the last at rest. */
static void test_example_renderer_interpolates(const char *renderer) {
    int before = failed_checks;
    daemon_proc d;
    if (!CHECK(start_daemon(&d, "manual") == 0)) return;
    char command[512];
    snprintf(command, sizeof command, "timeout 60 %s --socket %s --present alert --interpolate --until-idle </dev/null",
             renderer, d.socket);
    FILE *out = popen(command, "r");
    if (CHECK(out != NULL)) {
        presentd_client *c = connect_or_die(&d);
        presentd_error err;
        int presented = 0;
        for (double deadline = monotonic_now() + 60; !presented && monotonic_now() < deadline; ) {
            json_object *r = NULL, *entries;
            if (!CHECK_OK(presentd_call_json(c, "stack", NULL, &r, WAIT_MS, &err), &err)) break;
            presented = json_object_object_get_ex(r, "entries", &entries) && json_object_array_length(entries) == 1;
            json_object_put(r);
            if (!presented) usleep(10000);
        }
        char line[1024], last[1024] = "", rest[1024] = "";
        int interpolated = 0, frames = 0, in_order = 1, moving = 0, steps = 0;
        double previous = 0;
        /* In two steps: the second advance waits until the renderer has drawn the first
         * step's end (its t=0.2000 line), so it draws what it learnt each time. */
        if (CHECK(presented)) {
            CHECK_OK(presentd_call_json(c, "advance", "{\"seconds\":0.2}", NULL, WAIT_MS, &err), &err);
            steps = 1;
        }
        while (fgets(line, sizeof line, out)) {
            frames += strncmp(line, "frame ", 6) == 0;
            double t;
            int animating;
            if (sscanf(line, "interpolated t=%lf layers=2 animating=%d", &t, &animating) == 2) {
                if (interpolated && fabs(t - previous - 1.0 / 60) > 1e-3) in_order = 0;
                previous = t;
                interpolated++;
                moving += animating;
                snprintf(last, sizeof last, "%s", line);
                if (steps == 1 && t > 0.2 - 1e-6) {
                    CHECK_OK(presentd_call_json(c, "advance", "{\"seconds\":0.2}", NULL, WAIT_MS, &err), &err);
                    steps = 2;
                }
            } else if (strstr(line, "  content") == line) {
                snprintf(rest, sizeof rest, "%s", line);
            }
        }
        CHECK(steps == 2);
        CHECK(pclose(out) == 0);
        CHECK(frames == 0);
        CHECK(interpolated == 24 || interpolated == 25);  /* 25 if it drew t = 0 too */
        CHECK(in_order && moving == interpolated - 1);
        CHECK(strcmp(last, "interpolated t=0.4000 layers=2 animating=0\n") == 0);
        CHECK(strstr(rest, "x=60.0 y=332.0 w=270.0 h=180.0 alpha=1.000 scale=1.000") != NULL);  /* the alert at rest */
        if (failed_checks != before) printf("  its last frame: %s  its last content layer: %s", last, rest);
        presentd_close(c);
    }
    stop_daemon(&d);
}

int main(int argc, char **argv) {
    setvbuf(stdout, NULL, _IOLBF, 0);
    signal(SIGPIPE, SIG_IGN);
    RUN("connect failure", test_connect_failure());
    daemon_proc manual, real;
    if (start_daemon(&manual, "manual")) { printf("cannot start presentd\n"); return 1; }
    if (start_daemon(&real, "monotonic")) { stop_daemon(&manual); printf("cannot start presentd\n"); return 1; }
    RUN("calls and errors", test_calls_and_errors(&manual));
    RUN("an unreadable line is a protocol error", test_an_unreadable_line_is_a_protocol_error(&manual));
    RUN("events and frames", test_events_and_frames(&manual));
    RUN("shouldDismiss", test_should_dismiss(&real));
    RUN("non-blocking poll loop", test_non_blocking_poll_loop(&real));
    if (argc > 1) RUN("example renderer", test_example_renderer(argv[1]));
    if (argc > 1) RUN("example renderer --interpolate", test_example_renderer_interpolates(argv[1]));
    stop_daemon(&manual);
    stop_daemon(&real);
    daemon_proc conversation;  /* a stack of its own: these tests look at whole stacks */
    if (start_daemon(&conversation, "manual")) { printf("cannot start presentd\n"); return 1; }
    RUN("content in entries, lifecycle and frames", test_content_in_entries_lifecycle_and_frames(&conversation));
    RUN("activate, key and the owner's action events", test_activate_key_and_the_owners_action_events(&conversation));
    RUN("next answer: the entry leaves", test_next_answer_sees_the_entry_leave_and_keeps_other_events(&conversation));
    RUN("shouldDismiss names the action", test_should_dismiss_names_the_action(&conversation));
    stop_daemon(&conversation);
    daemon_proc levels;
    if (start_daemon(&levels, "manual")) { printf("cannot start presentd\n"); return 1; }
    RUN("levels, taps and contexts", test_levels_taps_and_contexts(&levels));
    stop_daemon(&levels);
    daemon_proc screens;
    if (start_daemon(&screens, "manual")) { printf("cannot start presentd\n"); return 1; }
    RUN("several screens", test_several_screens(&screens));
    stop_daemon(&screens);
    RUN("sheets: the grabber layer and detents", test_sheet_grabber_and_detents());
    RUN("timing curves and the animations example", test_timing_curves());
    RUN("animations: every frame interpolated", test_animations_interpolate_every_frame());
    RUN("reconnect after kill -9", test_reconnect_after_kill_9());
    RUN("reconnect keeps the screens filter", test_reconnect_keeps_the_screens_filter());
    RUN("shutdown", test_shutdown());
    printf("%d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}
