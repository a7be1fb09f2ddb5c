// A Service over a freshly generated default table, for programs that drive
// the handlers without sockets and without a table file: the benchmarks and
// the fuzzers. Not part of the server: the target eight_server_standalone
// (this folder's CMakeLists.txt), built only with the benchmarks or the
// fuzzers, never installed.
//
// The constructor generates the table (about 20 ms) and adopts its bytes
// in memory (Table::adopt), verified as a served file is: no file is
// written anywhere. Not copyable or movable (the Service refers to the
// slot and metrics beside it).
#pragma once

#include "api/metrics.h"
#include "api/service.h"
#include "api/table_slot.h"

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
