// Socket activation (transport/listener.h): which sockets a service manager
// may hand eight-server, on real descriptors. The end-to-end check, the real
// binary started by systemd-socket-activate, is
// tests/packaging/socket_activation_test.sh.
#include <doctest/doctest.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <string>

#include "transport/listener.h"

using eight::server::ActivationEnvironment;
using eight::server::adopt_listener;
using eight::server::open_listener;

namespace {

// The environment systemd sets for process `pid` with `fds` sockets.
ActivationEnvironment for_process(pid_t pid, const std::string& fds = "1") {
  return {std::to_string(pid), fds};
}

std::string refusal(const ActivationEnvironment& env, int fd) {
  auto r = adopt_listener(env, ::getpid(), fd);
  REQUIRE_FALSE(r.ok());
  return r.error().message;
}

}  // namespace

TEST_CASE("without LISTEN_PID and LISTEN_FDS, or with another process's, no socket is adopted") {
  auto none = adopt_listener({}, ::getpid(), 1000);
  REQUIRE(none.ok());
  CHECK_FALSE(none->has_value());
  auto half = adopt_listener({std::to_string(::getpid()), std::nullopt}, ::getpid(), 1000);
  REQUIRE(half.ok());
  CHECK_FALSE(half->has_value());
  // Meant for a parent: not ours, whatever the descriptor is.
  auto parent = adopt_listener(for_process(::getpid() + 1), ::getpid(), 1000);
  REQUIRE(parent.ok());
  CHECK_FALSE(parent->has_value());
}

TEST_CASE("a listening TCP socket passed for this process is adopted: its port, close-on-exec") {
  auto own = open_listener("127.0.0.1", 0);
  REQUIRE(own.ok());
  // As systemd passes it: without close-on-exec.
  ::fcntl(own->fd, F_SETFD, 0);
  auto adopted = adopt_listener(for_process(::getpid()), ::getpid(), own->fd);
  REQUIRE(adopted.ok());
  REQUIRE(adopted->has_value());
  CHECK((*adopted)->fd == own->fd);
  CHECK((*adopted)->port == own->port);
  CHECK((*adopted)->host == "127.0.0.1");
  CHECK((::fcntl(own->fd, F_GETFD) & FD_CLOEXEC) != 0);
  ::close(own->fd);
}

TEST_CASE("LISTEN_FDS other than one socket, or not a number, is refused with the reason") {
  auto own = open_listener("127.0.0.1", 0);
  REQUIRE(own.ok());
  CHECK(refusal(for_process(::getpid(), "2"), own->fd).find("exactly one listening socket") !=
        std::string::npos);
  CHECK(refusal(for_process(::getpid(), "0"), own->fd).find("LISTEN_FDS is 0") !=
        std::string::npos);
  CHECK(refusal(for_process(::getpid(), "one"), own->fd).find("'one', not a number") !=
        std::string::npos);
  ::close(own->fd);
}

TEST_CASE("a descriptor that is not a listening TCP socket is refused, naming what it is") {
  int unix_pair[2];
  REQUIRE(::socketpair(AF_UNIX, SOCK_STREAM, 0, unix_pair) == 0);
  CHECK(refusal(for_process(::getpid()), unix_pair[0]).find("not a TCP socket") !=
        std::string::npos);
  ::close(unix_pair[0]);
  ::close(unix_pair[1]);

  const int udp = ::socket(AF_INET, SOCK_DGRAM, 0);
  REQUIRE(udp >= 0);
  CHECK(refusal(for_process(::getpid()), udp).find("not a stream socket") != std::string::npos);
  ::close(udp);

  const int unbound = ::socket(AF_INET6, SOCK_STREAM, 0);
  REQUIRE(unbound >= 0);
  CHECK(refusal(for_process(::getpid()), unbound).find("not listening") != std::string::npos);
  ::close(unbound);

  int pipe_fds[2];
  REQUIRE(::pipe(pipe_fds) == 0);
  CHECK(refusal(for_process(::getpid()), pipe_fds[0])
            .find("descriptor " + std::to_string(pipe_fds[0]) + " is not a socket") !=
        std::string::npos);
  ::close(pipe_fds[0]);
  ::close(pipe_fds[1]);
}
