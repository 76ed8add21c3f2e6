#ifndef CMICROHTTPD_SHIM_H
#define CMICROHTTPD_SHIM_H
#include <stdarg.h>
#include <stdint.h>
#include <sys/types.h>
#include <sys/socket.h>
#include <microhttpd.h>

/* The signature MHD_OPTION_URI_LOG_CALLBACK expects; microhttpd.h only describes it in prose. */
typedef void *(*cmhd_uri_log_callback)(void *cls, const char *uri, struct MHD_Connection *connection);

/*
 * MHD_start_daemon is variadic, which Swift cannot call. This wrapper passes the fixed set of
 * options the HTTPServer module uses: the listen address, the connection limits (in all and per
 * client address), idle timeout, per-connection memory, the request-completed, connection and URI
 * callbacks, and the error logger. Every callback receives `context` as its closure argument.
 * With `tls_key_pem` and `tls_cert_pem` (both PEM text, or both NULL) it serves HTTPS; the caller
 * adds MHD_USE_TLS to `flags`. Returns NULL on failure.
 */
static inline struct MHD_Daemon *cmhd_start_daemon(
    unsigned int flags, uint16_t port, const struct sockaddr *address,
    MHD_AccessHandlerCallback handler, void *context,
    unsigned int connection_limit, unsigned int per_ip_connection_limit,
    unsigned int connection_timeout, size_t connection_memory_limit,
    MHD_RequestCompletedCallback completed, MHD_NotifyConnectionCallback connection_notify,
    cmhd_uri_log_callback uri_logger, MHD_LogCallback error_logger,
    const char *tls_key_pem, const char *tls_cert_pem)
{
    /* The TLS options go in an option array, which can be empty: a variadic list cannot be optional. */
    struct MHD_OptionItem tls[3] = {
        {MHD_OPTION_END, 0, NULL}, {MHD_OPTION_END, 0, NULL}, {MHD_OPTION_END, 0, NULL},
    };
    if (tls_key_pem != NULL && tls_cert_pem != NULL) {
        tls[0] = (struct MHD_OptionItem){MHD_OPTION_HTTPS_MEM_KEY, 0, (void *)tls_key_pem};
        tls[1] = (struct MHD_OptionItem){MHD_OPTION_HTTPS_MEM_CERT, 0, (void *)tls_cert_pem};
    }
    /* The logger comes first: libmicrohttpd warns about any option given before it. */
    return MHD_start_daemon(flags, port, NULL, NULL, handler, context,
                            MHD_OPTION_EXTERNAL_LOGGER, error_logger, context,
                            MHD_OPTION_SOCK_ADDR, address,
                            MHD_OPTION_CONNECTION_LIMIT, connection_limit,
                            MHD_OPTION_PER_IP_CONNECTION_LIMIT, per_ip_connection_limit,
                            MHD_OPTION_CONNECTION_TIMEOUT, connection_timeout,
                            MHD_OPTION_CONNECTION_MEMORY_LIMIT, connection_memory_limit,
                            MHD_OPTION_NOTIFY_COMPLETED, completed, context,
                            MHD_OPTION_NOTIFY_CONNECTION, connection_notify, context,
                            MHD_OPTION_URI_LOG_CALLBACK, uri_logger, context,
                            MHD_OPTION_ARRAY, tls,
                            MHD_OPTION_END);
}

/* MHD_get_daemon_info is variadic; every query the module makes takes no extra argument. */
static inline const union MHD_DaemonInfo *cmhd_daemon_info(struct MHD_Daemon *daemon, enum MHD_DaemonInfoType type)
{
    return MHD_get_daemon_info(daemon, type);
}

/* MHD_get_connection_info is variadic; every query the module makes takes no extra argument. */
static inline const union MHD_ConnectionInfo *cmhd_connection_info(struct MHD_Connection *connection,
                                                                   enum MHD_ConnectionInfoType type)
{
    return MHD_get_connection_info(connection, type);
}

#endif
