// The answers' fields for JavaScript, named once for the module (index.js)
// and the HTTP client (client.js), so both give the same objects: the JSON
// of `eight solve --format json`, `eight hint --format json` and the
// server's answers, every member camelCase (lower_bound: lowerBound,
// board_cells: boardCells).

// `value` with every object member's name camelCase, at every depth.
export function camelCase(value) {
  if (Array.isArray(value)) return value.map(camelCase);
  if (value === null || typeof value !== "object") return value;
  const out = {};
  for (const [k, v] of Object.entries(value)) out[k.replace(/_([a-z])/g, (_, c) => c.toUpperCase())] = camelCase(v);
  return out;
}

// A hint answer's JSON (GET /hint), camelCase, each move with `hint`: the
// first move of the path found, on a board where no move is proven closer
// (the JSON's `hints` there). `hints` (the moves to follow) are the same
// move objects as `moves`, with every field.
export function hintAnswer(json) {
  const a = camelCase(json);
  const follow = a.hints.map((m) => m.letter);
  a.moves = a.moves.map((m) => ({ ...m, hint: !m.optimal && follow.includes(m.letter) }));
  a.hints = follow.map((letter) => a.moves.find((m) => m.letter === letter));
  return a;
}
