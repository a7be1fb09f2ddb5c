#include "listener.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>

#include "common/text.h"

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

namespace {

// The numeric address and the port a socket is bound to.
bool bound_address(int fd, std::string& host, int& port) {
  sockaddr_storage addr{};
  socklen_t len = sizeof addr;
  if (::getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len) != 0) return false;
  char text[INET6_ADDRSTRLEN] = {};
  if (addr.ss_family == AF_INET) {
    const auto* in = reinterpret_cast<const sockaddr_in*>(&addr);
    ::inet_ntop(AF_INET, &in->sin_addr, text, sizeof text);
    port = ntohs(in->sin_port);
  } else if (addr.ss_family == AF_INET6) {
    const auto* in6 = reinterpret_cast<const sockaddr_in6*>(&addr);
    ::inet_ntop(AF_INET6, &in6->sin6_addr, text, sizeof text);
    port = ntohs(in6->sin6_port);
  } else {
    return false;
  }
  host = text;
  return true;
}

int socket_option(int fd, int level, int name) {
  int value = 0;
  socklen_t len = sizeof value;
  return ::getsockopt(fd, level, name, &value, &len) == 0 ? value : -1;
}

}  // namespace

Result<std::optional<ListeningSocket>> adopt_listener(const ActivationEnvironment& env, pid_t self,
                                                      int first_fd) {
  if (!env.listen_pid || !env.listen_fds) return std::optional<ListeningSocket>{};
  const auto pid = parse_decimal(*env.listen_pid);
  if (!pid || *pid != static_cast<std::uint64_t>(self)) return std::optional<ListeningSocket>{};
  const auto fail = [](const std::string& why) {
    return make_error(ErrorCode::kIo,
                      "cannot use the socket passed by the service manager: " + why);
  };
  const auto count = parse_decimal(*env.listen_fds);
  if (!count)
    return fail("LISTEN_FDS is '" + escape_bytes(*env.listen_fds, 40) + "', not a number");
  if (*count != 1) {
    return fail("LISTEN_FDS is " + std::to_string(*count) +
                ": eight-server takes exactly one listening socket (ListenStream= once)");
  }
  const int fd = first_fd;
  const std::string which = "descriptor " + std::to_string(fd);
  const int domain = socket_option(fd, SOL_SOCKET, SO_DOMAIN);
  if (domain < 0) return fail(which + " is not a socket: " + std::strerror(errno));
  if (domain != AF_INET && domain != AF_INET6) {
    return fail(which + " is not a TCP socket (IPv4 or IPv6): eight-server serves TCP only");
  }
  if (socket_option(fd, SOL_SOCKET, SO_TYPE) != SOCK_STREAM) {
    return fail(which + " is not a stream socket (ListenStream=, not ListenDatagram=)");
  }
  if (socket_option(fd, SOL_SOCKET, SO_ACCEPTCONN) != 1) {
    return fail(which + " is not listening (Accept=no is what eight-server needs)");
  }
  // Handed over without close-on-exec, as sd_listen_fds(3) leaves it to us.
  if (const int flags = ::fcntl(fd, F_GETFD);
      flags < 0 || ::fcntl(fd, F_SETFD, flags | FD_CLOEXEC) != 0) {
    return fail(which + ": " + std::strerror(errno));
  }
  // As for our own listener: accepted sockets inherit it.
  const int yes = 1;
  ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &yes, sizeof yes);
  ListeningSocket out;
  out.fd = fd;
  if (!bound_address(fd, out.host, out.port)) return fail(which + ": " + std::strerror(errno));
  return std::optional<ListeningSocket>(std::move(out));
}

Result<std::optional<ListeningSocket>> take_inherited_listener() {
  const auto get = [](const char* name) -> std::optional<std::string> {
    const char* v = std::getenv(name);
    return v != nullptr ? std::optional<std::string>(v) : std::nullopt;
  };
  const ActivationEnvironment env{get("LISTEN_PID"), get("LISTEN_FDS")};
  const pid_t self = ::getpid();
  auto adopted = adopt_listener(env, self);
  const auto pid = env.listen_pid ? parse_decimal(*env.listen_pid) : std::nullopt;
  if (pid && *pid == static_cast<std::uint64_t>(self)) {
    ::unsetenv("LISTEN_PID");
    ::unsetenv("LISTEN_FDS");
    ::unsetenv("LISTEN_FDNAMES");
  }
  return adopted;
}

}  // namespace eight::server
