// eight-server: serves the sliding-puzzle tables over HTTP (docs/api.md).
//
// This file is the program around the two layers: options, loading the
// table, the API (api/service.h) and the transport (transport/server.h),
// and signals, which Asio's signal_set turns into ordinary handlers on this
// thread: SIGTERM and SIGINT stop the server gracefully, SIGHUP reloads the
// table. Exit statuses (also in --help):
//   0 stopped by SIGTERM or SIGINT   2 usage error        4 cannot listen
//   1 the server failed              3 table missing or bad (as for `eight`)
#include <unistd.h>

#include <boost/asio/io_context.hpp>
#include <boost/asio/signal_set.hpp>

#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "api/metrics.h"
#include "api/metrics_handler.h"
#include "api/service.h"
#include "api/table_slot.h"
#include "common/defaults.h"
#include "common/exit_codes.h"
#include "options.h"
#include "pdb_build.h"
#include "transport/access_log.h"
#include "transport/listener.h"
#include "transport/server.h"

namespace {

using eight::kExitBadTable;
using eight::kExitCannotListen;
using eight::kExitOk;
using eight::kExitUsage;
constexpr int kExitServerFailed = eight::kExitFailed;

void say(const std::string& line) {
  std::fprintf(stderr, "eight-server: %s\n", line.c_str());
}

// The files of a set and their checksums: "data/eight.tbl (checksum ...)".
std::string describe(const eight::TableSet& tables) {
  std::string out;
  for (const auto& t : tables.tables()) {
    if (!out.empty()) out += ", ";
    out += t->path() + " (checksum " + t->checksum_hex() + ")";
  }
  return out;
}

// SIGHUP: reads and verifies the table file (or every file of the folder)
// again and switches to the new set only if every file is sound; either way
// one line says what happened. Requests never wait:
// they keep answering from the current tables until the switch, and those
// that began before it finish on the old tables (table_slot.h). Runs on the
// signal thread, so the I/O threads go on meanwhile. The pattern databases
// built into --pdb-dir, once served, are loaded again too (TableSlot::add).
// A served file changed in place and no longer sound stops the serving
// (TableSlot::reload): the line says so, and the next sound reload serves.
void reload_tables(eight::server::TableSlot& slot, const eight::TableSource& source) {
  const auto current = slot.get();
  const std::string was = current ? describe(*current) : std::string("none");
  auto loaded = slot.reload(source);
  if (!loaded.ok()) {
    if (!current) {
      say("SIGHUP: still no table served: " + loaded.error().message);
    } else if (!slot.get()) {
      say("SIGHUP: stopped serving " + was + ": " + slot.unavailable());
    } else if (source.folder || current->size() != 1) {
      say("SIGHUP: kept the current tables " + was + ": " + loaded.error().message);
    } else {
      say("SIGHUP: kept the current table (checksum " + current->table(0)->checksum_hex() +
          "): " + loaded.error().message);
    }
    return;
  }
  const std::string before =
      current ? std::string() : std::string(" (serving again after none was served)");
  if (!source.folder) {
    say("SIGHUP: reloaded table " + source.path + " (checksum " +
        (*loaded)->table(0)->checksum_hex() + ", was " +
        (current ? current->table(0)->checksum_hex() : std::string("none")) + ")" + before);
    return;
  }
  say("SIGHUP: reloaded " + source.describe() + ": " + describe(**loaded) + "; was " + was +
      before);
}

}  // namespace

