#include "metrics.h"

#include <algorithm>
#include <cinttypes>
#include <cstdio>

#include "eight/table.h"
#include "eight/table_set.h"

namespace eight::server {
namespace {

// Label values may hold any text (the table path): escape as the format asks.
std::string escape_label(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (char c : s) {
    if (c == '\\') {
      out += "\\\\";
    } else if (c == '"') {
      out += "\\\"";
    } else if (c == '\n') {
      out += "\\n";
    } else {
      out += c;
    }
  }
  return out;
}

// Bucket bounds as Prometheus clients print them: "0.000025", "0.001", "1".
std::string seconds_label(std::uint64_t micros) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%" PRIu64 ".%06" PRIu64, micros / 1000000, micros % 1000000);
  std::string s = buf;
  while (s.back() == '0') s.pop_back();
  if (s.back() == '.') s.pop_back();
  return s;
}

// A pattern database's tiles, from its group's bits (bit t for tile t):
// "1,2,5,6,9,10".
std::string tile_list(std::uint32_t group) {
  std::string out;
  for (int t = 0; t < 32; ++t) {  // 5x5 groups' tiles reach 24
    if ((group >> t & 1) == 0) continue;
    if (!out.empty()) out += ',';
    out += std::to_string(t);
  }
  return out;
}

// A formatted line of any length: a label may hold a long table path, and
// a line cut short would lose its newline and break the exposition.
void append(std::string& out, const char* format, auto... args) {
  char buf[256];
  const int n = std::snprintf(buf, sizeof buf, format, args...);
  if (n <= 0) return;
  if (static_cast<std::size_t>(n) < sizeof buf) {
    out.append(buf, static_cast<std::size_t>(n));
    return;
  }
  const std::size_t at = out.size();
  out.resize(at + static_cast<std::size_t>(n) + 1);
  std::snprintf(out.data() + at, static_cast<std::size_t>(n) + 1, format, args...);
  out.resize(at + static_cast<std::size_t>(n));
}

// HELP and TYPE lines, the two lines every metric starts with.
void append_family(std::string& out, const char* name, const char* type, const char* help) {
  out += "# HELP ";
  out += name;
  out += ' ';
  out += help;
  out += "\n# TYPE ";
  out += name;
  out += ' ';
  out += type;
  out += '\n';
}

// A metric with one unlabelled value.
void append_single(std::string& out, const char* name, const char* type, const char* help,
                   std::uint64_t value) {
  append_family(out, name, type, help);
  append(out, "%s %" PRIu64 "\n", name, value);
}

std::uint64_t load(const std::atomic<std::int64_t>& v) {
  return static_cast<std::uint64_t>(std::max<std::int64_t>(0, v.load(std::memory_order_relaxed)));
}
std::uint64_t load(const std::atomic<std::uint64_t>& v) {
  return v.load(std::memory_order_relaxed);
}

}  // namespace

Metrics::Metrics() : started_(std::chrono::system_clock::now()) {}

void Metrics::record(Route route, int status, std::chrono::nanoseconds elapsed) {
  const auto r = static_cast<std::size_t>(route);
  const int s = std::clamp(status, kMinStatus, kMaxStatus);
  requests_[r][static_cast<std::size_t>(s - kMinStatus)].fetch_add(1, std::memory_order_relaxed);
  const auto ns = static_cast<std::uint64_t>(std::max<std::int64_t>(0, elapsed.count()));
  const std::uint64_t us = ns / 1000;
  std::size_t b = 0;
  while (b < kBucketMicros.size() && us > kBucketMicros[b]) ++b;
  buckets_[r][b].fetch_add(1, std::memory_order_relaxed);
  latency_sum_ns_[r].fetch_add(ns, std::memory_order_relaxed);
}

std::uint64_t Metrics::requests(Route route, int status) const {
  const int s = std::clamp(status, kMinStatus, kMaxStatus);
  return requests_[static_cast<std::size_t>(route)][static_cast<std::size_t>(s - kMinStatus)].load(
      std::memory_order_relaxed);
}

