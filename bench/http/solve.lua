-- wrk script for bench/http/run.sh: GET /solve over many different boards.
--
--   wrk -t2 -c32 -d10s --latency -s solve.lua http://127.0.0.1:PORT
--   wrk ... -s solve.lua http://127.0.0.1:PORT -- /answer.json   (one fixed path)
--
-- Each wrk thread builds its own list of 4096 queries from a fixed seed:
-- boards made by random walks of 0..80 moves from the goal (so distances
-- cover 0..31), every tenth board with two tiles swapped (the unsolvable
-- class), and every seventh query against another goal. With a path
-- argument, every request asks for that path instead: the same client-side
-- work, so the nginx reference run costs wrk exactly as much.
--
-- done() prints one machine-readable line for run.sh:
--   RESULT requests=N duration_s=S rps=R p50_us=A p99_us=B errors=E non2xx=C

local queries = {}
local next_query = 1
local fixed_path = nil

-- Blank moves: index of the cell the blank moves to, or nil off the board.
local function neighbours(cell)
  local r, c = math.floor(cell / 3), cell % 3
  local out = {}
  if r > 0 then out[#out + 1] = cell - 3 end
  if r < 2 then out[#out + 1] = cell + 3 end
  if c > 0 then out[#out + 1] = cell - 1 end
  if c < 2 then out[#out + 1] = cell + 1 end
  return out
end

local function walk(goal, steps)
  local cells = {}
  local blank = 0
  for i = 1, 9 do
    cells[i - 1] = string.sub(goal, i, i)
    if cells[i - 1] == "0" then blank = i - 1 end
  end
  for _ = 1, steps do
    local n = neighbours(blank)
    local to = n[math.random(1, #n)]
    cells[blank], cells[to] = cells[to], "0"
    blank = to
  end
  return cells
end

local goals = { "123804765", "012345678", "123456708", "876543210" }

-- Runs in wrk's main Lua state once per thread: number the threads.
local threads = 0
function setup(thread)
  thread:set("id", threads)
  threads = threads + 1
end

function init(args)
  fixed_path = args[1]
  -- A fixed seed per thread: runs are repeatable, threads differ.
  math.randomseed(20240601 + (id or 0) * 7919)
  for i = 1, 4096 do
    local goal = "123456780"
    if i % 7 == 0 then goal = goals[(i / 7) % #goals + 1] end
    local cells = walk(goal, math.random(0, 80))
    if i % 10 == 0 then
      -- Swap two tiles (not the blank): the board leaves the goal's class.
      local a, b = 0, 1
      if cells[a] == "0" then a = 2 end
      if cells[b] == "0" then b = 2 end
      cells[a], cells[b] = cells[b], cells[a]
    end
    local board = table.concat(cells, "", 0, 8)
    local q = "/solve?board=" .. board
    if goal ~= "123456780" then q = q .. "&goal=" .. goal end
    queries[i] = q
  end
  next_query = math.random(1, #queries)
end

function request()
  if fixed_path then return wrk.format("GET", fixed_path) end
  next_query = next_query % #queries + 1
  return wrk.format("GET", queries[next_query])
end

function done(summary, latency, requests)
  local e = summary.errors
  local errors = e.connect + e.read + e.write + e.timeout
  io.write(string.format(
    "RESULT requests=%d duration_s=%.2f rps=%.0f p50_us=%d p99_us=%d errors=%d non2xx=%d\n",
    summary.requests, summary.duration / 1e6, summary.requests / (summary.duration / 1e6),
    latency:percentile(50), latency:percentile(99), errors, e.status))
end
