#include "service_fixture.h"

#include <doctest/doctest.h>

#include <memory>

namespace eight::test {

namespace http = boost::beast::http;
using server::make_request;
using server::Request;
using server::Response;

namespace {

const std::atomic<bool> kNotCancelled{false};

}  // namespace

Request get(std::string_view path, Pairs params, Pairs headers, http::verb method) {
  std::string target(path);
  for (std::size_t i = 0; i < params.size(); ++i) {
    target +=
        (i == 0 ? '?' : '&') + url_encode(params[i].first) + "=" + url_encode(params[i].second);
  }
  http::fields fields;
  for (auto& [k, v] : headers) fields.insert(k, v);
  return make_request(method, target, std::move(fields));
}

Response call(const server::Service& service, const Request& req) {
  Response res;
  service.handle(req, res, kNotCancelled);
  return res;
}

std::string body_of(const Response& res) {
  if (res.external.data() != nullptr) return std::string(res.external.begin(), res.external.end());
  return res.body;
}

httplib::Result InProcessClient::Get(const std::string& target,
                                     const httplib::Headers& headers) const {
  return send(http::verb::get, target, headers);
}

httplib::Result InProcessClient::Head(const std::string& target,
                                      const httplib::Headers& headers) const {
  return send(http::verb::head, target, headers);
}

httplib::Result InProcessClient::Options(const std::string& target,
                                         const httplib::Headers& headers) const {
  return send(http::verb::options, target, headers);
}

httplib::Result InProcessClient::Post(const std::string& target, const std::string& body,
                                      const std::string& content_type) const {
  return send(http::verb::post, target, {}, body, content_type);
}

httplib::Result InProcessClient::Post(const std::string& target, const httplib::Headers& headers,
                                      const std::string& body,
                                      const std::string& content_type) const {
  return send(http::verb::post, target, headers, body, content_type);
}

httplib::Result InProcessClient::send(http::verb method, const std::string& target,
                                      const httplib::Headers& headers, const std::string& body,
                                      const std::string& content_type) const {
  // A target the transport's reader would refuse never reaches the Service.
  const auto parsed = server::parse_target(target);
  // (FAIL only then: a converted test asserts exactly what it did over HTTP.)
  if (!parsed.ok()) {
    FAIL("target '" << target
                    << "' does not parse; the transport refuses it, so this is an "
                       "HTTP test");
  }
  http::fields fields;
  for (const auto& [name, value] : headers) fields.insert(name, value);
  // What cpp-httplib adds to every request unless the caller set it.
  const auto add = [&](std::string_view name, std::string_view value) {
    if (fields.find(name) == fields.end()) fields.insert(name, value);
  };
  add("Host", "127.0.0.1");
  add("Accept", "*/*");
  add("User-Agent", "cpp-httplib/0.11");
  const bool with_body = method == http::verb::post || method == http::verb::put || !body.empty();
  if (with_body) {
    if (!content_type.empty()) add("Content-Type", content_type);
    add("Content-Length", std::to_string(body.size()));
  }
  const Request req = make_request(method, target, std::move(fields), body);
  const Response res = call(*service_, req);
  auto out = std::make_unique<httplib::Response>();
  out->version = "HTTP/1.1";
  out->status = res.status();
  for (const auto& field : res.head) {
    out->headers.emplace(std::string(field.name_string()), std::string(field.value()));
  }
  out->body = body_of(res);
  return httplib::Result(std::move(out), httplib::Error::Success);
}

ServiceFixture::ServiceFixture(const TableSource& source, std::uint64_t max_budget)
    : service(slot, metrics, max_budget) {
  auto loaded = server::load_tables(source);
  REQUIRE(loaded.ok());
  slot.set(*loaded);
}

Response ServiceFixture::call(server::Route route, Pairs params, Pairs headers) const {
  return test::call(service,
                    get(server::route_label(route), std::move(params), std::move(headers)));
}

}  // namespace eight::test