std::string Metrics::render(const TableSet* tables) const {
  std::string out;
  out.reserve(8192);
  append_family(out, "eight_http_requests_total", "counter",
                "HTTP requests answered, by route and status.");
  for (std::size_t r = 0; r < kRouteCount; ++r) {
    const std::string route(route_label(static_cast<Route>(r)));
    for (std::size_t s = 0; s < kStatuses; ++s) {
      const std::uint64_t n = requests_[r][s].load(std::memory_order_relaxed);
      if (n == 0) continue;
      append(out, "eight_http_requests_total{route=\"%s\",status=\"%d\"} %" PRIu64 "\n",
             route.c_str(), static_cast<int>(s) + kMinStatus, n);
    }
  }
  append_family(out, "eight_http_request_duration_seconds", "histogram",
                "Time from routing a request to handing its response to the kernel.");
  for (std::size_t r = 0; r < kRouteCount; ++r) {
    std::array<std::uint64_t, kBuckets> counts{};
    std::uint64_t total = 0;
    for (std::size_t b = 0; b < kBuckets; ++b) {
      counts[b] = buckets_[r][b].load(std::memory_order_relaxed);
      total += counts[b];
    }
    if (total == 0) continue;  // routes never asked for stay out of the output
    const std::string route(route_label(static_cast<Route>(r)));
    std::uint64_t cumulative = 0;
    for (std::size_t b = 0; b < kBuckets; ++b) {
      cumulative += counts[b];
      if (b < kBucketMicros.size()) {
        append(out,
               "eight_http_request_duration_seconds_bucket{route=\"%s\",le=\"%s\"} %" PRIu64 "\n",
               route.c_str(), seconds_label(kBucketMicros[b]).c_str(), cumulative);
      } else {
        append(out,
               "eight_http_request_duration_seconds_bucket{route=\"%s\",le=\"+Inf\"} %" PRIu64 "\n",
               route.c_str(), cumulative);
      }
    }
    append(out, "eight_http_request_duration_seconds_sum{route=\"%s\"} %.9f\n", route.c_str(),
           static_cast<double>(latency_sum_ns_[r].load(std::memory_order_relaxed)) / 1e9);
    append(out, "eight_http_request_duration_seconds_count{route=\"%s\"} %" PRIu64 "\n",
           route.c_str(), total);
  }
  if (tables != nullptr) {
    // One eight_table_info series per file; the unlabelled totals are the
    // one file's figures when there is one, as before sets.
    std::size_t bytes = 0;
    std::size_t sections = 0;
    append_family(out, "eight_table_info", "gauge",
                  "A table file being served: its path and XXH3-64 checksum.");
    for (const auto& t : tables->tables()) {
      out += "eight_table_info{path=\"" + escape_label(t->path()) + "\",checksum=\"" +
             t->checksum_hex() + "\"} 1\n";
      bytes += t->view().bytes().size();
      sections += t->view().section_count();
    }
    append_single(out, "eight_table_files", "gauge", "Table files being served.", tables->size());
    append_single(out, "eight_table_bytes", "gauge", "Size of the table files, in all.", bytes);
    append_single(out, "eight_table_sections", "gauge",
                  "Sections in the table files (goals answered directly), in all.", sections);
    append_family(out, "eight_table_file_bytes", "gauge", "Size of each table file.");
    for (const auto& t : tables->tables()) {
      append(out, "eight_table_file_bytes{path=\"%s\"} %zu\n", escape_label(t->path()).c_str(),
             t->view().bytes().size());
    }
    append_family(out, "eight_table_file_sections", "gauge", "Sections in each table file.");
    for (const auto& t : tables->tables()) {
      append(out, "eight_table_file_sections{path=\"%s\"} %zu\n", escape_label(t->path()).c_str(),
             t->view().section_count());
    }
    // Series are labelled by goal, and by path too when there are several
    // files (two of them may hold the same goal). A goal's sections that
    // hold positions (full and mod-3) have a solution length as their max
    // distance; its pattern databases (4x4: several per goal) have their
    // largest entry instead (a placement's value is its Manhattan distance
    // plus twice its entry: eight/pattern_db.h), in a family of their own
    // told apart by their tiles. Each series appears once: Prometheus drops the
    // samples of a repeated one.
    const auto path_label = [tables](const Table& t) {
      return tables->size() == 1 ? std::string() : ",path=\"" + escape_label(t.path()) + "\"";
    };
    append_family(out, "eight_table_section_max_distance", "gauge",
                  "Longest optimal solution in a section that holds positions (moves).");
    for (const auto& t : tables->tables()) {
      const TableView& v = t->view();
      const std::string path = path_label(*t);
      for (std::size_t i = 0; i < v.section_count(); ++i) {
        const SectionInfo& s = v.section(i);
        if (s.encoding == format::Encoding::kPatternDb) continue;
        append(out, "eight_table_section_max_distance{goal=\"%s\"%s} %d\n",
               to_string(s.goal).c_str(), path.c_str(), s.max_distance);
      }
    }
    append_family(
        out, "eight_table_pattern_database_max_entry", "gauge",
        "Largest entry of a pattern database (4x4, 2x7, 3x5, 2x8): the most move pairs its tiles "
        "need beyond their Manhattan distance.");
    for (const auto& t : tables->tables()) {
      const TableView& v = t->view();
      const std::string path = path_label(*t);
      for (std::size_t i = 0; i < v.section_count(); ++i) {
        const SectionInfo& s = v.section(i);
        if (s.encoding != format::Encoding::kPatternDb) continue;
        append(out, "eight_table_pattern_database_max_entry{goal=\"%s\",tiles=\"%s\"%s} %d\n",
               to_string(s.goal).c_str(), tile_list(s.group).c_str(), path.c_str(), s.max_distance);
      }
    }
  }
  append_single(out, "eight_access_log_dropped_total", "counter",
                "Access log lines dropped because stderr's reader fell behind.",
                load(access_log_dropped_));
  append_single(out, "eight_connections_open", "gauge", "Client connections open now.",
                load(open_connections_));
  append_single(out, "eight_connections_limit", "gauge",
                "Connections the server holds at most (from its file descriptor limit).",
                load(max_connections_));
  append_single(out, "eight_memory_accounted_bytes", "gauge",
                "Bytes connections hold now for request bodies and answers waiting to be sent.",
                load(memory_accounted_));
  append_single(out, "eight_memory_budget_bytes", "gauge",
                "The most those bytes may reach before new work gets 503 (--memory-budget).",
                load(memory_budget_));
  append_single(out, "eight_compute_queue_depth", "gauge",
                "Requests waiting for a compute-pool thread now.", load(compute_queue_depth_));
  append_single(out, "eight_compute_queue_capacity", "gauge",
                "Requests the compute pool's queue holds before answering 503.",
                load(compute_queue_capacity_));
  append_single(out, "eight_compute_running", "gauge",
                "Long requests a compute-pool thread is answering now.", load(compute_running_));
  append_single(out, "eight_compute_threads", "gauge",
                "Threads of the compute pool (--compute-threads).", load(compute_threads_));
  append_single(out, "eight_compute_cancelled_total", "counter",
                "Long requests dropped or stopped early because their client left.",
                load(compute_cancelled_));
  // A state set: one series per state, 1 for the current one.
  append_family(out, "eight_pdb_build_state", "gauge",
                "The background build of the 4x4 pattern databases (--pdb-dir): 1 for its "
                "state.");
  constexpr const char* kPdbStates[] = {"none", "building", "ready", "failed"};
  const int pdb_state = pdb_build_.load(std::memory_order_relaxed);
  for (int i = 0; i < 4; ++i) {
    append(out, "eight_pdb_build_state{state=\"%s\"} %d\n", kPdbStates[i], i == pdb_state ? 1 : 0);
  }
  append_family(out, "eight_process_start_time_seconds", "gauge",
                "Start time of the process since the Unix epoch.");
  append(out, "eight_process_start_time_seconds %.3f\n",
         std::chrono::duration<double>(started_.time_since_epoch()).count());
  return out;
}

}  // namespace eight::server
