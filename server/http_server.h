// Wiring a Service into an httplib::Server: routes, error and exception
// handlers, the access log, metrics, and every socket setting, each chosen
// deliberately for httplib 0.11's thread-per-connection model (see
// http_server.cpp for the reasons).
#pragma once

#include <httplib.h>

#include <atomic>
#include <chrono>

#include "connection_loop.h"
#include "metrics.h"
#include "service.h"

namespace eight::server {

class AccessLog;

struct ServerConfig {
  int threads = 64;
  // Where each request's line goes (access_log_line()); null for none. Must
  // outlive the server.
  AccessLog* access_log = nullptr;
};

// Connection limits, in one place so docs/api.md and the tests can cite them.
// Each open connection is served on one pool thread until the client closes
// it, it has served kKeepAliveMaxCount requests, or it has been idle for
// kKeepAliveTimeout (or less: see connection_loop.h). A request's line and
// headers must arrive within kHeadTimeout of its first byte, and a body at
// kMinBodyRate bytes per second on average.
inline constexpr std::size_t kKeepAliveMaxCount = 1000;
inline constexpr std::chrono::seconds kKeepAliveTimeout{1};
inline constexpr std::chrono::seconds kReadTimeout{1};
inline constexpr std::chrono::seconds kHeadTimeout{2};
inline constexpr std::size_t kMinBodyRate = 64 * 1024;
inline constexpr std::chrono::seconds kWriteTimeout{5};
inline constexpr std::size_t kPayloadMaxLength = kMaxBatchBytes;

// Configures `svr` to serve `service`, counting every request in `metrics`.
// `service` and `metrics` must outlive `svr`. Call before binding.
// `listen_socket`, when given, receives the listening socket's descriptor
// when httplib creates it (for raising the listen backlog after binding).
void configure(HttpServer& svr, const Service& service, Metrics& metrics,
               const ServerConfig& config, std::atomic<int>* listen_socket = nullptr);

// The access log line for one request, without the newline:
// "GET /solve?board=123456780 200 41us". The target is shown as received,
// with bytes outside printable ASCII as \xNN and cut after 256 characters.
std::string access_log_line(const httplib::Request& req, int status,
                            std::chrono::microseconds elapsed);

}  // namespace eight::server
