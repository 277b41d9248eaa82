#ifndef PAGEHOST_CLIBWEBSOCKETS_SHIM_H
#define PAGEHOST_CLIBWEBSOCKETS_SHIM_H
// libwebsockets 4.1 for Swift. The helpers below stand in for macros Swift cannot import (LWS_PRE is an
// expression) and give lws_write one call per kind of write. Every lws call here must run on the thread that
// services the lws context: Pagehost's GLib main-loop thread.
#include <libwebsockets.h>

/// Bytes lws needs free before any buffer passed to lws_write (16 on 64-bit Linux).
static inline size_t pagehost_lws_pre(void) { return LWS_PRE; }

/// Writes one whole WebSocket text message; `buf` must have pagehost_lws_pre() writable bytes before it.
static inline int pagehost_lws_write_text(struct lws *wsi, unsigned char *buf, size_t len) {
    return lws_write(wsi, buf, len, LWS_WRITE_TEXT);
}

/// Writes HTTP body bytes; `final` marks the last chunk of the response.
static inline int pagehost_lws_write_http(struct lws *wsi, unsigned char *buf, size_t len, int final) {
    return lws_write(wsi, buf, len, final ? LWS_WRITE_HTTP_FINAL : LWS_WRITE_HTTP);
}

/// Writes an already formatted block of HTTP response headers.
static inline int pagehost_lws_write_http_headers(struct lws *wsi, unsigned char *buf, size_t len) {
    return lws_write(wsi, buf, len, LWS_WRITE_HTTP_HEADERS);
}

/// The context options Pagehost uses: lws as a guest on a GLib main loop given in foreign_loops.
static inline uint64_t pagehost_lws_option_glib(void) { return LWS_SERVER_OPTION_GLIB; }

/// IPv4 only. libwebsockets 4.1 with IPv6 enabled ignores an IPv4 `iface` and listens on every address
/// (`[::]`, dual-stack): 127.0.0.1 has to be an IPv4 socket to be bound to.
static inline uint64_t pagehost_lws_option_ipv4_only(void) { return LWS_SERVER_OPTION_DISABLE_IPV6; }

/// Log levels: errors and warnings only.
static inline int pagehost_lws_log_errors_and_warnings(void) { return LLL_ERR | LLL_WARN; }

#endif
