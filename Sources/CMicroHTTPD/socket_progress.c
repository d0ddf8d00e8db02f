// Kept apart from the loader: <linux/tcp.h> has the kernel's whole struct tcp_info (glibc's
// <netinet/tcp.h> stops before the acknowledged-byte count), and the two headers clash.
#include "CMicroHTTPD.h"

#include <errno.h>
#include <linux/sockios.h>
#include <linux/tcp.h>
#include <netinet/in.h>
#include <stddef.h>
#include <sys/ioctl.h>

int pl_socket_send_progress(int socket, uint64_t *acknowledged, uint64_t *waiting) {
    struct tcp_info info = {0};
    socklen_t length = sizeof info;
    if (getsockopt(socket, IPPROTO_TCP, TCP_INFO, &info, &length) != 0) return errno;
    // A kernel older than 4.1 fills less of the struct: without the count, no progress is seen.
    if (length < offsetof(struct tcp_info, tcpi_bytes_acked) + sizeof info.tcpi_bytes_acked) return ENOTSUP;
    int queued = 0;
    if (ioctl(socket, SIOCOUTQ, &queued) != 0) return errno;
    *acknowledged = info.tcpi_bytes_acked;
    *waiting = queued > 0 ? (uint64_t)queued : 0;
    return 0;
}
