#include "eight/rank.h"

#include <array>
#include <cassert>

namespace eight {
namespace {

// The two halves of the Lehmer rank of a packed order (rank.h): for each
// 12-bit key (four tiles, three bits each, as tile - 1), the first four
// digits' share (prefix) or the last four's (suffix), with the parity of
// those digits' sum in bit 31, so that adding the halves adds the ranks and
// XORs the parities. Built at compile time.
struct HalfTables {
  std::array<std::uint32_t, 4096> prefix{};
  std::array<std::uint32_t, 4096> suffix{};
};

constexpr HalfTables make_half_tables() {
  constexpr std::uint32_t kFactorial[8] = {5040, 720, 120, 24, 6, 2, 1, 1};  // (7-i)!
  HalfTables t;
  for (std::uint32_t key = 0; key < 4096; ++key) {
    std::uint32_t tiles[4] = {};
    for (std::uint32_t i = 0; i < 4; ++i) tiles[i] = (key >> (3 * i)) & 7;
    std::uint32_t p = 0, p_sum = 0, q = 0, q_sum = 0;
    for (std::uint32_t i = 0; i < 4; ++i) {
      std::uint32_t before = 0, after = 0;
      for (std::uint32_t j = 0; j < i; ++j) before += tiles[j] < tiles[i] ? 1 : 0;
      for (std::uint32_t j = i + 1; j < 4; ++j) after += tiles[j] < tiles[i] ? 1 : 0;
      // (a key with a tile twice is no order; the guard keeps it harmless)
      const std::uint32_t first = tiles[i] >= before ? tiles[i] - before : 0;
      p += first * kFactorial[i];
      p_sum += first;
      q += after * kFactorial[4 + i];
      q_sum += after;
    }
    t.prefix[key] = p | (p_sum & 1) << 31;
    t.suffix[key] = q | (q_sum & 1) << 31;
  }
  return t;
}

constexpr HalfTables kHalves = make_half_tables();

// The packed order of a board's tiles and its blank's cell.
std::uint32_t pack(const Board& b, int& blank) {
  std::uint32_t order = 0;
  std::uint32_t shift = 0;
  for (int cell = 0; cell < kCells; ++cell) {
    const std::uint32_t t = b.cells[static_cast<std::size_t>(cell)];
    if (t == 0) {
      blank = cell;
      continue;
    }
    order |= (t - 1) << shift;
    shift += 3;
  }
  return order;
}

// For the asserts: eight 3-bit fields holding 0..7 once each, nothing above.
[[maybe_unused]] bool is_packed_order(std::uint32_t order) {
  unsigned seen = 0;
  for (int i = 0; i < kTiles; ++i) seen |= 1u << (order >> (3 * i) & 7);
  return seen == 0xFF && order >> (3 * kTiles) == 0;
}

}  // namespace

std::uint32_t detail::packed_order_lehmer(std::uint32_t order) {
  assert(is_packed_order(order));
  return kHalves.prefix[order & 0xFFF] + kHalves.suffix[(order >> 12) & 0xFFF];
}

Ranked rank_with_parity(const Board& b) {
  assert(is_valid(b) && b.shape == kShape3x3);
  int blank = 0;
  const std::uint32_t lehmer = detail::packed_order_lehmer(pack(b, blank));
  return {static_cast<std::uint32_t>(blank) * kTileOrders + ((lehmer & 0x7FFFFFFF) >> 1),
          static_cast<int>(lehmer >> 31)};
}

std::uint32_t rank(const Board& b) { return rank_with_parity(b).rank; }

Board unrank(std::uint32_t r, int parity) {
  assert(r < kPositions && (parity == 0 || parity == 1));
  const int blank = static_cast<int>(r / kTileOrders);
  const std::uint32_t rest = r % kTileOrders;
  // Lehmer digits by constant divisors (the compiler turns each into a
  // multiply; a loop over an array of the divisors would divide for real,
  // 6x slower).
  int digits[kTiles] = {static_cast<int>(rest / 2520),      static_cast<int>(rest % 2520 / 360),
                        static_cast<int>(rest % 360 / 60),  static_cast<int>(rest % 60 / 12),
                        static_cast<int>(rest % 12 / 3),    static_cast<int>(rest % 3),
                        0,                                  0};
  const int sum = digits[0] + digits[1] + digits[2] + digits[3] + digits[4] + digits[5];
  digits[6] = (sum & 1) != parity ? 1 : 0;  // the digit the class's parity fixes
  // Branch-free selection over nibbles: `pool` holds the unplaced tiles in
  // ascending order, one per 4 bits; taking the d-th closes the gap. Random
  // digits would mispredict a loop's branches on nearly every step.
  std::uint64_t pool = 0x87654321;
  std::uint64_t order = 0;
  for (int i = 0; i < kTiles; ++i) {
    const int shift = 4 * digits[i];
    const std::uint64_t low = (std::uint64_t{1} << shift) - 1;
    order |= ((pool >> shift) & 0xF) << (4 * i);
    pool = (pool & low) | ((pool >> 4) & ~low);
  }
  // Open a zero nibble for the blank at its cell.
  const std::uint64_t below = (std::uint64_t{1} << (4 * blank)) - 1;
  const std::uint64_t cells = (order & below) | ((order & ~below) << 4);
  Board b;
  for (int cell = 0; cell < kCells; ++cell) {
    b.cells[cell] = static_cast<std::uint8_t>((cells >> (4 * cell)) & 0xF);
  }
  return b;
}

}  // namespace eight
