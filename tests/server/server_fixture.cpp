#include "server_fixture.h"

#include <arpa/inet.h>
#include <doctest/doctest.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>
#include <algorithm>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <regex>
#include <string_view>

#include "support.h"

extern char** environ;

namespace eight::test {

const std::string& server_table_path() {
  static TempDir dir;
  static const std::string path = [] {
    const std::string p = dir.file("eight.tbl");
    write_file(p, table_bytes());
    return p;
  }();
  return path;
}

ServerProcess::ServerProcess(ServerSpec spec) {
  std::string exe = std::string(EIGHT_BIN_DIR) + "/eight-server";
  std::vector<std::string> args{exe};
  if (spec.nofile > 0) {
    const std::string limit = std::to_string(spec.nofile);
    args = {"/usr/bin/prlimit", "--nofile=" + limit + ":" + limit, "--", exe};
    exe = args.front();
  }
  if (spec.default_args) {
    args.insert(args.end(), {"--table", server_table_path(), "--host", "127.0.0.1", "--port", "0"});
  }
  if (spec.quiet) args.emplace_back("--quiet");
  args.insert(args.end(), spec.args.begin(), spec.args.end());
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);

  std::vector<std::string> env;
  for (char** e = environ; *e != nullptr; ++e) {
    if (std::strncmp(*e, "EIGHT_", 6) != 0) env.emplace_back(*e);
  }
  if (std::none_of(spec.env.begin(), spec.env.end(),
                   [](const auto& kv) { return kv.first == "EIGHT_JOB_DEADLINE"; })) {
    env.push_back(std::string("EIGHT_JOB_DEADLINE=") + kJobDeadlineHangGuard);
  }
  for (const auto& [k, v] : spec.env) env.push_back(k + "=" + v);
  std::vector<char*> envp;
  for (auto& e : env) envp.push_back(e.data());
  envp.push_back(nullptr);

  int err[2];
  REQUIRE(::pipe2(err, O_CLOEXEC) == 0);
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_adddup2(&fa, err[1], 2);
  // The child starts with no blocked signals and default dispositions,
  // whatever the test runner set up for itself.
  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  sigset_t none, defaults;
  sigemptyset(&none);
  sigemptyset(&defaults);
  for (int s : {SIGTERM, SIGINT, SIGPIPE, SIGHUP}) sigaddset(&defaults, s);
  posix_spawnattr_setsigmask(&attr, &none);
  posix_spawnattr_setsigdefault(&attr, &defaults);
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
  const int rc = ::posix_spawn(&pid_, exe.c_str(), &fa, &attr, argv.data(), envp.data());
  posix_spawn_file_actions_destroy(&fa);
  posix_spawnattr_destroy(&attr);
  ::close(err[1]);
  REQUIRE_MESSAGE(rc == 0, "cannot start " << exe << ": " << std::strerror(rc));
  stderr_fd_ = err[0];
  reader_ = std::thread([this] {
    char buf[4096];
    for (;;) {
      const ssize_t n = ::read(stderr_fd_, buf, sizeof buf);
      std::lock_guard lock(mutex_);
      if (n <= 0) {
        stderr_closed_ = true;
        cv_.notify_all();
        return;
      }
      stderr_.append(buf, static_cast<std::size_t>(n));
      cv_.notify_all();
    }
  });
  if (!spec.wait_ready) return;
  try {
    wait_ready();
  } catch (...) {
    cleanup();  // no child or thread outlives a failed start
    throw;
  }
}

void ServerProcess::wait_ready() {
  static const std::regex kListening(R"(listening on http://127\.0\.0\.1:(\d+) )");
  {
    std::unique_lock lock(mutex_);
    std::smatch m;
    const bool found = cv_.wait_for(
        lock, 10s, [&] { return std::regex_search(stderr_, m, kListening) || stderr_closed_; });
    REQUIRE_MESSAGE((found && !m.empty()), "eight-server did not start; stderr:\n" << stderr_);
    port_ = std::stoi(m[1]);
  }
  auto cli = client();
  for (int i = 0; i < 200; ++i) {
    if (auto r = cli.Get("/readyz"); r && r->status == 200) return;
    std::this_thread::sleep_for(10ms);
  }
  FAIL("eight-server never answered /readyz; stderr:\n" << stderr_text());
}

