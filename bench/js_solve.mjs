// The JavaScript package's side of bench/js_bench.py, in a fresh Node
// process: loads the package, then times (performance.now) building the
// three 3x3 sections in memory and solving every board of BOARDS, as one
// batch (paths(): one call for them all, as `eight solve` is one process
// for them all) and again a solve() each (the way a game asks about the
// board on screen), and writes the batch's paths, one a line, to OUT (as
// `eight solve --format moves` prints them). Prints the timings as JSON.
//   node bench/js_solve.mjs PACKAGE_DIR BOARDS OUT
import { readFileSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";

const [pkg, boardsPath, outPath] = process.argv.slice(2);
const started = performance.now();
const { Eight } = await import(pathToFileURL(resolve(pkg, "index.js")).href);
const boards = readFileSync(boardsPath, "utf8").trimEnd().split("\n");
const loaded = performance.now();
const eight = await Eight.build({ shapes: "3x3" });
const built = performance.now();
const paths = eight.paths(boards);
const solved = performance.now();
const each = new Array(boards.length);
for (let i = 0; i < boards.length; ++i) each[i] = eight.solve(boards[i]).path;
const solvedEach = performance.now();
if (each.join("\n") !== paths.join("\n")) throw new Error("solve() and paths() differ");
writeFileSync(outPath, paths.join("\n") + "\n");
console.log(JSON.stringify({ load_ms: loaded - started, build_ms: built - loaded, solve_ms: solved - built,
                             each_ms: solvedEach - solved }));
