// The memory of the searches for boards past 16 cells, as the real server
// holds it under load: a beam search holds about 20 MB while it runs
// (include/eight/answer.h, docs/deployment.md), so a server's answers take
// at most that much per compute thread however many clients ask at once,
// and give it back when they end. The 5x5 pattern databases (12.9 MB,
// core/pdb/pdb5x5.h) are the table's, read at start; one 5x5 answer comes
// first all the same, and the memory is measured from there.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstddef>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include "eight/board.h"
#include "eight/random.h"
#include "eight/shape.h"
#include "server_fixture.h"
#include "support.h"

namespace {

using eight::test::ServerProcess;
using eight::test::ServerSpec;
using json = nlohmann::json;

// Under address sanitizer (server_fixture.h) the answers are checked, not
// the memory, and fewer of them, since each beam is some ten times slower.
constexpr bool kSanitized = eight::test::kAddressSanitized;

constexpr int kComputeThreads = 2;
// A 5x5 beam's documented 32 MB (docs/deployment.md, "Capacity": 16,000
// boards wide since issue 39's faster beam; 20 MB at 4,000), with room for
// the allocator's own: each compute thread frees into an arena of its own,
// which glibc trims only at its top.
constexpr std::size_t kPerSearchKib = 40 * 1024;

// One solve of `board` (a 5x5 board far from the goal: an optimal attempt
// that cannot finish, then the beam) from client `client`: empty when it is a
// bounded answer whose path is legal and ends at the goal, else what was
// wrong.
std::string bounded_answer_fault(const ServerProcess& server, const eight::GridBoard& board,
                                 const std::string& client) {
  httplib::Client cli = server.client();
  cli.set_read_timeout(600s);  // a hang guard: a beam takes well under 1 s
  const std::string text = eight::to_string(board);
  const auto res = cli.Get("/solve?board=" + text, httplib::Headers{{"X-Client", client}});
  if (!res) return text + ": no response (" + httplib::to_string(res.error()) + ")";
  if (res->status != 200) return text + ": status " + std::to_string(res->status) + " " + res->body;
  const json j = json::parse(res->body);
  if (j["optimal"] != false || j["method"] != "beam-search") return text + ": " + res->body;
  std::vector<eight::Move> path;
  for (const char letter : j["path"].get<std::string>()) {
    const auto move = eight::move_from_letter(letter);
    if (!move) return text + ": a path letter that is no move: " + res->body;
    path.push_back(*move);
  }
  const auto end = eight::test::replay(board, path);
  if (!end || *end != eight::standard_goal(board.shape)) return text + ": the path misses the goal";
  if (j["distance"] != static_cast<int>(path.size()) || j["lower_bound"] > j["distance"]) {
    return text + ": distance or lower_bound disagrees with the path: " + res->body;
  }
  return {};
}

}  // namespace

TEST_CASE(
    "concurrent 5x5 answers, many times the compute threads, hold at most a beam's memory per "
    "thread, over waves of them") {
  // --queue-wait: the 16 answers of a wave queue for 2 threads, which run
  // at nice 19: on a busy machine the last waits far past the default 5 s
  // (and gets 503), and this test is of memory, not of queueing.
  ServerProcess server(
      ServerSpec{.args = {"--compute-threads", std::to_string(kComputeThreads), "--client-header",
                          "X-Client", "--queue-wait", eight::test::kQueueWaitHangGuard}});
  eight::Rng rng(20261205);
  const eight::GridBoard goal = eight::standard_goal(eight::Shape{5, 5});
  // One 5x5 answer first (the databases are the table's: nothing is built).
  REQUIRE(bounded_answer_fault(server, eight::shuffled_board(goal, rng), "first").empty());
  const std::size_t before = eight::test::rss_kib(server.pid());
  const std::size_t peak_before = eight::test::peak_rss_kib(server.pid());
  REQUIRE(before > 0);

  // Each wave: 8 clients at once (4 times the compute threads; 2 under
  // address sanitizer), each asking 2 boards in turn, all different, all far
  // from the goal.
  const int clients = kSanitized ? 2 : 8;
  const int per_client = 2;
  std::vector<std::size_t> after_wave;
  for (int wave = 0; wave < 3; ++wave) {
    CAPTURE(wave);
    std::vector<eight::GridBoard> boards;
    for (int i = 0; i < clients * per_client; ++i)
      boards.push_back(eight::shuffled_board(goal, rng));
    std::mutex mutex;
    std::vector<std::string> faults;
    std::vector<std::thread> threads;
    for (int c = 0; c < clients; ++c) {
      threads.emplace_back([&, c] {
        for (int k = 0; k < per_client; ++k) {
          const auto& b = boards[static_cast<std::size_t>(c * per_client + k)];
          std::string fault = bounded_answer_fault(server, b, "client-" + std::to_string(c));
          const std::lock_guard lock(mutex);
          if (!fault.empty()) faults.push_back(std::move(fault));
        }
      });
    }
    for (auto& t : threads) t.join();
    CHECK_MESSAGE(faults.empty(), faults.size() << " of " << clients * per_client
                                                << " answers wrong, the first: "
                                                << (faults.empty() ? "" : faults.front()));
    after_wave.push_back(eight::test::rss_kib(server.pid()));
  }
  const std::size_t peak = eight::test::peak_rss_kib(server.pid());
  MESSAGE("RSS " << before << " KiB before, peak " << peak << " KiB (" << peak_before
                 << " before), after each wave " << after_wave[0] << ", " << after_wave[1] << ", "
                 << after_wave[2] << " KiB");
  CHECK(server.client().Get("/healthz")->status == 200);
  if (kSanitized) return;
  // At most a beam's memory per compute thread, whatever the number of
  // clients: the pool runs kComputeThreads searches and queues the rest. The
  // peak is over all three waves, so it also bounds what piles up: a leak of
  // 1 MB an answer would pass it by the last wave (the sanitizer step's leak
  // checker sees smaller ones). What glibc keeps in the threads' arenas
  // between waves varies (1 to 23 MB above the start in one run), so the
  // waves' ends are reported, not compared.
  CHECK(peak <= std::max(peak_before, before + kComputeThreads * kPerSearchKib));
}
