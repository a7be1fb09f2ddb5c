// The package's HTTP client (client.js) against the real eight-server on a
// loopback port, and against hostile servers of its own (loopback too):
// answers are the server's, refusals are EightHttpError with the problem's
// slug, and no server can make it wait or read without bound.
//
//   EIGHT_JS_PACKAGE=build-js/js/package EIGHT_BIN_DIR=build/bin \
//   EIGHT_TABLE=build/share/eight/eight.tbl node --test tests/js/client.test.mjs
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { createServer as createHttpServer } from "node:http";
import { createServer } from "node:net";
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";

const pkg = resolve(process.env.EIGHT_JS_PACKAGE ?? "build-js/js/package");
const binDir = process.env.EIGHT_BIN_DIR ?? "build/bin";
const tablePath = process.env.EIGHT_TABLE ?? "build/share/eight/eight.tbl";
const { Eight, EightClient, EightHttpError } = await import(pathToFileURL(resolve(pkg, "index.js")).href);

let server;
let base;

function freePort() {
  return new Promise((done, fail) => {
    const s = createServer();
    s.once("error", fail);
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address();
      s.close(() => done(port));
    });
  });
}

before(async () => {
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  // --job-deadline 600: answers are compared with the offline package's,
  // and a search a busy machine starves past the default 10 s would stop at
  // its deadline with another path (the deadline is the server tests').
  server = spawn(join(binDir, "eight-server"), ["--table", tablePath, "--host", "127.0.0.1", "--port", String(port), "--quiet", "--job-deadline", "600"], {
    stdio: ["ignore", "ignore", "inherit"],
  });
  for (const end = Date.now() + 60000; ; await new Promise((r) => setTimeout(r, 50))) {
    try {
      if ((await fetch(base + "/readyz")).ok) break;
    } catch {}
    assert.ok(Date.now() < end, "eight-server did not become ready");
  }
});

after(() => server?.kill("SIGTERM"));

test("the client's answers are the package's offline answers, the same camelCase objects", async () => {
  // A hang guard, not the default 10 s: a 6x6 hint (the reduction, then the
  // beam over its last region) takes about a second, tens on a busy machine.
  const client = new EightClient(base, { timeoutMs: 300000 });
  const offline = await Eight.open(readFileSync(tablePath));
  try {
    for (const board of ["867254301", "123456780", "123456870", "123/405", [[1, 2, 3], [4, 5, 6], [7, 0, 8]]]) {
      const online = await client.solve(board);
      assert.deepEqual(online, offline.solve(board));
      // The server's JSON (the tool's), every member camelCase.
      const json = JSON.parse(offline.solveJson(board));
      assert.equal(online.lowerBound, json.lower_bound);
      assert.deepEqual(online.boardCells, json.board_cells);
      assert.deepEqual(online.tiles, json.tiles);
      assert.ok(!Object.keys(online).some((k) => k.includes("_")), Object.keys(online).join(" "));
      const hints = await client.hint(board);
      assert.deepEqual(hints, offline.hint(board));
      assert.ok(hints.moves.every((m) => "boardCells" in m && "hint" in m));
    }
    const big = offline.random({ shape: "6x6", seed: 1 });
    assert.deepEqual(await client.hint(big), offline.hint(big));
    const boards = await client.solve("867254301", { boards: true });
    assert.deepEqual(boards, offline.solve("867254301", { boards: true }));
    assert.equal(boards.boardsCells.length, 31);
    const r = await client.random({ distance: 25, seed: 42 });
    assert.equal(r.board, offline.random({ distance: 25, seed: 42 }));
    assert.deepEqual(r.boardCells.length, 9);
    const d = await client.distance("867254301", { goal: "123456780" });
    assert.equal(d.distance, 31);
    const { moves, path, tiles, ...asked } = offline.solve("867254301");
    assert.deepEqual(d, asked);
    const unsolvable = await client.distance("123456870");
    assert.deepEqual([unsolvable.solvable, unsolvable.distance, unsolvable.lowerBound], [false, null, null]);
    void [moves, path, tiles];
    const stats = await client.stats({ shape: "2x3" });
    assert.equal(typeof stats, "object");
    const bytes = await client.table();
    assert.deepEqual(bytes, new Uint8Array(readFileSync(tablePath)));
  } finally {
    offline.close();
  }
});