ServerProcess::~ServerProcess() {
  cleanup();
}

void ServerProcess::cleanup() {
  if (pid_ > 0) {
    ::kill(pid_, SIGKILL);
    int status = 0;
    ::waitpid(pid_, &status, 0);
  }
  pid_ = -1;
  if (reader_.joinable()) reader_.join();
  if (stderr_fd_ >= 0) ::close(stderr_fd_);
  stderr_fd_ = -1;
}

std::int64_t ServerProcess::metric(const std::string& name) const {
  const auto m = client().Get("/metrics");
  REQUIRE(m);
  const std::string series = "\n" + name + " ";
  const auto at = m->body.find(series);
  REQUIRE_MESSAGE(at != std::string::npos, name);
  return std::stoll(m->body.substr(at + series.size()));
}

httplib::Client ServerProcess::client() const {
  httplib::Client cli("127.0.0.1", port_);
  cli.set_url_encode(false);
  // Hang guards, far above any answer: a 10,000-board batch takes ~50 ms,
  // but over 5 s in the sanitized debug build on a busy machine.
  cli.set_connection_timeout(5, 0);
  cli.set_read_timeout(60, 0);
  cli.set_write_timeout(60, 0);
  return cli;
}

std::string ServerProcess::stderr_text() const {
  std::lock_guard lock(mutex_);
  return stderr_;
}

bool ServerProcess::wait_for_stderr(const std::string& needle,
                                    std::chrono::milliseconds timeout) const {
  std::unique_lock lock(mutex_);
  return cv_.wait_for(lock, timeout, [&] {
    return stderr_.find(needle) != std::string::npos || stderr_closed_;
  }) && stderr_.find(needle) != std::string::npos;
}

ExitInfo ServerProcess::stop(int sig, std::chrono::milliseconds timeout) {
  REQUIRE(pid_ > 0);
  ::kill(pid_, sig);
  return wait_exit(timeout);
}

ExitInfo ServerProcess::wait_exit(std::chrono::milliseconds timeout) {
  REQUIRE(pid_ > 0);
  ExitInfo info;
  const auto start = std::chrono::steady_clock::now();
  for (;;) {
    int status = 0;
    const pid_t r = ::waitpid(pid_, &status, WNOHANG);
    info.elapsed = std::chrono::duration_cast<std::chrono::milliseconds>(
        std::chrono::steady_clock::now() - start);
    if (r == pid_) {
      pid_ = -1;
      if (WIFEXITED(status)) info.status = WEXITSTATUS(status);
      if (WIFSIGNALED(status)) info.signal = WTERMSIG(status);
      break;
    }
    if (info.elapsed > timeout) {
      info.timed_out = true;
      break;  // the destructor kills it
    }
    std::this_thread::sleep_for(1ms);
  }
  if (pid_ < 0 && reader_.joinable()) reader_.join();  // stderr is complete now
  return info;
}

ExitInfo run_to_exit(ServerSpec spec, std::string& err) {
  spec.wait_ready = false;
  ServerProcess server(std::move(spec));
  const ExitInfo e = server.wait_exit(10s);
  err = server.stderr_text();
  return e;
}

namespace {

// Receives what arrives on `fd` within `timeout` (one recv) and appends it
// to `to`. Returns the bytes received, 0 when the peer closed or reset, -1
// when nothing came in time.
ssize_t receive_some(int fd, std::string& to, std::chrono::steady_clock::time_point deadline) {
  const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
      deadline - std::chrono::steady_clock::now());
  pollfd p{fd, POLLIN, 0};
  if (left.count() <= 0 || ::poll(&p, 1, static_cast<int>(left.count())) <= 0) return -1;
  char buf[65536];
  const ssize_t n = ::recv(fd, buf, sizeof buf, 0);
  if (n <= 0) return 0;
  to.append(buf, static_cast<std::size_t>(n));
  return n;
}

