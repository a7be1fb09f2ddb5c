// The contract test: docs/openapi.yaml is what eight-server really answers.
//
// Starts the real build/bin/eight-server on the default table (every shape
// up to 10 cells and the 4x4 pattern databases), sends it requests of every
// endpoint for 3x3, 2x3, 2x5 and 4x4 boards and every error status a client
// can provoke, and validates each real answer (status, content type, body,
// declared headers) against the document with maintained OpenAPI
// validators from npm, pinned in package-lock.json: openapi-backend (the
// document itself, operation matching, requests) and
// openapi-response-validator (bodies, by status and media type); header
// values by Ajv, the JSON Schema validator both are built on.
// (@apidevtools/json-schema-ref-parser is pinned to 15.5.2 in package.json's
// overrides: openapi-backend's default, 16, wants Node.js 22; 15 runs on the
// Node.js 20 these machines have.) The
// document is first checked against the OpenAPI 3.0 schema (openapi-backend
// in strict mode). A last test makes sure the checks can fail.
//
//   EIGHT_BIN_DIR=build/bin EIGHT_OPENAPI_WORK=build/tests/openapi \
//   EIGHT_OPENAPI_SPEC=docs/openapi.yaml node --test tests/openapi/
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { createRequire } from "node:module";

const work = process.env.EIGHT_OPENAPI_WORK ?? "build/tests/openapi";
const binDir = process.env.EIGHT_BIN_DIR ?? "build/bin";
const specPath = process.env.EIGHT_OPENAPI_SPEC ?? "docs/openapi.yaml";
const require = createRequire(resolve(work, "package.json"));
const { OpenAPIBackend } = require("openapi-backend");
const OpenAPIResponseValidator = require("openapi-response-validator").default;
const { load: loadYaml } = require("js-yaml");
const Ajv = require("ajv").default;
// Header values are text: "1" is the integer 1. OpenAPI's own keywords
// (example, nullable) are not JSON Schema's.
const headerValidator = new Ajv({ coerceTypes: true, strict: false });

// Korf's first board, 57 moves from his goal (the blank first).
const KORF_1 = "14,13,15,7/11,12,9,5/6,0,2,1/4,8,10,3";
const KORF_GOAL = "0,1,2,3/4,5,6,7/8,9,10,11/12,13,14,15";
const KORF_1_Q = `board=${encodeURIComponent(KORF_1)}&goal=${encodeURIComponent(KORF_GOAL)}`;
const FIFTEEN_1 = "1,2,3,4/5,6,7,8/9,10,11,12/13,14,0,15";  // one move from the goal

let api;  // the validators, over the dereferenced document
let server;
let port;
let scratch;

// One request over a fresh connection, bytes exactly as given (no client
// library would send some of these): resolves to {status, headers, body}.
function exchange(raw, { head = false } = {}) {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1");
    const chunks = [];
    // A hang guard: a 7x7 answer (the reduction, then the beam over its
    // last region) takes about a second, but tens of seconds on a machine
    // as busy as CI's second suite, whose compute threads run at nice 19
    // (CI once waited 30 s in vain); the server's job deadline is 600 s.
    socket.setTimeout(300000, () => socket.destroy(
      new Error(`no answer within 300 s to ${JSON.stringify(String(raw).slice(0, 80))}`)));
    socket.on("data", (d) => chunks.push(d));
    socket.on("error", (e) => {
      // A refusal may close before the client finished sending its body:
      // the answer already read still counts.
      if (chunks.length > 0 && e.code === "EPIPE") return;
      reject(e);
    });
    socket.on("close", () => {
      const all = Buffer.concat(chunks);
      const end = all.indexOf("\r\n\r\n");
      if (end < 0) return reject(new Error(`no answer to ${JSON.stringify(raw.slice(0, 80))}`));
      const lines = all.subarray(0, end).toString("latin1").split("\r\n");
      const status = Number(lines[0].split(" ")[1]);
      const headers = {};
      for (const line of lines.slice(1)) {
        const colon = line.indexOf(":");
        headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
      }
      let body = all.subarray(end + 4);
      if (headers["content-length"] !== undefined && !head) {
        body = body.subarray(0, Number(headers["content-length"]));
      }
      resolve({ status, headers, body: head ? Buffer.alloc(0) : body });
    });
    // Not end(): the server takes a half-closed connection for a client
    // that has gone, and drops a long answer (a 4x4 search) it owed it.
    // Connection: close ends the exchange from the server's side.
    socket.write(raw);
  });
}

