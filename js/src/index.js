// eight for JavaScript: the C API (include/eight/c.h) compiled to
// WebAssembly, so every answer is the one `eight` and `eight-server` give,
// byte for byte. Runs in Node (18 or later) and in browsers, offline: the
// tables are built in memory (every shape up to 10 cells) or read from a
// table file's bytes. See README.md; the types are index.d.ts.
import { camelCase, hintAnswer } from "./answer_fields.js";
import { boardText as boardTextOrNull } from "./board_text.js";
import createEightWasm from "./eight-wasm.mjs";

export { EightClient, EightHttpError } from "./client.js";

// An error the core reported: a bad board, goal, shape, path or table,
// with the message the `eight` tool prints.
export class EightError extends Error {
  constructor(message) {
    super(message);
    this.name = "EightError";
  }
}

const kIsNode = typeof process === "object" && typeof process.versions?.node === "string";
const kWasmUrl = new URL("./eight-wasm.wasm", import.meta.url);

let modulePromise = null;

// The one WebAssembly instance every Eight shares (each holds its own
// tables in it). Node is handed the .wasm's bytes (Emscripten 3.1.6's own
// loading is CommonJS); a browser fetches it beside this file, or from
// `wasmUrl` (loadModule's option).
function loadModule(options = {}) {
  if (modulePromise === null) {
    modulePromise = (async () => {
      const settings = {};
      if (options.wasmBinary) {
        settings.wasmBinary = options.wasmBinary;
      } else if (kIsNode && kWasmUrl.protocol === "file:") {
        const { readFile } = await import("node:fs/promises");
        settings.wasmBinary = await readFile(kWasmUrl);
      } else if (options.wasmUrl) {
        const url = String(options.wasmUrl);
        settings.locateFile = () => url;
      }
      return new Wasm(await createEightWasm(settings));
    })();
    modulePromise.catch(() => {
      modulePromise = null;  // a failed load may be tried again
    });
  }
  return modulePromise;
}

// Strings in and out of the module's memory, and the error slot.
class Wasm {
  constructor(m) {
    this.m = m;
    this.encoder = new TextEncoder();
    this.decoder = new TextDecoder();
    this.errptr = m._malloc(4);
    this.scratch = 0;
    this.scratchSize = 0;
    this.defaults = m._eight_options_create();
  }

  get heap() {
    return this.m.HEAPU8;  // replaced when the memory grows: never keep it
  }

  // A NUL-terminated copy of `text` in the module's memory, valid until
  // the next call of text(); `slot` 0 or 1 (a call takes up to two). A
  // string holding a NUL is refused, `what` naming it: C would read only up
  // to it ("867254301\0garbage" answered as 867254301; issue 41).
  text(value, slot = 0, what = "the text") {
    const s = String(value);
    const nul = s.indexOf("\0");
    if (nul >= 0) {
      throw new EightError(`${what} holds a NUL character (at ${nul}), which ends a C string: eight reads no such text`);
    }
    const need = 3 * s.length + 1;
    if (need > this.scratchSize || slot === 1) {
      if (slot === 1) {
        const p = this.m._malloc(need);
        if (p === 0) throw new EightError("out of memory");
        this.temps.push(p);
        const { written } = this.encoder.encodeInto(s, this.heap.subarray(p, p + need - 1));
        this.heap[p + written] = 0;
        return p;
      }
      if (this.scratch !== 0) this.m._free(this.scratch);
      this.scratchSize = Math.max(need, 256);
      this.scratch = this.m._malloc(this.scratchSize);
      if (this.scratch === 0) {
        this.scratchSize = 0;
        throw new EightError("out of memory");
      }
    }
    const { written } = this.encoder.encodeInto(s, this.heap.subarray(this.scratch, this.scratch + need - 1));
    this.heap[this.scratch + written] = 0;
    return this.scratch;
  }

  string(ptr) {
    if (ptr === 0) return null;
    const heap = this.heap;
    return this.decoder.decode(heap.subarray(ptr, heap.indexOf(0, ptr)));
  }

  // Runs `call(errptr)`, throwing the message the core set, if any.
  call(fn) {
    const m = this.m;
    this.temps = [];
    m.HEAPU32[this.errptr >> 2] = 0;
    try {
      const result = fn(this.errptr);
      const err = m.HEAPU32[this.errptr >> 2];
      if (err !== 0) {
        const message = this.string(err);
        m._eight_free(err);
        throw new EightError(message);
      }
      return result;
    } finally {
      for (const p of this.temps) m._free(p);
    }
  }

