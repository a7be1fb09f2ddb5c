#include "support.h"

#include <doctest/doctest.h>
#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cassert>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <thread>
#include <unordered_map>

#include "eight/tablegen.h"

extern char** environ;

namespace eight::test {

const std::vector<std::uint8_t>& table_bytes() {
  static const std::vector<std::uint8_t> bytes = build_table(kDefaultSectionBlanks);
  return bytes;
}

const Table& table() {
  static const std::shared_ptr<const Table> t = [] {
    auto v = Table::adopt(table_bytes(), "generated", Check::kFull);
    REQUIRE_MESSAGE(v.ok(), (v.ok() ? "" : v.error().message));
    return std::move(v).value();
  }();
  return *t;
}

const TableView& view() {
  return table().view();
}

const Solver& solver() {
  return table().solver();
}

namespace {

// `file`, which the build's `target` writes; fails the test when it is
// missing or fails its checksum, rather than paying for a generation in a
// test process.
std::string built_table(const std::string& file, const char* target) {
  const auto t = Table::open(file, Check::kChecksum);
  REQUIRE_MESSAGE(t.ok(), (t.ok() ? "" : t.error().message),
                  " (the build writes it: cmake --build, target ", target, ")");
  return file;
}

// EIGHT_TEST_DATA_DIR/name, which eight-test-tables writes
// (tests/fixture_tables.cpp).
std::string table_in_build_tree(const std::string& name) {
  return built_table(std::string(EIGHT_TEST_DATA_DIR) + "/" + name, "eight_test_tables");
}

}  // namespace

const std::string& default_table_path() {
  static const std::string path = table_in_build_tree("default-sections.tbl");
  return path;
}

const std::string& program_default_table_path() {
  static const std::string path = built_table(EIGHT_DEFAULT_TABLE, "eight_table");
  return path;
}

const Table& program_default_table() {
  static const std::shared_ptr<const Table> t = [] {
    auto v = Table::open(program_default_table_path(), Check::kFull);
    REQUIRE_MESSAGE(v.ok(), (v.ok() ? "" : v.error().message));
    return std::move(v).value();
  }();
  return *t;
}

const TableSet& program_default_tables() {
  static const TableSet set(
      {std::shared_ptr<const Table>(std::shared_ptr<const Table>{}, &program_default_table())});
  return set;
}

const std::vector<std::uint8_t>& default_table_bytes() {
  static const std::vector<std::uint8_t> bytes = read_file(default_table_path());
  return bytes;
}

const Table& default_table() {
  static const std::shared_ptr<const Table> t = [] {
    auto v = Table::adopt(default_table_bytes(), "default", Check::kFull);
    REQUIRE_MESSAGE(v.ok(), (v.ok() ? "" : v.error().message));
    return std::move(v).value();
  }();
  return *t;
}

const std::string& fifteen_table_path() {
  static const std::string path = table_in_build_tree("fifteen-663.tbl");
  return path;
}

namespace {

std::shared_ptr<const Table> open_proven(const std::string& path) {
  auto v = Table::open(path, Check::kFull);
  REQUIRE_MESSAGE(v.ok(), (v.ok() ? "" : v.error().message));
  return std::move(v).value();
}

}  // namespace

const Table& fifteen_table() {
  static const std::shared_ptr<const Table> t = open_proven(fifteen_table_path());
  return *t;
}

const std::string& fifteen_korf_table_path() {
  static const std::string path = table_in_build_tree("fifteen-663-0.tbl");
  return path;
}

const Table& fifteen_other_goals_table() {
  static const std::shared_ptr<const Table> t =
      open_proven(table_in_build_tree("fifteen-663-6-14-15.tbl"));
  return *t;
}

GoalFrame frame(const GridBoard& goal) {
  auto f = table().frame(goal);
  REQUIRE_MESSAGE(f.ok(), (f.ok() ? "" : f.error().message));
  return *f;
}

Board board_of_cells(std::span<const std::uint8_t> cells, Shape shape) {
  REQUIRE(cells.size() == static_cast<std::size_t>(shape.cells()));
  REQUIRE(shape.cells() <= Board::kRoom);
  Board b;
  b.shape = shape;
  std::copy(cells.begin(), cells.end(), b.cells.begin());
  return b;
}

Board board(const std::string& text, std::optional<Shape> shape) {
  auto b = parse_board(text, shape);
  REQUIRE_MESSAGE(b.ok(), text << ": " << (b.ok() ? "" : b.error().message));
  return *b;
}

GridBoard grid_board(const std::string& text, std::optional<Shape> shape) {
  auto b = parse_grid_board(text, shape);
  REQUIRE_MESSAGE(b.ok(), text << ": " << (b.ok() ? "" : b.error().message));
  return *b;
}

TempDir::TempDir() {
  std::string tmpl = (std::filesystem::temp_directory_path() / "eight-test-XXXXXX").string();
  REQUIRE(::mkdtemp(tmpl.data()) != nullptr);
  path_ = tmpl;
}

TempDir::~TempDir() {
  std::error_code ec;
  std::filesystem::remove_all(path_, ec);
}

std::vector<std::uint8_t> read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void write_file(const std::string& path, const std::vector<std::uint8_t>& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(bytes.data()),
            static_cast<std::streamsize>(bytes.size()));
  REQUIRE(out.good());
}

