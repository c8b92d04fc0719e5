/* A screen reader's view: every entry drawn is an ATK object under one application root, and
 * atk-bridge puts the tree on the AT-SPI accessibility bus, where Orca (or pyatspi) reads it.
 *
 *   application "presentd-wayland"
 *     alert | notification | dialog   name: the title (or accessibility.label, or the label)
 *                                     description: the message (or accessibility.hint)
 *       entry | password text         a field, named by its placeholder
 *       push button                   an action, named by its title; its Action "click"
 *                                     answers exactly as a click on it does
 *
 * The role: alert for the `alert` style or level, notification for an overlay's entry (a
 * toast, a banner), dialog otherwise. An entry whose content says `accessibility.announce`
 * carries the object attribute `live` (polite or assertive, with `atomic`) and is announced
 * (AT-SPI's object:announcement, with its name and description) when it appears and whenever
 * its content changes; any entry's appearance is children-changed:add on the root and
 * state-changed:showing, and one that takes the keyboard is window:activate, which is what a
 * screen reader speaks a new dialog on.
 *
 * Without GTK nobody else provides ATK's toolkit side: the AtkUtil class is filled here (the
 * root, the toolkit's name, and the global event listeners the bridge forwards events with,
 * as emission hooks on the GObject signals they name). */
#include "a11y.h"

#include <atk-bridge.h>
#include <atk/atk.h>
#include <glib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "content.h"
#include "input.h"

/* -- The objects --------------------------------------------------------------------------- */

/* An object of the tree: its children (references) and its states. A dialog and a button are
 * kinds of it (a window, which can be activated; an action, which can be done). */
typedef struct {
    AtkObject parent;
    GPtrArray *children;
    guint64 states;                        /* 1 << AtkStateType */
    const char *live;                      /* "polite", "assertive" or NULL (static strings) */
} PwNode;
typedef struct { AtkObjectClass parent_class; } PwNodeClass;

typedef struct { PwNode parent; } PwDialog;
typedef struct { PwNodeClass parent_class; } PwDialogClass;

typedef struct {
    PwNode parent;
    char entry[257];                       /* the entry whose action it is */
    int action;                            /* the action's index in the content */
} PwButton;
typedef struct { PwNodeClass parent_class; } PwButtonClass;

static GType pw_node_get_type(void);
static GType pw_dialog_get_type(void);
static GType pw_button_get_type(void);
#define PW_NODE(o) ((PwNode *)(o))

static pw_app *the_app;                    /* ATK is process-wide: so is its one application */
static AtkObject *root;

G_DEFINE_TYPE(PwNode, pw_node, ATK_TYPE_OBJECT)

static void pw_node_init(PwNode *n) { n->children = g_ptr_array_new_with_free_func(g_object_unref); }

static void node_finalize(GObject *o) {
    g_ptr_array_unref(PW_NODE(o)->children);
    G_OBJECT_CLASS(pw_node_parent_class)->finalize(o);
}

static gint node_n_children(AtkObject *o) { return (gint)PW_NODE(o)->children->len; }

static AtkObject *node_ref_child(AtkObject *o, gint i) {
    GPtrArray *c = PW_NODE(o)->children;
    return i >= 0 && (guint)i < c->len ? g_object_ref(g_ptr_array_index(c, i)) : NULL;
}

static gint node_index_in_parent(AtkObject *o) {
    guint i;
    AtkObject *parent = o->accessible_parent;
    if (parent && g_type_is_a(G_OBJECT_TYPE(parent), pw_node_get_type()) && g_ptr_array_find(PW_NODE(parent)->children, o, &i))
        return (gint)i;
    return -1;
}

static AtkStateSet *node_ref_state_set(AtkObject *o) {
    AtkStateSet *set = ATK_OBJECT_CLASS(pw_node_parent_class)->ref_state_set(o);
    for (int s = 0; s < 64 && s < ATK_STATE_LAST_DEFINED; s++)
        if (PW_NODE(o)->states & ((guint64)1 << s)) atk_state_set_add_state(set, (AtkStateType)s);
    return set;
}

