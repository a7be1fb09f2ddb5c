// Types of eight's JavaScript package (index.js). Boards are strings in any
// notation the `eight` tool reads ("123456780", "123/450", "1,2,3,4,5,6,7,8,0"),
// or cells as an array (0 the blank), or rows of cells.
export type Board = string | ArrayLike<number> | ArrayLike<ArrayLike<number>>;
/** "RxC" ("3x3", "2x4") or [rows, cols]. */
export type Shape = string | [number, number];
/** The blank's moves. */
export type Letter = "u" | "d" | "l" | "r";

export { EightClient, EightHttpError } from "./client.js";
export type { BoardRequestOptions, ClientOptions, RandomAnswer, RequestOptions } from "./client.js";

/** A bad board, goal, shape, path or table: the message the `eight` tool prints. */
export class EightError extends Error {
  name: "EightError";
}

export interface AskOptions {
  /** The goal, in any notation (default: the standard goal of the board's shape, blank last). */
  goal?: Board | null;
  /** The shape of every board and goal text (`--shape`). */
  shape?: Shape | null;
  /** Nodes a search may expand (`--budget`; default 50,000,000). */
  budget?: number | null;
  /** Only a proven optimal answer, or an EightError (`--optimal required`). */
  optimalRequired?: boolean;
  /** json lists the board after each move (`--boards`). */
  boards?: boolean;
  /** The quicker, longer paths where none is proven optimal (`--fast`; docs/answers.md). */
  fast?: boolean;
  /** A path already held from the board to the goal (letters u d l r; HTTP's path=,
   * `--path`): solve, distance and hint answer no longer, this path on a tie, so
   * following hints never raises the distance; a question about many boards or
   * none with one is refused. */
  knownPath?: string | null;
}

export interface LoadOptions {
  /** The module's bytes, if the caller has them (no fetch, no file read). */
  wasmBinary?: ArrayBuffer | Uint8Array;
  /** Where a browser fetches eight-wasm.wasm (default: beside index.js). */
  wasmUrl?: string | URL;
}

export interface BuildOptions extends LoadOptions {
  /** Only these shapes (each brings its transpose): "3x3", ["2x3", "2x4"]. Default: all up to 10 cells.
   *  Built for one shape, random(), histogram() and boardsAt() ask about it unless told a goal or shape (else 3x3). */
  shapes?: string | string[] | null;
}

export interface OpenOptions extends LoadOptions {
  /** The table's name in messages (default "table"). */
  name?: string;
}

/** A move by name. */
export type MoveName = "up" | "down" | "left" | "right";

/** What every answer says of its board (GET /distance's whole answer), the
 *  JSON's members camelCase. */
export interface BoardAnswer {
  /** The board and goal in canonical form ("867254301", "123/450"). */
  board: string;
  goal: string;
  /** "RxC": "3x3", "2x3". */
  shape: string;
  /** The board's and the goal's tiles, row by row (0 the blank). */
  boardCells: number[];
  goalCells: number[];
  solvable: boolean;
  /** Fewest moves, or the path's length when not `optimal`; null when unsolvable. */
  distance: number | null;
  /** True only when proven. */
  optimal: boolean;
  /** A proven lower bound on the distance; null when unsolvable. */
  lowerBound: number | null;
  method: "table" | "pattern-search" | "manhattan-search" | "beam-search" | "reduction";
}

/** `eight solve --format json` (and GET /solve), every member camelCase: the
 *  same from Eight.solve() and EightClient.solve(). */
export interface Answer extends BoardAnswer {
  /** The path's moves by name. */
  moves: MoveName[];
  /** The blank's moves, e.g. "ulldr". */
  path: string;
  /** The tile each move slides. */
  tiles: number[];
  /** With `boards: true`: the board after each move, and its tiles. */
  boards?: string[];
  boardsCells?: number[][];
}

export interface Move {
  move: MoveName;
  letter: Letter;
  /** The tile it slides. */
  tile: number;
  /** The board after it, and its tiles. */
  board: string;
  boardCells: number[];
  /** The next board's distance (null when unsolvable). */
  distance: number | null;
  /** One closer, proven. */
  optimal: boolean;
  /** On a board whose answer is not proven optimal (no move `optimal`): the first move of the path found (follow it). */
  hint: boolean;
}

/** `eight hint --format json` (and GET /hint), every member camelCase: the
 *  same from Eight.hint() and EightClient.hint(). */
export interface Hints extends BoardAnswer {
  /** The moves to follow: the optimal moves, or (answer not proven optimal) the `hint` move. */
  hints: Move[];
  /** Every legal move (2 to 4), best first. */
  moves: Move[];
}

export interface Check {
  /** Every move stays on the board. */
  legal: boolean;
  /** Legal and ends on the goal. */
  reaches: boolean;
  /** true: reaches it in the distance; false: longer, or does not reach it; null: not proven either way. */
  optimal: boolean | null;
  why: string;
}

export interface RandomOptions extends AskOptions {
  /** Exactly this many moves from the goal (default: uniformly random among all boards). */
  distance?: number;
  /** The same seed gives the same board (as `eight random --seed`). */
  seed?: number | bigint;
}

/** Tables and the questions they answer; close() frees them. */
export class Eight {
  private constructor();
  /** The tables of every shape up to 10 cells (or of `shapes`), built in memory. */
  static build(options?: BuildOptions): Promise<Eight>;
  /** The tables of a table file's bytes, checked against their checksum. */
  static open(bytes: ArrayBuffer | ArrayBufferView, options?: OpenOptions): Promise<Eight>;
  close(): void;
  solve(board: Board, options?: AskOptions): Answer;
  /** Exactly `eight solve --format json` (and GET /solve), as text. */
  solveJson(board: Board, options?: AskOptions): string;
  /** The paths of many boards in one call: null where unsolvable, "" on the goal. */
  paths(boards: Iterable<Board>, options?: AskOptions): (string | null)[];
  distance(board: Board, options?: AskOptions): number | null;
  /** Boards of one shape, `cellsPerBoard` cells each, one after another; -1 where unsolvable. */
  distances(cells: ArrayLike<number>, cellsPerBoard: number, options?: AskOptions): Int32Array;
  hint(board: Board, options?: AskOptions): Hints;
  /** Exactly `eight hint --format json` (and GET /hint), as text. */
  hintJson(board: Board, options?: AskOptions): string;
  random(options?: RandomOptions): string;
  /** counts[d]: how many boards are d moves from the goal. */
  histogram(options?: AskOptions): number[];
  countAt(distance: number, options?: AskOptions): number;
  boardsAt(distance: number, options?: AskOptions): Generator<string, void, undefined>;
  check(board: Board, path: string, options?: AskOptions): Check;
}
