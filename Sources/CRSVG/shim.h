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

// libxml2, which librsvg parses with, reports some errors (a document whose declared encoding cannot convert its bytes)
// through its generic error function, which prints to stderr. Its prototypes are declared here rather than included,
// so that the module needs no libxml2 include path. The function is per thread: `wi_rsvg_silence_xml_errors` sets it
// for the calling thread, and `wi_rsvg_silence_logs` makes the no-op the default of threads started afterwards.
typedef void (*wi_xml_error_function)(void *context, const char *message, ...);
extern void xmlSetGenericErrorFunc(void *context, wi_xml_error_function handler);
extern void xmlThrDefSetGenericErrorFunc(void *context, wi_xml_error_function handler);

static void wi_rsvg_drop_xml_error(void *context, const char *message, ...) {
    (void)context;
    (void)message;
}

static inline void wi_rsvg_silence_xml_errors(void) {
    xmlSetGenericErrorFunc(NULL, wi_rsvg_drop_xml_error);
}

static inline void wi_rsvg_silence_logs(void) {
    xmlThrDefSetGenericErrorFunc(NULL, wi_rsvg_drop_xml_error);
    static const char *const domains[] = {
        "librsvg", "Rsvg", "GLib", "GLib-GObject", "GLib-GIO", "GdkPixbuf", "Pango", "cairo",
    };
    for (unsigned i = 0; i < sizeof(domains) / sizeof(domains[0]); i++) {
        g_log_set_handler(domains[i], (GLogLevelFlags)(G_LOG_LEVEL_MASK | G_LOG_FLAG_FATAL | G_LOG_FLAG_RECURSION),
                          wi_rsvg_drop_message, NULL);
    }
}
