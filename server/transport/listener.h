// The listening socket: one per server, shared by every I/O thread.
//
// SO_REUSEADDR only: a restarted server binds while old connections sit in
// TIME_WAIT, but a second server on a port in use fails (EADDRINUSE) instead
// of sharing the traffic, as SO_REUSEPORT would let it. TCP_NODELAY is set
// on the listener: Linux copies it to every accepted socket, so answers are
// never held back by Nagle's algorithm, at no cost per connection.
//
// Socket activation (systemd's eight-server.socket, or systemd-socket-activate):
// the listening socket may instead be handed over at start, as sd_listen_fds(3)
// describes. That protocol is two environment variables and a fixed
// descriptor, so it is implemented here rather than linking libsystemd: the
// binary keeps the same libraries in the container image, which has no
// systemd, and on a machine that has.
//
// Thread safety: open_listener and adopt_listener are pure functions of their
// arguments; take_inherited_listener reads and changes the environment, so it
// must run before any other thread starts.
#pragma once

#include <sys/types.h>

#include <optional>
#include <string>

#include "eight/result.h"

namespace eight::server {

struct ListeningSocket {
  int fd = -1;       // the caller owns it
  int port = 0;      // the port bound (the one picked, for port 0)
  std::string host;  // as given, for messages
};

// Binds and listens on host:port (port 0: any free port). `host` is an
// address ("127.0.0.1", "0.0.0.0", "::1") or a name to resolve. Fails
// (kIo) with "cannot listen on HOST:PORT: <reason>".
Result<ListeningSocket> open_listener(const std::string& host, int port);

// The first descriptor a service manager passes (SD_LISTEN_FDS_START).
inline constexpr int kListenFdsStart = 3;

// What sd_listen_fds(3) reads: $LISTEN_PID and $LISTEN_FDS (nullopt when unset).
struct ActivationEnvironment {
  std::optional<std::string> listen_pid;
  std::optional<std::string> listen_fds;
};

// The socket handed to process `self` by `env`, at descriptor `first_fd`:
//   - nullopt when LISTEN_PID or LISTEN_FDS is unset, or LISTEN_PID names
//     another process (the variables were meant for a parent): the caller
//     binds its own address;
//   - the socket, marked close-on-exec, with TCP_NODELAY set and its bound
//     address and port, when LISTEN_FDS is 1 and `first_fd` is a listening
//     TCP (IPv4 or IPv6) socket;
//   - an error (kIo) naming the problem otherwise: a LISTEN_FDS that is not
//     a number, 0 or more than one socket, or a descriptor that is not a
//     listening TCP socket (a UNIX or datagram socket, a file).
Result<std::optional<ListeningSocket>> adopt_listener(const ActivationEnvironment& env, pid_t self,
                                                      int first_fd = kListenFdsStart);

// adopt_listener on this process's environment, then unsets LISTEN_PID,
// LISTEN_FDS and LISTEN_FDNAMES when they were meant for this process, so
// nothing this process starts inherits them (sd_listen_fds(1) does the same).
Result<std::optional<ListeningSocket>> take_inherited_listener();

// "[::1]" for an IPv6 address, the host itself otherwise: for URLs.
std::string url_host(const std::string& host);

}  // namespace eight::server