function request(method, target, { headers = {}, body } = {}) {
  let raw = `${method} ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n`;
  for (const [k, v] of Object.entries(headers)) raw += `${k}: ${v}\r\n`;
  if (body !== undefined) raw += `Content-Length: ${Buffer.byteLength(body)}\r\n`;
  raw += "\r\n";
  return exchange(body !== undefined ? Buffer.concat([Buffer.from(raw), Buffer.from(body)]) : raw);
}

// Everything wrong with `res` as an answer to `method target` by the
// document: [] when it keeps the contract.
function violations(method, target, res,
                    { requestHeaders = {}, requestBody, describedRequest = true } = {}) {
  const url = new URL(target, "http://127.0.0.1");
  const query = Object.fromEntries(url.searchParams);
  const op = api.matchOperation({ method, path: url.pathname, query, headers: requestHeaders });
  // A method an endpoint does not take, or a path with no endpoint: the
  // document's MethodNotAllowed or NotFound answer.
  const known = Object.hasOwn(api.definition.paths, url.pathname);
  const { MethodNotAllowed, NotFound } = api.definition.components.responses;
  const responses = op ? op.responses : known ? { 405: MethodNotAllowed } : { 404: NotFound };
  const where = `${method} ${target} -> ${res.status}`;
  const declared = responses[String(res.status)];
  if (!declared) return [`${where}: status ${res.status} is not in the document`];
  const errors = [];
  const type = res.headers["content-type"];
  if (!declared.content) {
    if (res.body.length > 0) errors.push(`${where}: a body where the document declares none`);
  } else {
    const base = (t) => t.split(";")[0].trim().toLowerCase();
    const media = Object.keys(declared.content).find((k) => type && base(k) === base(type));
    if (!media) {
      errors.push(`${where}: content type ${type} is not one of ${Object.keys(declared.content)}`);
    } else if (base(media).endsWith("json")) {
      let body;
      try {
        body = JSON.parse(res.body.toString("utf8"));
      } catch (e) {
        return [`${where}: the body is not JSON: ${e.message}`];
      }
      // Validated against the schema of the media type sent.
      const one = { [res.status]: { description: "", content: { [media]: declared.content[media] } } };
      const bodyErrors = new OpenAPIResponseValidator({ responses: one }).validateResponse(res.status, body);
      if (bodyErrors) errors.push(`${where}: ${JSON.stringify(bodyErrors.errors)}`);
    }
  }
  // Each declared header the answer carries, against its schema (response
  // headers are optional unless the document says required).
  for (const [name, h] of Object.entries(declared.headers ?? {})) {
    const value = res.headers[name.toLowerCase()];
    if (value === undefined) {
      if (h.required) errors.push(`${where}: no ${name} header`);
      continue;
    }
    const check = headerValidator.compile(h.schema ?? {});
    if (!check(value)) errors.push(`${where}: header ${name}: ${headerValidator.errorsText(check.errors)}`);
  }
  // A successful answer was to a request the document describes.
  if (op && res.status < 300 && method !== "OPTIONS" && describedRequest) {
    const r = api.validateRequest({ method, path: url.pathname, query, headers: requestHeaders,
                                    body: requestBody }, op);
    if (!r.valid) errors.push(`${where}: the request: ${JSON.stringify(r.errors)}`);
  }
  return errors;
}

