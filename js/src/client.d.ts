// Types of eight's HTTP client (client.js): eight-server's API
// (docs/openapi.yaml), for the boards the package does not answer offline.
import type { Board, Shape } from "./index.js";

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

/** A refusal (HTTP status and RFC 9457 problem) or no answer at all (status 0). */
export class EightHttpError extends Error {
  name: "EightHttpError";
  status: number;
  /** The problem's slug: "bad-board", "search-budget-exceeded", ... */
  error: string | null;
  body: Record<string, unknown> | null;
  retryAfter: number | null;
}

export interface SolveAnswer {
  board: string;
  board_cells: number[];
  goal: string;
  goal_cells: number[];
  shape: string;
  solvable: boolean;
  distance: number | null;
  optimal: boolean;
  lower_bound: number | null;
  method: string;
  moves: string[];
  path: string;
  tiles: number[];
  boards?: string[];
  boards_cells?: number[][];
  [member: string]: unknown;
}

export interface HintMove {
  move: "up" | "down" | "left" | "right";
  letter: "u" | "d" | "l" | "r";
  tile: number;
  board: string;
  board_cells: number[];
  distance: number | null;
  optimal: boolean;
}

export interface HintAnswer {
  board: string;
  goal: string;
  distance: number | null;
  optimal: boolean;
  moves: HintMove[];
  hints: HintMove[];
  [member: string]: unknown;
}

export class EightClient {
  /** `baseUrl`: the server, "http://127.0.0.1:8080". */
  constructor(baseUrl: string | URL, options?: ClientOptions);
  solve(board: Board, options?: RequestOptions & { boards?: boolean }): Promise<SolveAnswer>;
  distance(board: Board, options?: RequestOptions): Promise<Record<string, unknown>>;
  hint(board: Board, options?: RequestOptions): Promise<HintAnswer>;
  random(options?: RequestOptions & { distance?: number; seed?: number | bigint; count?: number }): Promise<Record<string, unknown>>;
  stats(options?: RequestOptions): Promise<Record<string, unknown>>;
  /** The server's default table file (for Eight.open). */
  table(options?: RequestOptions): Promise<Uint8Array>;
}
