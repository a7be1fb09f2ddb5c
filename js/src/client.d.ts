// Types of eight's HTTP client (client.js): eight-server's API
// (docs/openapi.yaml), for the boards the package does not answer offline.
// Answers are the server's JSON with every member camelCase: the same
// types (and objects) as the package's own (index.d.ts).
import type { Answer, Board, BoardAnswer, Hints, Shape } from "./index.js";

export interface ClientOptions {
  /** Each request, connecting to the last byte (default 10,000 ms). */
  timeoutMs?: number;
  /** The largest JSON answer read (default 8 MiB); a table may be 64 times that. */
  maxBytes?: number;
  /** Another fetch (default: the platform's). */
  fetch?: typeof globalThis.fetch;
}

export interface RequestOptions {
  goal?: Board | null;
  shape?: Shape | null;
  /** Nodes a search may expand (1 to 500,000,000). */
  budget?: number;
  /** optimal=required: a proven optimal answer or a 503 search-budget-exceeded. */
  optimalRequired?: boolean;
  timeoutMs?: number;
  signal?: AbortSignal;
}

export interface BoardRequestOptions extends RequestOptions {
  /** fast=1: the quicker, longer paths where none is proven optimal. */
  fast?: boolean;
  /** path=: a path already held from the board to the goal (letters u d l r);
   * the answer is never longer, this path on a tie (docs/answers.md). */
  knownPath?: string | null;
}

/** A refusal (HTTP status and RFC 9457 problem) or no answer at all (status 0). */
export class EightHttpError extends Error {
  name: "EightHttpError";
  status: number;
  /** The problem's slug: "bad-board", "search-budget-exceeded", ... */
  error: string | null;
  /** The problem, its members camelCase. */
  body: Record<string, unknown> | null;
  retryAfter: number | null;
}

/** GET /random: a board `distance` moves from the goal (with `count`, several). */
export interface RandomAnswer {
  board: string;
  goal: string;
  shape: string;
  boardCells: number[];
  goalCells: number[];
  distance: number;
  seed: string;
  [member: string]: unknown;
}

export class EightClient {
  /** `baseUrl`: the server, "http://127.0.0.1:8080". */
  constructor(baseUrl: string | URL, options?: ClientOptions);
  solve(board: Board, options?: BoardRequestOptions & { boards?: boolean }): Promise<Answer>;
  /** The answer without its path. */
  distance(board: Board, options?: BoardRequestOptions): Promise<BoardAnswer>;
  hint(board: Board, options?: BoardRequestOptions): Promise<Hints>;
  random(options?: RequestOptions & { distance?: number; seed?: number | bigint; count?: number }): Promise<RandomAnswer>;
  /** GET /stats, its members camelCase. */
  stats(options?: RequestOptions): Promise<Record<string, unknown>>;
  /** The server's default table file (for Eight.open). */
  table(options?: RequestOptions): Promise<Uint8Array>;
}
