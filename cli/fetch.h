// eight fetch: downloads every table a server serves (GET /tables) into the
// table folder, or the server's default table into one file, and keeps them
// current. For each table:
//
//   - the copy already there, if its checksum checks, is sent as
//     If-None-Match: a 304 leaves everything as it is (nothing is written);
//   - the download goes to DEST.part, which an interrupted run leaves in
//     place; the next run asks for the rest (Range), with If-Range naming
//     the version the part holds (its own header's checksum), so a table
//     that changed meanwhile comes back whole;
//   - the finished part is fsynced, opened with the core's table reader at
//     Check::kFull (size, records, XXH3-64 checksum, every full section
//     proven) and its checksum compared with the answer's ETag; only then
//     is it renamed over DEST (rename_durably). A part that fails is
//     removed and DEST is left as it was.
//
// Exit status: 0 every table current; 3 a download was not a sound table (or
// could not be written); 5, 6, 7 as server_client.h, 5 also for a download
// cut before its last byte; 1 other refusals.
#pragma once

#include "remote_module.h"  // FetchInto
#include "server_client.h"

namespace eight::cli {

int run_fetch(ServerClient& server, const FetchInto& into);

}  // namespace eight::cli
