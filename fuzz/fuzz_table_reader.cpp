// Fuzzes the table reader. Random bytes almost never pass the checksum, so
// most inputs are edits to a real table instead:
//
//   byte 0      mode: bit 0 parse the input itself as a table (raw mode);
//               bit 1 recompute the checksum after editing, to reach the
//               checks behind it; bit 2 cut the file at the length below
//   bytes 1-3   with bit 2: new length (little-endian, modulo the file size)
//   then        edits of 4 bytes each: offset (3 bytes LE, modulo the size), value
//
// The reader must refuse or accept without reading out of bounds (ASan
// checks that), and a table it accepts must answer a query correctly.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <vector>

#include "eight/solver.h"
#include "eight/table.h"
#include "eight/table_format.h"
#include "eight/tablegen.h"

namespace {

// One section (the standard goal) rather than three: every check is the same
// per section, and a third of the bytes to verify triples executions/s.
const std::vector<std::uint8_t>& base_table() {
  static const auto bytes = eight::build_table(std::vector<int>{8});
  return bytes;
}

void exercise(const std::vector<std::uint8_t>& bytes) {
  // An exact-size heap copy, so any read past the end is an ASan report.
  auto* copy = new std::uint8_t[bytes.size() + 1];
  std::copy(bytes.begin(), bytes.end(), copy);
  const auto view = eight::TableView::parse({copy, bytes.size()}, "fuzz");
  if (view.ok()) {
    const eight::Solver solver(*view);
    const auto frame = solver.frame(view->section(0).goal);
    if (!frame.ok()) std::abort();
    const auto s = solver.solve(view->section(0).goal, *frame);
    if (!s.solvable || s.distance != 0) std::abort();
  } else if (view.error().message.empty()) {
    std::abort();
  }
  delete[] copy;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const std::uint8_t mode = data[0];
  if (mode & 1) {
    exercise(std::vector<std::uint8_t>(data + 1, data + size));
    return 0;
  }
  std::vector<std::uint8_t> bytes = base_table();
  std::size_t at = 1;
  if ((mode & 4) && size >= 4) {
    const std::size_t len = (data[1] | data[2] << 8 | data[3] << 16) % bytes.size();
    bytes.resize(len);
    at = 4;
  }
  for (; at + 4 <= size && !bytes.empty(); at += 4) {
    const std::size_t off = (data[at] | data[at + 1] << 8 | data[at + 2] << 16) % bytes.size();
    bytes[off] = data[at + 3];
  }
  if ((mode & 2) && bytes.size() >= eight::format::kHeaderSize) {
    eight::format::put_u64(bytes.data() + eight::format::kChecksumOffset,
                           eight::format::compute_checksum(bytes));
  }
  exercise(bytes);
  return 0;
}