// Sends the request, checks the answer against the document and its status
// against `status`; returns the answer, its JSON body parsed.
// `describedRequest: false` for a request the document says is wrong but
// the server answers 200 (a batch item answered in place).
async function call(method, target, status, { headers = {}, body, describedRequest = true } = {}) {
  const res = await request(method, target, { headers, body });
  let parsed;
  try {
    parsed = body !== undefined ? JSON.parse(body) : undefined;
  } catch {
    parsed = body;  // a body that is not JSON, sent to be refused
  }
  assert.deepEqual(violations(method, target, res, { requestHeaders: headers, requestBody: parsed,
                                                     describedRequest }), []);
  assert.equal(res.status, status, `${method} ${target}: ${res.body.toString().slice(0, 300)}`);
  const type = res.headers["content-type"] ?? "";
  res.json = type.includes("json") ? JSON.parse(res.body.toString("utf8")) : undefined;
  return res;
}

const get = (target, status = 200, headers = {}) => call("GET", target, status, { headers });
const post = (body, status = 200, headers = {}, options = {}) =>
  call("POST", "/solve", status, { headers: { "Content-Type": "application/json", ...headers },
                                   body: typeof body === "string" ? body : JSON.stringify(body),
                                   ...options });
const q = encodeURIComponent;

before(async () => {
  const text = readFileSync(specPath, "utf8");
  api = new OpenAPIBackend({ definition: loadYaml(text), strict: true, validate: true });
  await api.init();  // strict: throws when the document is not valid OpenAPI 3.0
  scratch = mkdtempSync(join(tmpdir(), "eight-openapi-"));
  // EIGHT_OPENAPI_TABLE: a default table made already, to skip making one.
  let table = process.env.EIGHT_OPENAPI_TABLE;
  if (!table) {
    table = join(scratch, "eight.tbl");
    const gen = spawnSync(join(binDir, "eight-tablegen"),
                          ["--quiet", "--shape", "default", "--out", table]);
    assert.equal(gen.status, 0, String(gen.stderr));
  }
  // --job-deadline 600: a bounded answer past 25 cells is the beam's over
  // the last region however busy the machine (the default 10 s deadline can
  // cut the beam short, and the answer is then the reduction's, on a
  // machine as busy as CI's second suite).
  server = spawn(join(binDir, "eight-server"),
                 ["--table", table, "--host", "127.0.0.1", "--port", "0", "--quiet",
                  "--job-deadline", "600"],
                 { stdio: ["ignore", "ignore", "pipe"] });
  port = await new Promise((resolve, reject) => {
    let err = "";
    const timer = setTimeout(() => reject(new Error(`no listening line: ${err}`)), 30000);
    server.stderr.on("data", (d) => {
      err += d;
      const m = /listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(err);
      if (m) {
        clearTimeout(timer);
        resolve(Number(m[1]));
      }
    });
    server.on("exit", (code) => reject(new Error(`eight-server exited ${code}: ${err}`)));
  });
});

