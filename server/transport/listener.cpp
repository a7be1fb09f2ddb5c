#include "listener.h"

#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace eight::server {

std::string url_host(const std::string& host) {
  return host.find(':') != std::string::npos ? "[" + host + "]" : host;
}

Result<ListeningSocket> open_listener(const std::string& host, int port) {
  const auto fail = [&](const std::string& why) {
    return make_error(ErrorCode::kIo, "cannot listen on " + url_host(host) + ":" +
                                          std::to_string(port) + ": " + why);
  };
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  hints.ai_flags = AI_PASSIVE;
  addrinfo* list = nullptr;
  const std::string service = std::to_string(port);
  if (const int rc = ::getaddrinfo(host.c_str(), service.c_str(), &hints, &list); rc != 0) {
    return fail(std::string("cannot resolve the address: ") + ::gai_strerror(rc));
  }
  int err = EADDRNOTAVAIL;
  int fd = -1;
  for (addrinfo* ai = list; ai != nullptr && fd < 0; ai = ai->ai_next) {
    fd = ::socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC, ai->ai_protocol);
    if (fd < 0) {
      err = errno;
      continue;
    }
    const int yes = 1;
    ::setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
    ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &yes, sizeof yes);
    // The kernel caps the backlog at net.core.somaxconn (4096 on current
    // kernels): a burst of new connections (a balancer opening its pool)
    // waits in it rather than in SYN retransmits.
    if (::bind(fd, ai->ai_addr, ai->ai_addrlen) != 0 || ::listen(fd, SOMAXCONN) != 0) {
      err = errno;
      ::close(fd);
      fd = -1;
    }
  }
  ::freeaddrinfo(list);
  if (fd < 0) {
    return fail(std::string(std::strerror(err)) +
                (err == EADDRINUSE ? " (another server is using this port)" : ""));
  }
  sockaddr_storage addr{};
  socklen_t len = sizeof addr;
  ListeningSocket out;
  out.fd = fd;
  out.host = host;
  out.port = port;
  if (::getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len) == 0) {
    if (addr.ss_family == AF_INET)
      out.port = ntohs(reinterpret_cast<sockaddr_in*>(&addr)->sin_port);
    if (addr.ss_family == AF_INET6) {
      out.port = ntohs(reinterpret_cast<sockaddr_in6*>(&addr)->sin6_port);
    }
  }
  return out;
}

}  // namespace eight::server
