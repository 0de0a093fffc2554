#include <librsvg/rsvg.h>
#include <cairo.h>

// librsvg and the libraries under it (GLib, GObject, GIO, gdk-pixbuf, Pango) report through g_log, whose default
// handler writes to stderr. A handler per domain drops their messages without touching the process's default handler
// or its structured writer (which may be set only once per process, and may be the application's).
static void wi_rsvg_drop_message(const gchar *domain, GLogLevelFlags level, const gchar *message, gpointer data) {
    (void)domain;
    (void)level;
    (void)message;
    (void)data;
}

static inline void wi_rsvg_silence_logs(void) {
    static const char *const domains[] = {
        "librsvg", "Rsvg", "GLib", "GLib-GObject", "GLib-GIO", "GdkPixbuf", "Pango", "cairo",
    };
    for (unsigned i = 0; i < sizeof(domains) / sizeof(domains[0]); i++) {
        g_log_set_handler(domains[i], (GLogLevelFlags)(G_LOG_LEVEL_MASK | G_LOG_FLAG_FATAL | G_LOG_FLAG_RECURSION),
                          wi_rsvg_drop_message, NULL);
    }
}
