// Waiting on a file descriptor: the one poll(2) loop of the programs (the
// probe's socket, the access log's pipe).
//
// Thread safety: keeps no state, so any thread may wait on its own fd.
#pragma once

#include <chrono>

namespace eight {

// Waits until `fd` is ready for `events` (POLLIN, POLLOUT), at most
// `timeout` (0: just look), resuming after a signal with the time left.
// Returns the events that happened (> 0: ready, or POLLHUP, POLLERR,
// POLLNVAL), 0 when the time ran out, -1 on failure (errno says).
int wait_fd(int fd, short events, std::chrono::milliseconds timeout);

}  // namespace eight
