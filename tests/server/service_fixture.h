// The API of eight-server in process: a Service over a table loaded here,
// asked with hand-built requests, no socket and no child process.
//
// ServiceFixture owns what a Service refers to (the table slot and the
// metrics). Its client() answers the calls the HTTP tests make of an
// httplib::Client (Get, Post, Options, Head, with headers and a body) with
// an httplib::Result, so their assertions read the same: status,
// get_header_value, has_header, body.
//
// What the client gives back is exactly what the Service wrote. The
// transport adds to that on the wire (transport/response_writer.h):
// Content-Length, Connection, Keep-Alive and Date, a HEAD answer without its
// body, no Content-Length on a 304; and it refuses some requests before the
// Service sees them (a request line over 8 KiB, a body over the limit, a
// target that does not parse, a full compute pool). A test that asserts any
// of those, or the access log or the metrics a request leaves, stays an HTTP
// test (server_fixture.h). A target that does not parse fails the test here.
#pragma once

#include <httplib.h>

#include <atomic>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "api/service.h"
#include "server_fixture.h"

namespace eight::test {

using Pairs = std::vector<std::pair<std::string, std::string>>;

// A request for `path` with `params` percent-encoded into the target, and
// `headers`.
server::Request get(std::string_view path, Pairs params = {}, Pairs headers = {},
                    boost::beast::http::verb method = boost::beast::http::verb::get);

// `req` answered by `service` (plan, then run; never cancelled).
server::Response call(const server::Service& service, const server::Request& req);

// The bytes the transport would send as the body (of a GET).
std::string body_of(const server::Response& res);

class ServiceFixture;

// What an httplib::Client asks of a server, asked of a ServiceFixture's
// Service. Targets go as written (as ServerProcess::client() sends them). The
// headers the client library would send are added unless given: Host,
// Accept: */*, User-Agent, and for a body Content-Type and Content-Length.
class InProcessClient {
 public:
  explicit InProcessClient(const server::Service& service) : service_(&service) {}

  httplib::Result Get(const std::string& target, const httplib::Headers& headers = {}) const;
  // The Service's answer, body included: the transport drops a HEAD body.
  httplib::Result Head(const std::string& target, const httplib::Headers& headers = {}) const;
  httplib::Result Options(const std::string& target, const httplib::Headers& headers = {}) const;
  httplib::Result Post(const std::string& target, const std::string& body,
                       const std::string& content_type) const;
  httplib::Result Post(const std::string& target, const httplib::Headers& headers,
                       const std::string& body, const std::string& content_type) const;

  // Any method, as the others do.
  httplib::Result send(boost::beast::http::verb method, const std::string& target,
                       const httplib::Headers& headers, const std::string& body = {},
                       const std::string& content_type = {}) const;

 private:
  const server::Service* service_;
};

// A Service over tables loaded in process, as eight-server --table `table`
// (or --tables, for a folder source) [--max-budget `max_budget`] builds it.
class ServiceFixture {
 public:
  explicit ServiceFixture(const std::string& table = server_table_path(),
                          std::uint64_t max_budget = kMaxSearchNodes)
      : ServiceFixture(TableSource{table, false}, max_budget) {}
  explicit ServiceFixture(const TableSource& source, std::uint64_t max_budget = kMaxSearchNodes);
  ServiceFixture(const ServiceFixture&) = delete;
  ServiceFixture& operator=(const ServiceFixture&) = delete;

  // A GET of `route` with `params` and `headers`.
  server::Response call(server::Route route, Pairs params = {}, Pairs headers = {}) const;
  InProcessClient client() const { return InProcessClient(service); }

  server::TableSlot slot;
  server::Metrics metrics;
  server::Service service;
};

}  // namespace eight::test
