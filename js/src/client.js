// A small client for eight-server's HTTP API (docs/openapi.yaml), for the
// boards the package does not answer offline: the searches of 4x4 and the
// shapes past 12 cells, the 12-cell tables, or a server's own goal. Uses
// the platform's fetch (Node 18 or later, browsers). Never trusts the
// server: every answer is bounded in time and size, and must be JSON of
// the documented shape. Answers are the server's JSON with every member
// camelCase (answer_fields.js): the same objects as the package's own
// (index.js) for the same question.

import { camelCase, hintAnswer } from "./answer_fields.js";
import { boardText as boardTextOrNull } from "./board_text.js";

// A refusal or failure: `status` the HTTP status (0: no answer at all),
// `error` the problem's slug ("bad-board", "search-budget-exceeded": the
// end of its RFC 9457 `type`) when the server sent one, `body` the problem
// (or null; its members camelCase, as an answer's), `retryAfter` its
// Retry-After in seconds (or null).
export class EightHttpError extends Error {
  constructor(message, { status = 0, error = null, body = null, retryAfter = null } = {}) {
    super(message);
    this.name = "EightHttpError";
    this.status = status;
    this.error = error;
    this.body = body;
    this.retryAfter = retryAfter;
  }
}

const kDefaultTimeoutMs = 10000;
// The largest answer read: a 10x10 board's path with every board after
// each move is well under a megabyte; a batch of 1,000 random boards, less.
const kDefaultMaxBytes = 8 * 1024 * 1024;

// A board as the text eight reads (board_text.js), refused before any
// request when it is none.
function boardText(board) {
  const text = boardTextOrNull(board);
  if (text === null) throw new TypeError(`a board is a string or an array of cells, not ${typeof board}`);
  return text;
}

export class EightClient {
  #base;
  #timeoutMs;
  #maxBytes;
  #fetch;

  // `baseUrl`: the server, "http://127.0.0.1:8080". Options: timeoutMs
  // (each request, connecting to the last byte; default 10,000), maxBytes
  // (the largest answer read; default 8 MiB), fetch (another fetch).
  constructor(baseUrl, options = {}) {
    const url = new URL(String(baseUrl));
    if (url.protocol !== "http:" && url.protocol !== "https:") {
      throw new TypeError(`the server's URL is http:// or https://, not ${url.protocol}`);
    }
    this.#base = url.href.endsWith("/") ? url.href : url.href + "/";
    this.#timeoutMs = options.timeoutMs ?? kDefaultTimeoutMs;
    this.#maxBytes = options.maxBytes ?? kDefaultMaxBytes;
    this.#fetch = options.fetch ?? globalThis.fetch;
    if (typeof this.#fetch !== "function") throw new TypeError("no fetch: Node 18 or later, or pass one");
  }

  solve(board, options = {}) {
    return this.#ask("solve", { board: boardText(board), ...common(options), ...asked(options), boards: flag(options.boards) }, options);
  }

  distance(board, options = {}) {
    return this.#ask("distance", { board: boardText(board), ...common(options), ...asked(options) }, options);
  }

  // (Not async: a board that is none throws here, before any request.)
  hint(board, options = {}) {
    return this.#ask("hint", { board: boardText(board), ...common(options), ...asked(options) }, options).then((body) => {
      const moves = (list) => Array.isArray(list) && list.every((m) => m !== null && typeof m === "object");
      if (!moves(body.hints) || !moves(body.moves)) throw new EightHttpError("hint: the server's answer has no moves", { status: 200 });
      return hintAnswer(body);
    });
  }

  random(options = {}) {
    return this.#ask(
      "random",
      {
        distance: options.distance,
        seed: options.seed === undefined ? undefined : BigInt.asUintN(64, BigInt(options.seed)),
        count: options.count,
        ...common(options),
      },
      options,
    );
  }

  stats(options = {}) {
    return this.#ask("stats", common(options), options);
  }

  // The server's default table file, as bytes (for Eight.open).
  async table(options = {}) {
    const response = await this.#get("table", {}, options, "application/octet-stream");
    return new Uint8Array(await readBounded(response, this.#maxBytes * 64));
  }

  async #ask(path, params, options) {
    const response = await this.#get(path, params, options, "application/json");
    const text = new TextDecoder().decode(await readBounded(response, this.#maxBytes));
    let body;
    try {
      body = JSON.parse(text);
    } catch {
      throw new EightHttpError(`${path}: the server's answer is not JSON`, { status: response.status });
    }
    if (body === null || typeof body !== "object" || Array.isArray(body)) {
      throw new EightHttpError(`${path}: the server's answer is not a JSON object`, { status: response.status });
    }
    return camelCase(body);
  }

  async #get(path, params, options, accept) {
    const url = new URL(path, this.#base);
    for (const [k, v] of Object.entries(params)) {
      if (v !== undefined && v !== null) url.searchParams.set(k, String(v));
    }
    const timeoutMs = options.timeoutMs ?? this.#timeoutMs;
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), timeoutMs);
    const outer = options.signal;
    const onAbort = () => controller.abort();
    outer?.addEventListener("abort", onAbort, { once: true });
    let response;
    try {
      response = await this.#fetch(url, { headers: { Accept: accept }, signal: controller.signal, redirect: "error" });
    } catch (e) {
      clearTimeout(timer);
      outer?.removeEventListener("abort", onAbort);
      const why = controller.signal.aborted && !outer?.aborted ? `no answer within ${timeoutMs} ms` : String(e?.message ?? e);
      throw new EightHttpError(`${path}: ${why}`);
    }
    // The timer keeps running while the body is read (readBounded).
    response.done = () => {
      clearTimeout(timer);
      outer?.removeEventListener("abort", onAbort);
    };
    if (!response.ok) {
      let body = null;
      try {
        body = camelCase(JSON.parse(new TextDecoder().decode(await readBounded(response, 65536))));
      } catch {
        body = null;
      }
      const retry = Number(response.headers.get("retry-after"));
      const slug = body && typeof body.type === "string" ? /\/problems\/([a-z0-9-]+)$/.exec(body.type) : null;
      const error = slug ? slug[1] : null;
      const message = body && typeof body.detail === "string" ? body.detail : `HTTP ${response.status}`;
      throw new EightHttpError(`${path}: ${message}`, {
        status: response.status,
        error,
        body,
        retryAfter: Number.isFinite(retry) && response.headers.has("retry-after") ? retry : null,
      });
    }
    return response;
  }
}

