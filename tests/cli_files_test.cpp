// The tools and hostile files and input (issue 41): `eight solve` reading a
// line of 100 MB (linear, a line's bytes kept up to a bound), `eight solve`
// answering on from a table file changed under it, and eight-tablegen
// refusing to write through a link planted at its temporary file.
#include <doctest/doctest.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <string>
#include <vector>

#include "eight/board.h"
#include "eight/table.h"
#include "support.h"

using eight::test::run_program;
using eight::test::TempDir;
using Bytes = std::vector<std::uint8_t>;

extern char** environ;

namespace {

// A program run with its standard input and output held by the test: a
// line written, the answer's line read (each read bounded by a hang guard).
class Conversation {
 public:
  Conversation(const std::string& name, const std::vector<std::string>& args) {
    const std::string exe = std::string(EIGHT_BIN_DIR) + "/" + name;
    std::vector<char*> argv{const_cast<char*>(exe.c_str())};
    for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    int in[2], out[2];
    REQUIRE(::pipe2(in, O_CLOEXEC) == 0);
    REQUIRE(::pipe2(out, O_CLOEXEC) == 0);
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, in[0], 0);
    posix_spawn_file_actions_adddup2(&fa, out[1], 1);
    posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
    const int rc = ::posix_spawn(&pid_, exe.c_str(), &fa, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&fa);
    ::close(in[0]);
    ::close(out[1]);
    REQUIRE(rc == 0);
    to_ = in[1];
    from_ = out[0];
  }
  ~Conversation() {
    if (to_ >= 0) ::close(to_);
    ::close(from_);
    if (pid_ > 0) {
      ::kill(pid_, SIGKILL);
      ::waitpid(pid_, nullptr, 0);
    }
  }
  // Writes `line` and a newline, and returns the next line of output
  // (without its newline); "" if none came within 30 s (a hang guard).
  std::string ask(const std::string& line) {
    const std::string sent = line + "\n";
    REQUIRE(::write(to_, sent.data(), sent.size()) == static_cast<ssize_t>(sent.size()));
    for (;;) {
      if (const auto nl = buffer_.find('\n'); nl != std::string::npos) {
        std::string got = buffer_.substr(0, nl);
        buffer_.erase(0, nl + 1);
        return got;
      }
      pollfd p{from_, POLLIN, 0};
      if (::poll(&p, 1, 30000) != 1) return "";
      char buf[4096];
      const ssize_t n = ::read(from_, buf, sizeof buf);
      if (n <= 0) return "";
      buffer_.append(buf, static_cast<std::size_t>(n));
    }
  }
  // Closes its input and returns how it ended: its exit status, or 128 +
  // the signal that killed it.
  int finish() {
    ::close(to_);
    to_ = -1;
    int status = 0;
    REQUIRE(::waitpid(pid_, &status, 0) == pid_);
    pid_ = -1;
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  }

 private:
  pid_t pid_ = -1;
  int to_ = -1;
  int from_ = -1;
  std::string buffer_;
};

void write_at(const std::string& path, const Bytes& bytes, int flags) {
  const int fd = ::open(path.c_str(), O_WRONLY | flags);
  REQUIRE(fd >= 0);
  REQUIRE(::write(fd, bytes.data(), bytes.size()) == static_cast<ssize_t>(bytes.size()));
  ::close(fd);
}

}  // namespace

TEST_CASE("eight solve answers on from the table it checked while the file is changed under it") {
  // Issue 41, finding 5: the file truncated, zeroed or copied over in place
  // between two questions of one `eight solve` run, 30 times: every answer
  // is the table's, and no SIGBUS.
  TempDir dir;
  const std::string path = dir.file("eight.tbl");
  const Bytes& table = eight::test::table_bytes();
  eight::test::write_file(path, table);
  Conversation solve("eight", {"solve", "--table", path, "--format", "distance"});
  REQUIRE(solve.ask("867254301") == "31");
  for (int round = 0; round < 30; ++round) {
    CAPTURE(round);
    switch (round % 3) {
      case 0:
        REQUIRE(::truncate(path.c_str(), static_cast<off_t>(table.size() * (round % 10) / 10)) ==
                0);
        break;
      case 1:
        write_at(path, Bytes(table.size(), 0), 0);
        break;
      default:
        write_at(path, Bytes{'n', 'o', 't', ' ', 'a', ' ', 't', 'a', 'b', 'l', 'e'}, O_TRUNC);
        break;
    }
    CHECK(solve.ask("867254301") == "31");
    CHECK(solve.ask("8 6 7 2 5 4 3 0 1 1 2 3 4 5 6 7 8 0") == "31");  // a board and its goal
    CHECK(solve.ask("123456780") == "0");
    write_at(path, table, O_TRUNC);
  }
  CHECK(solve.finish() == 0);
}