  // An options handle for `o` (the shared defaults for none), and its
  // release.
  options(o) {
    if (o === undefined || o === null) return this.defaults;
    const m = this.m;
    const h = m._eight_options_create();
    if (h === 0) throw new EightError("out of memory");
    try {
      if (o.goal !== undefined && o.goal !== null) {
        m._eight_options_set_goal(h, this.text(boardText(o.goal), 0, "the goal"));
      }
      if (o.shape !== undefined && o.shape !== null) {
        // Checked by the C API where it is set, against the shapes eight
        // answers (2 to 10 rows and columns; issue 41: 99x99 was passed on).
        const [rows, cols] = parseShape(o.shape);
        const [r, c] = [rows, cols].map(toInt32);
        if (m._eight_options_set_shape(h, r, c) !== 0) {
          const why = this.string(m._eight_options_error(h));
          throw new EightError(why.replace(`${r}x${c}`, `${rows}x${cols}`));
        }
      }
      if (o.budget !== undefined && o.budget !== null) {
        if (!Number.isSafeInteger(o.budget) || o.budget < 0) {
          throw new EightError(`budget must be a whole number of nodes, not ${o.budget}`);
        }
        m._eight_options_set_budget(h, BigInt(o.budget));
      }
      if (o.optimalRequired) m._eight_options_set_optimal_required(h, 1);
      if (o.boards) m._eight_options_set_boards(h, 1);
      if (o.fast) m._eight_options_set_fast(h, 1);
      if (o.knownPath !== undefined && o.knownPath !== null) {
        if (typeof o.knownPath !== "string") {
          throw new EightError(`a known path is a string of letters u d l r, not ${typeof o.knownPath}`);
        }
        m._eight_options_set_path(h, this.text(o.knownPath, 0, "the known path"));
      }
    } catch (e) {
      m._eight_options_destroy(h);
      throw e;
    }
    return h;
  }

  release(h) {
    if (h !== this.defaults) this.m._eight_options_destroy(h);
  }

  // The one shape of a question whose answer is a handle: `make(o, errptr)`
  // asks with the options' handle, `read` turns the answer into
  // JavaScript, `destroy` frees it; the answer and the options are freed
  // whatever happens.
  ask(options, make, read, destroy) {
    const o = this.options(options);
    try {
      const h = this.call((e) => make(o, e));
      try {
        return read(h);
      } finally {
        destroy(h);
      }
    } finally {
      this.release(o);
    }
  }
}

// A board in any notation the tool reads: a string, or the cells as an
// array (0 the blank) or rows of them (board_text.js).
function boardText(board) {
  const text = boardTextOrNull(board);
  if (text === null) throw new EightError(`a board is a string or an array of cells, not ${typeof board}`);
  return text;
}

// A shape's rows and columns as whole numbers, as written: "3x4" or [3, 4].
// Which shapes eight answers is the C API's to say (Wasm.options).
function parseShape(shape) {
  let pair = null;
  if (Array.isArray(shape) && shape.length === 2) {
    pair = shape;
  } else {
    const match = /^([0-9]+)x([0-9]+)$/.exec(String(shape));
    if (match !== null) pair = [match[1], match[2]];
  }
  const numbers = pair?.map((v) => (typeof v === "number" || typeof v === "string" ? Number(v) : NaN));
  if (numbers === undefined || !numbers.every(Number.isInteger)) {
    throw new EightError(`a shape is RxC (3x3, 2x4) or [rows, columns], whole numbers, not "${shape}"`);
  }
  return numbers;
}

// A whole number as the C API's int: the nearest one, so one past it is
// refused as that one is (WebAssembly would wrap it: 2 ** 32 + 3 is 3).
function toInt32(n) {
  return Math.max(-(2 ** 31), Math.min(n, 2 ** 31 - 1));
}

// A distance the C API can take (an int), or an EightError saying no board
// is that far (`allowed` the least it takes: -1 for "any" in random()).
function distanceArg(distance, allowed = 0) {
  if (!Number.isInteger(distance)) throw new EightError(`distance must be a whole number, not ${distance}`);
  if (distance < allowed || distance > 2 ** 31 - 1) {
    throw new EightError(`no board is ${distance} moves from the goal`);
  }
  return distance;
}

// Tables and the questions they answer. Make one with Eight.build() or
// Eight.open(); ask any number of questions; close() frees its tables.
// Not for use from several workers at once (each worker loads its own).
export class Eight {
  #w;
  #h;
  #shape;  // the one shape built, for the questions with no board

  constructor(w, handle, shape = null) {
    this.#w = w;
    this.#h = handle;
    this.#shape = shape;
  }

