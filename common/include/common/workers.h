// The threads of the core and the programs' plumbing: one home for starting
// them, so that a build with no threads (WebAssembly without pthreads: the
// JavaScript package, js/) runs the same work in sequence on the caller.
//
// Thread safety: run_workers() may be called from any thread; what the work
// shares is the caller's to guard.
#pragma once

#include <algorithm>
#include <thread>
#include <vector>

namespace eight {

// Whether this build can start a thread. Emscripten without -pthread links
// a std::thread that fails at run time (no SharedArrayBuffer, no workers).
#if defined(__EMSCRIPTEN__) && !defined(__EMSCRIPTEN_PTHREADS__)
inline constexpr bool kHaveThreads = false;
#else
inline constexpr bool kHaveThreads = true;
#endif

// The threads a parallel step should use: the cores there are, at least 1;
// 1 where threads cannot be started.
inline unsigned available_cores() {
  if constexpr (!kHaveThreads) return 1;
  return std::max(1u, std::thread::hardware_concurrency());
}

// Runs work(0), ..., work(n - 1) and returns when every one has: at once,
// work(0) on the calling thread and each other on a thread of its own; in
// sequence (i ascending) on the caller where threads cannot be started. So
// no work(i) may wait for another's progress. If work(0) throws, the others
// are joined before the exception leaves (as std::jthread would). n == 0
// runs nothing.
template <typename Work>
void run_workers(unsigned n, Work&& work) {
  if (n == 0) return;
  if constexpr (!kHaveThreads) {
    for (unsigned i = 0; i < n; ++i) work(i);
  } else {
    // (Not std::jthread: the WebAssembly build's libc++ 14 has none.)
    struct Joiner {
      std::vector<std::thread> threads;
      ~Joiner() {
        for (std::thread& t : threads) t.join();
      }
    } others;
    others.threads.reserve(n - 1);
    for (unsigned i = 1; i < n; ++i) others.threads.emplace_back([&work, i] { work(i); });
    work(0u);
  }
}

}  // namespace eight
