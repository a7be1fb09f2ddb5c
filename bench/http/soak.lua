-- wrk script for bench/http/soak.sh: a mix of every read endpoint.
--
--   wrk -t2 -c64 -d60s -s soak.lua http://127.0.0.1:PORT -- BOARDS_FILE
--
-- BOARDS_FILE holds one board per line (soak.sh writes it with `eight
-- random`, all distances 0..31). Each wrk thread cycles through its own
-- shuffled list of requests:
--   40% /solve?board=B        (every fifth with &goal=, another goal)
--   25% /distance?board=B
--   20% /hint?board=B
--   15% /table with a Range of 1 byte to 64 KiB anywhere in the table
--
-- done() prints one machine-readable line for soak.sh:
--   RESULT requests=N duration_s=S rps=R p50_us=A p99_us=B max_us=M errors=E non2xx=C

local requests = {}
local next_request = 1
local kTableBytes = 2177408
local goals = { "123804765", "012345678", "123456708", "876543210" }

local threads = 0
function setup(thread)
  thread:set("id", threads)
  threads = threads + 1
end

local function read_boards(path)
  local boards = {}
  for line in io.lines(path) do
    if #line > 0 then boards[#boards + 1] = line end
  end
  assert(#boards > 0, "no boards in " .. path)
  return boards
end

function init(args)
  local boards = read_boards(args[1])
  math.randomseed(20240611 + (id or 0) * 7919)
  for i = 1, 8192 do
    local board = boards[math.random(1, #boards)]
    local pick = math.random(1, 100)
    local path
    local headers = {}
    if pick <= 40 then
      path = "/solve?board=" .. board
      if i % 5 == 0 then path = path .. "&goal=" .. goals[i % #goals + 1] end
    elseif pick <= 65 then
      path = "/distance?board=" .. board
    elseif pick <= 85 then
      path = "/hint?board=" .. board
    else
      local length = math.random(1, 65536)
      local first = math.random(0, kTableBytes - length)
      path = "/table"
      headers["Range"] = string.format("bytes=%d-%d", first, first + length - 1)
    end
    requests[i] = wrk.format("GET", path, headers)
  end
  next_request = math.random(1, #requests)
end

function request()
  next_request = next_request % #requests + 1
  return requests[next_request]
end

function done(summary, latency, requests)
  local e = summary.errors
  local errors = e.connect + e.read + e.write + e.timeout
  io.write(string.format(
    "RESULT requests=%d duration_s=%.2f rps=%.0f p50_us=%d p99_us=%d max_us=%d errors=%d non2xx=%d\n",
    summary.requests, summary.duration / 1e6, summary.requests / (summary.duration / 1e6),
    latency:percentile(50), latency:percentile(99), latency.max, errors, e.status))
end
