// Every limit and deadline of the transport, in one place, each with the
// reason for its number; docs/api.md ("Connections, limits and timeouts")
// cites them.
//
// Thread safety: constants.
#pragma once

#include <chrono>
#include <cstddef>

namespace eight::server {

using namespace std::chrono_literals;

struct Limits {
  // The request line ("GET /solve?board=... HTTP/1.1"). A 3x3 question is
  // under 100 bytes; a 10x10 one with its goal, each at most kMaxBoardText
  // (512) characters and tripled at worst by URL encoding, about 3 KiB; 8 KiB
  // is what nginx and most proxies allow, so no client that works behind
  // one is refused here. Longer: 414.
  std::size_t request_line = 8 * 1024;
  // The header section after the request line, and its field count. 16 KiB
  // is Node.js's default (browsers send 0.5-2 KiB; big cookies stay under
  // 8 KiB); 100 fields is Apache's LimitRequestFields. Together they bound
  // what one request can make the server hold before it has a request at
  // all. More: 431.
  std::size_t header_bytes = 16 * 1024;
  std::size_t header_fields = 100;
  // One header field line, like the request line: nginx's 8 KiB.
  std::size_t header_line = 8 * 1024;
  // A request body: only POST /solve takes one, and 10,000 boards of the
  // longest notation (128 characters) fit with room to spare in 2 MiB. A
  // larger declared Content-Length is refused before a byte of it is read,
  // a larger chunked body as soon as it passes the limit: 413.
  std::size_t body_bytes = 2 * 1024 * 1024;
  // A chunked body's framing, which is not body and buys no time: Beast's
  // parser holds a chunk-size line, and the trailer section after the last
  // chunk, until it has all of it, so each has a limit of its own, checked
  // on the bytes held (a breach closes the connection).
  //   chunk_line: one chunk-size line with its extensions. The size is at
  //     most 16 hex digits; no client of this API sends extensions, and
  //     RFC 9112 lets a server ignore them: 4 KiB is room for any honest
  //     one. Longer: 400.
  //   chunk_extensions: the extensions of all of a body's chunks together:
  //     16 KiB, Node.js's limit since CVE-2024-22019 (whose attack is this
  //     one). More: 400.
  //   trailer_bytes: the trailer section (fields after the last chunk,
  //     which this server ignores): a header line's 8 KiB. More: 431.
  std::size_t chunk_line = 4 * 1024;
  std::size_t chunk_extensions = 16 * 1024;
  std::size_t trailer_bytes = 8 * 1024;