static AtkAttributeSet *attribute(AtkAttributeSet *set, const char *name, const char *value) {
    AtkAttribute *a = g_new(AtkAttribute, 1);
    a->name = g_strdup(name);
    a->value = g_strdup(value);
    return g_slist_append(set, a);
}

/* A live entry says so (`live`, read whole: `atomic`); its parts say they are inside one. */
static AtkAttributeSet *node_attributes(AtkObject *o) {
    AtkAttributeSet *set = NULL;
    AtkObject *parent = o->accessible_parent;
    if (PW_NODE(o)->live) {
        set = attribute(set, "live", PW_NODE(o)->live);
        set = attribute(set, "atomic", "true");
    } else if (parent && g_type_is_a(G_OBJECT_TYPE(parent), pw_node_get_type()) && PW_NODE(parent)->live) {
        set = attribute(set, "container-live", PW_NODE(parent)->live);
        set = attribute(set, "container-atomic", "true");
    }
    return set;
}

static void pw_node_class_init(PwNodeClass *k) {
    G_OBJECT_CLASS(k)->finalize = node_finalize;
    AtkObjectClass *a = ATK_OBJECT_CLASS(k);
    a->get_n_children = node_n_children;
    a->ref_child = node_ref_child;
    a->get_index_in_parent = node_index_in_parent;
    a->ref_state_set = node_ref_state_set;
    a->get_attributes = node_attributes;
}

/* A dialog is an AtkWindow: no methods, only the signals (create, activate, deactivate,
 * destroy) that the bridge sends as window events. */
static void pw_dialog_window_init(AtkWindowIface *iface) {}
G_DEFINE_TYPE_WITH_CODE(PwDialog, pw_dialog, pw_node_get_type(), G_IMPLEMENT_INTERFACE(ATK_TYPE_WINDOW, pw_dialog_window_init))
static void pw_dialog_init(PwDialog *d) {}
static void pw_dialog_class_init(PwDialogClass *k) {}

/* A button's one action, "click": what a click on it does (input.c's activate). */
static gint button_n_actions(AtkAction *a) { return 1; }
static const gchar *button_action_name(AtkAction *a, gint i) { return i == 0 ? "click" : NULL; }

static gboolean button_do_action(AtkAction *a, gint i) {
    PwButton *b = (PwButton *)a;
    pw_record *r = i == 0 ? pw_content_find(the_app, b->entry) : NULL;
    if (!r || r->leaving) return FALSE;
    pw_input_activate(the_app, r, b->action, 0, NULL);
    return TRUE;
}

static void pw_button_action_init(AtkActionIface *iface) {
    iface->get_n_actions = button_n_actions;
    iface->get_name = button_action_name;
    iface->do_action = button_do_action;
}
G_DEFINE_TYPE_WITH_CODE(PwButton, pw_button, pw_node_get_type(), G_IMPLEMENT_INTERFACE(ATK_TYPE_ACTION, pw_button_action_init))
static void pw_button_init(PwButton *b) {}
static void pw_button_class_init(PwButtonClass *k) {}

/* Text as AT-SPI carries it: D-Bus takes only valid UTF-8 (libdbus ends the process on any
 * other), and the content's strings come from clients. Free with g_free. */
static gchar *text_of(const char *s) { return g_utf8_make_valid(s ? s : "", -1); }

static AtkObject *node_new(GType type, AtkRole role, const char *name, AtkObject *parent) {
    AtkObject *o = g_object_new(type, NULL);
    atk_object_initialize(o, NULL);
    atk_object_set_role(o, role);
    gchar *text = text_of(name);
    atk_object_set_name(o, text);
    g_free(text);
    if (parent) atk_object_set_parent(o, parent);
    return o;
}

#define STATE(s) ((guint64)1 << (s))

static void set_state(AtkObject *o, AtkStateType s, int on, int tell) {
    int was = (PW_NODE(o)->states & STATE(s)) != 0;
    if (was == !!on) return;
    if (on) PW_NODE(o)->states |= STATE(s);
    else PW_NODE(o)->states &= ~STATE(s);
    if (tell) atk_object_notify_state_change(o, s, on ? TRUE : FALSE);
}

