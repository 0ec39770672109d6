#ifndef STORERULES_CMICROHTTPD_SHIM_H
#define STORERULES_CMICROHTTPD_SHIM_H

#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <microhttpd.h>

/* libmicrohttpd takes its options through C variadic arguments, which Swift cannot pass: these
 * functions take the options StoreRules sets as plain parameters. */

/* Starts a daemon with an internal epoll thread pool of `threads` threads, listening on
 * `address`; `tls_key` and `tls_cert` (PEM) turn TLS on when both are given. NULL on failure. */
static inline struct MHD_Daemon *storerules_mhd_start(
    unsigned int flags, const struct sockaddr *address,
    MHD_AccessHandlerCallback handler, void *handler_context,
    MHD_RequestCompletedCallback completed,
    unsigned int threads, unsigned int connection_limit, unsigned int timeout_seconds,
    size_t connection_memory_limit, const char *tls_key, const char *tls_cert)
{
    if (tls_key != NULL && tls_cert != NULL) {
        return MHD_start_daemon(flags | MHD_USE_TLS, 0, NULL, NULL, handler, handler_context,
                                MHD_OPTION_SOCK_ADDR, address,
                                MHD_OPTION_NOTIFY_COMPLETED, completed, handler_context,
                                MHD_OPTION_THREAD_POOL_SIZE, threads,
                                MHD_OPTION_CONNECTION_LIMIT, connection_limit,
                                MHD_OPTION_CONNECTION_TIMEOUT, timeout_seconds,
                                MHD_OPTION_CONNECTION_MEMORY_LIMIT, connection_memory_limit,
                                MHD_OPTION_HTTPS_MEM_KEY, tls_key,
                                MHD_OPTION_HTTPS_MEM_CERT, tls_cert,
                                MHD_OPTION_END);
    }
    return MHD_start_daemon(flags, 0, NULL, NULL, handler, handler_context,
                            MHD_OPTION_SOCK_ADDR, address,
                            MHD_OPTION_NOTIFY_COMPLETED, completed, handler_context,
                            MHD_OPTION_THREAD_POOL_SIZE, threads,
                            MHD_OPTION_CONNECTION_LIMIT, connection_limit,
                            MHD_OPTION_CONNECTION_TIMEOUT, timeout_seconds,
                            MHD_OPTION_CONNECTION_MEMORY_LIMIT, connection_memory_limit,
                            MHD_OPTION_END);
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
