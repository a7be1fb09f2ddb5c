#include "negotiation.h"

#include <algorithm>
#include <charconv>

namespace eight::server {
namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

// The q of a media range's parameters ("; q=0.5"), 1 when absent; a q that
// does not parse counts as 0, as RFC 9110 12.4.2 leaves unusable values.
double quality(std::string_view params) {
  const auto at = params.find("q=");
  if (at == std::string_view::npos) return 1;
  const std::string_view text = trim(params.substr(at + 2));
  double q = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), q);
  return ec == std::errc() ? q : 0;
}

}  // namespace

bool prefers_html(std::string_view accept) {
  // q of text/html (or text/*) against q of application/json (or
  // application/*); */* alone counts for JSON, the API's own answer.
  double html = 0, json = 0;
  while (!accept.empty()) {
    const auto comma = accept.find(',');
    std::string_view item = accept.substr(0, comma);
    accept = comma == std::string_view::npos ? std::string_view{} : accept.substr(comma + 1);
    double q = 1;
    if (const auto semi = item.find(';'); semi != std::string_view::npos) {
      q = quality(item.substr(semi + 1));
      item = item.substr(0, semi);
    }
    item = trim(item);
    if (item == "text/html" || item == "application/xhtml+xml" || item == "text/*") {
      html = std::max(html, q);
    } else if (item == "application/json" || item == "application/*" ||
               item == "application/problem+json") {
      json = std::max(json, q);
    }
  }
  return html > json;
}

}  // namespace eight::server
