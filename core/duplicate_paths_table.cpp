// DuplicatePaths::get (duplicate_paths.h): the machine the build found with
// DuplicatePaths::find, compiled in.
#include "duplicate_paths.h"

#include <iterator>

namespace eight {
namespace {

// kDuplicatePathRules, kDuplicatePathRuleLength and kDuplicatePathMachine,
// written by eight-gen-duplicate-paths (core/CMakeLists.txt).
#include "duplicate_paths_table.inc"

static_assert(kDuplicatePathRuleLength == DuplicatePaths::kMaxRuleLength);

}  // namespace

const DuplicatePaths& DuplicatePaths::get() {
  static const DuplicatePaths machine(
      std::vector<std::int16_t>(std::begin(kDuplicatePathMachine), std::end(kDuplicatePathMachine)),
      kDuplicatePathRules);
  return machine;
}

}  // namespace eight