std::vector<std::string> names_in(const std::string& dir) {
  std::vector<std::string> names;
  for (const auto& e : std::filesystem::directory_iterator(dir)) {
    names.push_back(e.path().filename().string());
  }
  std::sort(names.begin(), names.end());
  return names;
}

bool contains(const std::string& s, const std::string& part) {
  return s.find(part) != std::string::npos;
}

int blank_of(std::span<const std::uint8_t> cells) {
  return static_cast<int>(std::find(cells.begin(), cells.end(), 0) - cells.begin());
}

std::uint64_t pack_cells(std::span<const std::uint8_t> cells) {
  assert(cells.size() <= 16);
  std::uint64_t key = 0;
  for (std::size_t c = 0; c < cells.size(); ++c) key |= std::uint64_t{cells[c]} << (4 * c);
  return key;
}

bool twelve_cells_asked() {
  const char* v = std::getenv("EIGHT_TEST_12_CELLS");
  return v != nullptr && std::string(v) == "1";
}

namespace {

std::string drain(int fd) {
  std::string s;
  char buf[65536];
  for (;;) {
    const ssize_t n = ::read(fd, buf, sizeof buf);
    if (n <= 0) break;
    s.append(buf, static_cast<std::size_t>(n));
  }
  ::close(fd);
  return s;
}

std::string program_path(const std::string& name) {
  return name.front() == '/' ? name : std::string(EIGHT_BIN_DIR) + "/" + name;
}

std::vector<char*> make_argv(const std::string& exe, const std::vector<std::string>& args) {
  std::vector<char*> argv;
  argv.push_back(const_cast<char*>(exe.c_str()));
  for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  return argv;
}

}  // namespace

int start_program(const std::string& name, const std::vector<std::string>& args) {
  const std::string exe = program_path(name);
  auto argv = make_argv(exe, args);
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  for (int fd = 0; fd < 3; ++fd) {
    posix_spawn_file_actions_addopen(&fa, fd, "/dev/null", fd == 0 ? O_RDONLY : O_WRONLY, 0);
  }
  pid_t pid = -1;
  const int rc = ::posix_spawn(&pid, exe.c_str(), &fa, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&fa);
  REQUIRE_MESSAGE(rc == 0, "cannot start " << exe);
  return pid;
}

