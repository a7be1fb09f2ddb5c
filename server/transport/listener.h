// The listening socket: one per server, shared by every I/O thread.
//
// SO_REUSEADDR only: a restarted server binds while old connections sit in
// TIME_WAIT, but a second server on a port in use fails (EADDRINUSE) instead
// of sharing the traffic, as SO_REUSEPORT would let it. TCP_NODELAY is set
// on the listener: Linux copies it to every accepted socket, so answers are
// never held back by Nagle's algorithm, at no cost per connection.
//
// Thread safety: open_listener is a pure function of its arguments.
#pragma once

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

// "[::1]" for an IPv6 address, the host itself otherwise: for URLs.
std::string url_host(const std::string& host);

}  // namespace eight::server
