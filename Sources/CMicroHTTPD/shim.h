#include <sys/types.h>
#include <sys/select.h>
#include <sys/socket.h>
#include <stdint.h>
#include <stdarg.h>
#include <microhttpd.h>

// libmicrohttpd is opened when `serve` (or a test server) first starts, not when storysite
// starts (HTTPServer's LibMicroHTTPD): linked, it and GnuTLS with the eight libraries GnuTLS
// needs took a millisecond of every run, and a build serves nothing. These are the functions
// storysite calls, as found in the library; the wrappers below call them with the types the
// header declares.
struct storysite_mhd {
    void *start_daemon;
    void *stop_daemon;
    void *get_daemon_info;
    void *get_connection_info;
    void *get_connection_values;
    void *suspend_connection;
    void *resume_connection;
    void *create_response_from_buffer;
    void *create_response_from_callback;
    void *add_response_header;
    void *queue_response;
    void *destroy_response;
};

// Swift cannot call C variadic functions, so MHD_start_daemon is reached through this fixed
// signature: an internal polling thread chosen by MHD (epoll on Linux) with suspend/resume,
// bound to `address` (its port 0 picks a free port), with a URI log callback that sees the raw,
// undecoded request URI, a completion callback that frees per-request state, a callback told
// of each connection opened and closed, connections idle for `idle_timeout` seconds closed,
// and at most `connection_limit` connections at once.
static inline struct MHD_Daemon *storysite_mhd_start_daemon(
    const struct storysite_mhd *mhd,
    unsigned int flags,
    const struct sockaddr *address,
    MHD_AccessHandlerCallback handler, void *handler_context,
    void *(*uri_logger)(void *context, const char *uri, struct MHD_Connection *connection),
    void *uri_logger_context,
    MHD_RequestCompletedCallback completed, void *completed_context,
    MHD_NotifyConnectionCallback connection_notified, void *connection_notified_context,
    unsigned int idle_timeout, unsigned int connection_limit)
{
    return ((__typeof__(&MHD_start_daemon))mhd->start_daemon)(flags, 0, NULL, NULL, handler, handler_context,
                            MHD_OPTION_SOCK_ADDR, address,
                            MHD_OPTION_URI_LOG_CALLBACK, uri_logger, uri_logger_context,
                            MHD_OPTION_NOTIFY_COMPLETED, completed, completed_context,
                            MHD_OPTION_NOTIFY_CONNECTION, connection_notified, connection_notified_context,
                            MHD_OPTION_CONNECTION_TIMEOUT, idle_timeout,
                            MHD_OPTION_CONNECTION_LIMIT, connection_limit,
                            MHD_OPTION_END);
}

static inline void storysite_mhd_stop_daemon(const struct storysite_mhd *mhd, struct MHD_Daemon *daemon)
{
    ((__typeof__(&MHD_stop_daemon))mhd->stop_daemon)(daemon);
}

// MHD_get_daemon_info is variadic too: the port the daemon listens on, or 0.
static inline uint16_t storysite_mhd_bound_port(const struct storysite_mhd *mhd, struct MHD_Daemon *daemon)
{
    const union MHD_DaemonInfo *info = ((__typeof__(&MHD_get_daemon_info))mhd->get_daemon_info)(daemon, MHD_DAEMON_INFO_BIND_PORT);
    return info == NULL ? 0 : info->port;
}

// MHD_get_connection_info is variadic as well: the client's address, or NULL.
static inline const struct sockaddr *storysite_mhd_client_address(const struct storysite_mhd *mhd, struct MHD_Connection *connection)
{
    const union MHD_ConnectionInfo *info = ((__typeof__(&MHD_get_connection_info))mhd->get_connection_info)(connection, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    return info == NULL ? NULL : info->client_addr;
}

static inline int storysite_mhd_get_connection_values(
    const struct storysite_mhd *mhd, struct MHD_Connection *connection, enum MHD_ValueKind kind,
    MHD_KeyValueIterator iterator, void *iterator_context)
{
    return ((__typeof__(&MHD_get_connection_values))mhd->get_connection_values)(connection, kind, iterator, iterator_context);
}

static inline void storysite_mhd_suspend_connection(const struct storysite_mhd *mhd, struct MHD_Connection *connection)
{
    ((__typeof__(&MHD_suspend_connection))mhd->suspend_connection)(connection);
}

static inline void storysite_mhd_resume_connection(const struct storysite_mhd *mhd, struct MHD_Connection *connection)
{
    ((__typeof__(&MHD_resume_connection))mhd->resume_connection)(connection);
}

// Always copies the bytes (MHD_RESPMEM_MUST_COPY): the caller's buffer need not outlive the call.
static inline struct MHD_Response *storysite_mhd_create_response_copying(const struct storysite_mhd *mhd, size_t size, const void *bytes)
{
    return ((__typeof__(&MHD_create_response_from_buffer))mhd->create_response_from_buffer)(size, (void *)bytes, MHD_RESPMEM_MUST_COPY);
}

static inline struct MHD_Response *storysite_mhd_create_response_from_callback(
    const struct storysite_mhd *mhd, uint64_t size, size_t block_size, MHD_ContentReaderCallback reader, void *reader_context,
    MHD_ContentReaderFreeCallback free_reader)
{
    return ((__typeof__(&MHD_create_response_from_callback))mhd->create_response_from_callback)(
        size, block_size, reader, reader_context, free_reader);
}

static inline enum MHD_Result storysite_mhd_add_response_header(
    const struct storysite_mhd *mhd, struct MHD_Response *response, const char *name, const char *value)
{
    return ((__typeof__(&MHD_add_response_header))mhd->add_response_header)(response, name, value);
}

static inline enum MHD_Result storysite_mhd_queue_response(
    const struct storysite_mhd *mhd, struct MHD_Connection *connection, unsigned int status, struct MHD_Response *response)
{
    return ((__typeof__(&MHD_queue_response))mhd->queue_response)(connection, status, response);
}

static inline void storysite_mhd_destroy_response(const struct storysite_mhd *mhd, struct MHD_Response *response)
{
    ((__typeof__(&MHD_destroy_response))mhd->destroy_response)(response);
}

// The macros below are casts, which Swift does not import.
static const uint64_t storysite_mhd_size_unknown = MHD_SIZE_UNKNOWN;
static const ssize_t storysite_mhd_end_of_stream = MHD_CONTENT_READER_END_OF_STREAM;
static const ssize_t storysite_mhd_end_with_error = MHD_CONTENT_READER_END_WITH_ERROR;
