// What reading a table into private memory costs against mapping it (issue
// 41, finding 5): Table::open as it is (the file read whole into anonymous
// memory, then checked) against the mapping it replaced (mmap MAP_PRIVATE,
// then the same check over the mapping), alternated round by round, each
// load in a fresh child process (fork) so each starts with nothing of the
// table resident. The file is read once first, so both find it in the page
// cache: the figures are the copy's cost, not the disk's.
//
//   eight-table-load-bench FILE [ROUNDS (default 5)] [checksum|full]
//
// Prints, per load: the way, the wall time of open + check, and what the
// load added to the process's resident memory (VmRSS), of it anonymous
// (RssAnon: the process's own, which only it can use) and file-backed
// (RssFile: page cache pages mapped, shared with every process mapping
// the file, and reclaimable); then each way's medians.
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include "eight/table.h"

namespace {

struct Sample {
  double ms = 0;
  long rss_kb = 0, anon_kb = 0, file_kb = 0;
};

// VmRSS, RssAnon and RssFile of this process, in kB.
Sample resident() {
  Sample s;
  std::ifstream status("/proc/self/status");
  std::string key;
  long value = 0;
  std::string unit;
  while (status >> key) {
    if (key == "VmRSS:" || key == "RssAnon:" || key == "RssFile:") {
      status >> value >> unit;
      (key == "VmRSS:" ? s.rss_kb : key == "RssAnon:" ? s.anon_kb : s.file_kb) = value;
    } else {
      status.ignore(1 << 12, '\n');
    }
  }
  return s;
}

// Today's way before the change: map the file, check the mapping.
bool load_mapped(const std::string& path, eight::Check check) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return false;
  struct stat st {};
  ::fstat(fd, &st);
  const auto size = static_cast<std::size_t>(st.st_size);
  void* addr = ::mmap(nullptr, size, PROT_READ, MAP_PRIVATE, fd, 0);
  ::close(fd);
  if (addr == MAP_FAILED) return false;
  auto view = eight::TableView::parse({static_cast<const std::uint8_t*>(addr), size}, path, check);
  return view.ok();  // the mapping stays until the child exits, as a Table's would
}

bool load_read(const std::string& path, eight::Check check) {
  static std::shared_ptr<const eight::Table> kept;  // held until the child exits
  auto t = eight::Table::open(path, check);
  if (!t.ok()) {
    std::fprintf(stderr, "%s\n", t.error().message.c_str());
    return false;
  }
  kept = *t;
  return true;
}

// One load in a child; its sample through a pipe.
bool measure(const std::string& path, eight::Check check, bool mapped, Sample& out) {
  int p[2];
  if (::pipe(p) != 0) return false;
  const pid_t pid = ::fork();
  if (pid == 0) {
    ::close(p[0]);
    const Sample before = resident();
    const auto start = std::chrono::steady_clock::now();
    const bool ok = mapped ? load_mapped(path, check) : load_read(path, check);
    Sample s;
    s.ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    const Sample after = resident();
    s.rss_kb = after.rss_kb - before.rss_kb;
    s.anon_kb = after.anon_kb - before.anon_kb;
    s.file_kb = after.file_kb - before.file_kb;
    if (ok && ::write(p[1], &s, sizeof s) != static_cast<ssize_t>(sizeof s)) ::_exit(2);
    ::_exit(ok ? 0 : 1);
  }
  ::close(p[1]);
  const bool got = ::read(p[0], &out, sizeof out) == static_cast<ssize_t>(sizeof out);
  ::close(p[0]);
  int status = 0;
  ::waitpid(pid, &status, 0);
  return got && WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0 : v[v.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: eight-table-load-bench FILE [ROUNDS] [checksum|full]\n");
    return 2;
  }
  const std::string path = argv[1];
  const int rounds = argc > 2 ? std::atoi(argv[2]) : 5;
  const eight::Check check =
      argc > 3 && std::strcmp(argv[3], "full") == 0 ? eight::Check::kFull : eight::Check::kChecksum;
  {  // into the page cache
    Sample warm;
    if (!measure(path, check, false, warm)) return 1;
  }
  std::vector<double> ms[2], rss[2], anon[2], file[2];
  std::printf("%-7s %10s %12s %12s %12s\n", "way", "ms", "+VmRSS MB", "+RssAnon MB", "+RssFile MB");
  for (int r = 0; r < rounds; ++r) {
    for (int way = 0; way < 2; ++way) {
      const bool mapped = (r + way) % 2 == 0;  // alternated, each way first in turn
      Sample s;
      if (!measure(path, check, mapped, s)) return 1;
      const int w = mapped ? 0 : 1;
      ms[w].push_back(s.ms);
      rss[w].push_back(static_cast<double>(s.rss_kb) / 1024);
      anon[w].push_back(static_cast<double>(s.anon_kb) / 1024);
      file[w].push_back(static_cast<double>(s.file_kb) / 1024);
      std::printf("%-7s %10.1f %12.1f %12.1f %12.1f\n", mapped ? "mmap" : "read", s.ms,
                  rss[w].back(), anon[w].back(), file[w].back());
    }
  }
  for (int w = 0; w < 2; ++w) {
    std::printf("median %-5s %8.1f ms %9.1f MB resident (%.1f anonymous, %.1f file)\n",
                w == 0 ? "mmap" : "read", median(ms[w]), median(rss[w]), median(anon[w]),
                median(file[w]));
  }
  return 0;
}