/* -- ATK's toolkit side ------------------------------------------------------------------- */

/* "Toolkit:Type:signal[:detail]" → an emission hook on that signal; anything else (the
 * bridge's old "window:create" spelling) is not a signal here, 0. */
typedef struct { guint signal; gulong hook; } listener;
static GArray *listeners;

static guint add_global_event_listener(GSignalEmissionHook hook, const gchar *event_type) {
    gchar **part = g_strsplit(event_type, ":", 4);
    guint id = 0;
    if (g_strv_length(part) >= 3) {
        GType type = g_type_from_name(part[1]);
        guint signal = type ? g_signal_lookup(part[2], type) : 0;
        if (signal) {
            GQuark detail = part[3] ? g_quark_from_string(part[3]) : 0;
            listener l = { signal, g_signal_add_emission_hook(signal, detail, hook, NULL, NULL) };
            g_array_append_val(listeners, l);
            id = listeners->len;
        }
    }
    g_strfreev(part);
    return id;
}

static void remove_global_event_listener(guint id) {
    if (id == 0 || id > listeners->len) return;
    listener *l = &g_array_index(listeners, listener, id - 1);
    if (l->hook) g_signal_remove_emission_hook(l->signal, l->hook);
    l->hook = 0;
}

static AtkObject *get_root(void) { return root; }
static const gchar *toolkit_name(void) { return "presentd-wayland"; }
static const gchar *toolkit_version(void) { return "1"; }

/* -- Entries ------------------------------------------------------------------------------- */

/* One entry exposed: its dialog, and what it was built from. */
typedef struct exposed {
    struct exposed *next;
    char id[257];
    AtkObject *dialog;
    int64_t revision;                      /* the content's */
    int n_buttons;                         /* the card's buttons it has (drawing order) */
    int focus, active;
} exposed;

static exposed *shown;
static int bridged;                        /* the bridge is up */

static exposed *exposed_of(const char *id) {
    for (exposed *e = shown; e; e = e->next)
        if (strcmp(e->id, id) == 0) return e;
    return NULL;
}

/* Whether r's card is in the picture of some screen; *modal: its dimming takes input. */
static int on_screen(pw_app *app, pw_record *r, int *modal) {
    int card = 0;
    *modal = 0;
    pw_screen *s;
    wl_list_for_each(s, &app->screens, link)
        for (size_t i = 0; i < s->n_hits; i++) {
            if (strcmp(s->hits[i].id, r->id) != 0) continue;
            if (s->hits[i].dimming) *modal = !r->forward;
            else card = 1;
        }
    return card;
}

/* Whether r is the top entry of a screen whose surface has the keyboard to itself. */
static int takes_keyboard(pw_app *app, pw_record *r) {
    pw_screen *s;
    wl_list_for_each(s, &app->screens, link)
        if (s->keyboard_exclusive && strcmp(s->top_id, r->id) == 0) return 1;
    return 0;
}

static AtkRole role_of(pw_record *r) {
    if (strcmp(r->style, "alert") == 0 || strcmp(r->level, "alert") == 0) return ATK_ROLE_ALERT;
    if (strcmp(r->level, "overlay") == 0) return ATK_ROLE_NOTIFICATION;
    return ATK_ROLE_DIALOG;
}

static void remove_children(AtkObject *dialog, int tell) {
    GPtrArray *c = PW_NODE(dialog)->children;
    while (c->len) {
        AtkObject *child = g_object_ref(g_ptr_array_index(c, c->len - 1));
        set_state(child, ATK_STATE_DEFUNCT, 1, tell);
        g_ptr_array_remove_index(c, c->len - 1);
        if (tell) g_signal_emit_by_name(dialog, "children-changed::remove", c->len, child);
        g_object_unref(child);
    }
}

/* The dialog's name, description, role, liveness and parts from r's content now. Returns what
 * to announce (NULL: nothing, the content is not live), to be freed with g_free. */
