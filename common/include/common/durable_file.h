// Writing a file durably: the one way a file of ours takes its name, for
// eight-tablegen's tables (write_table, eight/tablegen.h) and `eight fetch`'s
// downloads. Program plumbing compiled into libeight, not part of its
// installed interface.
//
// Thread safety: callable from any thread. Two writes to one path at once
// would share its temporary file: callers keep to one writer per path.
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <variant>

#include "eight/result.h"

namespace eight {

// Creates `path` as a new, empty file for writing (0644), never writing
// through what is already there: O_CREAT|O_EXCL|O_NOFOLLOW, so a symbolic
// link planted at the name (pointing at a file to overwrite) is refused,
// not followed. A regular file already at the name is what an earlier run
// left (stopped before its rename): it is removed and the file created
// anew (unlink removes the name, never writes the bytes: a hard link's other
// names keep theirs). Anything else there (a link, a FIFO, a folder) is
// refused, the error saying what it is and to remove it. Returns the
// descriptor (O_CLOEXEC), which the caller closes.
Result<int> create_new_file(const std::string& path);

// Opens `path`, a file this user's earlier run wrote (a download's part it
// resumes), for writing at its end without following a link: it must be a
// regular file of this user's with one name (lstat), opened O_NOFOLLOW and
// found to be the file lstat saw. Anything else is refused, as above.
Result<int> open_own_file(const std::string& path);

// A check of the file written so far, run before it takes its name; given
// the temporary file's path.
using WriteCheck = std::function<Result<std::monostate>(const std::string& tmp)>;

// Writes `bytes` to `path` without ever leaving a partial file there: writes
// all of them to path + ".tmp", fsyncs it while `check` (if any) runs on it,
// renames it over `path` only if both succeed, then fsyncs the folder (best
// effort: the rename has happened, so a failure there is not reported). On
// failure the temporary file is removed, `path` is as it was, and the error
// names the step.
Result<std::monostate> write_file_atomically(const std::string& path,
                                             std::span<const std::uint8_t> bytes,
                                             const WriteCheck& check = {});

// Renames `from` over `to` (same file system), then fsyncs the folder of
// `to` (best effort, as above) so the rename survives a crash. The one way
// a checked file takes its name: write_file_atomically, and `eight fetch`
// for a download it has fsynced and checked. On failure `to` is as it was
// and `from` is left in place; the error names both.
Result<std::monostate> rename_durably(const std::string& from, const std::string& to);

}  // namespace eight
