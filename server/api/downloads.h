// The table files as downloads: GET /table (one file, straight from its
// mapping, with ETag, If-None-Match, If-Range and single byte ranges;
// conditional.h decides) and GET /tables (the list of files, each with the
// URL that downloads it).
//
// Thread safety: pure functions (one snapshot of the slot per request).
#pragma once

#include <cstddef>
#include <string>

#include "request.h"
#include "response.h"
#include "table_slot.h"

namespace eight::server {

// /table[?shape=RxC | ?name=FILE]: the response owns the table snapshot
// until the download ends.
void serve_table(const TableSlot& slot, const Request& req, Response& res);

// /tables: every table file of the snapshot, with the URL that downloads it
// (/table?name=), its ETag, size and shapes.
void list_tables(const TableSlot& slot, Response& res);

}  // namespace eight::server