  // The options of a question with no board (random, histogram, boardsAt):
  // with no goal or shape named, the tables of one shape answer for it
  // (the C API's default is 3x3).
  #boardless(options) {
    if (this.#shape === null || options?.goal != null || options?.shape != null) return options;
    return { ...options, shape: this.#shape };
  }

  // Builds the tables of every shape up to 10 cells in memory (2x2, 2x3,
  // 2x4, 3x3, 2x5 and their transposes), or of `shapes` alone ("3x3",
  // ["2x3", "2x4"]): no file, no network.
  static async build(options = {}) {
    const w = await loadModule(options);
    let shapes = options.shapes ?? null;
    if (Array.isArray(shapes)) shapes = shapes.join(",");
    const h = w.call((e) => w.m._eight_build_shapes(shapes === null ? 0 : w.text(shapes, 0, "the shapes"), e));
    const one = typeof shapes === "string" && !shapes.includes(",") && shapes !== "" ? shapes : null;
    return new Eight(w, h, one);
  }

  // The tables of a table file (eight.tbl, as eight-server's /table
  // serves it): its bytes, checked against their checksum.
  static async open(bytes, options = {}) {
    const w = await loadModule(options);
    let view;
    if (bytes instanceof ArrayBuffer) view = new Uint8Array(bytes);
    else if (ArrayBuffer.isView(bytes)) view = new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    else throw new EightError("a table is an ArrayBuffer or a Uint8Array of its bytes");
    const p = w.m._malloc(Math.max(1, view.length));
    if (p === 0) throw new EightError(`out of memory for a table of ${view.length} bytes`);
    try {
      w.heap.set(view, p);
      const name = options.name ?? "table";
      const h = w.call((e) => w.m._eight_open_bytes(p, view.length, w.text(name, 0, "the name"), e));
      return new Eight(w, h);
    } finally {
      w.m._free(p);
    }
  }

  #handle() {
    if (this.#h === 0) throw new EightError("these tables are closed");
    return this.#h;
  }

  // Frees the tables; any question after it is an error.
  close() {
    if (this.#h !== 0) {
      this.#w.m._eight_close(this.#h);
      this.#h = 0;
    }
  }

  // The answer for `board`: distance and a path (as `eight solve`), the
  // fields of its JSON (solveJson) camelCase, as the HTTP client's.
  solve(board, options) {
    return camelCase(JSON.parse(this.solveJson(board, options)));
  }

  // Exactly `eight solve --format json` (and GET /solve) for `board`, as
  // text: what a server of your own forwards.
  solveJson(board, options) {
    const w = this.#w;
    const m = w.m;
    return w.ask(
      options,
      (o, e) => m._eight_solve(this.#handle(), o, w.text(boardText(board), 0, "the board"), e),
      (a) => {
        const json = m._eight_answer_json(a);
        if (json === 0) throw new EightError("out of memory");
        return w.string(json);
      },
      m._eight_answer_destroy,
    );
  }

  // The paths of many boards in one call (an array of boards; each asked
  // as solve() asks it): an array of paths, null where a board cannot
  // reach the goal, "" for one on it. What to solve a batch with: one
  // crossing into the module for them all, where solve() makes ten a
  // board. An error names the first bad board ("board 3: ...").
  paths(boards, options) {
    const w = this.#w;
    const m = w.m;
    const lines = Array.from(boards, boardText);
    if (lines.length === 0) return [];
    for (const line of lines) {
      if (line.includes("\n")) throw new EightError("a board is one line: no newline in it");
    }
    const o = w.options(options);
    const distances = m._malloc(4 * lines.length);
    try {
      if (distances === 0) throw new EightError(`out of memory for ${lines.length} boards`);
      const p = w.call((e) => m._eight_solve_lines(this.#handle(), o, w.text(lines.join("\n"), 0, "a board"), distances, e));
      let text;
      try {
        text = w.string(p);
      } finally {
        m._eight_free(p);
      }
      const paths = text.split("\n", lines.length);
      const d = new Int32Array(m.HEAP32.buffer, distances, lines.length);
      for (let i = 0; i < paths.length; ++i) if (d[i] < 0) paths[i] = null;
      return paths;
    } finally {
      m._free(distances);
      w.release(o);
    }
  }

  // The distance alone: a number, or null when the board cannot reach the
  // goal.
  distance(board, options) {
    const w = this.#w;
    const o = w.options(options);
    try {
      const d = w.call((e) => w.m._eight_distance(this.#handle(), o, w.text(boardText(board), 0, "the board"), e));
      return d === -1 ? null : d;
    } finally {
      w.release(o);
    }
  }

  // The distances of many boards of one shape at once: `cells` holds them
  // one after another, `cellsPerBoard` cells each (0 the blank). Returns an
  // Int32Array, -1 where a board cannot reach the goal.
  distances(cells, cellsPerBoard, options) {
    const w = this.#w;
    const m = w.m;
    const n = Number(cellsPerBoard);
    if (!Number.isInteger(n) || n < 1) throw new EightError(`cellsPerBoard must be a positive whole number, not ${cellsPerBoard}`);
    if (cells.length % n !== 0) {
      throw new EightError(`${cells.length} cells are not whole boards of ${n} cells`);
    }
    const count = cells.length / n;
    // Whole numbers 0 to 255 (a byte) before they are copied into bytes,
    // which made NaN 0, 2.5 2 and 257 1; the C API says which are tiles.
    if (!(cells instanceof Uint8Array)) {
      for (let i = 0; i < cells.length; ++i) {
        const v = cells[i];
        if (!Number.isInteger(v) || v < 0 || v > 255) {
          throw new EightError(`board ${Math.floor(i / n)}: cell ${i % n} is ${v}, not a tile (a whole number 0 to 99)`);
        }
      }
    }
    const o = w.options(options);
    const input = m._malloc(Math.max(1, cells.length));
    const output = m._malloc(Math.max(4, 4 * count));
    try {
      if (input === 0 || output === 0) throw new EightError(`out of memory for ${count} boards`);
      w.heap.set(cells, input);
      w.call((e) => m._eight_distances(this.#handle(), o, input, n, count, output, e));
      return new Int32Array(m.HEAP32.buffer, output, count).slice();
    } finally {
      m._free(input);
      m._free(output);
      w.release(o);
    }
  }

  // Every legal move from `board`, best first, each scored (as `eight
  // hint`), the fields of its JSON (hintJson) camelCase, as the HTTP
  // client's.
  hint(board, options) {
    return hintAnswer(JSON.parse(this.hintJson(board, options)));
  }

  // Exactly `eight hint --format json` (and GET /hint) for `board`.
  hintJson(board, options) {
    const w = this.#w;
    const m = w.m;
    return w.ask(
      options,
      (o, e) => m._eight_hint(this.#handle(), o, w.text(boardText(board), 0, "the board"), e),
      (h) => w.string(m._eight_moves_json(h)),
      m._eight_moves_destroy,
    );
  }

  // A random board that reaches the goal: exactly `distance` moves away,
  // or uniformly random among all without one; the same for the same
  // seed (as `eight random --seed`).
  random(options = {}) {
    const w = this.#w;
    const m = w.m;
    const distance = distanceArg(options.distance ?? -1, -1);
    const seed = options.seed ?? Math.floor(Math.random() * 2 ** 53);
    return w.ask(
      this.#boardless(options),
      (o, e) => m._eight_random(this.#handle(), o, distance, BigInt.asUintN(64, BigInt(seed)), e),
      (p) => w.string(p),
      m._eight_free,
    );
  }

  // How many boards are at each distance from the goal: counts[d].
  histogram(options) {
    const w = this.#w;
    const m = w.m;
    const o = w.options(this.#boardless(options));
    try {
      // Room for the distances the C API fills (counts[d], d < slots); asked
      // again with room for them all if the farthest is past it, never read
      // past what was allocated.
      for (let slots = 128; ;) {
        const p = m._malloc(8 * slots);
        try {
          if (p === 0) throw new EightError("out of memory");
          w.heap.fill(0, p, p + 8 * slots);
          const far = w.call((e) => m._eight_histogram(this.#handle(), o, p, slots, e));
          if (far < slots) return Array.from(new BigUint64Array(m.HEAPU8.buffer, p, far + 1), Number);
          slots = far + 1;
        } finally {
          m._free(p);
        }
      }
    } finally {
      w.release(o);
    }
  }

  // Every board exactly `distance` moves from the goal, each once, in a
  // fixed order (the shapes up to 10 cells).
  *boardsAt(distance, options) {
    const w = this.#w;
    const m = w.m;
    const o = w.options(this.#boardless(options));
    let b;
    try {
      const d = distanceArg(distance);
      b = w.call((e) => m._eight_boards_at(this.#handle(), o, d, e));
    } finally {
      w.release(o);
    }
    try {
      for (let p; (p = m._eight_boards_next(b)) !== 0;) yield w.string(p);
    } finally {
      m._eight_boards_destroy(b);
    }
  }

  // The number of boards exactly `distance` moves from the goal.
  countAt(distance, options) {
    return this.histogram(options)[distance] ?? 0;
  }

  // Whether `path` (the blank's moves, u d l r) is legal from `board`,
  // reaches the goal, and is optimal (true, false, or null: not proven
  // either way within the budget), and why.
  check(board, path, options) {
    const w = this.#w;
    const m = w.m;
    return w.ask(
      options,
      (o, e) => m._eight_check(this.#handle(), o, w.text(boardText(board), 0, "the board"), w.text(String(path), 1, "the path"), e),
      (c) => {
        const optimal = m._eight_check_optimal(c);
        return {
          legal: m._eight_check_legal(c) === 1,
          reaches: m._eight_check_reaches(c) === 1,
          optimal: optimal === -1 ? null : optimal === 1,
          why: w.string(m._eight_check_why(c)),
        };
      },
      m._eight_check_destroy,
    );
  }
}