static gchar *build(pw_record *r, exposed *e, int tell) {
    AtkObject *d = e->dialog;
    presentd_content c;
    pw_content_read(r->content, &c);
    gchar *name = text_of(c.accessibility_label ? c.accessibility_label : c.title ? c.title : c.label),
          *description = text_of(c.message ? c.message : c.accessibility_hint);
    atk_object_set_role(d, role_of(r));
    atk_object_set_name(d, name);
    atk_object_set_description(d, description);
    PW_NODE(d)->live = !c.accessibility_announce ? NULL : strcmp(c.accessibility_announce, "assertive") == 0 ? "assertive" : "polite";
    gchar *said = PW_NODE(d)->live ? g_strconcat(name, *name && *description ? ". " : "", description, NULL) : NULL;
    g_free(name);
    g_free(description);
    remove_children(d, tell);
    /* The fields, then the buttons in the order they are drawn (the Tab order). */
    for (size_t i = 0; i < c.n_fields; i++) {
        int secure = strcmp(c.fields[i].kind, "secure") == 0;
        AtkObject *f = node_new(pw_node_get_type(), secure ? ATK_ROLE_PASSWORD_TEXT : ATK_ROLE_ENTRY,
                                c.fields[i].placeholder ? c.fields[i].placeholder : c.fields[i].id, d);
        PW_NODE(f)->states = STATE(ATK_STATE_ENABLED) | STATE(ATK_STATE_SENSITIVE) | STATE(ATK_STATE_VISIBLE) |
                             STATE(ATK_STATE_SHOWING) | STATE(ATK_STATE_FOCUSABLE) | STATE(ATK_STATE_EDITABLE) |
                             STATE(ATK_STATE_SINGLE_LINE);
        g_ptr_array_add(PW_NODE(d)->children, f);
    }
    int drawn = r->n_buttons == (int)c.n_actions;
    for (size_t i = 0; i < c.n_actions; i++) {
        int action = drawn ? r->buttons[i].index : (int)i;
        AtkObject *b = node_new(pw_button_get_type(), ATK_ROLE_PUSH_BUTTON, c.actions[action].title, d);
        snprintf(((PwButton *)b)->entry, sizeof ((PwButton *)b)->entry, "%s", r->id);
        ((PwButton *)b)->action = action;
        PW_NODE(b)->states = STATE(ATK_STATE_ENABLED) | STATE(ATK_STATE_SENSITIVE) | STATE(ATK_STATE_VISIBLE) |
                             STATE(ATK_STATE_SHOWING) | STATE(ATK_STATE_FOCUSABLE);
        g_ptr_array_add(PW_NODE(d)->children, b);
    }
    if (tell)
        for (guint i = 0; i < PW_NODE(d)->children->len; i++)
            g_signal_emit_by_name(d, "children-changed::add", i, g_ptr_array_index(PW_NODE(d)->children, i));
    e->revision = r->revision;
    e->n_buttons = r->n_buttons;
    e->focus = -1;
    return said;
}

/* Says `text` (consumed; NULL or empty: nothing). */
static void announce(AtkObject *o, gchar *text) {
    if (text && *text) g_signal_emit_by_name(o, "announcement", text);
    g_free(text);
}

/* The focused part follows r's Tab focus (fields, then buttons: the children's order). */
static void follow_focus(pw_record *r, exposed *e) {
    if (e->focus == r->focus) return;
    GPtrArray *c = PW_NODE(e->dialog)->children;
    if (e->focus >= 0 && (guint)e->focus < c->len) set_state(g_ptr_array_index(c, e->focus), ATK_STATE_FOCUSED, 0, 1);
    if (r->focus >= 0 && (guint)r->focus < c->len) set_state(g_ptr_array_index(c, r->focus), ATK_STATE_FOCUSED, 1, 1);
    e->focus = r->focus;
}

