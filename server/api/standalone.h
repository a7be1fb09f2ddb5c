// A Service over a freshly generated default table, for programs that drive
// the handlers without sockets and without a table file: the benchmarks and
// the endpoint fuzzer.
//
// The constructor generates the table (about 20 ms), writes it to a
// temporary file, maps and verifies it, and unlinks the file: the mapping
// keeps the bytes alive. Not copyable or movable (the Service refers to the
// slot and metrics beside it).
#pragma once

#include "metrics.h"
#include "service.h"
#include "table_slot.h"

namespace eight::server {

struct Standalone {
  Standalone();
  Standalone(const Standalone&) = delete;
  Standalone& operator=(const Standalone&) = delete;

  TableSlot slot;
  Metrics metrics;
  Service service{slot, metrics};
};

}  // namespace eight::server
