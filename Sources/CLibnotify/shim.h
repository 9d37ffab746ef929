// libnotify (which pulls in GLib, GObject and GIO) and small inline helpers
// for the C that Swift cannot call: variadic functions (g_object_get) and
// macros (g_signal_connect, G_SOURCE_REMOVE).
#include <libnotify/notify.h>
#include <gio/gio.h>

typedef void (*chime_closed_callback)(NotifyNotification *notification, gpointer user_data);

/// Connects the notification's "closed" signal; `destroy` runs when the
/// notification is finalized, so the data lives exactly as long as it.
static inline gulong chime_notification_connect_closed(NotifyNotification *notification, chime_closed_callback callback,
                                                       gpointer user_data, GClosureNotify destroy) {
    return g_signal_connect_data(notification, "closed", G_CALLBACK(callback), user_data, destroy, (GConnectFlags)0);
}

/// The id the server gave the notification (0 before it was shown and after it closed).
static inline guint32 chime_notification_id(NotifyNotification *notification) {
    gint id = 0;
    g_object_get(notification, "id", &id, NULL);
    return (guint32)id;
}

/// Sets the id a notification is shown under: shown then, it replaces the
/// server's notification of that id (the Notify call's replaces_id).
static inline void chime_notification_set_id(NotifyNotification *notification, guint32 id) {
    g_object_set(notification, "id", (gint)id, NULL);
}

/// The unique bus name owning `name`, newly allocated (g_free it), or NULL
/// when nobody owns it or the bus does not answer within `timeout_ms`.
static inline gchar *chime_name_owner(GDBusConnection *connection, const gchar *name, gint timeout_ms) {
    GVariant *reply = g_dbus_connection_call_sync(connection, "org.freedesktop.DBus", "/org/freedesktop/DBus",
                                                  "org.freedesktop.DBus", "GetNameOwner", g_variant_new("(s)", name),
                                                  G_VARIANT_TYPE("(s)"), G_DBUS_CALL_FLAGS_NONE, timeout_ms, NULL, NULL);
    if (reply == NULL) return NULL;
    gchar *owner = NULL;
    g_variant_get(reply, "(s)", &owner);
    g_variant_unref(reply);
    return owner;
}

static inline void chime_object_unref(gpointer object) { g_object_unref(object); }

static inline gboolean chime_source_remove(void) { return G_SOURCE_REMOVE; }

static inline gint chime_priority_default(void) { return G_PRIORITY_DEFAULT; }
