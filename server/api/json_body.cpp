#include "json_body.h"

#include <set>
#include <string>
#include <utility>
#include <vector>

namespace eight::server {
namespace {

using Json = nlohmann::json;
using Clock = std::chrono::steady_clock;

Problem bad_body(std::string detail) {
  return {400, "bad-body", "Bad request body", std::move(detail), {}};
}

// Builds the DOM from nlohmann's SAX events, as its own DOM parser does
// (a stack of the open containers, each value added where it belongs,
// nothing ever scanned), and stops at the first limit passed. A SAX
// function that returns false ends the parse there.
class BodyHandler final : public nlohmann::json_sax<Json> {
 public:
  BodyHandler(const std::atomic<bool>& cancelled, std::optional<Clock::time_point> deadline)
      : cancelled_(cancelled), deadline_(deadline) {}

  // Why the parse ended early, if it did.
  std::optional<Problem> problem;
  std::optional<BodyStop> stop;
  Json root;

  bool null() override { return add(Json(nullptr)); }
  bool boolean(bool v) override { return add(Json(v)); }
  bool number_integer(number_integer_t v) override { return add(Json(v)); }
  bool number_unsigned(number_unsigned_t v) override { return add(Json(v)); }
  bool number_float(number_float_t v, const string_t&) override { return add(Json(v)); }
  bool string(string_t& v) override { return add(Json(std::move(v))); }
  bool binary(binary_t& v) override { return add(Json::binary(v)); }

  bool start_object(std::size_t) override {
    if (!add(Json::object())) return false;
    open_.push_back(placed_);
    keys_.emplace_back();
    return true;
  }
  bool key(string_t& k) override {
    if (!event() || !within_depth(open_.size())) return false;
    // A set per open object, not a scan: one object of a 2 MiB body may
    // hold 200,000 keys. nlohmann would keep the last value of a repeated
    // key, so {"goal": A, "goal": B} would answer for B, while a repeated
    // query parameter is refused.
    if (!keys_.back().insert(k).second) {
      problem =
          bad_body("body gives key " + quote(k, 32) + " twice in one object; give each key once");
      return false;
    }
    if (open_.size() == 1) root_key_ = k;
    slot_ = &(*open_.back())[std::move(k)];
    return true;
  }
  bool end_object() override {
    keys_.pop_back();
    return end_container();
  }
  bool start_array(std::size_t) override {
    if (!add(Json::array())) return false;
    open_.push_back(placed_);
    // The root object's "boards": its items are counted as they come.
    if (open_.size() == 2 && open_.front()->is_object() && root_key_ == "boards") {
      boards_ = placed_;
    }
    return true;
  }
  bool end_array() override { return end_container(); }

  bool parse_error(std::size_t, const std::string&, const Json::exception& e) override {
    problem = bad_body(std::string("body is not valid JSON: ") + e.what());
    return false;
  }

 private:
  // One parse event: now and then, a look at the cancel flag and the clock.
  bool event() {
    if (++events_ % kBodyCheckEvents != 0) return true;
    if (cancelled_.load(std::memory_order_relaxed)) {
      stop = BodyStop::kCancelled;
      return false;
    }
    if (deadline_ && Clock::now() >= *deadline_) {
      stop = BodyStop::kDeadline;
      return false;
    }
    return true;
  }

  // `depth`: the containers around the event (for a container's start, the
  // ones around it, not itself).
  bool within_depth(std::size_t depth) {
    if (depth <= static_cast<std::size_t>(kMaxJsonDepth)) return true;
    problem = bad_body("body nests deeper than " + std::to_string(kMaxJsonDepth) + " levels");
    return false;
  }

  // Places `v` in the open container (or as the root); placed_ points at it.
  bool add(Json&& v) {
    if (!event() || !within_depth(open_.size())) return false;
    if (++values_ > kMaxBodyValues) {
      problem = bad_body("body holds more than " + std::to_string(kMaxBodyValues) +
                         " JSON values; a batch is at most " + std::to_string(kMaxBatchBoards) +
                         " boards, each a string or {\"board\": B, \"goal\": G}");
      return false;
    }
    if (open_.empty()) {
      root = std::move(v);
      placed_ = &root;
    } else if (Json& container = *open_.back(); container.is_array()) {
      if (&container == boards_ && container.size() == kMaxBatchBoards) {
        // Refused at the first board too many, without reading on.
        problem =
            Problem{413,
                    "too-many-boards",
                    "Too many boards",
                    "at most " + std::to_string(kMaxBatchBoards) +
                        " boards per request; got more than " + std::to_string(kMaxBatchBoards),
                    {}};
        return false;
      }
      container.push_back(std::move(v));
      placed_ = &container.back();
    } else {
      *slot_ = std::move(v);
      placed_ = slot_;
    }
    return true;
  }

  bool end_container() {
    if (!event()) return false;
    open_.pop_back();
    return true;
  }

  const std::atomic<bool>& cancelled_;
  const std::optional<Clock::time_point> deadline_;
  std::vector<Json*> open_;                               // the open containers, outermost first
  std::vector<std::set<std::string, std::less<>>> keys_;  // the keys of each open object
  Json* slot_ = nullptr;    // the member the next value of the open object goes to
  Json* placed_ = nullptr;  // the value added last
  Json* boards_ = nullptr;  // the root object's "boards" array, once open
  std::string root_key_;    // the root object's key read last
  std::size_t events_ = 0;
  std::size_t values_ = 0;
};

}  // namespace

BodyRead read_batch_body(std::string_view body, const std::atomic<bool>& cancelled,
                         std::optional<std::chrono::steady_clock::time_point> deadline) {
  BodyHandler handler(cancelled, deadline);
  if (Json::sax_parse(body.begin(), body.end(), &handler)) return std::move(handler.root);
  if (handler.stop) return *handler.stop;
  if (handler.problem) return std::move(*handler.problem);
  return bad_body("body is not valid JSON");  // not reached: every false says why
}

}  // namespace eight::server