test("a known path is sent as path= and answered as the package answers it offline", async () => {
  const client = new EightClient(base);
  const offline = await Eight.open(readFileSync(tablePath));
  try {
    const other = "uurdlldrrullurrdldluurddluurrdd";
    const online = await client.solve("867254301", { knownPath: other });
    assert.equal(online.path, other);
    assert.deepEqual(online, offline.solve("867254301", { knownPath: other }));
    assert.equal((await client.distance("867254301", { knownPath: other })).distance, 31);
    assert.deepEqual(await client.hint("867254301", { knownPath: other }), offline.hint("867254301", { knownPath: other }));
    await assert.rejects(client.solve("867254301", { knownPath: "d" }), (e) => e instanceof EightHttpError && e.status === 400 && e.error === "bad-path");
    assert.throws(() => client.solve("867254301", { knownPath: 7 }), TypeError);
  } finally {
    offline.close();
  }
});

test("a refusal is an EightHttpError with the status, the problem's slug and its detail", async () => {
  const client = new EightClient(base);
  await assert.rejects(client.solve("12345678"), (e) => {
    assert.ok(e instanceof EightHttpError);
    assert.equal(e.status, 400);
    assert.equal(e.error, "bad-board");
    assert.match(e.message, /expected 9 cells, got 8/);
    return true;
  });
  await assert.rejects(client.solve("867254301", { budget: 0 }), (e) => e.status === 400 && e.error === "bad-budget");
  // A problem's members camelCase, as an answer's (lower_bound: lowerBound).
  const hard = "0,15,14,13/12,11,10,9/8,7,6,5/4,3,2,1";
  await assert.rejects(client.solve(hard, { budget: 1000, optimalRequired: true }), (e) => {
    assert.equal(e.status, 503);
    assert.equal(e.error, "search-budget-exceeded");
    assert.equal(typeof e.body.lowerBound, "number");
    assert.ok(!("lower_bound" in e.body));
    return true;
  });
  assert.throws(() => new EightClient("ftp://127.0.0.1/"), TypeError);
  // A board that is none is refused before any request.
  assert.throws(() => client.solve({}), TypeError);
  assert.throws(() => client.hint(42), TypeError);
});

// A server of the test's own on loopback, answering every request with
// `handler`.
async function hostile(handler) {
  const s = createHttpServer(handler);
  await new Promise((r) => s.listen(0, "127.0.0.1", r));
  return { url: `http://127.0.0.1:${s.address().port}`, close: () => new Promise((r) => s.close(r)), server: s };
}

test("two hundred timed-out and over-long answers later, the client holds no timer or socket", async () => {
  const silent = await hostile(() => {});  // headers never come
  const endless = await hostile((req, res) => {
    res.writeHead(200, { "content-type": "application/json" });
    const chunk = Buffer.alloc(1 << 14, 0x20);
    const more = () => {
      while (res.write(chunk));
      res.once("drain", more);
    };
    more();
    res.on("error", () => {});
  });
  const slow = new EightClient(silent.url, { timeoutMs: 20 });
  const long = new EightClient(endless.url, { maxBytes: 1 << 16 });
  const resources = () => process.getActiveResourcesInfo().filter((r) => r !== "TTYWrap").length;
  const before = resources();
  for (let i = 0; i < 100; ++i) {
    await assert.rejects(slow.solve("867254301"), (e) => e instanceof EightHttpError && /20 ms/.test(e.message));
    await assert.rejects(long.solve("867254301"), (e) => e instanceof EightHttpError && /65536 bytes/.test(e.message));
  }
  silent.server.closeAllConnections?.();
  endless.server.closeAllConnections?.();
  await silent.close();
  await endless.close();
  // Sockets the servers closed take a turn of the event loop to go; the
  // wait is shorter than `long`'s 10 s timeout, so a timer it kept shows.
  for (const end = Date.now() + 5000; resources() > before && Date.now() < end;) {
    await new Promise((r) => setTimeout(r, 50));
  }
  assert.ok(resources() <= before, `${resources()} resources held, ${before} before: ${process.getActiveResourcesInfo()}`);
});