function common(options) {
  return {
    goal: options.goal === undefined || options.goal === null ? undefined : boardText(options.goal),
    shape: Array.isArray(options.shape) ? options.shape.join("x") : options.shape,
    budget: options.budget,
    optimal: options.optimalRequired ? "required" : undefined,
  };
}

// A one-board question's own parameters: fast=1, and path= (the known
// path, options.knownPath: the server checks it against the board).
function asked(options) {
  const known = options.knownPath;
  if (known !== undefined && known !== null && typeof known !== "string") {
    throw new TypeError(`a known path is a string of letters u d l r, not ${typeof known}`);
  }
  return { fast: flag(options.fast), path: known ?? undefined };
}

function flag(value) {
  return value ? "1" : undefined;
}

// The body, refused past `limit` bytes (read no further).
async function readBounded(response, limit) {
  try {
    const declared = Number(response.headers.get("content-length"));
    if (Number.isFinite(declared) && declared > limit) {
      await response.body?.cancel();
      throw new EightHttpError(`the answer is ${declared} bytes, more than the ${limit} allowed`, {
        status: response.status,
      });
    }
    if (!response.body) return new Uint8Array(0);
    const reader = response.body.getReader();
    const parts = [];
    let size = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.length;
      if (size > limit) {
        await reader.cancel();
        throw new EightHttpError(`the answer is more than the ${limit} bytes allowed`, { status: response.status });
      }
      parts.push(value);
    }
    const out = new Uint8Array(size);
    let at = 0;
    for (const p of parts) {
      out.set(p, at);
      at += p.length;
    }
    return out;
  } catch (e) {
    if (e instanceof EightHttpError) throw e;
    throw new EightHttpError(`reading the answer: ${e?.name === "AbortError" ? "no answer in time" : String(e?.message ?? e)}`, {
      status: response.status,
    });
  } finally {
    response.done?.();
  }
}
