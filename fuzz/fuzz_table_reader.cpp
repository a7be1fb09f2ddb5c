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
// checks that). A table the full check accepts must answer correctly; one
// that passes only the checksum check (what answering opens with) is then
// asked every question the solver answers, for boards the edits point at:
// wrong answers and kBadEntry refusals are allowed, crashes, hangs and reads
// outside the bytes are not.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <span>
#include <vector>

#include "eight/board.h"
#include "eight/rank.h"
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

// Distances, paths and every move's worth for the boards of some ranks.
void ask(const eight::TableView& view, const std::vector<std::uint32_t>& ranks) {
  // (A section whose goal fits no Board, a 5x5 database's, has no answers.)
  const std::optional<eight::Board> goal = eight::to_board(view.section(0).goal);
  if (!goal) return;
  const eight::Solver solver(view);
  const eight::GoalFrame frame(*goal, 0, eight::symmetries()[0]);
  for (std::uint32_t r : ranks) {
    const eight::Board b = eight::unrank_3x3(r % eight::kPositions3x3, 0);
    (void)solver.distance(b, frame);
    const auto s = solver.solve(b, frame);
    if (s.ok() && s->length > eight::format::kMaxDistance) std::abort();
    if (!s.ok() && s.error().code != eight::ErrorCode::kBadEntry) std::abort();
    (void)solver.moves(b, frame);
  }
}

void exercise(const std::vector<std::uint8_t>& bytes, const std::vector<std::uint32_t>& ranks) {
  // An exact-size heap copy, so any read past the end is an ASan report.
  auto* copy = new std::uint8_t[bytes.size() + 1];
  std::copy(bytes.begin(), bytes.end(), copy);
  const std::span<const std::uint8_t> span(copy, bytes.size());
  const auto checked = eight::TableView::parse(span, "fuzz", eight::Check::kChecksum);
  if (checked.ok()) {
    ask(*checked, ranks);
    const auto full = eight::TableView::parse(span, "fuzz", eight::Check::kFull);
    if (full.ok()) {
      // A section's goal is a GridBoard (a 5x5 database's goal is one); the
      // solver answers the boards that fit a Board, the first section's
      // goal among them whenever it does.
      const std::optional<eight::Board> goal = eight::to_board(full->section(0).goal);
      if (goal) {
        const eight::Solver solver(*full);
        const eight::GoalFrame frame(*goal, 0, eight::symmetries()[0]);
        const auto s = solver.solve(*goal, frame);
        if (!s.ok() || !s->solvable || s->distance != 0) std::abort();
      }
    } else if (full.error().message.empty()) {
      std::abort();
    }
  } else if (checked.error().message.empty()) {
    std::abort();
  }
  delete[] copy;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const std::uint8_t mode = data[0];
  // The board at the goal, a far one, and each edited entry's own.
  std::vector<std::uint32_t> ranks = {eight::rank_3x3(eight::kStandardGoal),
                                      eight::rank_3x3(*eight::parse_board("867254301"))};
  if (mode & 1) {
    exercise(std::vector<std::uint8_t>(data + 1, data + size), ranks);
    return 0;
  }
  std::vector<std::uint8_t> bytes = base_table();
  std::size_t at = 1;
  if ((mode & 4) && size >= 4) {
    const std::size_t len = (data[1] | data[2] << 8 | data[3] << 16) % bytes.size();
    bytes.resize(len);
    at = 4;
  }
  const std::uint64_t entries = eight::format::section_offset(1, 0);
  for (; at + 4 <= size && !bytes.empty(); at += 4) {
    const std::size_t off = (data[at] | data[at + 1] << 8 | data[at + 2] << 16) % bytes.size();
    bytes[off] = data[at + 3];
    if (off >= entries) ranks.push_back(static_cast<std::uint32_t>((off - entries) / 4));
  }
  if ((mode & 2) && bytes.size() >= eight::format::kHeaderSize) {
    eight::format::put_u64(bytes.data() + eight::format::kChecksumOffset,
                           eight::format::compute_checksum(bytes));
  }
  exercise(bytes, ranks);
  return 0;
}