static void expose(pw_app *app, pw_record *r, int modal) {
    exposed *e = calloc(1, sizeof *e);
    if (!e) return;
    snprintf(e->id, sizeof e->id, "%s", r->id);
    e->dialog = node_new(pw_dialog_get_type(), ATK_ROLE_DIALOG, "", root);
    gchar *text = build(r, e, 0);
    PW_NODE(e->dialog)->states = STATE(ATK_STATE_ENABLED) | STATE(ATK_STATE_SENSITIVE) | STATE(ATK_STATE_VISIBLE) |
                                 (modal ? STATE(ATK_STATE_MODAL) : 0);
    e->next = shown;
    shown = e;
    g_ptr_array_add(PW_NODE(root)->children, g_object_ref(e->dialog));
    g_signal_emit_by_name(root, "children-changed::add", PW_NODE(root)->children->len - 1, e->dialog);
    g_signal_emit_by_name(e->dialog, "create");
    set_state(e->dialog, ATK_STATE_SHOWING, 1, 1);
    announce(e->dialog, text);
}

static void withdraw(exposed *e) {
    AtkObject *d = e->dialog;
    if (e->active) {
        set_state(d, ATK_STATE_ACTIVE, 0, 1);
        g_signal_emit_by_name(d, "deactivate");
    }
    set_state(d, ATK_STATE_SHOWING, 0, 1);
    g_signal_emit_by_name(d, "destroy");
    guint i;
    if (g_ptr_array_find(PW_NODE(root)->children, d, &i)) {
        g_object_ref(d);
        g_ptr_array_remove_index(PW_NODE(root)->children, i);
        g_signal_emit_by_name(root, "children-changed::remove", i, d);
        g_object_unref(d);
    }
    remove_children(d, 0);
    set_state(d, ATK_STATE_DEFUNCT, 1, 1);
    g_object_unref(d);
}

void pw_a11y_sync(pw_app *app) {
    if (!bridged) return;
    for (exposed **p = &shown; *p;) {
        exposed *e = *p;
        pw_record *r = pw_content_find(app, e->id);
        int modal;
        if (r && !r->leaving && on_screen(app, r, &modal)) { p = &e->next; continue; }
        *p = e->next;
        withdraw(e);
        free(e);
    }
    for (pw_record *r = app->records; r; r = r->next) {
        int modal;
        if (r->leaving || !r->content || !on_screen(app, r, &modal)) continue;
        exposed *e = exposed_of(r->id);
        if (!e) {
            expose(app, r, modal);
            e = exposed_of(r->id);
            if (!e) continue;
        } else if (e->revision != r->revision || (r->n_buttons && e->n_buttons != r->n_buttons)) {
            /* New content is spoken; the same content's buttons laid out anew only reorder the parts. */
            int spoken = e->revision != r->revision;
            gchar *text = build(r, e, 1);
            if (spoken) announce(e->dialog, text);
            else g_free(text);
        }
        /* The stack says what kind of entry it is, sometimes after its content came. */
        if (atk_object_get_role(e->dialog) != role_of(r)) atk_object_set_role(e->dialog, role_of(r));
        set_state(e->dialog, ATK_STATE_MODAL, modal, 1);
        int keyboard = takes_keyboard(app, r);
        if (keyboard != e->active) {
            e->active = keyboard;
            set_state(e->dialog, ATK_STATE_ACTIVE, keyboard, 1);
            g_signal_emit_by_name(e->dialog, keyboard ? "activate" : "deactivate");
        }
        follow_focus(r, e);
    }
}

/* -- Starting ------------------------------------------------------------------------------ */

/* What the bridge and libatspi warn while starting: kept, to be said in one line. */
static void keep_message(const gchar *domain, GLogLevelFlags level, const gchar *message, gpointer data) {
    GString *kept = data;
    if (!kept->len) g_string_append(kept, message);
}

