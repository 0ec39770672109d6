#ifndef STORERULES_CMICROHTTPD_SHIM_H
#define STORERULES_CMICROHTTPD_SHIM_H

#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <arpa/inet.h>
#include <microhttpd.h>

/* libmicrohttpd takes its options through C variadic arguments, which Swift cannot pass: these
 * functions take the options StoreRules sets as plain parameters. */

/* The unescape callback that keeps percent escapes: the path and query arguments reach the
 * router as the client wrote them, and it decodes them strictly (libmicrohttpd's own decoding
 * would end a path at an escaped NUL and pass bytes that are not UTF-8). */
static size_t storerules_mhd_keep_escapes(void *context, struct MHD_Connection *connection, char *text)
{
    (void)context;
    (void)connection;
    size_t length = 0;
    while (text[length] != '\0') {
        length++;
    }
    return length;
}

/* Starts a daemon with an internal epoll thread pool of `threads` threads, accepting on the
 * bound and listening `listen_socket`, in libmicrohttpd's strict mode for clients; `notify` hears each connection open
 * and close; `tls_key` and `tls_cert` (PEM) turn TLS on when both are given. NULL on failure. */
static inline struct MHD_Daemon *storerules_mhd_start(
    unsigned int flags, int listen_socket,
    MHD_AccessHandlerCallback handler, void *handler_context,
    MHD_RequestCompletedCallback completed, MHD_NotifyConnectionCallback notify,
    unsigned int threads, unsigned int connection_limit, unsigned int timeout_seconds,
    size_t connection_memory_limit, const char *tls_key, const char *tls_cert)
{
    if (tls_key != NULL && tls_cert != NULL) {
        return MHD_start_daemon(flags | MHD_USE_TLS, 0, NULL, NULL, handler, handler_context,
                                MHD_OPTION_LISTEN_SOCKET, listen_socket,
                                MHD_OPTION_NOTIFY_COMPLETED, completed, handler_context,
                                MHD_OPTION_NOTIFY_CONNECTION, notify, handler_context,
                                MHD_OPTION_THREAD_POOL_SIZE, threads,
                                MHD_OPTION_CONNECTION_LIMIT, connection_limit,
                                MHD_OPTION_CONNECTION_TIMEOUT, timeout_seconds,
                                MHD_OPTION_CONNECTION_MEMORY_LIMIT, connection_memory_limit,
                                MHD_OPTION_UNESCAPE_CALLBACK, storerules_mhd_keep_escapes, NULL,
                                MHD_OPTION_STRICT_FOR_CLIENT, (int)1,
                                MHD_OPTION_HTTPS_MEM_KEY, tls_key,
                                MHD_OPTION_HTTPS_MEM_CERT, tls_cert,
                                MHD_OPTION_END);
    }
    return MHD_start_daemon(flags, 0, NULL, NULL, handler, handler_context,
                            MHD_OPTION_LISTEN_SOCKET, listen_socket,
                            MHD_OPTION_NOTIFY_COMPLETED, completed, handler_context,
                            MHD_OPTION_NOTIFY_CONNECTION, notify, handler_context,
                            MHD_OPTION_THREAD_POOL_SIZE, threads,
                            MHD_OPTION_CONNECTION_LIMIT, connection_limit,
                            MHD_OPTION_CONNECTION_TIMEOUT, timeout_seconds,
                            MHD_OPTION_CONNECTION_MEMORY_LIMIT, connection_memory_limit,
                            MHD_OPTION_UNESCAPE_CALLBACK, storerules_mhd_keep_escapes, NULL,
                            MHD_OPTION_STRICT_FOR_CLIENT, (int)1,
                            MHD_OPTION_END);
}

/* The socket of a connection; -1 when unknown. */
static inline int storerules_mhd_connection_socket(struct MHD_Connection *connection)
{
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
    return info == NULL ? -1 : info->connect_fd;
}

/* The client's address of a connection; NULL when unknown. */
static inline const struct sockaddr *storerules_mhd_client_address(struct MHD_Connection *connection)
{
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    return info == NULL ? NULL : info->client_addr;
}

/* The context set for a connection's socket when it opened; NULL when none. */
static inline void *storerules_mhd_socket_context(struct MHD_Connection *connection)
{
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
    return info == NULL ? NULL : info->socket_context;
}

/* The port the daemon listens on (the one chosen when asked for port 0); 0 when unknown. */
static inline uint16_t storerules_mhd_bound_port(struct MHD_Daemon *daemon)
{
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
    return info == NULL ? 0 : info->port;
}

/* How many connections the daemon has open now. */
static inline unsigned int storerules_mhd_open_connections(struct MHD_Daemon *daemon)
{
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_CURRENT_CONNECTIONS);
    return info == NULL ? 0 : info->num_connections;
}

#endif
