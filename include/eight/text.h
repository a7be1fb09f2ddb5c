// Small text helpers shared by the programs, so the CLI and the server read
// numbers the same way.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace eight {

// A plain unsigned decimal: digits only, no sign, no spaces, no leading '+',
// at most 2^64 - 1. Anything else is nullopt.
std::optional<std::uint64_t> parse_decimal(std::string_view text);

}  // namespace eight
