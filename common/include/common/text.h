// Small text helpers shared by the programs, so the CLI and the server read
// numbers and show untrusted bytes the same way.
//
// Any input at all (that is what they are for): no preconditions.
// Thread safety: pure functions.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace eight {

// A plain unsigned decimal: digits only, no sign, no spaces, no leading '+',
// at most 2^64 - 1. Anything else is nullopt.
// The one whole-number parser of every program: options, query parameters,
// byte ranges.
std::optional<std::uint64_t> parse_decimal(std::string_view text);

// Untrusted text made safe to show on one line: printable ASCII as is,
// every other byte (and a backslash, and a space when `escape_spaces`) as
// \xNN with uppercase hex, cut after `max_shown` bytes with "...". The one
// escaper for problem details, the access log and error messages.
std::string escape_bytes(std::string_view s, std::size_t max_shown, bool escape_spaces = false);

}  // namespace eight
