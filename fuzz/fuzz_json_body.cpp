// Fuzzes the batch body reader (api/json_body.h) with any bytes as a POST
// /solve body:
//   - on bodies up to kCompareBytes, its verdict must be that of the parse
//     it replaced (nlohmann::json::parse with a callback refusing depth past
//     kMaxJsonDepth and repeated keys; the reference below): the same DOM
//     when both accept, the same problem detail when both refuse (the
//     reader's own limits, 10,000 boards and 40,064 values, cannot be
//     reached at that size);
//   - on any body, the Service's answer to it must be no 5xx, an error a
//     well-formed problem+json, a 200 a JSON document.
#include <nlohmann/json.hpp>

#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <set>
#include <string>
#include <variant>
#include <vector>

#include "api/json_body.h"
#include "api/problem.h"
#include "api/request.h"
#include "standalone.h"

namespace {

constexpr std::size_t kCompareBytes = 4096;

eight::server::Standalone& world() {
  static eight::server::Standalone w;
  return w;
}

// A Service whose searches stop at 100,000 nodes (milliseconds): a body
// may ask for 4x4 searches at any budget.
const eight::server::Service& service() {
  static const eight::server::Service s(world().slot, world().metrics, 100000);
  return s;
}

struct TooDeep {};
struct DuplicateKey {
  std::string key;
};

// The parse batches.cpp used before the SAX reader, refusals and all
// (quadratic on arrays of objects, so only on small bodies).
std::variant<nlohmann::json, std::string> reference_parse(const std::string& body) {
  using eight::server::kMaxJsonDepth;
  std::vector<std::set<std::string, std::less<>>> open_objects;
  const nlohmann::json::parser_callback_t check =
      [&open_objects](int depth, nlohmann::json::parse_event_t event, nlohmann::json& parsed) {
        if (depth > kMaxJsonDepth) throw TooDeep{};
        using Event = nlohmann::json::parse_event_t;
        if (event == Event::object_start) {
          open_objects.emplace_back();
        } else if (event == Event::object_end) {
          open_objects.pop_back();
        } else if (event == Event::key && !open_objects.empty()) {
          const auto& key = parsed.get_ref<const std::string&>();
          if (!open_objects.back().insert(key).second) throw DuplicateKey{key};
        }
        return true;
      };
  try {
    return nlohmann::json::parse(body, check);
  } catch (const TooDeep&) {
    return "body nests deeper than " + std::to_string(kMaxJsonDepth) + " levels";
  } catch (const DuplicateKey& d) {
    return "body gives key " + eight::server::quote(d.key, 32) +
           " twice in one object; give each key once";
  } catch (const nlohmann::json::exception& e) {
    return std::string("body is not valid JSON: ") + e.what();
  }
}

void check_answer(const eight::server::Response& res) {
  const int status = res.status();
  if (status < 200 || status >= 500) std::abort();
  if (status >= 400) {
    if (std::string(res.header("Content-Type")) != eight::server::kProblemContentType) std::abort();
    const auto j = nlohmann::json::parse(res.body, nullptr, false);
    if (j.is_discarded() || j.value("status", 0) != status) std::abort();
  } else if (nlohmann::json::parse(res.body, nullptr, false).is_discarded()) {
    std::abort();
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  namespace http = boost::beast::http;
  const std::string body(reinterpret_cast<const char*>(data), size);
  const std::atomic<bool> not_cancelled{false};
  const auto read = eight::server::read_batch_body(body, not_cancelled, std::nullopt);
  if (std::holds_alternative<eight::server::BodyStop>(read)) std::abort();  // nothing stops it
  if (size <= kCompareBytes) {
    const auto expected = reference_parse(body);
    if (const auto* dom = std::get_if<nlohmann::json>(&expected)) {
      const auto* got = std::get_if<nlohmann::json>(&read);
      if (got == nullptr || *got != *dom) std::abort();
    } else {
      const auto* got = std::get_if<eight::server::Problem>(&read);
      if (got == nullptr || got->detail != std::get<std::string>(expected)) std::abort();
    }
  }
  eight::server::Request req;
  req.method = http::verb::post;
  req.method_text = "POST";
  req.target = "/solve";
  req.path = "/solve";
  req.body = body;
  eight::server::Response res;
  service().handle(req, res, not_cancelled);
  check_answer(res);
  return 0;
}
