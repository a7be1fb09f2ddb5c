// Compiled by tsc --strict against the packed package's declarations
// (scripts/js-package-test.sh): what a TypeScript game writes type-checks,
// and what it must not write does not.
import { Eight, EightError, EightClient, EightHttpError } from "eight";
import type { Answer, BoardAnswer, Hints, Check, Move } from "eight";

async function play(): Promise<number> {
  const eight: Eight = await Eight.build({ shapes: ["3x3", "2x4"] });
  const answer: Answer = eight.solve("867254301", { goal: [[1, 2, 3], [4, 5, 6], [7, 8, 0]] });
  const continued: Answer = eight.solve("867254301", { knownPath: answer.path, fast: true });
  void continued;
  const distance: number | null = answer.distance;
  const path: string = answer.path;
  const json: string = eight.solveJson("867254301", { boards: true });
  const hints: Hints = eight.hint([8, 6, 7, 2, 5, 4, 3, 0, 1]);
  const first: Move | undefined = hints.hints[0];
  const check: Check = eight.check("867254301", path);
  const optimal: boolean | null = check.optimal;
  const all: Int32Array = eight.distances(new Uint8Array(9), 9);
  const far: string[] = [...eight.boardsAt(31)];
  const board: string = eight.random({ distance: 20, seed: 7n });
  const counts: number[] = eight.histogram({ shape: "2x4" });
  eight.close();
  const opened: Eight = await Eight.open(new Uint8Array(0), { name: "x" });
  opened.close();
  try {
    const client = new EightClient("http://127.0.0.1:8080", { timeoutMs: 1000 });
    // The client's answers are the package's types, camelCase.
    const online: Answer = await client.solve("867254301", { optimalRequired: true, boards: true });
    const held: Answer = await client.solve("867254301", { knownPath: online.path, fast: false });
    void held;
    const lower: number | null = online.lowerBound;
    const cells: number[] | undefined = online.boardsCells?.[0];
    const hinted: Hints = await client.hint("867254301");
    const follow: boolean = hinted.moves[0].hint;
    const asked: BoardAnswer = await client.distance("867254301");
    // @ts-expect-error: no snake_case members
    const snake = online.lower_bound;
    // @ts-expect-error: distance() has no path
    const none = asked.path;
    void [lower, cells, follow, snake, none];
  } catch (e) {
    if (e instanceof EightHttpError && e.error === "bad-board") return e.status;
    if (e instanceof EightError) return -1;
  }
  // @ts-expect-error: a board's distance is not a string
  const wrong: string = answer.distance;
  // @ts-expect-error: the tables are made by build() or open(), not new
  new Eight();
  void [distance, json, first, optimal, all, far, board, counts, wrong];
  return 0;
}
void play;
