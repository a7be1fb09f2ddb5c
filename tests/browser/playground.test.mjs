// End-to-end test of the playground page: the real eight-server on a
// loopback port, Debian's Chromium (never a downloaded browser) driven
// headless by playwright-core.
//
//   scripts/npm-ci.sh tests/browser build/tests/browser 18 browser
//   EIGHT_BIN_DIR=build/bin EIGHT_BROWSER_WORK=build/tests/browser \
//   EIGHT_ARTIFACT_DIR=build/test-artifacts node --test tests/browser/
//
// Keeps screenshots in EIGHT_ARTIFACT_DIR.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, mkdirSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { createRequire } from "node:module";

// Every wait for the page is a hang guard, not a time limit: a step takes a
// few seconds alone, and up to about ten beside the suite in .ci/run (2 cores,
// ctest -j 4), where a 20 s wait for the 5x5 size pick once ran out; a 5x5
// step that waits on a beam search (at nice 19) much longer beside the
// sanitizer build as well.
const kHangGuardMs = 120000;

// playwright-core is installed into the build folder (scripts/npm-ci.sh), not
// next to this file, so load it from there (createRequire needs an absolute
// path: EIGHT_BROWSER_WORK may be relative, as above).
const work = process.env.EIGHT_BROWSER_WORK ?? "build/tests/browser";
const { chromium } = createRequire(resolve(work, "package.json"))("playwright-core");

const binDir = process.env.EIGHT_BIN_DIR ?? "build/bin";
const artifacts = process.env.EIGHT_ARTIFACT_DIR ?? "build/test-artifacts";
const chromiumPath = process.env.CHROMIUM ?? "/usr/bin/chromium";
const GOAL = "123456780";

let server, browser, base, scratch;

