// The exit statuses of every eight program, in one place (also in each
// program's --help and docs/cli.md, docs/api.md).
#pragma once

namespace eight {

inline constexpr int kExitOk = 0;
// eight: some input line or argument was bad (the others were answered).
// eight-tablegen: the table could not be written or did not prove sound.
// eight-server: the server failed on its own.
inline constexpr int kExitFailed = 1;
inline constexpr int kExitUsage = 2;         // a bad option or argument
inline constexpr int kExitBadTable = 3;      // the table is missing or bad
inline constexpr int kExitCannotListen = 4;  // eight-server: cannot listen on HOST:PORT
// eight fetch and eight --server (the tool as a client of a server):
inline constexpr int kExitUnreachable = 5;  // no connection: refused, unresolved, nothing listening
inline constexpr int kExitTimeout = 6;      // connected, but no answer (or no progress) in time
inline constexpr int kExitNotEight = 7;     // an answer, but not an eight server's

}  // namespace eight
