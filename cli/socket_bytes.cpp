// A file of its own: <linux/tcp.h> has tcpi_bytes_received, glibc's
// <netinet/tcp.h> (which httplib.h includes) does not, and the two cannot
// be included together.
#include "socket_bytes.h"

#include <linux/tcp.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include <cstddef>

namespace eight::cli {

std::optional<std::uint64_t> tcp_bytes_received(int fd) {
  tcp_info info{};
  socklen_t len = sizeof info;
  if (::getsockopt(fd, IPPROTO_TCP, TCP_INFO, &info, &len) != 0 ||
      len < offsetof(tcp_info, tcpi_bytes_received) + sizeof info.tcpi_bytes_received) {
    return std::nullopt;
  }
  return info.tcpi_bytes_received;
}

}  // namespace eight::cli
