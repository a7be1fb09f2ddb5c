// The JavaScript package answers what `eight` answers, byte for byte, and
// refuses what it refuses with the same message, never a crash.
//
//   EIGHT_JS_PACKAGE=build-js/js/package EIGHT_BIN=build/bin/eight \
//   EIGHT_TABLE=build/share/eight/eight.tbl node --test tests/js/eight.test.mjs
//
// The same boards as tests/c_api/c_api_cli_test.py: 10,000 random 3x3
// boards and 1,000 of each other shape of the in-memory tables (half of
// them of the other class), from the tables built in memory and from the
// table file's bytes; twenty 4x4 and ten 5x5 boards from the file.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { pathToFileURL } from "node:url";

const pkg = resolve(process.env.EIGHT_JS_PACKAGE ?? "build-js/js/package");
const eightBin = process.env.EIGHT_BIN ?? "build/bin/eight";
const tablePath = process.env.EIGHT_TABLE ?? "build/share/eight/eight.tbl";
const { Eight, EightError } = await import(pathToFileURL(resolve(pkg, "index.js")).href);

// SplitMix64, as the tool's --seed: a fixed, portable stream of boards.
function rng(seed) {
  let s = BigInt.asUintN(64, BigInt(seed));
  return () => {
    s = BigInt.asUintN(64, s + 0x9e3779b97f4a7c15n);
    let z = s;
    z = BigInt.asUintN(64, (z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n);
    z = BigInt.asUintN(64, (z ^ (z >> 27n)) * 0x94d049bb133111ebn);
    return Number((z ^ (z >> 31n)) >> 11n) / 2 ** 53;
  };
}

function boardText(cells, rows, cols) {
  if (rows === 3 && cols === 3) return cells.join("");
  const sep = rows * cols > 10 ? "," : "";
  const out = [];
  for (let r = 0; r < rows; ++r) out.push(cells.slice(r * cols, (r + 1) * cols).join(sep));
  return out.join("/");
}

function boards(next, rows, cols, count) {
  const cells = Array.from({ length: rows * cols }, (_, i) => i);
  const out = [];
  for (let n = 0; n < count; ++n) {
    for (let i = cells.length - 1; i > 0; --i) {
      const j = Math.floor(next() * (i + 1));
      [cells[i], cells[j]] = [cells[j], cells[i]];
    }
    out.push(boardText(cells, rows, cols));
  }
  return out;
}

function eight(args, input) {
  const done = spawnSync(eightBin, args, { input, encoding: "utf8", maxBuffer: 1 << 30, timeout: 600000 });
  assert.equal(done.error, undefined, `${eightBin} ${args.join(" ")}: ${done.error}`);
  return done;
}

// One `eight solve --format json` over every board: its lines.
function cliJson(lines, extra = []) {
  const done = eight(["solve", "--format", "json", "--table", tablePath, ...extra], lines.join("\n") + "\n");
  assert.equal(done.status, 0, done.stderr);
  return done.stdout.split("\n").slice(0, lines.length);
}

const next = rng(20261205);
const small = boards(next, 3, 3, 10000);
for (const [r, c] of [[2, 2], [2, 3], [3, 2], [2, 4], [4, 2], [2, 5], [5, 2]]) small.push(...boards(next, r, c, 1000));
const searched = [...boards(next, 4, 4, 20), ...boards(next, 5, 5, 10)];
const expected = cliJson([...small, ...searched]);

const kAnswerFields = ["board", "goal", "shape", "boardCells", "goalCells", "solvable", "distance", "optimal",
  "lowerBound", "method", "moves", "path", "tiles"];
const snake = (name) => name.replace(/[A-Z]/g, (c) => "_" + c.toLowerCase());

function sameAnswers(what, e, lines, want) {
  let n = 0;
  for (let i = 0; i < lines.length; ++i) {
    const got = e.solveJson(lines[i]);
    if (got !== want[i]) assert.fail(`${what}: board ${lines[i]}:\n  eight: ${want[i]}\n  js:    ${got}`);
    const a = e.solve(lines[i]);
    const j = JSON.parse(got);
    // The JSON's fields, camelCase, in its order (the client's too).
    assert.deepEqual(Object.keys(a), kAnswerFields);
    assert.deepEqual(Object.keys(j), kAnswerFields.map(snake));
    for (const k of kAnswerFields) assert.deepEqual(a[k], j[snake(k)], `${lines[i]}: ${k}`);
    ++n;
  }
  return n;
}

test("every answer from the tables built in memory is the tool's, byte for byte", async () => {
  const e = await Eight.build();
  try {
    assert.equal(sameAnswers("in memory", e, small, expected), 17000);
    // The same boards in one batch: their paths, null where unsolvable.
    const batch = e.paths(small);
    assert.equal(batch.length, small.length);
    batch.forEach((p, i) => {
      const j = JSON.parse(expected[i]);
      assert.equal(p, j.solvable ? j.path : null, small[i]);
    });
    assert.deepEqual(e.paths([]), []);
    assert.throws(() => e.paths(["123456708", "12345678"]), (x) => x instanceof EightError && x.message === "board 2: expected 9 cells, got 8");
    assert.throws(() => e.paths(["123456708\n123456780"]), EightError);
  } finally {
    e.close();
  }
});

test("every answer from a table file's bytes is the tool's, 4x4 and 5x5 searches included", async () => {
  const e = await Eight.open(readFileSync(tablePath), { name: tablePath });
  try {
    assert.equal(sameAnswers("from the file", e, [...small, ...searched], expected), 17030);
  } finally {
    e.close();
  }
});

test("pattern databases the module builds give the tool's answers on 14 and 15 cells", async () => {
  // Tables of 3x3 alone hold no pattern databases, so both the module and
  // the tool build those of 2x7, 7x2, 3x5 and 5x3 on the first question of
  // each shape: the module with the generator that reads the board's cells
  // at run time (core/pdb/generator.h; tests/grid_pdb_test.cpp compares its
  // bytes with the tool's), the tool with its own. Boards 80 random moves
  // from a goal with the blank on cell 3, and random ones.
  const dir = mkdtempSync(join(tmpdir(), "eight-js-"));
  const table = join(dir, "3x3.tbl");
  const built = spawnSync(resolve(dirname(eightBin), "eight-tablegen"), ["--shape", "3x3", "--out", table, "--quiet"]);
  assert.equal(built.status, 0, String(built.stderr));
  const e = await Eight.build({ shapes: "3x3" });
  const questions = [
    ["2,7,3,0,11,10,13/1,8,9,6,12,5,4", "1,2,3,0,4,5,6/7,8,9,10,11,12,13"],
    ["5,4/2,3/0,1/11,6/12,9/7,13/10,8", "1,2/3,0/4,5/6,7/8,9/10,11/12,13"],
    ["5,7,11,9,8/2,12,3,14,13/10,1,6,0,4", "1,2,3,0,4/5,6,7,8,9/10,11,12,13,14"],
    ["1,2,4/0,3,6/5,13,10/9,8,14/11,7,12", "1,2,3/0,4,5/6,7,8/9,10,11/12,13,14"],
  ];
  for (const shape of ["2x7", "7x2", "3x5", "5x3"]) questions.push([e.random({ shape, seed: 1 }), null]);
  try {
    for (const [board, goal] of questions) {
      const done = eight(["solve", "--format", "json", "--table", table, ...(goal ? ["--goal", goal] : []), board]);
      assert.equal(done.status, 0, done.stderr);
      const tool = JSON.parse(done.stdout);
      assert.deepEqual([tool.method, tool.optimal], ["pattern-search", true], board);
      assert.equal(e.solveJson(board, goal ? { goal } : {}), done.stdout.trimEnd(), board);
    }
  } finally {
    e.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test("the tables of one shape answer that shape and its transpose, and refuse the rest as the tool does", async () => {
  const e = await Eight.build({ shapes: "2x3" });
  try {
    const lines = boards(rng(7), 3, 2, 200);
    assert.equal(sameAnswers("2x3 alone", e, lines, cliJson(lines)), 200);
    assert.throws(() => e.solve("867254301"), (x) => x instanceof EightError && /3x3/.test(x.message));
    // Questions with no board ask about the one shape built.
    assert.equal(e.histogram().reduce((a, b) => a + b), 360);
    assert.equal(e.distance(e.random({ distance: 12, seed: 3 })), 12);
    assert.equal([...e.boardsAt(21)].length, e.countAt(21));
    assert.equal(e.histogram({ shape: "3x2" }).length, e.histogram().length);
  } finally {
    e.close();
  }
  await assert.rejects(Eight.build({ shapes: "4x4" }), (x) => x instanceof EightError && /up to 10 cells/.test(x.message));
  await assert.rejects(Eight.build({ shapes: "3x3,3x3" }), (x) => x instanceof EightError && /twice/.test(x.message));
  await assert.rejects(Eight.build({ shapes: "3by3" }), EightError);
});

test("hints are the tool's, byte for byte, and hints() lists the optimal moves", async () => {
  const e = await Eight.build();
  try {
    for (const board of [...boards(rng(11), 3, 3, 30), ...boards(rng(12), 2, 4, 10), "123456780", "123456870"]) {
      const done = eight(["hint", "--format", "json", "--table", tablePath, board]);
      assert.equal(done.status, 0, done.stderr);
      assert.equal(e.hintJson(board), done.stdout.trimEnd(), board);
      const h = e.hint(board);
      const j = JSON.parse(done.stdout);
      assert.deepEqual(Object.keys(h), ["board", "goal", "shape", "boardCells", "goalCells", "solvable", "distance",
        "optimal", "lowerBound", "method", "hints", "moves"]);
      assert.equal(h.lowerBound, j.lower_bound);
      assert.deepEqual(h.boardCells, j.board_cells);
      assert.deepEqual(h.moves.map((m) => [m.move, m.letter, m.tile, m.board, m.boardCells, m.distance, m.optimal]),
        j.moves.map((m) => [m.move, m.letter, m.tile, m.board, m.board_cells, m.distance, m.optimal]));
      assert.deepEqual(h.hints.map((m) => m.letter), j.hints.map((m) => m.letter));
      // Every hint is one of the moves, whole; on an exact answer, the
      // optimal ones, and no move has `hint`.
      for (const m of h.hints) assert.ok(h.moves.includes(m));
      assert.deepEqual(h.hints, h.moves.filter((m) => m.optimal));
      assert.ok(h.moves.every((m) => m.hint === false));
    }
  } finally {
    e.close();
  }
});

test("an answer not proven optimal has one move to follow, its hint, and boards: true adds the boards", async () => {
  const e = await Eight.open(readFileSync(tablePath));
  try {
    const h = e.hint(e.random({ shape: "6x6", seed: 1 }));
    assert.equal(h.optimal, false);
    assert.ok(h.moves.every((m) => !m.optimal));
    assert.equal(h.hints.length, 1);
    assert.deepEqual(h.hints, h.moves.filter((m) => m.hint));
    const a = e.solve("123456708", { boards: true });
    assert.deepEqual([a.moves, a.tiles, a.boards, a.boardsCells], [["right"], [8], ["123456780"], [[1, 2, 3, 4, 5, 6, 7, 8, 0]]]);
    const none = e.solve("123456870");
    assert.deepEqual([none.solvable, none.distance, none.lowerBound, none.moves], [false, null, null, []]);
  } finally {
    e.close();
  }
});

test("a bad board, goal or shape is an EightError with the tool's message, never a crash", async () => {
  const e = await Eight.build();
  const bad = ["", "12345678", "1234567890", "123456789", "112345678", "12345678x0", "abc", "123/45",
    "1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17", "\u00e9\u00e9", "0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20"];
  try {
    for (const board of bad) {
      const done = eight(["solve", "--table", tablePath, board]);
      assert.notEqual(done.status, 0, `eight accepted ${board.slice(0, 40)}`);
      const message = done.stderr.trim().replace(/^eight: /, "");
      assert.throws(() => e.solve(board), (x) => {
        assert.ok(x instanceof EightError, `${board.slice(0, 40)}: ${x}`);
        assert.ok(message.includes(x.message), `${board.slice(0, 40)}:\n  eight: ${message}\n  js:    ${x.message}`);
        return true;
      });
    }
    // Past the library's 512 characters a board (include/eight/board.h) is
    // refused unread; the tool's line may hold a board and its goal, so it
    // says 1,024 there.
    assert.throws(() => e.solve("1".repeat(1000000)), /board is 1000000 characters long; at most 512 are allowed/);
    assert.throws(() => e.solve("867254301", { goal: "1234" }), EightError);
    assert.throws(() => e.solve("867254301", { shape: "9by9" }), EightError);
    assert.throws(() => e.solve({}), EightError);
    // A path that is no path is a verdict, not an error.
    assert.deepEqual(e.check("867254301", "x"), { legal: false, reaches: false, optimal: false, why: "move 1 is 'x', not one of u d l r" });
    // Still answering after every refusal.
    assert.equal(e.distance("867254301"), 31);
  } finally {
    e.close();
  }
  assert.throws(() => e.solve("867254301"), /closed/);
});

test("a shape past 10x10, text with a NUL and numbers that are not whole are EightErrors where given", async () => {
  // Issue 41: the shape parser passed up to 99x99 to the C API, whose goal
  // for it wrote past a 10x10 board; strings went to C cut at a NUL;
  // WebAssembly wrapped numbers past an int (2 ** 32 + 3 is 3) and cells
  // past a byte (NaN 0, 257 1).
  const e = await Eight.build();
  try {
    const questions = [
      (o) => e.solve("867254301", o), (o) => e.distance("867254301", o), (o) => e.hint("867254301", o),
      (o) => e.random(o), (o) => e.histogram(o), (o) => [...e.boardsAt(3, o)],
      (o) => e.check("867254301", "r", o), (o) => e.distances(new Uint8Array(9), 9, o),
      (o) => e.paths(["867254301"], o),
    ];
    let refused = 0;
    const sides = [-1, 0, 1, 11, 16, 99, 100, 200, 255, 256, 2 ** 31 - 1, 2 ** 31, 2 ** 32 + 3, 2 ** 53];
    for (const rows of sides) {
      for (const cols of [...sides, 3]) {
        for (const shape of [[rows, cols], `${rows}x${cols}`]) {
          if (typeof shape === "string" && (rows < 0 || cols < 0)) continue;  // no RxC text
          if (rows === 0 && cols === 0) continue;  // no shape, as in the C API: the board's own
          for (const ask of questions) {
            assert.throws(() => ask({ shape }), (x) => x instanceof EightError &&
              x.message === `eight answers no ${rows}x${cols} boards: the shapes have rows and columns from 2 to 10`);
            ++refused;
          }
        }
      }
    }
    assert.ok(refused > 2000);
    assert.throws(() => e.random({ shape: "99x99" }), /eight answers no 99x99 boards/);
    assert.throws(() => e.random({ shape: [2.5, 3] }), /whole numbers/);
    assert.throws(() => e.random({ shape: [NaN, 3] }), /whole numbers/);
    assert.equal(e.random({ shape: [2, 3], seed: 1 }).length, "123/450".length);
    // Text with a NUL, refused before C reads it.
    assert.throws(() => e.solve("867254301\0garbage"), /the board holds a NUL character \(at 9\)/);
    assert.throws(() => e.check("123456708", "r\0lr"), /the path holds a NUL character \(at 1\)/);
    assert.throws(() => e.solve("867254301", { goal: "123456780\0" }), /the goal holds a NUL/);
    assert.throws(() => e.paths(["867254301", "1\0"]), /NUL/);
    assert.deepEqual(e.check("123456708", "\u00e9").why, "move 1 is '\\xC3', not one of u d l r");
    // Numbers past an int, and cells that are no byte.
    assert.throws(() => e.random({ distance: 2 ** 32 + 3 }), /no board is 4294967299 moves/);
    assert.throws(() => [...e.boardsAt(2 ** 32 + 3)], /no board is 4294967299 moves/);
    assert.throws(() => [...e.boardsAt(NaN)], /whole number/);
    for (const cell of [NaN, 2.5, 257, -1, "8"]) {
      assert.throws(() => e.distances([8, 6, 7, 2, 5, 4, 3, 0, cell], 9), EightError);
    }
    assert.deepEqual([...e.distances([8, 6, 7, 2, 5, 4, 3, 0, 1], 9)], [31]);
    assert.equal(e.distance("867254301"), 31);
  } finally {
    e.close();
  }
});

test("a known path no longer than the answer's is the answer, the tool's; a bad one is refused", async () => {
  const e = await Eight.open(readFileSync(tablePath));
  try {
    const own = "ruulddruuldldrrullurrdlldruurdd";
    const other = "uurdlldrrullurrdldluurddluurrdd";  // optimal too, first move "u"
    const a = e.solve("867254301", { knownPath: other });
    assert.deepEqual([a.path, a.distance, a.optimal], [other, 31, true]);
    const tool = eight(["solve", "--format", "json", "--table", tablePath, "--path", other, "867254301"]);
    assert.equal(tool.status, 0, tool.stderr);
    assert.equal(e.solveJson("867254301", { knownPath: other }) + "\n", tool.stdout);
    assert.equal(e.solve("867254301", { knownPath: "ud" + own }).path, own);
    assert.equal(e.distance("867254301", { knownPath: other }), 31);
    for (const bad of [own.slice(0, -1), "x" + own, "d" + own]) {
      assert.throws(() => e.solve("867254301", { knownPath: bad }), (x) => x instanceof EightError && /known path/.test(x.message));
      assert.throws(() => e.hint("867254301", { knownPath: bad }), (x) => x instanceof EightError && /known path/.test(x.message));
    }
    assert.throws(() => e.solve("867254301", { knownPath: 7 }), EightError);
    assert.throws(() => e.random({ distance: 20, knownPath: own }), (x) => /known path/.test(x.message));
  } finally {
    e.close();
  }
});

test("a table that is not one is refused, whole or damaged", async () => {
  await assert.rejects(Eight.open(new Uint8Array(0)), EightError);
  await assert.rejects(Eight.open(new TextEncoder().encode("not a table")), EightError);
  const bytes = new Uint8Array(readFileSync(tablePath));
  bytes[bytes.length >> 1] ^= 0x55;
  await assert.rejects(Eight.open(bytes), (x) => x instanceof EightError && /checksum/i.test(x.message));
  await assert.rejects(Eight.open("eight.tbl"), EightError);
});

test("distances() over every 3x3 arrangement agrees with the histogram and with distance()", async () => {
  const e = await Eight.build({ shapes: "3x3" });
  try {
    const perms = [];
    const cells = [0, 1, 2, 3, 4, 5, 6, 7, 8];
    const permute = (k) => {
      if (k === 9) return perms.push(...cells);
      for (let i = k; i < 9; ++i) {
        [cells[k], cells[i]] = [cells[i], cells[k]];
        permute(k + 1);
        [cells[k], cells[i]] = [cells[i], cells[k]];
      }
    };
    permute(0);
    const d = e.distances(Uint8Array.from(perms), 9);
    assert.equal(d.length, 362880);
    const counts = [];
    let unsolvable = 0;
    for (const x of d) {
      if (x < 0) ++unsolvable;
      else counts[x] = (counts[x] ?? 0) + 1;
    }
    assert.equal(unsolvable, 181440);
    assert.deepEqual(counts, e.histogram());
    for (let i = 0; i < 362880; i += 997) {
      assert.equal(d[i] < 0 ? null : d[i], e.distance(perms.slice(9 * i, 9 * i + 9)));
    }
    assert.throws(() => e.distances(new Uint8Array([1, 2, 3]), 9), EightError);
    assert.throws(() => e.distances(new Uint8Array([1, 1, 2, 3, 4, 5, 6, 7, 8]), 9), EightError);
  } finally {
    e.close();
  }
});

test("boardsAt lists every board at a distance once; random and check are the tool's", async () => {
  const e = await Eight.build();
  try {
    const histogram = e.histogram();
    assert.equal(histogram.length, 32);
    const at30 = [...e.boardsAt(30)];
    assert.equal(at30.length, 221);
    assert.equal(new Set(at30).size, 221);
    for (const b of at30) assert.equal(e.distance(b), 30);
    assert.equal(e.countAt(31), 2);
    assert.deepEqual([...e.boardsAt(31)].sort(), ["647850321", "867254301"]);
    assert.throws(() => [...e.boardsAt(32)], EightError);
    // An iterator left early frees its boards (and the tables still answer).
    for (const b of e.boardsAt(20)) {
      assert.equal(e.distance(b), 20);
      break;
    }
    for (const [distance, seed] of [[20, 1], [31, 5], [0, 9]]) {
      const done = eight(["random", "--table", tablePath, "--distance", String(distance), "--seed", String(seed)]);
      assert.equal(done.status, 0, done.stderr);
      assert.equal(e.random({ distance, seed }), done.stdout.trim());
    }
    assert.equal(e.random({ seed: 3 }), e.random({ seed: 3 }));
    const h = e.random({ shape: "2x4", distance: 10, seed: 4 });
    assert.equal(e.distance(h), 10);
    const a = e.solve("867254301");
    assert.deepEqual(e.check("867254301", a.path), { legal: true, reaches: true, optimal: true, why: e.check("867254301", a.path).why });
    const longer = e.check("123456708", "rlr");
    assert.equal(longer.reaches, true);
    assert.equal(longer.optimal, false);
    const illegal = e.check("123456780", "d");
    assert.equal(illegal.legal, false);
    assert.equal(illegal.optimal, false);
  } finally {
    e.close();
  }
});

test("ten thousand tables, answers and refusals later, the module's memory has not grown", async () => {
  const e = await Eight.build({ shapes: "2x3" });
  e.solve("123/450");
  const module = await Eight.build({ shapes: "2x2" });
  const before = process.memoryUsage().arrayBuffers;
  for (let i = 0; i < 10000; ++i) {
    const t = await Eight.build({ shapes: "2x2" });
    t.solve("12/30");
    t.solveJson("12/30", { goal: "12/30", boards: true });
    t.hint("12/30");
    try {
      t.solve("1".repeat(1000));
    } catch {}
    t.check("12/30", "ul".repeat(50));
    t.close();
  }
  const after = process.memoryUsage().arrayBuffers;
  // The WebAssembly memory is an ArrayBuffer: a leak of even a hundred
  // bytes a round would grow it by a megabyte.
  assert.ok(after - before < 1 << 20, `grew by ${after - before} bytes`);
  module.close();
  e.close();
});
