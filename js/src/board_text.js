// A board as the text eight reads, the one place the package writes one
// (index.js for the module, client.js for the server): a string as it is;
// cells (an array or a typed array, 0 the blank) joined by commas; rows of
// them joined by slashes. null for anything else: each caller refuses it
// in its own way.
export function boardText(board) {
  if (typeof board === "string") return board;
  if (!Array.isArray(board) && !ArrayBuffer.isView(board)) return null;
  const rows = Array.from(board);
  if (rows.length > 0 && rows.every((r) => Array.isArray(r) || ArrayBuffer.isView(r))) {
    return rows.map((r) => Array.from(r).join(",")).join("/");
  }
  return rows.join(",");
}
