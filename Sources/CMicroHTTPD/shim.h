#include <sys/types.h>
#include <sys/select.h>
#include <sys/socket.h>
#include <stdint.h>
#include <stdarg.h>
#include <microhttpd.h>

// Swift cannot call C variadic functions, so MHD_start_daemon is reached through this fixed
// signature: an internal polling thread chosen by MHD (epoll on Linux) with suspend/resume,
// bound to `address` (its port 0 picks a free port), with a URI log callback that sees the raw,
// undecoded request URI, a completion callback that frees per-request state, a callback told
// of each connection opened and closed, connections idle for `idle_timeout` seconds closed,
// and at most `connection_limit` connections at once.
static inline struct MHD_Daemon *storysite_mhd_start_daemon(
    unsigned int flags,
    const struct sockaddr *address,
    MHD_AccessHandlerCallback handler, void *handler_context,
    void *(*uri_logger)(void *context, const char *uri, struct MHD_Connection *connection),
    void *uri_logger_context,
    MHD_RequestCompletedCallback completed, void *completed_context,
    MHD_NotifyConnectionCallback connection_notified, void *connection_notified_context,
    unsigned int idle_timeout, unsigned int connection_limit)
{
    return MHD_start_daemon(flags, 0, NULL, NULL, handler, handler_context,
                            MHD_OPTION_SOCK_ADDR, address,
                            MHD_OPTION_URI_LOG_CALLBACK, uri_logger, uri_logger_context,
                            MHD_OPTION_NOTIFY_COMPLETED, completed, completed_context,
                            MHD_OPTION_NOTIFY_CONNECTION, connection_notified, connection_notified_context,
                            MHD_OPTION_CONNECTION_TIMEOUT, idle_timeout,
                            MHD_OPTION_CONNECTION_LIMIT, connection_limit,
                            MHD_OPTION_END);
}

// MHD_get_daemon_info is variadic too: the port the daemon listens on, or 0.
static inline uint16_t storysite_mhd_bound_port(struct MHD_Daemon *daemon)
{
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
    return info == NULL ? 0 : info->port;
}

// MHD_get_connection_info is variadic as well: the client's address, or NULL.
static inline const struct sockaddr *storysite_mhd_client_address(struct MHD_Connection *connection)
{
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    return info == NULL ? NULL : info->client_addr;
}

// The macros below are casts, which Swift does not import.
static const uint64_t storysite_mhd_size_unknown = MHD_SIZE_UNKNOWN;
static const ssize_t storysite_mhd_end_of_stream = MHD_CONTENT_READER_END_OF_STREAM;
static const ssize_t storysite_mhd_end_with_error = MHD_CONTENT_READER_END_WITH_ERROR;
