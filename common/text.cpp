#include "common/text.h"

#include <algorithm>
#include <charconv>

namespace eight {

std::optional<std::uint64_t> parse_decimal(std::string_view text) {
  if (text.empty() || text.front() < '0' || text.front() > '9') return std::nullopt;
  std::uint64_t value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return value;
}

std::string escape_bytes(std::string_view s, std::size_t max_shown, bool escape_spaces) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out;
  out.reserve(std::min(s.size(), max_shown) + 8);
  for (std::size_t i = 0; i < s.size() && i < max_shown; ++i) {
    const auto c = static_cast<unsigned char>(s[i]);
    const bool plain = c > 0x20 ? c < 0x7f && c != '\\' : c == 0x20 && !escape_spaces;
    if (plain) {
      out += static_cast<char>(c);
    } else {
      out += "\\x";
      out += kHex[c >> 4];
      out += kHex[c & 15];
    }
  }
  if (s.size() > max_shown) out += "...";
  return out;
}

}  // namespace eight
