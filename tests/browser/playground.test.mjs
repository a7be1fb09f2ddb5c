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
import { join } from "node:path";
import { createRequire } from "node:module";

// playwright-core is installed into the build folder (scripts/npm-ci.sh), not
// next to this file, so load it from there.
const work = process.env.EIGHT_BROWSER_WORK ?? "build/tests/browser";
const { chromium } = createRequire(join(work, "package.json"))("playwright-core");

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

async function api(path) {
  const r = await fetch(base + path, { headers: { Accept: "application/json" } });
  assert.equal(r.status, 200, `${path} -> ${r.status}`);
  return r.json();
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
  const table = join(scratch, "eight.tbl");
  // The default table: every shape up to 10 cells, so the shape selector shows.
  const gen = spawnSync(join(binDir, "eight-tablegen"),
                        ["--quiet", "--shape", "default", "--out", table]);
  assert.equal(gen.status, 0, String(gen.stderr));
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  server = spawn(join(binDir, "eight-server"),
                 ["--table", table, "--host", "127.0.0.1", "--port", String(port), "--quiet"],
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

test("solve animates a 20-move puzzle to the goal", async () => {
  const { page, errors } = await openPage({ width: 800, height: 900 });
  await page.locator("#difficulty").evaluate((el) => {
    el.value = "20";
    el.dispatchEvent(new Event("input", { bubbles: true }));
  });
  await page.click("#new");
  await page.waitForFunction(() => /New puzzle, 20 moves/.test(document.getElementById("status").textContent));
  const board = await boardOf(page);
  assert.equal((await api(`/distance?board=${board}&goal=${GOAL}`)).distance, 20);
  await page.click("#solve");
  await page.waitForFunction((goal) => document.getElementById("board").dataset.board === goal,
                             GOAL, { timeout: 20000 });
  await page.waitForFunction(() => document.getElementById("distance").textContent === "0");
  assert.equal(await page.locator("#moves").textContent(), "20");
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
                             null, { timeout: 20000 });
  await page.waitForFunction(() => document.getElementById("distance").textContent === "0");
  assert.equal(await page.locator("#moves").textContent(), String(d));
  await page.screenshot({ path: join(artifacts, "playground-2x3.png") });
  assert.deepEqual(errors, []);
  await page.close();
});
