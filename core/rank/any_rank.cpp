#include "eight/any_rank.h"

#include <cassert>

#include "kernel.h"

namespace eight {

std::uint32_t positions(Shape s) {
  return detail::with_kernel(s, [](auto k) { return decltype(k)::kPositions; });
}

std::uint32_t tile_orders(Shape s) {
  return detail::with_kernel(s, [](auto k) { return decltype(k)::kOrders; });
}

bool is_valid_cells(Shape s, std::span<const std::uint8_t> cells) {
  assert(is_table_shape(s));
  if (cells.size() != static_cast<std::size_t>(s.cells())) return false;
  unsigned seen = 0;
  for (const std::uint8_t t : cells) {
    if (t >= cells.size() || (seen >> t & 1) != 0) return false;
    seen |= 1u << t;
  }
  return true;
}

std::uint32_t rank_cells(Shape s, std::span<const std::uint8_t> cells) {
  assert(is_valid_cells(s, cells));
  return detail::with_kernel(s, [&](auto k) {
    using K = decltype(k);
    int blank = 0;
    const std::uint64_t order = K::pack(cells.data(), blank);
    return K::rank(blank, order);
  });
}

void unrank_cells(Shape s, std::uint32_t r, int cls, std::span<std::uint8_t> out) {
  assert(is_table_shape(s) && r < positions(s) && (cls == 0 || cls == 1));
  assert(out.size() == static_cast<std::size_t>(s.cells()));
  detail::with_kernel(s, [&](auto k) {
    using K = decltype(k);
    int blank = 0;
    const std::uint64_t order = K::unrank(r, cls, blank);
    const std::uint64_t cells = K::cells_of(blank, order);
    for (int c = 0; c < K::kN; ++c) out[c] = static_cast<std::uint8_t>((cells >> (4 * c)) & 0xF);
  });
}

}  // namespace eight
