// End-to-end test of examples/browser/: the page and the JavaScript package
// served by a static file server of the test's own on a loopback port, in
// Debian's Chromium (never a downloaded browser) driven headless by
// playwright-core. Once the page is ready the network is cut and the server
// closed: everything after that (solving, hints, another shape's tables)
// must happen in the browser alone.
//
//   scripts/npm-ci.sh tests/browser build/tests/browser 18 browser
//   EIGHT_JS_PACKAGE=build-js/js/package EIGHT_BROWSER_WORK=build/tests/browser \
//   EIGHT_ARTIFACT_DIR=build/test-artifacts node --test tests/js/browser_example.test.mjs
//
// Keeps screenshots in EIGHT_ARTIFACT_DIR.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { existsSync, mkdirSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { createServer, get } from "node:http";
import { createRequire } from "node:module";
import { extname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

// Every wait is a hang guard, not a time limit: a step takes well under a
// second alone, and may take many beside a busy CI run on 2 cores.
const kHangGuardMs = 120000;

// playwright-core is installed into a build folder (scripts/npm-ci.sh), not
// next to this file; createRequire needs an absolute path.
const work = process.env.EIGHT_BROWSER_WORK ?? "build/tests/browser";
const { chromium } = createRequire(resolve(work, "package.json"))("playwright-core");

const packageDir = resolve(process.env.EIGHT_JS_PACKAGE ?? "build-js/js/package");
const pageDir = fileURLToPath(new URL("../../examples/browser/", import.meta.url));
const artifacts = process.env.EIGHT_ARTIFACT_DIR ?? "build/test-artifacts";
const chromiumPath = process.env.CHROMIUM ?? "/usr/bin/chromium";

const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };

const kTypes = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".wasm": "application/wasm",
  ".json": "application/json",
};

let server, browser, base;
const pages = {};       // "desktop" and "phone": { context, page }
const requests = [];    // every request the pages made: { url, offline }
const succeeded = [];   // the ones answered after the network was cut
const errors = [];      // uncaught errors and console errors in the pages
let offline = false;
let refusals;           // the server's answers to paths it must not serve

// examples/browser/ at /, the package at /eight/ (where a deployment copies
// it); nothing else, and nothing outside those folders.
async function serveFile(req, res) {
  const send = (status, body, type = "text/plain") => {
    res.writeHead(status, { "Content-Type": type, "Cache-Control": "no-store" });
    res.end(body);
  };
  if (req.method !== "GET" && req.method !== "HEAD") return send(405, "method not allowed\n");
  // Decoded before any dot segment is resolved, so an escaped ".." is seen.
  let path;
  try {
    path = decodeURIComponent(req.url.split("?")[0]);
  } catch {
    return send(400, "bad path\n");
  }
  if (!path.startsWith("/")) return send(400, "bad path\n");
  if (path.includes("..") || path.includes("\0") || path.includes("\\")) return send(403, "no\n");
  const [root, rel] = path.startsWith("/eight/") ? [packageDir, path.slice("/eight/".length)]
                                                 : [pageDir, path.slice(1) || "index.html"];
  const type = kTypes[extname(rel)];
  if (!type) return send(404, "not found\n");
  try {
    const body = await readFile(join(root, rel));
    send(200, req.method === "HEAD" ? undefined : body, type);
  } catch {
    send(404, "not found\n");
  }
}

function listen(s) {
  return new Promise((resolve, reject) => {
    s.once("error", reject);
    s.listen(0, "127.0.0.1", () => resolve(s.address().port));
  });
}

// The status of a GET of `path` exactly as written (fetch() would resolve
// its dot segments before sending it).
function rawStatus(path) {
  return new Promise((resolve, reject) => {
    get(base + "/", { path, agent: false }, (res) => {
      res.resume();
      resolve(res.statusCode);
    }).on("error", reject);
  });
}

function closeServer() {
  return new Promise((resolve) => {
    server.close(resolve);
    server.closeAllConnections();  // keep-alive sockets would hold close() open
  });
}

const attr = (page, name) => page.getByTestId("board").getAttribute(`data-${name}`);
const status = (page) => page.getByTestId("status").textContent();

// The page's board once `predicate` (run in the page, given `arg`) holds.
async function waitBoard(page, predicate, arg = undefined) {
  await page.waitForFunction(predicate, arg, { timeout: kHangGuardMs });
  return attr(page, "board");
}

async function openPage(name, options) {
  const context = await browser.newContext(options);
  const page = await context.newPage();
  page.setDefaultTimeout(kHangGuardMs);
  page.on("pageerror", (e) => errors.push(`${name}: ${e}`));
  page.on("console", (m) => { if (m.type() === "error") errors.push(`${name}: console: ${m.text()}`); });
  page.on("request", (r) => requests.push({ url: r.url(), offline }));
  page.on("requestfinished", (r) => { if (offline) succeeded.push(r.url()); });
  await page.goto(base + "/");
  await page.waitForSelector('body[data-ready="1"]', { timeout: kHangGuardMs });
  pages[name] = { context, page };
  return page;
}