function freePort() {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

// The test's own questions, as a client should ask them: a 503 with
// Retry-After (the server's compute threads busy, here with the page's
// question from the same address on a busy machine) is asked again after
// the wait it names, within the hang guard.
async function api(path) {
  for (const end = Date.now() + kHangGuardMs; ;) {
    const r = await fetch(base + path, { headers: { Accept: "application/json" } });
    const after = Number(r.headers.get("retry-after"));
    if (r.status === 503 && Date.now() < end) {
      assert.ok(after >= 1, `${path} -> 503 without Retry-After`);
      await r.arrayBuffer();
      await sleep(after * 1000);
      continue;
    }
    assert.equal(r.status, 200, `${path} -> ${r.status}`);
    return r.json();
  }
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// Waits, in the test's own process, until `condition()` holds or `ms` have
// passed (for what the test itself records, such as routed requests; the
// page's state is waited for with waitForFunction).
async function until(condition, ms = kHangGuardMs) {
  for (const end = Date.now() + ms; !condition() && Date.now() < end;) await sleep(10);
}

async function waitReady(deadlineMs) {
  const end = Date.now() + deadlineMs;
  while (Date.now() < end) {
    try {
      if ((await fetch(base + "/readyz")).ok) return;
    } catch {}
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error("eight-server did not become ready");
}

// The board after the tile on `cell` slides into the gap.
function slid(board, cell) {
  const cells = [...board];
  const gap = board.indexOf("0");
  [cells[gap], cells[cell]] = [cells[cell], cells[gap]];
  return cells.join("");
}

before(async () => {
  mkdirSync(artifacts, { recursive: true });
  scratch = mkdtempSync(join(tmpdir(), "eight-browser-"));
  // The default table: every shape up to 10 cells and the 4x4 pattern
  // databases, so the shape selector shows. EIGHT_BROWSER_TABLE: one made
  // already (CTest passes the build's), to skip making one.
  let table = process.env.EIGHT_BROWSER_TABLE;
  if (!table) {
    table = join(scratch, "eight.tbl");
    const gen = spawnSync(join(binDir, "eight-tablegen"),
                          ["--quiet", "--shape", "default", "--out", table]);
    assert.equal(gen.status, 0, String(gen.stderr));
  }
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  // --queue-wait 600: a 5x5 answer is a beam search on a compute thread at
  // nice 19, which .ci/run's busy step starves for long spells; this test is
  // about the page, not about queueing (the server tests cover the 503).
  // --job-deadline 600 for the same reason: at the default 10 s, in a
  // loaded suite, a 5x5 board was answered with another, longer path than
  // the test's next ask (182 moves, then 134), as a search starved until
  // its deadline stops with another path; the deadline is the server
  // tests' (tests/server/deadline_test.cpp).
  server = spawn(join(binDir, "eight-server"),
                 ["--table", table, "--host", "127.0.0.1", "--port", String(port), "--quiet",
                  "--queue-wait", "600", "--job-deadline", "600"],
                 { stdio: ["ignore", "ignore", "inherit"] });
  await waitReady(10000);
  browser = await chromium.launch({
    executablePath: chromiumPath,
    headless: true,
    // Root has no sandbox here; the rest keeps Chromium off the network,
    // which this machine does not have anyway.
    args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
           "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  });
});

after(async () => {
  await browser?.close();
  server?.kill("SIGTERM");
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

async function openPage(viewport) {
  const page = await browser.newPage({ viewport });
  // Every wait, the ones not given a timeout too (Playwright's default is
  // 30 s): a 5x5 answer is a beam search on a compute thread at nice 19,
  // some 0.3 s alone, and beside .ci/run's sanitizer build and the suite a
  // 30 s wait for its hint once ran out.
  page.setDefaultTimeout(kHangGuardMs);
  const errors = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  // Anything the page asks of a host other than our server is a failure:
  // no external scripts, fonts or CDNs.
  const foreign = [];
  page.on("request", (r) => { if (!r.url().startsWith(base)) foreign.push(r.url()); });
  await page.goto(base + "/");
  await page.waitForFunction(() => {
    const b = document.getElementById("board")?.dataset.board;
    return b && b.length === 9 && document.getElementById("distance").textContent !== "-";
  });
  return { page, errors, foreign };
}

const boardOf = (page) => page.locator("#board").getAttribute("data-board");

test("the playground loads with a puzzle at the chosen difficulty, from our server only", async () => {
  const { page, errors, foreign } = await openPage({ width: 800, height: 900 });
  const board = await boardOf(page);
  assert.equal((await api(`/distance?board=${board}&goal=${GOAL}`)).distance, 20);
  assert.equal(await page.locator("#distance").textContent(), "20");
  assert.equal(await page.title(), "eight: the 8-puzzle, solved");
  // Every tile is a labelled button; controls have names.
  assert.equal(await page.locator("button.tile[aria-label]").count(), 8);
  for (const id of ["new", "hint", "solve"]) {
    assert.ok((await page.locator(`#${id}`).textContent()).trim().length > 0);
  }
  assert.ok(await page.locator('label[for="difficulty"]').count());
  assert.deepEqual(errors, []);
  assert.deepEqual(foreign, []);
  await page.close();
});

test("clicking a tile next to the gap slides it, and the arrow keys do too", async () => {
  const { page, errors } = await openPage({ width: 800, height: 900 });
  const before = await boardOf(page);
  const tile = page.locator("button.tile:not([disabled])").first();
  const cell = Number(await tile.getAttribute("data-cell"));
  await tile.click();
  const after = await boardOf(page);
  assert.equal(after, slid(before, cell));
  assert.equal(await page.locator("#moves").textContent(), "1");
  // A tile that is not next to the gap does not move.
  const stuck = page.locator("button.tile[disabled]").first();
  await stuck.click({ force: true });
  assert.equal(await boardOf(page), after);
  // ArrowUp slides the tile below the gap up, when there is one.
  const gap = after.indexOf("0");
  const key = gap < 6 ? "ArrowUp" : "ArrowDown";
  await page.keyboard.press(key);
  assert.equal(await boardOf(page), slid(after, gap < 6 ? gap + 3 : gap - 3));
  assert.equal(await page.locator("#moves").textContent(), "2");
  assert.deepEqual(errors, []);
  await page.close();
});

test("the hint highlights a tile whose move is optimal", async () => {
  const { page, errors } = await openPage({ width: 800, height: 900 });
  const board = await boardOf(page);
  const before = (await api(`/distance?board=${board}&goal=${GOAL}`)).distance;
  await page.click("#hint");
  const hinted = page.locator("button.tile.hint");
  await hinted.waitFor();
  assert.equal(await hinted.count(), 1);
  const cell = Number(await hinted.getAttribute("data-cell"));
  const next = slid(board, cell);
  assert.equal((await api(`/distance?board=${next}&goal=${GOAL}`)).distance, before - 1);
  assert.match(await page.locator("#status").textContent(), /^Hint: slide tile \d/);
  await page.screenshot({ path: join(artifacts, "playground-hint.png") });
  assert.deepEqual(errors, []);
  await page.close();
});

// The histogram's bars and mark as the page drew them.
async function histogramOf(page) {
  return page.locator("#histogram").evaluate((svg) => ({
    bars: [...svg.querySelectorAll("rect.bar")].map((r) => ({
      distance: Number(r.dataset.distance), count: Number(r.dataset.count),
      height: Number(r.getAttribute("height")), y: Number(r.getAttribute("y")),
      current: r.classList.contains("current"),
    })),
    marker: svg.querySelector("#histogram-marker")?.dataset.distance,
  }));
}

test("the histogram shows /stats of the shape in play and marks where the board sits", async () => {
  const { page, errors } = await openPage({ width: 800, height: 1000 });
  const stats = await api("/stats?shape=3x3");
  await page.waitForFunction(() => document.querySelector("#histogram-marker") !== null);
  let h = await histogramOf(page);
  // One bar per distance 0..max, in order, each its /stats count, heights
  // in proportion (the tallest the full height), all on one foot line.
  assert.equal(h.bars.length, stats.max_distance + 1);
  assert.deepEqual(h.bars.map((b) => b.distance), [...Array(stats.max_distance + 1).keys()]);
  assert.deepEqual(h.bars.map((b) => b.count), stats.histogram);
  const tallest = Math.max(...stats.histogram);
  const full = Math.max(...h.bars.map((b) => b.height));
  for (const b of h.bars) assert.ok(Math.abs(b.height - full * b.count / tallest) < 0.01, `bar ${b.distance}`);
  assert.equal(new Set(h.bars.map((b) => (b.y + b.height).toFixed(1))).size, 1);
  // The marked bar is the board's distance, and only that one.
  const distance = Number(await page.locator("#distance").textContent());
  assert.deepEqual(h.bars.filter((b) => b.current).map((b) => b.distance), [distance]);
  assert.equal(Number(h.marker), distance);
  assert.match(await page.locator("#histogram").getAttribute("aria-label"),
               new RegExp(`this board is ${distance} moves away`));
  await page.locator("#histogram").scrollIntoViewIfNeeded();
  await page.screenshot({ path: join(artifacts, "playground-histogram.png"), fullPage: true });
  // A slide moves the mark one bar, to the new board's distance.
  await page.locator("button.tile:not([disabled])").first().click();
  await page.waitForFunction((d) => {
    const t = document.getElementById("distance").textContent;
    return t !== String(d) && document.querySelector("#histogram-marker")?.dataset.distance === t;
  }, distance);
  h = await histogramOf(page);
  const after = Number(await page.locator("#distance").textContent());
  assert.equal(Math.abs(after - distance), 1);
  assert.deepEqual(h.bars.filter((b) => b.current).map((b) => b.distance), [after]);
  // Another shape: its own histogram.
  await page.selectOption("#shape", "2x3");
  await page.waitForFunction(() => document.querySelectorAll("#histogram rect.bar").length === 22);
  h = await histogramOf(page);
  assert.deepEqual(h.bars.map((b) => b.count), (await api("/stats?shape=2x3")).histogram);
  assert.deepEqual(errors, []);
  await page.close();
});

test("solve animates a 20-move puzzle to the goal move by move, the histogram's mark with it", async () => {
  const { page, errors } = await openPage({ width: 800, height: 1100 });
  await page.locator("#difficulty").evaluate((el) => {
    el.value = "20";
    el.dispatchEvent(new Event("input", { bubbles: true }));
  });
  // The page's own first puzzle may already say "New puzzle, 20 moves": the
  // one asked here is in when the buttons, disabled from the click on, are
  // enabled again (a slow server showed the first board being read).
  await page.click("#new");
  await page.waitForFunction(() => !document.getElementById("new").disabled &&
                                    /New puzzle, 20 moves/.test(document.getElementById("status").textContent));
  const board = await boardOf(page);
  assert.equal((await api(`/distance?board=${board}&goal=${GOAL}`)).distance, 20);
  const solution = await api(`/solve?board=${board}&goal=${GOAL}&boards=1`);
  // Every board the page shows, and where the histogram's mark stands then.
  await page.evaluate(() => {
    const el = document.getElementById("board");
    window.seen = [{ board: el.dataset.board }];
    new MutationObserver(() => {
      const b = el.dataset.board;
      const mark = document.querySelector("#histogram-marker")?.dataset.distance;
      if (window.seen.at(-1).board !== b) {
        window.seen.push({ board: b, distance: document.getElementById("distance").textContent, mark });
      } else {
        Object.assign(window.seen.at(-1), { distance: document.getElementById("distance").textContent, mark });
      }
    }).observe(el, { attributes: true, childList: true, subtree: false });
  });
  await page.click("#solve");
  // Mid-way: part of the way there, one move at a time.
  await page.waitForFunction(() => Number(document.getElementById("board").dataset.step) >= 8);
  await page.screenshot({ path: join(artifacts, "playground-animation.png") });
  assert.match(await page.locator("#status").textContent(), /^Solving: move \d+ of 20, tile \d$/);
  assert.equal(await page.locator(".tile.moved").count(), 1);
  await page.waitForFunction((goal) => document.getElementById("board").dataset.board === goal,
                             GOAL, { timeout: kHangGuardMs });
  await page.waitForFunction(() => document.getElementById("distance").textContent === "0");
  assert.equal(await page.locator("#moves").textContent(), "20");
  // The boards shown are the solution's, in order, one slide apart, and the
  // mark walked down the histogram with them to 0.
  const seen = (await page.evaluate(() => window.seen)).slice(1);
  assert.deepEqual(seen.map((x) => x.board), solution.boards);
  for (const [i, x] of seen.entries()) {
    assert.equal(x.distance, String(19 - i));
    assert.equal(x.mark, String(19 - i));
  }
  await page.screenshot({ path: join(artifacts, "playground-solved.png") });
  assert.deepEqual(errors, []);
  await page.close();
});

test("the page fits a phone-sized screen without sideways scrolling", async () => {
  const { page, errors } = await openPage({ width: 360, height: 740 });
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(width <= 360, `page is ${width}px wide on a 360px screen`);
  const box = await page.locator("#board").boundingBox();
  assert.ok(box.width >= 250 && box.x >= 0 && box.x + box.width <= 360);
  // Tap targets stay at least 44px.
  const tile = await page.locator("button.tile").first().boundingBox();
  assert.ok(tile.width >= 44 && tile.height >= 44);
  await page.screenshot({ path: join(artifacts, "playground-phone.png"), fullPage: true });
  assert.deepEqual(errors, []);
  await page.close();
});

test("the shape selector offers every shape the server holds, and a 2x3 puzzle solves", async () => {
  const { page, errors } = await openPage({ width: 800, height: 900 });
  const ready = await api("/readyz");
  const offered = await page.locator("#shape option").evaluateAll((os) => os.map((o) => o.value));
  assert.deepEqual(offered, ready.shapes);
  assert.ok(offered.includes("2x3") && offered.includes("5x2"));
  assert.equal(await page.locator("#shape").inputValue(), "3x3");
  await page.selectOption("#shape", "2x3");
  await page.waitForFunction(() => document.getElementById("board").dataset.shape === "2x3" &&
                                   /New puzzle/.test(document.getElementById("status").textContent));
  // /stats says 2x3's farthest board is 21 moves away: the slider stops there.
  assert.equal(await page.locator("#difficulty").getAttribute("max"), "21");
  assert.equal(await page.locator("button.tile").count(), 5);
  const board = await boardOf(page);
  const d = (await api(`/distance?board=${board}&goal=123/450`)).distance;
  assert.ok(d > 0);
  await page.click("#solve");
  await page.waitForFunction(() => document.getElementById("board").dataset.board === "123/450",
                             null, { timeout: kHangGuardMs });
  await page.waitForFunction(() => document.getElementById("distance").textContent === "0");
  assert.equal(await page.locator("#moves").textContent(), String(d));
  await page.screenshot({ path: join(artifacts, "playground-2x3.png") });
  assert.deepEqual(errors, []);
  await page.close();
});

test("a 4x4 puzzle (the 15-puzzle) takes a hint and solves, searched by the server", async () => {
  const { page, errors } = await openPage({ width: 800, height: 900 });
  const offered = await page.locator("#shape option").evaluateAll((os) => os.map((o) => o.value));
  assert.ok(offered.includes("4x4"));
  await page.locator("#difficulty").fill("24");
  await page.selectOption("#shape", "4x4");
  await page.waitForFunction(() => document.getElementById("board").dataset.shape === "4x4" &&
                                   /New puzzle, 24 moves/.test(document.getElementById("status").textContent),
                             null, { timeout: kHangGuardMs });
  assert.equal(await page.locator("button.tile").count(), 15);
  // No table of 4x4 positions: no histogram.
  assert.equal(await page.locator("figure.histogram").isVisible(), false);
  const board = await boardOf(page);
  const goal = "1,2,3,4/5,6,7,8/9,10,11,12/13,14,15,0";
  const d = (await api(`/distance?board=${board}&goal=${goal}`)).distance;
  assert.equal(d, 24);
  await page.waitForFunction(() => document.getElementById("distance").textContent === "24");
  // The hint marks a tile whose slide is one of /hint's optimal moves.
  await page.click("#hint");
  await page.waitForFunction(() => /Hint: slide tile/.test(document.getElementById("status").textContent));
  const marked = Number(await page.locator("button.tile.hint").getAttribute("data-tile"));
  const hints = (await api(`/hint?board=${board}&goal=${goal}`)).hints;
  assert.ok(hints.some((h) => h.tile === marked), `tile ${marked} is not an optimal move`);
  await page.screenshot({ path: join(artifacts, "playground-4x4-hint.png") });
  await page.click("#solve");
  await page.waitForFunction((g) => document.getElementById("board").dataset.board === g,
                             goal, { timeout: kHangGuardMs });
  await page.waitForFunction(() => document.getElementById("distance").textContent === "0");
  assert.equal(await page.locator("#moves").textContent(), "24");
  await page.screenshot({ path: join(artifacts, "playground-4x4-solved.png") });
  assert.deepEqual(errors, []);
  await page.close();
});

// ---------------------------------------------------------------- any size
// Boards of every size from 2x2 to 10x10, picked with the rows and columns
// selectors. Past 16 cells no table holds the positions: the puzzle is a
// uniformly random board (/random?shape=RxC), the answer says how good it
// is (optimal, or a path found with a proven lower bound), and a solution
// runs to hundreds of moves.

const DESKTOP = { width: 1280, height: 900 };
const PHONE = { width: 360, height: 740 };
const viewportName = (v) => (v.width <= 400 ? "phone" : "desktop");
const goalText = (rows, cols) => {
  const n = rows * cols;
  const sep = n > 10 ? "," : "";
  const cells = [...Array(n - 1).keys()].map((i) => i + 1).concat([0]);
  const out = [];
  for (let r = 0; r < rows; r++) out.push(cells.slice(r * cols, (r + 1) * cols).join(sep));
  return rows === 3 && cols === 3 ? cells.join("") : out.join("/");
};
const q = (board) => encodeURIComponent(board);


// Picks rows x cols with the two size selectors (each pick draws a board;
// a selector is disabled while a draw runs, and selectOption waits for it),
// then waits for the new shape's puzzle and its answer.
async function pickSize(page, rows, cols) {
  await page.selectOption("#rows", String(rows));
  await page.selectOption("#cols", String(cols));
  try {
    await page.waitForFunction((shape) => {
      const board = document.getElementById("board");
      const distance = document.getElementById("distance");
      return board.dataset.shape === shape && !document.getElementById("new").disabled &&
             /^New puzzle/.test(document.getElementById("status").textContent) &&
             distance.dataset.board === board.dataset.board;
    }, `${rows}x${cols}`, { timeout: kHangGuardMs });
  } catch (e) {
    // What the page shows says why: a refusal in the status line, a draw
    // or an answer that never came.
    const shown = await page.evaluate(() => ({
      status: document.getElementById("status").textContent,
      shape: document.getElementById("board").dataset.shape,
      board: document.getElementById("board").dataset.board,
      answered: document.getElementById("distance").dataset.board,
    }));
    throw new Error(`picking ${rows}x${cols}: the page shows ${JSON.stringify(shown)}`, { cause: e });
  }
}

// The page is no wider than the viewport, and the board and every tile lie
// within it.
async function assertFits(page, viewport) {
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(width <= viewport.width, `page is ${width}px wide on a ${viewport.width}px screen`);
  const box = await page.locator("#board").boundingBox();
  assert.ok(box.x >= 0 && box.x + box.width <= viewport.width,
            `board spans ${box.x}..${box.x + box.width} on a ${viewport.width}px screen`);
  const tiles = await page.locator("button.tile").evaluateAll((ts) => ts.map((t) => {
    const r = t.getBoundingClientRect();
    return { left: r.left, right: r.right, width: r.width, height: r.height };
  }));
  for (const t of tiles) assert.ok(t.left >= 0 && t.right <= viewport.width, `tile at ${t.left}..${t.right}`);
  return { board: box, tile: Math.min(...tiles.map((t) => Math.min(t.width, t.height))) };
}

// What the page says of an answer: "optimal" only when it is, else the
// length of the path found and its lower bound.
function quality(answer) {
  return answer.optimal ? "optimal" : `found in ${answer.distance} moves (at least ${answer.lower_bound})`;
}

async function playSize(rows, cols, viewport) {
  const shape = `${rows}x${cols}`;
  const name = `playground-${shape}-${viewportName(viewport)}`;
  const goal = goalText(rows, cols);
  const { page, errors, foreign } = await openPage(viewport);
  await pickSize(page, rows, cols);
  assert.equal(await page.locator("button.tile").count(), rows * cols - 1);
  assert.equal(await page.locator("#rows").inputValue(), String(rows));
  assert.equal(await page.locator("#cols").inputValue(), String(cols));
  // No exact distances here: no difficulty slider, no histogram.
  assert.equal(await page.locator("#difficulty").isVisible(), false);
  assert.equal(await page.locator("figure.histogram").isVisible(), false);
  const board = await boardOf(page);
  const cells = board.split(/[,/]/).map(Number);
  assert.deepEqual([...cells].sort((a, b) => a - b), [...Array(rows * cols).keys()]);
  assert.notEqual(board, goal);
  // The answer's quality, as /distance says it.
  const answer = await api(`/distance?board=${q(board)}&goal=${q(goal)}`);
  assert.equal(answer.shape, shape);
  assert.equal(await page.locator("#quality").textContent(), quality(answer));
  assert.equal(await page.locator("#distance").textContent(),
               answer.optimal ? String(answer.distance) : `≤${answer.distance}`);
  // The board fits the screen, tiles as large as it allows: at least the
  // 44px of a comfortable tap up to 7 columns on a phone.
  const fit = await assertFits(page, viewport);
  assert.ok(fit.tile >= 44, `${shape} tiles are ${fit.tile}px on a ${viewport.width}px screen`);

  // The hint marks the move the API marks: an optimal one, or on an answer
  // not proven optimal the next move of the path found (`hints`, alone).
  await page.click("#hint");
  await page.waitForFunction(() => /^Hint: slide tile/.test(document.getElementById("status").textContent));
  assert.equal(await page.locator("button.tile.hint").count(), 1);
  const marked = Number(await page.locator("button.tile.hint").getAttribute("data-tile"));
  const h = await api(`/hint?board=${q(board)}&goal=${q(goal)}`);
  if (h.optimal) {
    assert.ok(h.moves.some((m) => m.optimal && m.tile === marked), `tile ${marked} is not an optimal move`);
  } else {
    assert.equal(h.hints.length, 1);
    assert.equal(marked, h.hints[0].tile);
    assert.ok(h.moves.every((m) => !m.optimal));
    assert.match(await page.locator("#status").textContent(), /not proven optimal/);
  }
  await page.screenshot({ path: join(artifacts, `${name}-hint.png`), fullPage: true });
  // Following it: the marked tile slides to the board the API gives.
  await page.locator("button.tile.hint").click();
  const next = h.moves.find((m) => m.tile === marked).board;
  assert.equal(await boardOf(page), next);
  assert.equal(await page.locator("#moves").textContent(), "1");

  // Solve: move by move to the goal, every board of the answer's path shown.
  const solution = await api(`/solve?board=${q(next)}&goal=${q(goal)}&boards=1`);
  assert.ok(solution.distance > 0 && solution.boards.length === solution.distance);
  await page.evaluate(() => {
    const el = document.getElementById("board");
    window.seen = [el.dataset.board];
    new MutationObserver(() => {
      if (window.seen.at(-1) !== el.dataset.board) window.seen.push(el.dataset.board);
    }).observe(el, { attributes: true });
  });
  await page.selectOption("#speed", "5");
  await page.click("#solve");
  await page.waitForFunction((n) => Number(document.getElementById("board").dataset.step) >= n,
                             Math.min(20, solution.distance));
  assert.match(await page.locator("#status").textContent(),
               new RegExp(`^Solving: move \\d+ of ${solution.distance}, tile \\d+$`));
  assert.equal(await page.locator("#quality").textContent(), quality(solution));
  await page.screenshot({ path: join(artifacts, `${name}-solving.png`), fullPage: true });
  await page.waitForFunction((g) => document.getElementById("board").dataset.board === g,
                             goal, { timeout: kHangGuardMs });
  await page.waitForFunction(() => document.getElementById("distance").textContent === "0");
  assert.equal(await boardOf(page), goal);
  assert.equal(await page.locator("#moves").textContent(), String(1 + solution.distance));
  assert.deepEqual((await page.evaluate(() => window.seen)).slice(1), solution.boards);
  // The goal itself is answered optimally.
  assert.equal(await page.locator("#quality").textContent(), "optimal");
  assert.equal(await page.locator("#status").textContent(), `Solved in ${1 + solution.distance} moves.`);
  await assertFits(page, viewport);
  await page.screenshot({ path: join(artifacts, `${name}-solved.png`), fullPage: true });
  assert.deepEqual(errors, []);
  assert.deepEqual(foreign, []);
  await page.close();
}

for (const [rows, cols] of [[5, 5], [7, 7]]) {
  for (const viewport of [DESKTOP, PHONE]) {
    test(`a ${rows}x${cols} puzzle on a ${viewportName(viewport)} screen: picked, hinted, solved to the goal`,
         () => playSize(rows, cols, viewport));
  }
}

test("a 10x10 board fits a 360px phone, its numbers legible, and a solution skips to the end", async () => {
  const { page, errors } = await openPage(PHONE);
  await pickSize(page, 10, 10);
  const goal = goalText(10, 10);
  assert.equal(await page.locator("button.tile").count(), 99);
  const fit = await assertFits(page, PHONE);
  // 36px a column at most on 360px: the tiles take nearly all of it.
  assert.ok(fit.tile >= 30, `10x10 tiles are ${fit.tile}px`);
  // Every number, 99 included, lies inside its tile at a readable size.
  const texts = await page.locator("button.tile").evaluateAll((ts) => ts.map((t) => {
    const range = document.createRange();
    range.selectNodeContents(t);
    const r = range.getBoundingClientRect(), b = t.getBoundingClientRect();
    return { tile: t.dataset.tile, size: parseFloat(getComputedStyle(t).fontSize),
             inside: r.left >= b.left && r.right <= b.right && r.top >= b.top && r.bottom <= b.bottom };
  }));
  assert.ok(texts.some((t) => t.tile === "99"));
  for (const t of texts) {
    assert.ok(t.inside, `tile ${t.tile}'s number overflows it`);
    assert.ok(t.size >= 12, `tile ${t.tile}'s number is ${t.size}px`);
  }
  await page.screenshot({ path: join(artifacts, "playground-10x10-phone.png"), fullPage: true });
  // The arrow keys slide tiles on it too.
  const before = await boardOf(page);
  const cells = before.split(/[,/]/);
  const gap = cells.indexOf("0");
  await page.locator("h1").click();  // focus off the size pickers, whose arrows they are
  await page.keyboard.press(gap < 90 ? "ArrowUp" : "ArrowDown");
  const other = gap < 90 ? gap + 10 : gap - 10;
  [cells[gap], cells[other]] = [cells[other], cells[gap]];
  const after = await boardOf(page);
  assert.deepEqual(after.split(/[,/]/), cells);
  assert.equal(await page.locator("#moves").textContent(), "1");
  // Solve, then skip to the end: the goal, every move of the path counted.
  const solution = await api(`/solve?board=${q(after)}&goal=${q(goal)}`);
  assert.ok(solution.distance > 100);
  assert.equal(await page.locator("#skip").isDisabled(), true);
  await page.click("#solve");
  await page.waitForFunction(() => Number(document.getElementById("board").dataset.step) >= 3);
  await page.click("#skip");
  await page.waitForFunction((g) => document.getElementById("board").dataset.board === g,
                             goal, { timeout: kHangGuardMs });
  await page.waitForFunction(() => document.getElementById("distance").textContent === "0");
  assert.equal(await page.locator("#moves").textContent(), String(1 + solution.distance));
  assert.equal(await page.locator("#skip").isDisabled(), true);
  await assertFits(page, PHONE);
  await page.screenshot({ path: join(artifacts, "playground-10x10-phone-solved.png"), fullPage: true });
  assert.deepEqual(errors, []);
  await page.close();
});

test("the size pickers offer 2 to 10 rows and columns, and a shape the server cannot answer keeps the board", async () => {
  const { page, errors } = await openPage({ width: 800, height: 900 });
  for (const id of ["#rows", "#cols"]) {
    assert.deepEqual(await page.locator(`${id} option`).evaluateAll((os) => os.map((o) => o.value)),
                     ["2", "3", "4", "5", "6", "7", "8", "9", "10"]);
    assert.equal(await page.locator(id).inputValue(), "3");
  }
  // A shape from the exact list sets the size pickers.
  await page.selectOption("#shape", "2x4");
  await page.waitForFunction(() => document.getElementById("board").dataset.shape === "2x4" &&
                                   /^New puzzle, \d+ moves/.test(document.getElementById("status").textContent));
  assert.equal(await page.locator("#rows").inputValue(), "2");
  assert.equal(await page.locator("#cols").inputValue(), "4");
  assert.equal(await page.locator("figure.histogram").isVisible(), true);
  // 3 rows: 3x4, a 12-cell shape, answered only from a table of its own.
  await page.selectOption("#rows", "3");
  await page.waitForFunction(() => document.getElementById("board").dataset.shape === "3x4" ||
                                   !/^Drawing/.test(document.getElementById("status").textContent));
  const refused = await fetch(`${base}/random?shape=3x4`);
  if (refused.status === 404) {
    // 3x4 needs a table this server does not map: the server's reason shows
    // and the 2x4 board stays.
    const detail = (await refused.json()).detail;
    await page.waitForFunction((d) => document.getElementById("status").textContent === d, detail);
    assert.match(detail, /eight-tablegen --shape 3x4/);
    assert.equal(await page.locator("#board").getAttribute("data-shape"), "2x4");
    assert.equal(await page.locator("button.tile").count(), 7);
    assert.equal(await page.locator("#new").isDisabled(), false);
  } else {
    assert.equal(refused.status, 200);
    await page.waitForFunction(() => document.getElementById("board").dataset.shape === "3x4");
  }
  // A shape no table holds: drawn at random, no slider, no histogram, and
  // the exact list on nothing.
  await page.selectOption("#cols", "7");
  await page.waitForFunction(() => document.getElementById("board").dataset.shape === "3x7" &&
                                   /^New puzzle: a random 3x7 board/.test(document.getElementById("status").textContent));
  assert.equal(await page.locator("button.tile").count(), 20);
  assert.equal(await page.locator("#difficulty").isVisible(), false);
  assert.equal(await page.locator("figure.histogram").isVisible(), false);
  assert.equal(await page.locator("#shape").inputValue(), "");
  // And back to 3x3 from the exact list: the slider, its difficulty and the
  // histogram return.
  await page.selectOption("#shape", "3x3");
  await page.waitForFunction(() => document.getElementById("board").dataset.shape === "3x3" &&
                                   /^New puzzle, 20 moves/.test(document.getElementById("status").textContent));
  await page.waitForFunction(() => document.querySelector("#histogram-marker")?.dataset.distance === "20");
  assert.equal(await page.locator("#rows").inputValue(), "3");
  assert.equal(await page.locator("#cols").inputValue(), "3");
  assert.equal(await page.locator("#difficulty").isVisible(), true);
  assert.equal(await page.locator("figure.histogram").isVisible(), true);
  assert.equal(await page.locator("#quality").textContent(), "optimal");
  assert.deepEqual(errors, []);
  await page.close();
});

// The server runs one long request of a client at a time (with two compute
// threads), so a board's /distance still searching would make the next
// board's draw wait behind it, and be refused once it waited past the
// server's queue limit: .ci/run saw the 5x5 pick hang so on a busy machine,
// where the 5x3 board it passes through took its search 35 s. Here that
// search never ends (the page's request is held), and the next pick must
// abort it, closing its connection so the server cancels the search.
test("a board replaced drops its /distance question: picking 5 rows then 5 columns aborts the 5x3 board's", async () => {
  const { page, errors } = await openPage(DESKTOP);
  const goal5x3 = goalText(5, 3);
  const held = [];
  const isFor5x3 = (url) => url.pathname === "/distance" && url.searchParams.get("goal") === goal5x3;
  await page.route(isFor5x3, (route) => { held.push(route.request().url()); });
  const aborted = [];
  page.on("requestfailed", (r) => {
    if (isFor5x3(new URL(r.url()))) aborted.push({ url: r.url(), error: r.failure()?.errorText });
  });
  // The 5x5 board's draw must come after the abort: on the server it would
  // wait behind the search. (It gets a second to see the abort's event;
  // otherwise the abort never came before it.)
  const abortsBeforeDraw = [];
  await page.route((url) => url.pathname === "/random" && url.searchParams.get("shape") === "5x5",
                   async (route) => {
                     await until(() => aborted.length > 0, 1000);
                     abortsBeforeDraw.push(aborted.length);
                     await route.continue();
                   });
  await page.selectOption("#rows", "5");
  await page.waitForFunction(() => document.getElementById("board").dataset.shape === "5x3" &&
                                   !document.getElementById("cols").disabled,
                             null, { timeout: kHangGuardMs });
  // The 5x3 board's question is asked, and stays unanswered.
  await until(() => held.length > 0);
  assert.equal(held.length, 1, "the 5x3 board's /distance was never asked");
  assert.equal(aborted.length, 0);
  await page.selectOption("#cols", "5");
  await page.waitForFunction(() => {
    const board = document.getElementById("board");
    return board.dataset.shape === "5x5" &&
           document.getElementById("distance").dataset.board === board.dataset.board;
  }, null, { timeout: kHangGuardMs });
  assert.deepEqual(abortsBeforeDraw, [1], "the 5x5 board was drawn with the 5x3 board's search in flight");
  assert.deepEqual(aborted, [{ url: held[0], error: "net::ERR_ABORTED" }]);
  assert.match(await page.locator("#status").textContent(), /^New puzzle: a random 5x5 board/);
  await page.unrouteAll({ behavior: "ignoreErrors" });
  assert.deepEqual(errors, []);
  await page.close();
});

// A busy server's 503 with Retry-After: the page asks again after the wait
// named, and shows the answer, not the refusal.
test("a busy server's 503 with Retry-After is asked again after the wait, and the answer shows", async () => {
  const { page, errors } = await openPage(DESKTOP);
  const refused = [];
  await page.route((url) => url.pathname === "/distance", async (route) => {
    if (refused.length < 2) {
      refused.push(Date.now());
      await route.fulfill({
        status: 503,
        headers: { "Retry-After": "1", "Content-Type": "application/problem+json" },
        body: JSON.stringify({ type: "https://eight.invalid/problems/overloaded", title: "Overloaded",
                               status: 503, detail: "busy (a test's refusal)" }),
      });
    } else {
      await route.continue();
    }
  });
  await page.click("#new");
  // Both refusals first (the page showed the last board's answer until the
  // click's draw), then the answer of the new board.
  await until(() => refused.length >= 2);
  assert.equal(refused.length, 2, "the page did not ask again after a 503 with Retry-After");
  await page.waitForFunction(() => {
    const board = document.getElementById("board");
    return /^New puzzle, 20 moves/.test(document.getElementById("status").textContent) &&
           document.getElementById("distance").dataset.board === board.dataset.board;
  }, null, { timeout: kHangGuardMs });
  assert.ok(refused[1] - refused[0] >= 900, `asked again after ${refused[1] - refused[0]} ms`);
  assert.equal(await page.locator("#distance").textContent(), "20");
  await page.unrouteAll({ behavior: "ignoreErrors" });
  assert.deepEqual(errors, []);
  await page.close();
});

// The page's retries are bounded: a server that answers 503 forever is
// asked kBusyRetries (5) times again, then its detail shows; a Retry-After
// past a minute (a hostile or broken server's) is not waited for at all.
test("a server that stays busy is asked 5 times again, and a Retry-After past a minute not at all", async () => {
  const { page, errors } = await openPage(DESKTOP);
  for (const [retryAfter, asked] of [["1", 6], ["3600", 1]]) {
    const refused = [];
    await page.route((url) => url.pathname === "/distance", (route) => {
      refused.push(route.request().url());
      return route.fulfill({
        status: 503,
        headers: { "Retry-After": retryAfter, "Content-Type": "application/problem+json" },
        body: JSON.stringify({ type: "https://eight.invalid/problems/overloaded", title: "Overloaded",
                               status: 503, detail: `busy for good (Retry-After ${retryAfter})` }),
      });
    });
    await page.click("#new");
    await page.waitForFunction((d) => document.getElementById("status").textContent === d,
                               `busy for good (Retry-After ${retryAfter})`, { timeout: kHangGuardMs });
    // Nothing more is asked once the detail shows.
    await sleep(1500);
    assert.equal(refused.length, asked, `asked ${refused.length} times with Retry-After ${retryAfter}`);
    assert.equal(new Set(refused).size, 1);
    await page.unrouteAll({ behavior: "ignoreErrors" });
  }
  assert.deepEqual(errors, []);
  await page.close();
});
