#ifndef PAGEHOST_CWEBKITGTK_SHIM_H
#define PAGEHOST_CWEBKITGTK_SHIM_H
// WebKitGTK 4.1 (GTK 3) and cairo, with static inline adapters for what Swift cannot import:
// macros (G_CALLBACK, g_signal_connect, GObject casts) and variadic functions.
#include <webkit2/webkit2.h>
#include <cairo.h>
#include <gtk/gtk.h>
#include <stdio.h>

/// g_signal_connect is a macro; this is g_signal_connect_data with a destroy notify for the user data.
static inline gulong ph_signal_connect(gpointer instance, const char *signal, GCallback handler,
                                       gpointer data, GClosureNotify destroy) {
    return g_signal_connect_data(instance, signal, handler, data, destroy, (GConnectFlags)0);
}

/// Swift 6 rejects the C global `stdout`.
static inline FILE *ph_stdout(void) { return stdout; }
static inline FILE *ph_stderr(void) { return stderr; }

/// A web view whose `is-ephemeral` property is set at construction (g_object_new is variadic).
static inline WebKitWebView *ph_web_view_new_ephemeral(WebKitWebContext *context, WebKitSettings *settings,
                                                       WebKitUserContentManager *content) {
    return WEBKIT_WEB_VIEW(g_object_new(WEBKIT_TYPE_WEB_VIEW,
                                        "web-context", context,
                                        "settings", settings,
                                        "user-content-manager", content,
                                        "is-ephemeral", TRUE,
                                        NULL));
}

/// A popup's view: related to its opener (same web process, same storage, window.opener works), with the
/// opener's settings and a content manager of its own.
static inline WebKitWebView *ph_web_view_new_related(WebKitWebView *opener, WebKitUserContentManager *content) {
    return WEBKIT_WEB_VIEW(g_object_new(WEBKIT_TYPE_WEB_VIEW,
                                        "related-view", opener,
                                        "settings", webkit_web_view_get_settings(opener),
                                        "user-content-manager", content,
                                        NULL));
}

/// A session's main view in the shared process model: related to a live view of its pool slot (so it runs in
/// that view's web process and uses its data store), with the session's own settings and content manager.
static inline WebKitWebView *ph_web_view_new_in_pool(WebKitWebView *anchor, WebKitSettings *settings,
                                                     WebKitUserContentManager *content) {
    return WEBKIT_WEB_VIEW(g_object_new(WEBKIT_TYPE_WEB_VIEW,
                                        "related-view", anchor,
                                        "settings", settings,
                                        "user-content-manager", content,
                                        NULL));
}

/// What the widget shows now, drawn from the UI process's copy of the page (no round trip to the web
/// process, so it answers even while the page's script is suspended by a dialog). NULL when unallocated.
static inline cairo_surface_t *ph_widget_snapshot(GtkWidget *widget) {
    int width = gtk_widget_get_allocated_width(widget);
    int height = gtk_widget_get_allocated_height(widget);
    if (width <= 0 || height <= 0) return NULL;
    cairo_surface_t *surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, width, height);
    cairo_t *cr = cairo_create(surface);
    gtk_widget_draw(widget, cr);
    cairo_destroy(cr);
    return surface;
}

static void ph_collect_text_view(GtkWidget *child, gpointer list) {
    if (GTK_IS_TEXT_VIEW(child)) *(GSList **)list = g_slist_prepend(*(GSList **)list, child);
}

/// Destroys the hidden GtkTextView a web view keeps as an internal child to translate key bindings.
/// WebKitGTK 2.50 (GTK 3) never unparents it: the view's dispose forgets it, and GTK 3 destroys only a
/// container's ordinary children, so every closed view left its text view, buffer and tag table behind
/// (about 20 KB each; measured with heaptrack in the soak). Destroying it while the view is still whole
/// goes through the view's own `remove`, which unparents it and drops the last reference.
static inline void ph_release_key_binding_widget(GtkWidget *view) {
    GSList *found = NULL;
    gtk_container_forall(GTK_CONTAINER(view), ph_collect_text_view, &found);
    for (GSList *item = found; item; item = item->next) gtk_widget_destroy(GTK_WIDGET(item->data));
    g_slist_free(found);
}

static inline GtkWidget *ph_widget(gpointer p) { return GTK_WIDGET(p); }
static inline GtkWindow *ph_window(gpointer p) { return GTK_WINDOW(p); }
static inline GtkContainer *ph_container(gpointer p) { return GTK_CONTAINER(p); }
static inline WebKitWebView *ph_web_view(gpointer p) { return WEBKIT_WEB_VIEW(p); }

/// A pointer event of `type` at (x, y) in the widget's window, dispatched through GTK like real input.
static inline void ph_send_pointer_event(GtkWidget *widget, GdkEventType type, double x, double y, guint state) {
    GdkWindow *window = gtk_widget_get_window(widget);
    if (!window) return;
    GdkDevice *pointer = gdk_seat_get_pointer(gdk_display_get_default_seat(gtk_widget_get_display(widget)));
    int origin_x = 0, origin_y = 0;
    gdk_window_get_origin(window, &origin_x, &origin_y);
    GdkEvent *event = gdk_event_new(type);
    if (type == GDK_MOTION_NOTIFY) {
        event->motion.window = g_object_ref(window);
        event->motion.time = GDK_CURRENT_TIME;
        event->motion.x = x;
        event->motion.y = y;
        event->motion.x_root = origin_x + x;
        event->motion.y_root = origin_y + y;
        event->motion.state = state;
    } else {
        event->button.window = g_object_ref(window);
        event->button.time = GDK_CURRENT_TIME;
        event->button.x = x;
        event->button.y = y;
        event->button.x_root = origin_x + x;
        event->button.y_root = origin_y + y;
        event->button.button = 1;
        event->button.state = state;
    }
    gdk_event_set_device(event, pointer);
    gtk_main_do_event(event);
    gdk_event_free(event);
}

/// Clicks at (x, y) in the widget's window as the mouse would: a motion, a press and a release of button 1,
/// dispatched through GTK like real input, so WebKit treats what follows as user-initiated.
static inline void ph_send_click(GtkWidget *widget, double x, double y) {
    ph_send_pointer_event(widget, GDK_MOTION_NOTIFY, x, y, 0);
    ph_send_pointer_event(widget, GDK_BUTTON_PRESS, x, y, 0);
    ph_send_pointer_event(widget, GDK_BUTTON_RELEASE, x, y, GDK_BUTTON1_MASK);
}

#endif