int pw_a11y_start(pw_app *app) {
    const char *off = getenv("NO_AT_BRIDGE");
    if (off && strcmp(off, "1") == 0) {
        fprintf(stderr, "presentd-wayland: NO_AT_BRIDGE=1: not on the accessibility bus, screen readers do not see presentations\n");
        return -1;
    }
    the_app = app;
    listeners = g_array_new(FALSE, TRUE, sizeof(listener));
    AtkUtilClass *util = g_type_class_ref(ATK_TYPE_UTIL);
    util->add_global_event_listener = add_global_event_listener;
    util->remove_global_event_listener = remove_global_event_listener;
    util->get_root = get_root;
    util->get_toolkit_name = toolkit_name;
    util->get_toolkit_version = toolkit_version;
    /* The signals the bridge hooks must exist before it looks them up: AtkWindow's are made
     * with its interface; "announcement" is not ATK 2.46's own (GTK adds it to AtkObject, and
     * the bridge forwards it as object:announcement), so it is added here the same way. */
    g_type_default_interface_ref(ATK_TYPE_WINDOW);
    g_type_class_ref(pw_dialog_get_type());
    g_type_class_ref(pw_button_get_type());
    if (!g_signal_lookup("announcement", ATK_TYPE_OBJECT))
        g_signal_new("announcement", ATK_TYPE_OBJECT, G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_STRING);
    root = node_new(pw_node_get_type(), ATK_ROLE_APPLICATION, "presentd-wayland", NULL);
    GString *kept = g_string_new(NULL);
    GLogFunc before = g_log_set_default_handler(keep_message, kept);
    int status = atk_bridge_adaptor_init(NULL, NULL);
    g_log_set_default_handler(before, NULL);
    if (status != 0) {
        fprintf(stderr, "presentd-wayland: no accessibility bus (%s): screen readers do not see presentations\n",
                kept->len ? kept->str : "atk-bridge did not start");
        g_string_free(kept, TRUE);
        atk_bridge_adaptor_cleanup();  /* what it set up before it failed */
        return -1;
    }
    g_string_free(kept, TRUE);
    /* This thread runs GLib's default context (the bridge's D-Bus connections live there). */
    g_main_context_acquire(g_main_context_default());
    bridged = 1;
    fprintf(stderr, "presentd-wayland: on the accessibility bus (AT-SPI): screen readers see presentations\n");
    return 0;
}

void pw_a11y_stop(pw_app *app) {
    if (!bridged) return;
    while (shown) {
        exposed *e = shown;
        shown = e->next;
        withdraw(e);
        free(e);
    }
    atk_bridge_adaptor_cleanup();
    g_main_context_release(g_main_context_default());
    bridged = 0;
}

/* -- The main loop's turn ----------------------------------------------------------------
 * GLib's context is run by the renderer's own poll(), with GLib's external-loop protocol:
 * prepare, query (its descriptors and timeout join the renderer's), poll, check, dispatch.
 * Iterating it without blocking once per turn would not do: the renderer sleeps in poll()
 * until the compositor or presentd speaks, and a screen reader's question would wait for
 * that. libdbus may also hold messages already read (its source then asks for a zero
 * timeout), which only prepare and query tell. */

static GPollFD *gfds;
static int n_gfds, gfds_room, max_priority;

int pw_a11y_poll_prepare(struct pollfd *fds, int room, int *timeout) {
    n_gfds = 0;
    if (!bridged) return 0;
    GMainContext *context = g_main_context_default();
    int wait;
    g_main_context_prepare(context, &max_priority);
    while ((n_gfds = g_main_context_query(context, max_priority, &wait, gfds, gfds_room)) > gfds_room) {
        gfds_room = n_gfds;
        gfds = g_renew(GPollFD, gfds, gfds_room);
    }
    /* More descriptors than the loop has room for: the rest are checked at the next turn, and
     * the loop wakes at once for it. */
    int n = n_gfds < room ? n_gfds : room;
    if (n < n_gfds) wait = 0;
    for (int i = 0; i < n; i++) fds[i] = (struct pollfd){ .fd = gfds[i].fd, .events = (short)gfds[i].events };
    if (wait >= 0 && (*timeout < 0 || wait < *timeout)) *timeout = wait;
    return n;
}

void pw_a11y_poll_done(struct pollfd *fds, int n) {
    if (!bridged) return;
    for (int i = 0; i < n_gfds; i++) gfds[i].revents = i < n ? (gushort)fds[i].revents : 0;
    GMainContext *context = g_main_context_default();
    if (g_main_context_check(context, max_priority, gfds, n_gfds)) g_main_context_dispatch(context);
}
