#include "conditional.h"

#include <algorithm>
#include <limits>
#include <optional>

#include "common/text.h"

namespace eight::server {
namespace {

bool is_ows(char c) {
  return c == ' ' || c == '\t';
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && is_ows(s.front())) s.remove_prefix(1);
  while (!s.empty() && is_ows(s.back())) s.remove_suffix(1);
  return s;
}

bool iequals(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    const char x = (a[i] >= 'A' && a[i] <= 'Z') ? static_cast<char>(a[i] + 32) : a[i];
    if (x != b[i]) return false;
  }
  return true;
}

// Digits only; values too large for 64 bits saturate (they are past any end).
std::optional<std::uint64_t> parse_position(std::string_view s) {
  if (s.empty() || !std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; })) {
    return std::nullopt;
  }
  return parse_decimal(s).value_or(std::numeric_limits<std::uint64_t>::max());
}

}  // namespace

bool if_none_match(std::string_view header, std::string_view etag) {
  header = trim(header);
  if (header == "*") return true;
  while (!header.empty()) {
    const auto comma = header.find(',');
    std::string_view tag = trim(header.substr(0, comma));
    header = comma == std::string_view::npos ? std::string_view() : header.substr(comma + 1);
    if (tag.substr(0, 2) == "W/") tag.remove_prefix(2);
    if (tag == etag) return true;
  }
  return false;
}

RangeDecision decide_range(std::string_view range, std::string_view if_range, std::string_view etag,
                           std::uint64_t size) {
  using Kind = RangeDecision::Kind;
  constexpr RangeDecision kFull{};
  range = trim(range);
  if (range.empty() || size == 0) return kFull;
  // If-Range with a validator other than our current strong ETag (an old
  // ETag, a weak one, or a date) means "the part you have is stale": send all.
  if (!trim(if_range).empty() && trim(if_range) != etag) return kFull;
  const auto eq = range.find('=');
  if (eq == std::string_view::npos || !iequals(trim(range.substr(0, eq)), "bytes")) return kFull;
  const std::string_view spec = trim(range.substr(eq + 1));
  if (spec.find(',') != std::string_view::npos) return kFull;  // no multipart/byteranges
  const auto dash = spec.find('-');
  if (dash == std::string_view::npos) return kFull;
  const std::string_view a = trim(spec.substr(0, dash));
  const std::string_view b = trim(spec.substr(dash + 1));
  if (a.empty()) {  // suffix: the last N bytes
    const auto n = parse_position(b);
    if (!n) return kFull;
    if (*n == 0) return {Kind::kUnsatisfiable};
    return {Kind::kPartial, *n >= size ? 0 : size - *n, size - 1};
  }
  const auto first = parse_position(a);
  if (!first) return kFull;
  std::uint64_t last = size - 1;
  if (!b.empty()) {
    const auto l = parse_position(b);
    if (!l || *l < *first) return kFull;  // invalid range-spec: ignore the header
    last = std::min(*l, size - 1);
  }
  if (*first >= size) return {Kind::kUnsatisfiable};
  return {Kind::kPartial, *first, last};
}

}  // namespace eight::server
