// Fuzzes the transport's request reading and the answer loop a session runs
// over it, without sockets: raw bytes, as any client could send them, go
// through the one RequestReader in pieces (sizes taken from the input), each
// request or refusal is answered by the one Service and written by the one
// response writer, pipelined requests one after another, until the bytes
// run out or a refusal closes the connection.
//
//   byte 0      the size of the pieces the bytes arrive in (1..256)
//   the rest    what the client sends
//
// Whatever comes in: no crash, no hang; every answer is a well-formed
// HTTP/1.x response whose status is below 500, or 501/503 (an unknown
// transfer coding, a full pool); a refused framing ends the connection.
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "standalone.h"
#include "transport/request_reader.h"
#include "transport/response_writer.h"

namespace {

eight::server::Standalone& world() {
  static eight::server::Standalone w;
  return w;
}

void check_answer(std::string_view out, int status) {
  if (out.substr(0, 7) != "HTTP/1.") std::abort();
  if (out.find("\r\n\r\n") == std::string_view::npos) std::abort();
  if (status >= 500 && status != 501 && status != 503) std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using eight::server::ReadStep;
  if (size < 1) return 0;
  auto& w = world();
  static const eight::server::Limits limits;
  const std::size_t piece = 1 + data[0];
  const std::string_view input(reinterpret_cast<const char*>(data + 1), size - 1);
  eight::server::RequestReader reader(limits);
  const std::atomic<bool> cancelled{false};
  std::string buffered;
  std::size_t given = 0;
  // Bounded: every round either takes a piece of the input or consumes bytes.
  for (int rounds = 0; rounds < 1000000; ++rounds) {
    if (given < input.size()) {
      const std::size_t n = std::min(piece, input.size() - given);
      buffered.append(input.substr(given, n));
      given += n;
    }
    const ReadStep step = reader.read(buffered);
    if (step.consumed > buffered.size()) std::abort();
    buffered.erase(0, step.consumed);
    eight::server::Response res;
    eight::server::Framing framing;
    framing.keep_alive_value = "timeout=75, max=1000";
    if (step.kind == ReadStep::Kind::kRequest) {
      const eight::server::Request req = reader.take();
      w.service.handle(req, res, cancelled);
      framing.version = req.version;
      framing.keep_alive = eight::server::wants_keep_alive(req);
      framing.head_only = req.method == boost::beast::http::verb::head;
    } else if (step.kind == ReadStep::Kind::kRefused) {
      w.service.refuse(step.why, step.detail, res);
      framing.version = reader.version();
      framing.keep_alive = !step.close;
      reader.reset();
    } else if (given == input.size() && step.kind == ReadStep::Kind::kNeedMore &&
               (step.consumed == 0 || buffered.empty())) {
      break;  // all sent, and the reader waits for more that will never come
    } else {
      continue;
    }
    std::string out;
    eight::server::write_response(res, framing, out);
    check_answer(out, res.status());
    if (step.kind == ReadStep::Kind::kRefused && step.close) break;
  }
  return 0;
}