// Fills status and headers from the head in out.raw[0, head_end).
void parse_head(RawResponse& out, std::size_t head_end) {
  std::size_t pos = out.raw.find("\r\n");
  const std::string status_line = out.raw.substr(0, pos);
  if (status_line.size() >= 12) out.status = std::atoi(status_line.c_str() + 9);
  while (pos < head_end) {
    const std::size_t next = out.raw.find("\r\n", pos + 2);
    const std::string line = out.raw.substr(pos + 2, next - pos - 2);
    if (const auto colon = line.find(':'); colon != std::string::npos) {
      std::string name = line.substr(0, colon);
      for (char& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      std::string value = line.substr(colon + 1);
      while (!value.empty() && value.front() == ' ') value.erase(0, 1);
      out.headers[name] = value;
    }
    pos = next;
  }
}

}  // namespace

int try_connect_loopback(int port, int rcvbuf) {
  const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return -1;
  if (rcvbuf > 0) ::setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &rcvbuf, sizeof rcvbuf);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(static_cast<std::uint16_t>(port));
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) {
    ::close(fd);
    return -1;
  }
  return fd;
}

int connect_loopback(int port, int rcvbuf) {
  const int fd = try_connect_loopback(port, rcvbuf);
  REQUIRE_MESSAGE(fd >= 0, "cannot connect to 127.0.0.1:" << port << ": " << std::strerror(errno));
  return fd;
}

RawResponse raw_exchange(int port, const std::string& request, std::chrono::milliseconds timeout) {
  RawResponse out;
  RawConnection conn(port);
  conn.send(request);
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  while (receive_some(conn.fd(), out.raw, deadline) > 0) {
  }
  const auto head_end = out.raw.find("\r\n\r\n");
  if (head_end == std::string::npos) return out;
  out.body = out.raw.substr(head_end + 4);
  parse_head(out, head_end);
  return out;
}

RawConnection::~RawConnection() {
  close();
}

RawConnection::RawConnection(RawConnection&& other) noexcept
    : fd_(std::exchange(other.fd_, -1)), pending_(std::move(other.pending_)) {}

RawConnection& RawConnection::operator=(RawConnection&& other) noexcept {
  if (this != &other) {
    close();
    fd_ = std::exchange(other.fd_, -1);
    pending_ = std::move(other.pending_);
  }
  return *this;
}

void RawConnection::close() {
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
}

RawConnection RawConnection::open_from(int port, const char* source) {
  const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  REQUIRE(fd >= 0);
  sockaddr_in from{};
  from.sin_family = AF_INET;
  REQUIRE(::inet_pton(AF_INET, source, &from.sin_addr) == 1);
  REQUIRE(::bind(fd, reinterpret_cast<sockaddr*>(&from), sizeof from) == 0);
  sockaddr_in to{};
  to.sin_family = AF_INET;
  to.sin_port = htons(static_cast<std::uint16_t>(port));
  to.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  REQUIRE(::connect(fd, reinterpret_cast<sockaddr*>(&to), sizeof to) == 0);
  return RawConnection(Adopt{}, fd);
}

bool RawConnection::send(std::string_view bytes) {
  std::size_t sent = 0;
  while (fd_ >= 0 && sent < bytes.size()) {
    const ssize_t n = ::send(fd_, bytes.data() + sent, bytes.size() - sent, MSG_NOSIGNAL);
    if (n <= 0) return false;
    sent += static_cast<std::size_t>(n);
  }
  return fd_ >= 0;
}

bool RawConnection::closed_by_server() const {
  pollfd p{fd_, POLLIN, 0};
  if (::poll(&p, 1, 0) <= 0) return false;
  char c;
  return ::recv(fd_, &c, 1, MSG_PEEK | MSG_DONTWAIT) <= 0;
}