int wait_program(int pid) {
  int status = 0;
  ::waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

RunResult run_program(const std::string& name, const std::vector<std::string>& args,
                      const std::string& input) {
  const std::string exe = program_path(name);
  auto argv = make_argv(exe, args);
  int in[2], out[2], err[2];
  REQUIRE(::pipe2(in, O_CLOEXEC) == 0);
  REQUIRE(::pipe2(out, O_CLOEXEC) == 0);
  REQUIRE(::pipe2(err, O_CLOEXEC) == 0);
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_adddup2(&fa, in[0], 0);
  posix_spawn_file_actions_adddup2(&fa, out[1], 1);
  posix_spawn_file_actions_adddup2(&fa, err[1], 2);
  pid_t pid;
  const int rc = ::posix_spawn(&pid, exe.c_str(), &fa, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&fa);
  ::close(in[0]);
  ::close(out[1]);
  ::close(err[1]);
  REQUIRE_MESSAGE(rc == 0, "cannot start " << exe);
  RunResult result;
  std::thread writer([&] {
    std::size_t done = 0;
    while (done < input.size()) {
      const ssize_t n = ::write(in[1], input.data() + done, input.size() - done);
      if (n <= 0) break;
      done += static_cast<std::size_t>(n);
    }
    ::close(in[1]);
  });
  std::thread err_reader([&] { result.err = drain(err[0]); });
  result.out = drain(out[0]);
  err_reader.join();
  writer.join();
  result.status = wait_program(pid);
  return result;
}

RunResult fetch_tables(const std::string& url, const std::string& dir,
                       const std::vector<std::string>& more) {
  std::vector<std::string> all = {"fetch", url, "--tables", dir};
  all.insert(all.end(), more.begin(), more.end());
  return run_program("eight", all);
}

bool wait_until(const std::function<bool()>& done, std::chrono::milliseconds timeout) {
  const auto give_up = std::chrono::steady_clock::now() + timeout;
  for (;;) {
    if (done()) return true;
    if (std::chrono::steady_clock::now() >= give_up) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
}

std::vector<int> bfs_histogram(const GridBoard& goal) {
  // Deliberately naive: boards as strings in a hash map, no ranking.
  std::unordered_map<std::string, int> dist;
  std::vector<GridBoard> frontier{goal};
  dist[to_string(goal)] = 0;
  std::vector<int> hist{1};
  for (int d = 1; !frontier.empty(); ++d) {
    std::vector<GridBoard> next;
    for (const GridBoard& b : frontier) {
      for (Move m : kAllMoves) {
        auto n = apply_move(b, m);
        if (n && dist.emplace(to_string(*n), d).second) next.push_back(*n);
      }
    }
    if (!next.empty()) hist.push_back(static_cast<int>(next.size()));
    frontier = std::move(next);
  }
  return hist;
}

std::uint64_t cells_key(const GridBoard& b) {
  std::uint64_t k = 0;
  for (int i = 0; i < b.size(); ++i)
    k |= std::uint64_t{b.cells[static_cast<std::size_t>(i)]} << (4 * i);
  return k;
}

bool NaiveDistances::insert(std::uint64_t key, int d) {
  if (key == 0 || key > kKeyBits || d < 0 || d > 255) FAIL("no key of a board up to 14 cells");
  if (2 * (found_.size() + 1) > slots_.size()) grow();
  auto& slot = slots_[slot_of(key)];
  if (slot != 0) return false;
  slot = key | static_cast<std::uint64_t>(d) << 56;
  found_.emplace_back(key, d);
  return true;
}

std::optional<int> NaiveDistances::find(std::uint64_t key) const {
  if (slots_.empty()) return std::nullopt;
  const std::uint64_t slot = slots_[slot_of(key)];
  if (slot == 0) return std::nullopt;
  return static_cast<int>(slot >> 56);
}

std::size_t NaiveDistances::slot_of(std::uint64_t key) const {
  const std::size_t mask = slots_.size() - 1;
  std::size_t i = (key * 0x9E3779B97F4A7C15ull) >> 20 & mask;
  while (slots_[i] != 0 && (slots_[i] & kKeyBits) != key) i = (i + 1) & mask;
  return i;
}

void NaiveDistances::grow() {
  slots_.assign(slots_.empty() ? 1024 : 2 * slots_.size(), 0);
  for (const auto& [key, d] : found_) {
    slots_[slot_of(key)] = key | static_cast<std::uint64_t>(d) << 56;
  }
}

NaiveDistances bfs_distances(const GridBoard& goal) {
  NaiveDistances dist;
  std::vector<GridBoard> frontier{goal};
  dist.insert(cells_key(goal), 0);
  for (int d = 1; !frontier.empty(); ++d) {
    std::vector<GridBoard> next;
    for (const GridBoard& b : frontier) {
      for (Move m : kAllMoves) {
        auto n = apply_move(b, m);
        if (n && dist.insert(cells_key(*n), d)) next.push_back(*n);
      }
    }
    frontier = std::move(next);
  }
  return dist;
}

}  // namespace eight::test