// Cells of a board string ("123/450" -> [1,2,3,4,5,0]).
const cellsOf = (board) => [...board.replaceAll("/", "")].map(Number);

// True when `after` is `before` with the blank swapped with a neighbour.
function oneMoveApart(before, after, cols) {
  const a = cellsOf(before), b = cellsOf(after);
  const changed = a.flatMap((v, i) => (v === b[i] ? [] : [i]));
  if (changed.length !== 2) return false;
  const [i, j] = changed;
  const neighbours = j - i === cols || (j - i === 1 && Math.floor(i / cols) === Math.floor(j / cols));
  return neighbours && (a[i] === 0 || a[j] === 0) && a[i] === b[j] && a[j] === b[i];
}

before(async () => {
  assert.ok(existsSync(join(packageDir, "index.js")) && existsSync(join(packageDir, "eight-wasm.wasm")),
            `no built package in ${packageDir} (EIGHT_JS_PACKAGE)`);
  mkdirSync(artifacts, { recursive: true });
  server = createServer((req, res) => {
    serveFile(req, res).catch(() => res.destroy());
  });
  base = `http://127.0.0.1:${await listen(server)}`;
  refusals = {};
  for (const path of ["/eight/../package.json", "/eight/%2e%2e/package.json", "/..%2fpackage.json",
                     "/eight/README.md", "/nothing.js"]) {
    refusals[path] = await rawStatus(path);
  }
  browser = await chromium.launch({
    executablePath: chromiumPath,
    headless: true,
    timeout: kHangGuardMs,
    // Root has no sandbox here; the rest keeps Chromium off the network,
    // which this machine does not have anyway.
    args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
           "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  });
  await openPage("desktop", { viewport: DESKTOP });
  await openPage("phone", { viewport: PHONE, isMobile: true, hasTouch: true, deviceScaleFactor: 2 });
  // From here on nothing can be fetched: no network, and no server either.
  offline = true;
  for (const { context } of Object.values(pages)) await context.setOffline(true);
  await closeServer();
});

after(async () => {
  await browser?.close();
  if (server?.listening) await closeServer();
});

test("the page loaded from its own origin only, the WebAssembly module among it", () => {
  const loaded = requests.filter((r) => !r.offline).map((r) => r.url);
  assert.deepEqual(loaded.filter((u) => !u.startsWith(base + "/")), []);
  for (const path of ["/", "/play.js", "/eight/index.js", "/eight/eight-wasm.mjs", "/eight/eight-wasm.wasm"]) {
    assert.ok(loaded.includes(base + path), `${path} was not loaded: ${loaded.join(" ")}`);
  }
  assert.deepEqual(refusals, { "/eight/../package.json": 403, "/eight/%2e%2e/package.json": 403,
                               "/..%2fpackage.json": 403, "/eight/README.md": 404, "/nothing.js": 404 });
});

test("offline, Solve plays the 31 moves of 867254301 to the goal", async () => {
  const { page } = pages.desktop;
  assert.equal(await page.evaluate(() => window.eightExample.setBoard("867254301")), "867254301");
  assert.equal(await attr(page, "board"), "867254301");
  assert.equal(await attr(page, "distance"), "31");
  assert.equal(await attr(page, "moves"), "0");
  assert.equal(await page.getByTestId("cell").count(), 9);
  assert.match(await status(page), /^31 moves from the goal/);
  await page.screenshot({ path: join(artifacts, "browser-example-desktop.png"), fullPage: true });
  await page.getByTestId("solve").click();
  await waitBoard(page, () => document.querySelector('[data-testid="board"]').dataset.board === "123456780");
  assert.equal(await attr(page, "distance"), "0");
  assert.equal(await attr(page, "moves"), "31");
  assert.match(await status(page), /solved/i);
  await page.screenshot({ path: join(artifacts, "browser-example-desktop-solved.png"), fullPage: true });
});

test("offline, New draws a board and Hint plays one move one closer to the goal", async () => {
  const { page } = pages.desktop;
  await page.getByTestId("new").click();
  const board = await waitBoard(page, () => {
    const d = document.querySelector('[data-testid="board"]').dataset;
    return d.board !== "123456780" && d.moves === "0";
  });
  const distance = Number(await attr(page, "distance"));
  assert.equal(distance, 20);
  await page.getByTestId("hint").click();
  const hinted = await waitBoard(page, () => document.querySelector('[data-testid="board"]').dataset.moves === "1");
  assert.ok(oneMoveApart(board, hinted, 3), `${board} -> ${hinted} is not one move`);
  assert.equal(Number(await attr(page, "distance")), distance - 1);
  assert.equal(await page.locator("button.hinted").count(), 1);
  // A tile next to the blank slides when clicked; one that is not stays.
  const gap = hinted.indexOf("0");
  const far = [...hinted].findIndex((_, i) => ![0, 1, 3].includes(Math.abs(i - gap)));
  await page.locator(`[data-testid="cell"][data-cell="${far}"]`).click();
  assert.equal(await attr(page, "board"), hinted);
  const near = gap < 6 ? gap + 3 : gap - 3;
  await page.locator(`[data-testid="cell"][data-cell="${near}"]`).click();
  const slid = await waitBoard(page, () => document.querySelector('[data-testid="board"]').dataset.moves === "2");
  assert.ok(oneMoveApart(hinted, slid, 3));
  assert.equal(Math.abs(Number(await attr(page, "distance")) - (distance - 1)), 1);
});

test("offline on a phone, picking 2x3 builds its tables in the page and Solve reaches 123/450", async () => {
  const { page } = pages.phone;
  await page.getByTestId("shape").selectOption("2x3");
  const board = await waitBoard(page, () => document.body.dataset.ready === "1" &&
                                           document.querySelector('[data-testid="board"]').dataset.shape === "2x3");
  assert.match(board, /^[0-5]{3}\/[0-5]{3}$/);
  assert.equal(await page.getByTestId("cell").count(), 6);
  const distance = Number(await attr(page, "distance"));
  assert.equal(distance, 20);
  // Tapped, a tile next to the blank slides.
  const gap = cellsOf(board).indexOf(0);
  await page.locator(`[data-testid="cell"][data-cell="${gap < 3 ? gap + 3 : gap - 3}"]`).tap();
  const tapped = await waitBoard(page, () => document.querySelector('[data-testid="board"]').dataset.moves === "1");
  assert.ok(oneMoveApart(board, tapped, 3), `${board} -> ${tapped} is not one move`);
  const left = Number(await attr(page, "distance"));
  // The board and the controls fit the phone's width.
  const fit = await page.evaluate(() => {
    const r = document.querySelector('[data-testid="board"]').getBoundingClientRect();
    return { left: r.left, right: r.right, scroll: document.documentElement.scrollWidth, width: innerWidth };
  });
  assert.ok(fit.left >= 0 && fit.right <= fit.width && fit.scroll <= fit.width, JSON.stringify(fit));
  await page.screenshot({ path: join(artifacts, "browser-example-phone-2x3.png"), fullPage: true });
  await page.getByTestId("solve").tap();
  await waitBoard(page, () => document.querySelector('[data-testid="board"]').dataset.board === "123/450");
  assert.equal(await attr(page, "moves"), String(1 + left));
  assert.match(await status(page), /solved/i);
  await page.screenshot({ path: join(artifacts, "browser-example-phone-2x3-solved.png"), fullPage: true });
  // Back to 3x3: its tables were built at load, and still answer.
  await page.getByTestId("shape").selectOption("3x3");
  await waitBoard(page, () => document.body.dataset.ready === "1" &&
                              document.querySelector('[data-testid="board"]').dataset.shape === "3x3");
  assert.equal(await attr(page, "distance"), "20");
  await page.screenshot({ path: join(artifacts, "browser-example-phone-3x3.png"), fullPage: true });
});

test("offline on a phone, every shape offered builds and shows a board of its size that fits", async () => {
  const { page } = pages.phone;
  const shapes = await page.getByTestId("shape").locator("option").evaluateAll((os) => os.map((o) => o.value));
  assert.deepEqual([...shapes].sort(), ["2x3", "2x4", "2x5", "3x2", "3x3"]);
  for (const shape of shapes) {
    await page.getByTestId("shape").selectOption(shape);
    const board = await waitBoard(page, (s) => document.body.dataset.ready === "1" &&
                                               document.querySelector('[data-testid="board"]').dataset.shape === s,
                                  shape);
    const [rows, cols] = shape.split("x").map(Number);
    assert.equal(await page.getByTestId("cell").count(), rows * cols);
    assert.equal(cellsOf(board).sort().join(""), [...Array(rows * cols).keys()].join(""));
    assert.ok(Number(await attr(page, "distance")) > 0, `${shape}: ${board}`);
    const scroll = await page.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(scroll <= PHONE.width, `${shape} is ${scroll}px wide`);
  }
  await page.screenshot({ path: join(artifacts, `browser-example-phone-${shapes.at(-1)}.png`), fullPage: true });
});

test("after the network was cut, nothing was fetched and the pages raised no error", (t) => {
  const cut = requests.filter((r) => r.offline).map((r) => r.url);
  t.diagnostic(`${cut.length} requests after the network was cut`);
  assert.deepEqual(cut.filter((u) => !u.startsWith(base + "/")), [], "requests off the page's origin");
  assert.deepEqual(succeeded, [], "requests answered after the network was cut");
  assert.deepEqual(errors, []);
});