test("a hostile server cannot make the client wait, read without bound or take its word", async () => {
  const sockets = new Set();
  const slow = await hostile((req, res) => {
    sockets.add(res);
    res.writeHead(200, { "content-type": "application/json" });
    res.write("{");  // and never the rest
  });
  const t = Date.now();
  await assert.rejects(new EightClient(slow.url, { timeoutMs: 300 }).solve("867254301"), (e) => e instanceof EightHttpError && /in time|within/.test(e.message));
  assert.ok(Date.now() - t < 30000, "the timeout was not kept");
  for (const s of sockets) s.destroy();
  slow.server.closeAllConnections?.();
  await slow.close();

  const silent = await hostile(() => {});  // headers never come
  await assert.rejects(new EightClient(silent.url, { timeoutMs: 300 }).solve("867254301"), (e) => e instanceof EightHttpError && /300 ms/.test(e.message));
  silent.server.closeAllConnections?.();
  await silent.close();

  const huge = await hostile((req, res) => {
    res.writeHead(200, { "content-type": "application/json" });
    const chunk = Buffer.alloc(1 << 16, 0x20);
    let sent = 0;
    const more = () => {
      while (sent < 64 << 20 && res.write(chunk)) sent += chunk.length;
      if (sent < 64 << 20) res.once("drain", more);
      else res.end();
    };
    more();
    res.on("error", () => {});
  });
  await assert.rejects(new EightClient(huge.url, { maxBytes: 1 << 20 }).solve("867254301"), (e) => e instanceof EightHttpError && /more than the 1048576 bytes/.test(e.message));
  const declared = await hostile((req, res) => {
    res.writeHead(200, { "content-type": "application/json", "content-length": String(1 << 30) });
    res.write("{}");
  });
  await assert.rejects(new EightClient(declared.url, { maxBytes: 1 << 20 }).solve("867254301"), (e) => /1073741824 bytes/.test(e.message));
  huge.server.closeAllConnections?.();
  declared.server.closeAllConnections?.();
  await huge.close();
  await declared.close();

  const liar = await hostile((req, res) => {
    if (req.url.startsWith("/solve")) {
      res.writeHead(200, { "content-type": "application/json" });
      res.end("not json at all");
    } else if (req.url.startsWith("/hint?board=123456708")) {
      res.writeHead(200, { "content-type": "application/json" });
      res.end('{"hints": [null], "moves": []}');  // an object, but no moves
    } else if (req.url.startsWith("/hint")) {
      res.writeHead(200, { "content-type": "application/json" });
      res.end("[1, 2, 3]");
    } else if (req.url.startsWith("/random")) {
      res.writeHead(302, { location: "http://127.0.0.1:9/" });
      res.end();
    } else {
      res.writeHead(500, { "content-type": "application/problem+json" });
      res.end('{"type": 5, "detail": ["x"]}');
    }
  });
  const c = new EightClient(liar.url);
  await assert.rejects(c.solve("867254301"), (e) => e instanceof EightHttpError && /not JSON/.test(e.message));
  await assert.rejects(c.hint("867254301"), (e) => e instanceof EightHttpError && /not a JSON object/.test(e.message));
  await assert.rejects(c.hint("123456708"), (e) => e instanceof EightHttpError && /has no moves/.test(e.message));
  await assert.rejects(c.random(), (e) => e instanceof EightHttpError);
  await assert.rejects(c.stats(), (e) => e instanceof EightHttpError && e.status === 500 && e.error === null && e.message === "stats: HTTP 500");
  await liar.close();
});