  // From a request's first byte, its line and headers must arrive within
  // this: they come in one packet from any real client, so a client still
  // sending after 2 s is trickling them to hold the connection (slowloris).
  std::chrono::milliseconds head_timeout = 2s;
  // After the headers, a body gets head_timeout of grace plus a second per
  // min_body_rate bytes of body received (chunk framing does not count):
  // 64 KiB/s is half a megabit, so the 2 MiB limit may take 34 s, while a
  // body sent a byte at a time is cut off.
  std::size_t min_body_rate = 64 * 1024;
  // An idle keep-alive connection is closed after this (--idle-timeout). Longer than the
  // 60 s idle timeout of common load balancers (AWS ALB, nginx upstreams),
  // so that the balancer, not the server, ends idle connections: a server
  // that closes first races the balancer's next request on that connection
  // and turns it into a 502. nginx's default is 75 s too. Idle connections
  // cost a few hundred bytes each in an event loop.
  std::chrono::milliseconds idle_timeout = 75s;
  // Requests served on one connection before it is closed (nginx's
  // keepalive_requests), so a balancer's connections are renewed now and
  // then; reconnecting costs 0.1% of requests.
  std::size_t requests_per_connection = 1000;
  // A response being written (a 21 MB /table to a slow client) must make
  // some progress every this long, else the client has stalled.
  std::chrono::milliseconds write_stall = 5s;
  // After answering a request the server will not read further (an error,
  // Connection: close), it shuts its side and reads what the client still
  // sends, at most this long and this much, so its unread bytes do not make
  // the kernel reset the connection and destroy the answer in flight. A
  // client sending a body refused at its head (413, 415) thus gets to
  // finish and read the answer: 8 MiB is milliseconds on loopback or a LAN.
  // Nothing read is kept.
  std::chrono::milliseconds linger = 1s;
  std::size_t linger_bytes = 8 * 1024 * 1024;
  // While the server stops, lingering is cut to this: a client that read
  // its last answer has closed by then on any network worth the name (a
  // LAN's round trip is well under a millisecond), and a stop should not
  // wait a second for one that keeps its end open.
  std::chrono::milliseconds stop_linger = 100ms;
  // At a stop, an idle keep-alive connection stays this long (plus up to a
  // sweep) before it is closed: a busy client sends its next request within
  // microseconds of reading an answer, and one that arrives in this window
  // is answered with Connection: close instead of racing the close.
  std::chrono::milliseconds stop_idle_grace = 25ms;
  // How often each I/O thread checks its connections' deadlines: the error
  // of every deadline above, and the Date header's clock.
  std::chrono::milliseconds sweep_interval = 50ms;
  // At a stop, connections still busy after this (a stalled download, a
  // client still sending) are closed, and computations still running are
  // told to stop and answered 503 when they have; after stop_compute_grace
  // more, one still running is answered 503 without it, and whatever else
  // is left is closed (what is left a linger later too): the connections
  // are done in about a second and a half, the process once every
  // computation has seen its flag.
  std::chrono::milliseconds drain_deadline = 800ms;
  // A search or draw checks its cancel flag every few thousand nodes or
  // every draw: milliseconds. 500 ms is room for a loaded machine; a thread
  // starved longer (nice 19 beside busy programs) is not waited for.
  // eight-server's test seam --stop-compute-grace sets it (options.h).
  std::chrono::milliseconds stop_compute_grace = 500ms;
  // A long request waiting this long in the compute pool's queue, every
  // thread busy, is answered 503 with Retry-After: the client can retry
  // elsewhere instead of waiting on a search that may take 15 s. eight-server's
  // --queue-wait sets it.
  std::chrono::milliseconds queue_wait = 5s;
  // Bytes received while a request waits for the compute pool (a client
  // pipelining behind it): past this, reading pauses until its answer.
  std::size_t pipeline_bytes = 64 * 1024;
  // The memory budget (--memory-budget): the bytes all connections together
  // hold for requests and answers, counted by each session (session.h): its
  // read buffer, the body arriving (Beast reserves a declared Content-Length
  // at the head, so that is counted then), the body of its request while it
  // computes, and its answers waiting to be written. Past it, new work is
  // refused 503 overloaded with Retry-After: a body arriving (at its head,
  // or as a chunked one grows), and any request with a body or that runs on
  // the compute pool. Answers already computed are never dropped: each is
  // counted when it arrives, and a job starts only under the budget, so the
  // total passes it by the answers of the jobs running at most (a batch
  // answer is megabytes: 5.3 MB for 10,000 3x3 boards, about twice that for
  // 4x4 boards far from their goal; written from where it was built, never
  // copied).
  // 16 MiB: what the Kubernetes manifest's 64 MiB limit (deploy/kubernetes/,
  // one compute thread) leaves beside the default table (23.8 MB, all
  // resident), the process's own 3.6 MB and one compute job's working
  // memory (at most 16 MB: a 5x5 answer's beam search; a batch's DOM and
  // answer less), with room to spare: about 60 MB at the worst. Seven
  // 2 MiB bodies at once, or a few batch answers waiting for slow readers.
  std::size_t memory_budget = 16 * 1024 * 1024;
  // New work is let in while the counted bytes stay within three quarters
  // of the budget: the last quarter is for what no count sees, each
  // connection's own memory (its session, parser and socket, about 3 KB
  // while it sends) and the allocator's. Without it, 1,000 connections
  // each holding an unfinished 2 MiB body grew the server by 16.7 to 17.8
  // MB against the 16 MiB budget (seven bodies let in, 14 MiB, and the
  // connections' 3 MB); with it, five bodies (bench/reliability
  // body_floors.py held_bodies).
  std::size_t memory_admitted() const { return memory_budget - memory_budget / 4; }
};

}  // namespace eight::server
