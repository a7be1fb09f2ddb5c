// What the playground's browser tests share (playground.test.mjs and
// playground_controls.test.mjs): the real eight-server on a loopback port,
// Debian's Chromium (never a downloaded browser) driven headless by
// playwright-core, a page opened on it, and the helpers the tests use.
// Each test file starts its own server and browser (startServerAndBrowser()).
import { before, after } from "node:test";
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
export const kHangGuardMs = 120000;

// playwright-core is installed into the build folder (scripts/npm-ci.sh), not
// next to this file, so load it from there (createRequire needs an absolute
// path: EIGHT_BROWSER_WORK may be relative, as above).
const work = process.env.EIGHT_BROWSER_WORK ?? "build/tests/browser";
const { chromium } = createRequire(resolve(work, "package.json"))("playwright-core");

export const binDir = process.env.EIGHT_BIN_DIR ?? "build/bin";
export const artifacts = process.env.EIGHT_ARTIFACT_DIR ?? "build/test-artifacts";
const chromiumPath = process.env.CHROMIUM ?? "/usr/bin/chromium";
export const GOAL = "123456780";

let server, browser, scratch;
// The server's address, set once it is up (a live binding for importers).
export let base;

export function freePort() {
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
export async function api(path) {
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

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// Waits, in the test's own process, until `condition()` holds or `ms` have
// passed (for what the test itself records, such as routed requests; the
// page's state is waited for with waitForFunction).
export async function until(condition, ms = kHangGuardMs) {
  for (const end = Date.now() + ms; !condition() && Date.now() < end;) await sleep(10);
}

export async function waitReady(deadlineMs) {
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
export function slid(board, cell) {
  const cells = [...board];
  const gap = board.indexOf("0");
  [cells[gap], cells[cell]] = [cells[cell], cells[gap]];
  return cells.join("");
}

// Registers the file's before() and after(): the server and the browser up
// before its first test, down after its last.
export function startServerAndBrowser() {
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
  // In a session of its own (setsid), as a deployed server is (a systemd
  // service, a container): the kernel shares the CPU between sessions
  // (autogroups) and counts nice values within one, so in ctest's session,
  // beside the suite's other tests, the compute threads (nice 19 by design)
  // would get about 1.5% of a core and a 7x7 answer's two seconds would take
  // minutes. setpriv --pdeathsig: it is stopped if this process dies
  // without stopping it (a ctest timeout), since it is outside our group.
  // Both exec, so the child is the server itself.
  server = spawn("setsid",
                 ["setpriv", "--pdeathsig", "TERM", "--", join(binDir, "eight-server"),
                  "--table", table, "--host", "127.0.0.1", "--port", String(port), "--quiet",
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
}

export async function openPage(viewport) {
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
  // Every request the page makes, and every answer of 400 or more (a
  // favicon asked for and not found would be one).
  const requests = [], failed = [];
  page.on("request", (r) => {
    requests.push(r.url());
    if (!r.url().startsWith(base)) foreign.push(r.url());
  });
  page.on("response", (r) => { if (r.status() >= 400) failed.push(`${r.status()} ${r.url()}`); });
  await page.goto(base + "/");
  await page.waitForFunction(() => {
    const b = document.getElementById("board")?.dataset.board;
    return b && b.length === 9 && document.getElementById("distance").textContent !== "-";
  });
  return { page, errors, foreign, requests, failed };
}

export const boardOf = (page) => page.locator("#board").getAttribute("data-board");

export const DESKTOP = { width: 1280, height: 900 };
export const PHONE = { width: 360, height: 740 };
export const viewportName = (v) => (v.width <= 400 ? "phone" : "desktop");
export const goalText = (rows, cols) => {
  const n = rows * cols;
  const sep = n > 10 ? "," : "";
  const cells = [...Array(n - 1).keys()].map((i) => i + 1).concat([0]);
  const out = [];
  for (let r = 0; r < rows; r++) out.push(cells.slice(r * cols, (r + 1) * cols).join(sep));
  return rows === 3 && cols === 3 ? cells.join("") : out.join("/");
};
export const q = (board) => encodeURIComponent(board);


// The shapes the picker offers under "Exact", and under "Searched".
export const exactOffered = (page) =>
  page.locator('#shape optgroup[label="Exact"] option').evaluateAll((os) => os.map((o) => o.value));
export const searchedOffered = (page) =>
  page.locator('#shape optgroup[label="Searched"] option').evaluateAll((os) => os.map((o) => o.value));

// Picks rows x cols from the shape picker (the pick draws a board; the
// picker is disabled while a draw runs), then waits for the new shape's
// puzzle and its answer.
export async function pickSize(page, rows, cols) {
  await page.selectOption("#shape", `${rows}x${cols}`);
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
export async function assertFits(page, viewport) {
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
export function quality(answer) {
  return answer.optimal ? "optimal" : `found in ${answer.distance} moves (at least ${answer.lower_bound})`;
}
