#include "relabel.h"

#include <cassert>

#include "eight/table_format.h"

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define EIGHT_RELABEL_SSSE3 1
#endif

namespace eight::detail {
namespace {

#ifdef EIGHT_RELABEL_SSSE3
// Asked once, at load: __builtin_cpu_init() first, as GCC asks of a
// question put before main. A caller in another file's static initialiser,
// run before this one, reads it false and takes the portable loop, which
// gives the same cells.
const bool kHaveSsse3 = [] {
  __builtin_cpu_init();
  return __builtin_cpu_supports("ssse3") != 0;
}();
#else
constexpr bool kHaveSsse3 = false;
#endif

}  // namespace

void relabel_head_portable(const std::uint8_t* cells, const std::uint8_t* source,
                           const std::uint8_t* label, int n, std::uint8_t* out) {
  assert(n >= 0 && n <= 16);
  // Stored eight cells at a time: the 3x3 ranking reads them back as one
  // 8-byte load (rank.h), which the store buffer forwards only from one
  // store as wide. After byte stores the load waits for them to reach the
  // cache, which took a 3x3 distance lookup from 17 ns to 29
  // (docs/performance.md).
  const auto tile = [&](int j) -> std::uint64_t { return label[cells[source[j]]]; };
  std::uint64_t low = 0, high = 0;
#pragma GCC unroll 8
  for (int j = 0; j < 8 && j < n; ++j) low |= tile(j) << (8 * j);
#pragma GCC unroll 8
  for (int j = 8; j < n; ++j) high |= tile(j) << (8 * (j - 8));
  format::put_u64(out, low);
  format::put_u64(out + 8, high);
}

#ifdef EIGHT_RELABEL_SSSE3
__attribute__((target("ssse3"))) void relabel_head_ssse3(const std::uint8_t* cells,
                                                         const std::uint8_t* source,
                                                         const std::uint8_t* label, int n,
                                                         std::uint8_t* out) {
  assert(n >= 0 && n <= 16 && kHaveSsse3);
  const auto load = [](const std::uint8_t* p) {
    return _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
  };
  // Lane j takes cells[source[j]], then label[that]: an index under 16
  // picks that lane, as both are for j < n.
  const __m128i gathered = _mm_shuffle_epi8(load(cells), load(source));
  const __m128i named = _mm_shuffle_epi8(load(label), gathered);
  // Lanes from n on are zero: j < n is n > j, as bytes (n <= 16).
  const __m128i lane = _mm_setr_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
  const __m128i keep = _mm_cmpgt_epi8(_mm_set1_epi8(static_cast<char>(n)), lane);
  // One 16-byte store, which forwards to the ranking's 8-byte load.
  _mm_storeu_si128(reinterpret_cast<__m128i*>(out), _mm_and_si128(named, keep));
}

#else
void relabel_head_ssse3(const std::uint8_t* cells, const std::uint8_t* source,
                        const std::uint8_t* label, int n, std::uint8_t* out) {
  assert(false && "REQUIRES: have_ssse3()");
  relabel_head_portable(cells, source, label, n, out);
}
#endif

bool have_ssse3() {
  return kHaveSsse3;
}

void relabel_head(const std::uint8_t* cells, const std::uint8_t* source, const std::uint8_t* label,
                  int n, std::uint8_t* out) {
  if (kHaveSsse3) [[likely]] {
    relabel_head_ssse3(cells, source, label, n, out);
  } else {
    relabel_head_portable(cells, source, label, n, out);
  }
}

}  // namespace eight::detail