TEST_CASE("eight solve reads a line of 100 MB in linear time and refuses it without keeping it") {
  // Issue 41, finding 10: one line of 25, 50, 100 MB took 1.0, 2.4, 7.7 s
  // (each block of input searched the whole line again for its end). Now
  // each byte is looked at once and at most kMaxBoardText * 2 + 1 bytes of a
  // line are kept: the line is refused, the next answered. The bound on
  // the time is a hang guard: run under a CPU limit of 60 s (a linear read
  // of 100 MB takes well under a second; the quadratic one took minutes for
  // a gigabyte). What it kept shows in the refusal: the line's first 64
  // characters.
  TempDir dir;
  const std::string path = dir.file("eight.tbl");
  eight::test::write_file(path, eight::test::table_bytes());
  const std::size_t kLine = 100u << 20;
  std::string input(kLine, '1');
  input += "\n867254301\n";
  input += std::string(3 * eight::kMaxBoardText, '2');  // a long last line, no newline
  const auto r = run_program("/usr/bin/prlimit",
                             {"--cpu=60", std::string(EIGHT_BIN_DIR) + "/eight", "solve", "--table",
                              path, "--format", "json"},
                             input);
  CAPTURE(r.err);
  CHECK(r.status == 1);  // a line refused
  CHECK(r.err == "eight: line 1: line is " + std::to_string(kLine) +
                     " characters long; at most 1024 are read (a board and its goal, each at "
                     "most 512)\n"
                     "eight: line 3: line is 1536 characters long; at most 1024 are read (a "
                     "board and its goal, each at most 512)\n");
  const auto first_nl = r.out.find('\n');
  REQUIRE(first_nl != std::string::npos);
  // The JSON line shows the line's first 64 characters, not the 100 MB.
  CHECK(
      r.out.substr(0, first_nl) ==
      R"({"input":")" + std::string(64, '1') + R"(","error":"line is )" + std::to_string(kLine) +
          R"x( characters long; at most 1024 are read (a board and its goal, each at most 512)"})x");
  CHECK(r.out.find(R"({"board":"867254301")") == first_nl + 1);
  CHECK(r.out.size() < 8192);
}

TEST_CASE("eight solve reads lines up to the bound whole, with or without a carriage return") {
  // The lines at the bound: 1024 characters (a 10x10 board and its goal
  // fit) read whole, with its '\r' too; 1025 are kept whole as well, and
  // refused by the board parser, as any board text past its bound.
  TempDir dir;
  const std::string path = dir.file("eight.tbl");
  eight::test::write_file(path, eight::test::table_bytes());
  std::string at_bound(1024, ' ');
  at_bound.replace(0, 9, "867254301");
  std::string input = at_bound + "\r\n" + at_bound + "\n" + at_bound + " \n";
  for (int i = 0; i < 1000; ++i) input += "867254301\n";
  const auto r = run_program("eight", {"solve", "--table", path, "--format", "distance"}, input);
  CHECK(r.out.substr(0, 12) == "31\n31\nerror\n");
  CHECK(r.err == "eight: line 3: board is 1025 characters long; at most 1024 are allowed\n");
  CHECK(r.out.size() == 12 + 1000 * 3);
}

TEST_CASE("eight-tablegen refuses to write through a symbolic link planted at its temporary file") {
  // Issue 41, finding 9: PATH.tmp was opened with O_CREAT|O_TRUNC, so a
  // link planted there made the generator overwrite the link's target.
  TempDir dir;
  const std::string out = dir.file("eight.tbl");
  const std::string victim = dir.file("victim");
  const Bytes victim_bytes{'k', 'e', 'e', 'p', ' ', 'm', 'e'};
  eight::test::write_file(victim, victim_bytes);
  for (int i = 0; i < 3; ++i) {
    std::filesystem::create_symlink(victim, out + ".tmp");
    const auto r = run_program("eight-tablegen", {"--out", out, "--quiet"});
    CHECK(r.status != 0);
    CHECK(r.err.find(out + ".tmp: refusing to write through a symbolic link there (not a file of "
                           "ours); remove it and try again") != std::string::npos);
    CHECK(eight::test::read_file(victim) == victim_bytes);
    CHECK_FALSE(std::filesystem::exists(out));
    CHECK(std::filesystem::is_symlink(out + ".tmp"));  // left for whoever planted it to answer
    std::filesystem::remove(out + ".tmp");
  }
  // A regular file left there (a run stopped before its rename) is replaced,
  // and a hard link of the victim there leaves the victim's bytes alone.
  eight::test::write_file(out + ".tmp", Bytes(100, 'x'));
  auto r = run_program("eight-tablegen", {"--out", out, "--quiet"});
  CHECK(r.status == 0);
  CHECK(eight::Table::open(out, eight::Check::kChecksum).ok());
  std::filesystem::create_hard_link(victim, out + ".tmp");
  r = run_program("eight-tablegen", {"--out", out, "--quiet"});
  CHECK(r.status == 0);
  CHECK(eight::test::read_file(victim) == victim_bytes);
  CHECK(eight::test::names_in(dir.path()) == std::vector<std::string>{"eight.tbl", "victim"});
}