after(() => {
  server?.kill("SIGTERM");
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

test("the document is valid OpenAPI 3.0 and describes every endpoint the index lists", async () => {
  assert.match(api.document.openapi, /^3\.0\./);
  assert.doesNotThrow(() => api.validateDefinition());
  const index = (await get("/")).json;
  const paths = Object.keys(api.definition.paths);
  for (const e of index.endpoints) {
    assert.ok(paths.includes(e.path), `${e.path} is not in the document`);
    for (const m of e.methods.filter((m) => m !== "HEAD")) {
      assert.ok(api.definition.paths[e.path][m.toLowerCase()], `${m} ${e.path} is not in it`);
    }
  }
  assert.equal(paths.length, index.endpoints.length);
  // The server serves the document it is held to.
  const served = await get("/openapi.yaml");
  assert.ok(served.body.equals(readFileSync(specPath)), "GET /openapi.yaml is not docs/openapi.yaml");
});

test("3x3 answers of every endpoint keep the contract", async () => {
  let r = await get("/solve?board=867254301");
  assert.equal(r.json.distance, 31);
  assert.deepEqual(r.json.board_cells, [8, 6, 7, 2, 5, 4, 3, 0, 1]);
  r = await get("/solve?board=8+6+7+2+5+4+3+x+1&boards=1");
  assert.equal(r.json.boards_cells.length, 31);
  r = await get("/solve?board=213456780");
  assert.equal(r.json.distance, null);
  await get("/solve?board=283164705&goal=123804765");
  await get("/distance?board=867254301");
  r = await get("/hint?board=123456708");
  assert.equal(r.json.moves.length, 3);
  await get("/hint?board=213456780");
  r = await get("/random?distance=20&seed=12345");
  assert.equal(r.json.distance, 20);
  r = await get("/random?distance=5&seed=1&count=3");
  assert.equal(r.json.boards_cells.length, 3);
  await get("/random?distance=7");
  r = await get("/stats");
  assert.equal(r.json.max_distance, 31);
  await get(`/stats?goal=${q("123804765")}`);
});

test("2x3 and 2x5 answers of every endpoint keep the contract", async () => {
  let r = await get(`/solve?board=${q("123/405")}`);
  assert.equal(r.json.shape, "2x3");
  assert.deepEqual(r.json.goal_cells, [1, 2, 3, 4, 5, 0]);
  await get("/solve?board=231405&shape=2x3&boards=1");
  await get(`/distance?board=${q("231/405")}`);
  await get(`/hint?board=${q("123/405")}`);
  await get("/random?shape=2x3&distance=5&seed=3&count=2");
  r = await get("/stats?shape=2x3");
  assert.equal(r.json.max_distance, 21);
  r = await get(`/solve?board=${q("21345/6789x")}`);
  assert.equal(r.json.shape, "2x5");
  await get(`/distance?board=${q("21345/67890")}&goal=${q("01234/56789")}`);
  await get(`/hint?board=${q("21345/6789x")}`);
  r = await get("/random?shape=2x5&distance=12&seed=4");
  assert.equal(r.json.board_cells.length, 10);
  r = await get("/stats?shape=2x5");
  assert.equal(r.json.max_distance, 55);
  // A board of each other shape up to 10 cells, for the Board pattern.
  for (const b of ["21/30", "23/14/05", "2134/5607", "21/34/56/70", "x2/13/45/67/89"]) {
    await get(`/solve?board=${q(b)}`);
  }
});

test("answers of the shapes no table holds keep the contract: optimal near the goal, bounded far, a 503 when a proof is required", async () => {
  // 5x5 one move from the goal: optimal by search.
  const near = "1,2,3,4,5/6,7,8,9,10/11,12,13,14,15/16,17,18,19,20/21,22,23,0,24";
  let r = await get(`/solve?board=${q(near)}&boards=1`);
  assert.equal(r.json.shape, "5x5");
  assert.equal(r.json.distance, 1);
  assert.equal(r.json.optimal, true);
  assert.equal(r.json.lower_bound, 1);
  assert.equal(r.json.method, "manhattan-search");
  // A random 7x7 board: the reduction's path with the beam's over its last
  // 5x5 region, with its proven bound.
  r = await get("/random?shape=7x7&seed=3");
  assert.equal(r.json.distance, null);
  const far = r.json.board;
  r = await get(`/solve?board=${q(far)}`);
  assert.equal(r.json.optimal, false);
  assert.equal(r.json.method, "beam-search");
  assert.ok(r.json.lower_bound < r.json.distance);
  assert.equal(r.json.path.length, r.json.distance);
  await get(`/distance?board=${q(far)}`);
  r = await get(`/hint?board=${q(far)}`);
  assert.equal(r.json.hints.length, 1);
  assert.equal(r.json.hints[0].letter, (await get(`/solve?board=${q(far)}`)).json.path[0]);
  await get("/random?shape=7x7&distance=5", 400);
  await get("/stats?shape=7x7", 404);
  await get(`/solve?board=${q(far)}&optimal=maybe`, 400);
  // A proof required of a far board: the search stops at its budget.
  r = await get(`/solve?board=${q(far)}&optimal=required&budget=1000`, 503);
  assert.equal(r.json.type, "https://eight.invalid/problems/search-budget-exceeded");
  // A batch with the shapes mixed.
  await post({ boards: [near, far, "867254301"], optimal: "preferred" });
  // The fast option (issue 39): a far 5x5 board's beam without the 5x5
  // databases, the 7x7 reduction, a bad flag.
  const far5 = "3,7,12,4,5/1,14,10,8,16/24,11,2,9,19/6,17,13,0,20/21,22,15,23,18";
  r = await get(`/solve?board=${q(far5)}&fast=1`);
  assert.equal(r.json.method, "beam-search");
  assert.equal(r.json.optimal, false);
  await get(`/distance?board=${q(far5)}&fast=true`);
  await get(`/hint?board=${q(far)}&fast=1`);
  await get(`/solve?board=${q(far)}&fast=maybe`, 400);
  await post({ boards: [near, far5, far, "867254301"], fast: true });
});

test("4x4 answers of every endpoint keep the contract, and a search out of budget is a 503", async () => {
  let r = await get(`/solve?board=${q(FIFTEEN_1)}`);
  assert.equal(r.json.shape, "4x4");
  assert.equal(r.json.board_cells.length, 16);
  assert.ok(Number(r.headers["x-search-nodes"]) >= 0);
  r = await get("/random?shape=4x4&distance=20&seed=5");
  const board = r.json.board;
  r = await get(`/solve?board=${q(board)}&boards=1`);
  assert.equal(r.json.distance, 20);
  await get(`/distance?board=${q(board)}`);
  r = await get(`/hint?board=${q(board)}`);
  assert.ok(r.json.hints.length >= 1);
  await get("/random?shape=4x4&seed=9&budget=1000");
  await get("/stats?shape=4x4", 404);
  // Korf's first board with a budget of one node: 503 with how far it got.
  r = await get(`/solve?${KORF_1_Q}&budget=1`, 503);
  assert.equal(r.json.type, "https://eight.invalid/problems/search-budget-exceeded");
  assert.equal(r.json.budget, 1);
  await get(`/hint?${KORF_1_Q}&budget=1`, 503);
  await get(`/distance?${KORF_1_Q}&budget=1`, 503);
});

test("batches keep the contract: every shape, goals of their own, and errors in place", async () => {
  let r = await post({ boards: ["867254301", "123/405", "21345/6789x", FIFTEEN_1, "12",
                                { board: "867254301", goal: "123804765" }, 5] },
                     200, {}, { describedRequest: false });
  assert.equal(r.json.count, 7);
  assert.equal(r.json.answers[1].goal, "123/450");
  assert.match(r.json.answers[4].error, /cells/);
  assert.equal(r.json.answers[6].error, "expected a board as a string");
  r = await post({ boards: ["231405"], shape: "2x3" });
  assert.equal(r.json.shape, "2x3");
  r = await post({ boards: [{ board: KORF_1, goal: KORF_GOAL }, "867254301"], budget: 1 });
  assert.match(r.json.answers[0].error, /budget/);
  assert.equal(r.json.answers[1].distance, 31);
});

test("the table, the operations endpoints and preflights keep the contract", async () => {
  const full = await get("/table");
  const etag = full.headers.etag;
  assert.equal(Number(full.headers["content-length"]), full.body.length);
  await get("/table", 206, { Range: "bytes=0-31" });
  await get("/table", 304, { "If-None-Match": etag });
  await get("/table", 416, { Range: `bytes=${full.body.length + 10}-` });
  await get("/table?name=nope.tbl", 404);
  await get("/table?shape=3x4", 404);
  await get("/tables");
  await get("/healthz");
  await get("/readyz");
  await get("/metrics");
  await get("/", 200, { Accept: "text/html" });
  await call("OPTIONS", "/solve", 204);
  await call("OPTIONS", "/table", 204);
  await call("OPTIONS", "/nonexistent", 404);
});

test("every error status a client can provoke keeps the contract", async () => {
  await get("/solve?board=123456077", 400);
  await get("/solve?board=12", 400);
  await get("/solve?board=123405", 400);  // 6 cells, two shapes
  await get("/solve?board=867254301&goal=1", 400);
  await get("/solve?board=867254301&gaol=1", 400);
  await get("/solve?board=867254301&boards=2", 400);
  await get("/solve?board=867254301&budget=0", 400);
  await get("/solve?board=867254301&shape=5x5", 400);
  await get("/solve", 400);
  await get("/solve?board=867254301&goal=123456780&goal=123804765", 400);
  await get("/random?distance=32", 400);
  await get("/random?distance=5&count=0", 400);
  await get("/random?distance=5&seed=abc", 400);
  await get("/healthz?foo=1", 400);
  await get("/table?name=eight.tbl&shape=3x3", 400);
  await post("not json", 400);
  await post('{"boards":["867254301"],"goal":"123456780","goal":"123804765"}', 400);
  await post({ boards: ["867254301"], gaol: "1" }, 400);
  await post({ boards: [], goal: "11" }, 400);
  await post({ boards: Array(10001).fill("867254301") }, 413);
  await get(`/solve?board=${q("1,2,3,4/5,6,7,8/9,10,0,11")}`, 404);  // 3x4: not served
  await get("/solver", 404);
  await call("DELETE", "/solve", 405);
  await call("POST", "/table", 405, { body: "" });
  // The transport's refusals.
  await post("x".repeat(3 * 1024 * 1024), 413);
  await get(`/solve?board=${"1".repeat(9000)}`, 414);
  const many = {};
  for (let i = 0; i < 101; i++) many[`X-Field-${i}`] = "1";
  await get("/healthz", 431, many);
  await post({ boards: [] }, 415, { "Content-Encoding": "gzip" });
  await post({ boards: [] }, 417, { Expect: "tea" });
  const chunked = await exchange("POST /solve HTTP/1.1\r\nHost: 127.0.0.1\r\n" +
                                 "Transfer-Encoding: gzip, chunked\r\nConnection: close\r\n\r\n");
  assert.deepEqual(violations("POST", "/solve", chunked), []);
  assert.equal(chunked.status, 501);
  const malformed = await exchange(
    "GET /solve?board=1%zz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n");
  assert.deepEqual(violations("GET", "/solve", malformed), []);
  assert.equal(malformed.status, 400);
});

test("the checks fail on answers that break the contract", async () => {
  // The spec validator refuses a document that breaks OpenAPI 3.0.
  const invalid = loadYaml(readFileSync(specPath, "utf8"));
  delete invalid.paths["/solve"].get.responses["200"].description;
  await assert.rejects(
    new OpenAPIBackend({ definition: invalid, strict: true, validate: true }).init(),
    /not valid OpenAPI/);
  const real = await request("GET", "/solve?board=867254301");
  assert.deepEqual(violations("GET", "/solve?board=867254301", real), []);
  const alter = (f) => {
    const j = JSON.parse(real.body.toString());
    f(j);
    return { ...real, body: Buffer.from(JSON.stringify(j)) };
  };
  const broken = [
    ["no board_cells", alter((j) => delete j.board_cells)],
    ["a field the document does not name", alter((j) => { j.cells = []; })],
    ["a distance past the longest path", alter((j) => { j.distance = 20001; })],
    ["a board in no canonical form", alter((j) => { j.board = "8 6 7 2 5 4 3 0 1"; })],
    ["a shape eight does not answer", alter((j) => { j.shape = "11x5"; })],
    ["no word on how good it is", alter((j) => delete j.optimal)],
    ["a method no one has", alter((j) => { j.method = "guess"; })],
    ["a status the document does not list", { ...real, status: 418 }],
    ["another content type", { ...real, headers: { ...real.headers, "content-type": "text/plain" } }],
  ];
  for (const [why, res] of broken) {
    assert.notDeepEqual(violations("GET", "/solve?board=867254301", res), [], why);
  }
  // A problem of a type its status does not have.
  const bad = await request("GET", "/solve?board=12");
  const j = JSON.parse(bad.body.toString());
  j.type = "https://eight.invalid/problems/not-found";
  assert.notDeepEqual(violations("GET", "/solve?board=12", { ...bad, body: Buffer.from(JSON.stringify(j)) }), []);
  // A search out of budget without its members.
  const stop = await request("GET", `/solve?${KORF_1_Q}&budget=1`);
  const s = JSON.parse(stop.body.toString());
  delete s.lower_bound;
  assert.notDeepEqual(violations("GET", "/solve", { ...stop, body: Buffer.from(JSON.stringify(s)) }), []);
});
