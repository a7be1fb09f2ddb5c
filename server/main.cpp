// eight-server: serves the 8-puzzle table over HTTP (docs/api.md).
//
// This file is the program around the Service: options, loading the table,
// signals (SIGTERM/SIGINT stop, SIGHUP reloads the table), binding and the
// listen loop. Exit statuses (also in --help):
//   0 stopped by SIGTERM or SIGINT   2 usage error        4 cannot listen
//   1 the listen loop failed         3 table missing or bad (as for `eight`)
#include <pthread.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "access_log.h"
#include "http_server.h"
#include "metrics.h"
#include "options.h"
#include "service.h"
#include "table_slot.h"

namespace {

constexpr int kExitOk = 0;
constexpr int kExitListenFailed = 1;
constexpr int kExitUsage = 2;
constexpr int kExitBadTable = 3;
constexpr int kExitCannotBind = 4;

// How long a stop waits for connections to finish before the process exits
// anyway. In-flight requests take microseconds (a /table download on a LAN,
// milliseconds); what can remain are idle keep-alive connections, which
// httplib 0.11 only notices after its keep-alive timeout (1 s), and stalled
// clients. The deadline keeps "stopped within a second" true regardless.
constexpr auto kDrainDeadline = std::chrono::milliseconds(800);

// The listen backlog httplib 0.11 uses is a compiled-in 5; a burst of new
// connections (a load balancer opening its pool) would overflow it and wait
// for SYN retransmits, a second or more. listen() again raises it.
constexpr int kListenBacklog = 1024;

void say(const std::string& line) {
  std::fprintf(stderr, "eight-server: %s\n", line.c_str());
}

std::string url_host(const std::string& host) {
  return host.find(':') != std::string::npos ? "[" + host + "]" : host;
}

// SIGHUP: maps and verifies the table file again and switches to it only if
// it is sound; either way one line says what happened. Requests never wait:
// they keep answering from the current table until the switch, and those
// that began before it finish on the old mapping (table_slot.h).
void reload_table(eight::server::TableSlot& slot, const std::string& path) {
  const std::string was = slot.get()->checksum_hex();
  auto loaded = slot.reload(path);
  if (!loaded.ok()) {
    say("SIGHUP: kept the current table (checksum " + was + "): " + loaded.error().message);
    return;
  }
  say("SIGHUP: reloaded table " + path + " (checksum " + (*loaded)->checksum_hex() + ", was " +
      was + ")");
}

// Coordinates the signal thread and main. The signal thread stops the server;
// main reports when the listen loop has returned (all workers joined).
struct StopState {
  std::mutex mutex;
  std::condition_variable cv;
  bool listen_returned = false;
  int signal = 0;
};

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string_view> args(argv + 1, argv + argc);
  auto parsed = eight::server::parse_options(args);
  if (!parsed.ok()) {
    std::fprintf(stderr, "eight-server: %s\n%s", parsed.error().message.c_str(),
                 eight::server::kUsage);
    return kExitUsage;
  }
  const eight::server::Options opt = *parsed;
  if (opt.help) {
    std::fputs(eight::server::kUsage, stdout);
    return kExitOk;
  }

  // Block the stop and reload signals before any thread exists, so every
  // thread inherits the mask and only the signal thread's sigwait() sees
  // them. A broken pipe (a client gone mid-response) must not kill the
  // process.
  sigset_t handled_signals;
  sigemptyset(&handled_signals);
  sigaddset(&handled_signals, SIGTERM);
  sigaddset(&handled_signals, SIGINT);
  sigaddset(&handled_signals, SIGHUP);
  pthread_sigmask(SIG_BLOCK, &handled_signals, nullptr);
  std::signal(SIGPIPE, SIG_IGN);

  // Map and verify the whole table before listening: a bad file never serves.
  auto loaded = eight::server::Loaded::open(opt.table);
  if (!loaded.ok()) {
    say(loaded.error().message);
    say("refusing to start without a sound table (make table builds one)");
    return kExitBadTable;
  }
  eight::server::TableSlot slot(*loaded);
  eight::server::Metrics metrics;
  const eight::server::Service service(slot, metrics);

  std::optional<eight::server::AccessLog> access_log;
  if (!opt.quiet) access_log.emplace(STDERR_FILENO, &metrics.access_log_dropped());
  eight::server::HttpServer svr;
  std::atomic<int> listen_fd{-1};
  eight::server::configure(svr, service, metrics,
                           {opt.threads, access_log ? &*access_log : nullptr}, &listen_fd);

  errno = 0;
  int port = opt.port;
  bool bound = false;
  if (port == 0) {
    port = svr.bind_to_any_port(opt.host);
    bound = port > 0;
  } else {
    bound = svr.bind_to_port(opt.host, port);
  }
  if (!bound) {
    const int err = errno;
    say("cannot listen on " + url_host(opt.host) + ":" + std::to_string(opt.port) + ": " +
        (err != 0 ? std::strerror(err) : "cannot resolve or bind the address") +
        (err == EADDRINUSE ? " (another server is using this port)" : ""));
    return kExitCannotBind;
  }
  if (const int fd = listen_fd.load(); fd >= 0) ::listen(fd, kListenBacklog);

  StopState stop;
  std::thread signal_thread([&] {
    int sig = 0;
    // Reloads are done here, one at a time; a stop signal arriving during one
    // waits the few milliseconds it takes.
    for (sigwait(&handled_signals, &sig); sig == SIGHUP; sigwait(&handled_signals, &sig)) {
      reload_table(slot, opt.table);
    }
    {
      std::lock_guard lock(stop.mutex);
      stop.signal = sig;
    }
    say(std::string("received ") + (sig == SIGINT ? "SIGINT" : "SIGTERM") +
        ", finishing in-flight requests");
    // stop() only acts once listen() is running; wait out the microseconds
    // between binding and the accept loop, unless that loop already ended.
    const auto deadline = std::chrono::steady_clock::now() + kDrainDeadline;
    for (;;) {
      {
        std::lock_guard lock(stop.mutex);
        if (stop.listen_returned) return;
      }
      if (svr.is_running() || std::chrono::steady_clock::now() > deadline) break;
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    svr.stop();
    std::unique_lock lock(stop.mutex);
    if (!stop.cv.wait_until(lock, deadline, [&] { return stop.listen_returned; })) {
      if (access_log) access_log->flush();
      say("connections still open after " + std::to_string(kDrainDeadline.count()) +
          " ms (idle keep-alive or stalled clients); exiting");
      std::_Exit(kExitOk);
    }
  });

  say("listening on http://" + url_host(opt.host) + ":" + std::to_string(port) + " (table " +
      opt.table + ", checksum " + (*loaded)->checksum_hex() + ", " + std::to_string(opt.threads) +
      " threads" + (opt.quiet ? ", access log off" : "") + ")");
  const bool clean = svr.listen_after_bind();

  int sig = 0;
  {
    std::lock_guard lock(stop.mutex);
    stop.listen_returned = true;
    sig = stop.signal;
  }
  stop.cv.notify_all();
  if (sig == 0) {
    // The loop ended without a signal: wake the signal thread so it can end.
    pthread_kill(signal_thread.native_handle(), SIGTERM);
  }
  signal_thread.join();
  if (access_log) access_log->flush();  // every worker has finished: the log is complete
  if (sig == 0 || !clean) {
    say("the listen loop failed");
    return kExitListenFailed;
  }
  say("stopped");
  return kExitOk;
}