ResponseEnd RawConnection::read_response(RawResponse& out, std::chrono::milliseconds timeout,
                                         bool head_only) {
  out = RawResponse{};
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  std::string& raw = out.raw;
  raw = std::move(pending_);
  pending_.clear();
  const auto ended = [&](ssize_t n) {
    if (raw.empty()) return n == 0 ? ResponseEnd::kNone : ResponseEnd::kTimeout;
    return ResponseEnd::kCut;
  };
  std::size_t head_end;
  while ((head_end = raw.find("\r\n\r\n")) == std::string::npos) {
    if (const ssize_t n = receive_some(fd_, raw, deadline); n <= 0) return ended(n);
  }
  parse_head(out, head_end);
  const auto length = out.headers.find("content-length");
  const std::size_t body_size =
      head_only || length == out.headers.end() ? 0 : std::stoull(length->second);
  const std::size_t total = head_end + 4 + body_size;
  while (raw.size() < total) {
    if (const ssize_t n = receive_some(fd_, raw, deadline); n <= 0) return ended(n);
  }
  pending_ = raw.substr(total);
  raw.resize(total);
  out.body = raw.substr(head_end + 4);
  return ResponseEnd::kComplete;
}

namespace {
// The KiB after `field` ("VmRSS:") in /proc/pid/status, or 0.
std::size_t status_kib(pid_t pid, std::string_view field) {
  std::FILE* f = std::fopen(("/proc/" + std::to_string(pid) + "/status").c_str(), "r");
  if (f == nullptr) return 0;
  char line[256];
  std::size_t kib = 0;
  while (std::fgets(line, sizeof line, f) != nullptr) {
    if (std::string_view(line).starts_with(field)) {
      kib = std::strtoull(line + field.size(), nullptr, 10);
      break;
    }
  }
  std::fclose(f);
  return kib;
}
}  // namespace

std::size_t rss_kib(pid_t pid) {
  return status_kib(pid, "VmRSS:");
}
std::size_t peak_rss_kib(pid_t pid) {
  return status_kib(pid, "VmHWM:");
}

std::size_t raise_descriptor_limit() {
  rlimit lim{};
  ::getrlimit(RLIMIT_NOFILE, &lim);
  lim.rlim_cur = lim.rlim_max;
  ::setrlimit(RLIMIT_NOFILE, &lim);
  ::getrlimit(RLIMIT_NOFILE, &lim);
  return static_cast<std::size_t>(lim.rlim_cur);
}

std::string url_encode(const std::string& s) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out;
  for (unsigned char c : s) {
    if (std::isalnum(c) || c == '-' || c == '.' || c == '_' || c == '~') {
      out += static_cast<char>(c);
    } else {
      out += '%';
      out += kHex[c >> 4];
      out += kHex[c & 15];
    }
  }
  return out;
}

std::string raw_get(std::string_view target, std::string_view extra, std::string_view host) {
  std::string out = "GET ";
  out.append(target).append(" HTTP/1.1\r\nHost: ").append(host).append("\r\n");
  out.append(extra).append("\r\n");
  return out;
}

std::string raw_post(std::string_view body, std::string_view extra) {
  std::string out = "POST /solve HTTP/1.1\r\nHost: eight\r\nContent-Length: ";
  out.append(std::to_string(body.size())).append("\r\n");
  out.append(extra).append("\r\n").append(body);
  return out;
}

std::string checksum_hex(const std::vector<std::uint8_t>& table) {
  auto view = TableView::parse(table, "test", Check::kChecksum);
  REQUIRE(view.ok());
  char hex[17];
  std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(view->checksum()));
  return hex;
}

// Built by appending: GCC 12 warns, wrongly, with -Wrestrict on
// "\"" + s + "\"".
std::string etag_of(const std::vector<std::uint8_t>& table) {
  std::string tag = "\"";
  tag += checksum_hex(table);
  tag += '"';
  return tag;
}

nlohmann::json check_problem(const httplib::Result& r, int status, const std::string& type) {
  REQUIRE(r);
  CHECK(r->status == status);
  CHECK(r->get_header_value("Content-Type") == "application/problem+json");
  const auto j = nlohmann::json::parse(r->body);
  CHECK(j["type"] == "https://eight.invalid/problems/" + type);
  CHECK(j["status"] == status);
  CHECK(j["title"].is_string());
  CHECK(j["detail"].is_string());
  return j;
}

}  // namespace eight::test