int main(int argc, char** argv) {
  namespace server = eight::server;
  std::vector<std::string_view> args(argv + 1, argv + argc);
  auto parsed = server::parse_command_line(args);
  if (const auto* e = std::get_if<eight::UsageError>(&parsed)) {
    return eight::print_usage_error("eight-server", *e, "eight-server --help");
  }
  server::Options opt = std::get<server::Options>(std::move(parsed));
  if (opt.help) {
    std::fputs(server::kUsage, stdout);
    return kExitOk;
  }
  if (opt.version) {
    std::puts("eight-server " EIGHT_VERSION);
    return kExitOk;
  }
  // Not told where the table is: as `eight` looks, so an installed server
  // run from any folder finds the installed table.
  if (opt.table_defaulted) opt.table = eight::local_or_installed_table_path();
  // A client gone mid-answer must not kill the process (sockets are written
  // with MSG_NOSIGNAL; this covers the access log's pipe too).
  std::signal(SIGPIPE, SIG_IGN);

  // Signals first, so a stop that comes during start-up is not lost.
  boost::asio::io_context control;
  boost::asio::signal_set signals(control, SIGTERM, SIGINT, SIGHUP);

  server::Metrics metrics;
  const eight::TableSource source = opt.source();
  // --pdb-dir: its 7-8 files served if they are sound, the others built
  // once listening (pdb_build.h).
  std::optional<server::PdbBuild> pdb;
  std::vector<std::string> also;
  if (!opt.pdb_dir.empty()) {
    std::error_code ec;
    if (source.folder && std::filesystem::equivalent(opt.pdb_dir, source.path, ec)) {
      say("--pdb-dir " + opt.pdb_dir + " is the --tables folder: give a folder of its own");
      return kExitUsage;
    }
    pdb.emplace(opt.pdb_dir, server::pdb_files(opt), opt.pdb_priority, say, metrics);
    also = pdb->found();
  }

  // Map and verify every table before listening: a bad file never serves.
  auto loaded = server::load_tables(source, also);
  if (!loaded.ok()) {
    say(loaded.error().message);
    say(source.folder ? "refusing to start without sound tables (make table builds one)"
                      : "refusing to start without a sound table (make table builds one)");
    return kExitBadTable;
  }
  // For the listening line, said once the server listens.
  const std::string first_tables =
      source.folder ? "tables " + describe(**loaded) + ", shapes " +
                          eight::shape_list((*loaded)->shapes())
                    : "table " + opt.table + ", checksum " + (*loaded)->table(0)->checksum_hex();
  // Moved into the slot: a copy left here would hold the first tables (their
  // bytes are the process's own memory, table.h) for the server's life,
  // after every reload: 24 MB for the default table, 865 MB for 4x4's 7-8.
  server::TableSlot slot(std::move(loaded).value(), also);
  const server::Service service(slot, metrics, opt.max_budget, opt.job_deadline);

  // The socket systemd hands over (eight-server.socket), else our own
  // --host/--port.
  auto inherited = server::take_inherited_listener();
  if (!inherited.ok()) {
    say(inherited.error().message);
    return kExitCannotListen;
  }
  const bool activated = inherited->has_value();
  auto listener = activated ? eight::Result<server::ListeningSocket>(std::move(**inherited))
                            : server::open_listener(opt.host, opt.port);
  if (!listener.ok()) {
    say(listener.error().message);
    return kExitCannotListen;
  }
  const int port = listener->port;
  const std::string host = listener->host;
  // The metrics address, opened before anything serves so that a port
  // taken fails the start as the public one does.
  std::optional<server::ListeningSocket> metrics_listener;
  if (opt.metrics_port) {
    auto l = server::open_listener(opt.metrics_host, *opt.metrics_port);
    if (!l.ok()) {
      say("metrics address: " + l.error().message);
      return kExitCannotListen;
    }
    metrics_listener.emplace(std::move(*l));
  }

  std::optional<server::AccessLog> access_log;
  if (!opt.quiet) {
    access_log.emplace(
        STDERR_FILENO, &metrics.access_log_dropped(),
        opt.access_log_json ? server::AccessLogFormat::kJson : server::AccessLogFormat::kText);
  }
  server::ServerConfig config;
  config.io_threads = static_cast<std::size_t>(opt.threads);
  config.compute_threads = static_cast<std::size_t>(opt.compute_threads);
  config.compute_queue = static_cast<std::size_t>(opt.compute_queue);
  config.max_connections = server::raise_descriptor_limit();
  config.client_header = opt.client_header;
  config.limits.idle_timeout = std::chrono::seconds(opt.idle_timeout_seconds);
  config.limits.queue_wait = std::chrono::seconds(opt.queue_wait_seconds);
  config.limits.memory_budget = static_cast<std::size_t>(opt.memory_budget_mib) * 1024 * 1024;
  if (opt.stop_compute_grace_ms) {
    config.limits.stop_compute_grace = std::chrono::milliseconds(*opt.stop_compute_grace_ms);
  }
  config.access_log = access_log ? &*access_log : nullptr;

  // With a metrics address, a second transport Server answers /metrics
  // there (one I/O thread and a few connections: a scraper or two) and the
  // public one answers it 404. The second keeps request counts of its own,
  // which nothing renders: the Metrics a Server is given also receives its
  // limits and queue gauge, which must stay the public server's. So scrapes
  // there are not counted in eight_http_requests_total.
  const server::MetricsOnly metrics_only(service);
  const server::WithoutMetrics without_metrics(service);
  server::Metrics metrics_port_counts;
  std::optional<server::Server> metrics_http;
  std::string metrics_url;
  if (metrics_listener) {
    constexpr std::size_t kMetricsConnections = 16;
    server::ServerConfig mc;
    mc.io_threads = 1;
    mc.compute_threads = 1;
    mc.compute_queue = 1;
    mc.max_connections = kMetricsConnections;
    mc.access_log = config.access_log;
    // Their descriptors come out of the public server's share.
    if (config.max_connections > 2 * kMetricsConnections) {
      config.max_connections -= kMetricsConnections;
    }
    metrics_url = "http://" + server::url_host(metrics_listener->host) + ":" +
                  std::to_string(metrics_listener->port) + "/metrics";
    metrics_http.emplace(metrics_only, metrics_port_counts, mc, std::move(*metrics_listener));
  }
  const server::Handler& public_handler =
      metrics_http ? static_cast<const server::Handler&>(without_metrics) : service;
  server::Server http(public_handler, metrics, config, std::move(*listener));

  int stop_signal = 0;
  std::function<void(const boost::system::error_code&, int)> on_signal =
      [&](const boost::system::error_code& ec, int sig) {
        if (ec) return;
        if (sig == SIGHUP) {
          reload_tables(slot, source);
          signals.async_wait(on_signal);
          return;
        }
        if (stop_signal == 0) {
          stop_signal = sig;
          say(std::string("received ") + (sig == SIGINT ? "SIGINT" : "SIGTERM") +
              ", finishing in-flight requests");
          http.stop();
          if (metrics_http) metrics_http->stop();
        }
        signals.async_wait(on_signal);
      };
  signals.async_wait(on_signal);

  if (metrics_http) {
    metrics_http->start();
    // Before the listening line, which tells whoever waits that all is up.
    say("metrics on " + metrics_url + " only (404 on the public port)");
  }
  http.start();
  say("listening on http://" + server::url_host(host) + ":" + std::to_string(port) +
      (activated ? ", the socket passed by the service manager" : "") +
      " (" + first_tables + ", " + std::to_string(opt.threads) + " threads" + (opt.quiet ? ", access log off" : "") +
      ", up to " + std::to_string(config.max_connections) + " connections)");
  for (const std::string& built : also) say("serving the pattern databases of " + built);
  // Serving first: the build starts once the server listens.
  if (pdb && pdb->missing()) pdb->start(slot, source);

  long cut = 0;
  std::thread waiter([&] {
    cut = http.wait();
    if (metrics_http) {
      // A failed public server ends the metrics one too.
      metrics_http->stop();
      if (metrics_http->wait() < 0) cut = -1;
    }
    control.stop();  // the server is done: so is the signal loop
  });
  control.run();
  waiter.join();
  if (access_log) access_log->flush();  // every I/O thread has finished: the log is complete
  const bool failed = stop_signal == 0 || cut < 0;
  if (failed) say("the server failed");
  if (!failed && cut > 0) {
    say(std::to_string(cut) + " connections still open after the drain deadline were cut " +
        "(stalled downloads or clients still sending)");
  }
  // A build still running cannot be cancelled and would take minutes: the
  // process ends without it (after a second, for one just switching in),
  // before main's objects it uses go away. Its *.tmp file, if any, is
  // written over at the next start.
  const int status = failed ? kExitServerFailed : kExitOk;
  if (pdb && !pdb->stop(std::chrono::seconds(1))) {
    say("the build of the pattern databases into " + opt.pdb_dir +
        " was abandoned; it starts again at the next start");
    if (!failed) say("stopped");
    std::fflush(stderr);
    std::_Exit(status);
  }
  if (!failed) say("stopped");
  return status;
}
