// The sliding puzzle in the browser, every answer from eight's package: the
// tables are built in memory once per shape, so it plays on offline.
import { Eight } from "./eight/index.js";

const kStepMs = 150;  // slow enough to follow a solution with the eye
const kFarthest = 20;  // New's boards: hard, yet solved in a few seconds of play

const $ = (id) => document.getElementById(id);
const boardEl = $("board");
const statusEl = $("status");
const shapeEl = $("shape");
const controls = ["new", "hint", "solve"].map($);

const built = new Map();  // shape -> Promise<Eight>: each shape's tables built once
let eight = null;
let shape = "";
let wanted = "";  // the shape picked last, whose tables may still be building
let rows = 0;
let cols = 0;
let cells = [];
let moves = 0;
let run = 0;  // bumped by every action, so a solution still playing stops

function tablesFor(s) {
  if (!built.has(s)) {
    const tables = Eight.build({ shapes: s });
    tables.catch(() => built.delete(s));  // a failed build may be tried again
    built.set(s, tables);
  }
  return built.get(s);
}

// The package's own notation, so data-board matches its answers: a 3x3
// board as its digits alone, any other shape row by row ("123/450").
function boardText() {
  if (rows === 3 && cols === 3) return cells.join("");
  const lines = [];
  for (let r = 0; r < rows; ++r) lines.push(cells.slice(r * cols, (r + 1) * cols).join(""));
  return lines.join("/");
}

function render(hinted = -1) {
  boardEl.style.setProperty("--rows", rows);
  boardEl.style.setProperty("--cols", cols);
  boardEl.replaceChildren(...cells.map((tile, i) => {
    const b = document.createElement("button");
    b.dataset.testid = "cell";
    b.dataset.cell = i;
    b.dataset.tile = tile;
    if (tile === 0) {
      b.className = "blank";
      b.disabled = true;
      b.setAttribute("aria-label", "blank");
    } else {
      b.textContent = tile;
      b.setAttribute("aria-label", `tile ${tile}`);
      if (tile === hinted) b.classList.add("hinted");
    }
    return b;
  }));
  const board = boardText();
  const d = eight.distance(board, { shape });
  Object.assign(boardEl.dataset, { board, shape, distance: d ?? "", moves });
  const count = (n) => `${n} move${n === 1 ? "" : "s"}`;
  statusEl.textContent = d === null ? "This board cannot reach the goal."
    : d === 0 ? (moves > 0 ? `Solved in ${count(moves)}.` : "Solved.")
    : `${count(d)} from the goal` + (moves > 0 ? `, ${moves} played.` : ".");
}

function setBoard(text) {
  const [r, c] = shape.split("x").map(Number);
  const canonical = eight.solve(text, { shape }).board;  // throws on a bad board, the board kept
  rows = r;
  cols = c;
  cells = [...canonical.replaceAll("/", "")].map(Number);
  moves = 0;
  render();
  return canonical;
}

// Slides the tile on `cell` into the gap, if it is next to it.
function slide(cell, highlight = false) {
  const gap = cells.indexOf(0);
  const nextTo = Math.abs(cell - gap) === cols ||
                 (Math.abs(cell - gap) === 1 && Math.floor(cell / cols) === Math.floor(gap / cols));
  if (!nextTo) return false;
  const tile = cells[cell];
  [cells[gap], cells[cell]] = [tile, 0];
  ++moves;
  render(highlight ? tile : -1);
  return true;
}

// A letter is the blank's move, so the tile it slides is on that side of it.
function play(letter, highlight = false) {
  const step = { u: -cols, d: cols, l: -1, r: 1 }[letter];
  if (!slide(cells.indexOf(0) + step, highlight)) throw new Error(`cannot move ${letter} on ${boardText()}`);
}

function newBoard() {
  const farthest = eight.histogram({ shape }).length - 1;
  setBoard(eight.random({ shape, distance: Math.min(kFarthest, farthest) }));
}

async function solve() {
  const mine = ++run;
  for (const letter of eight.solve(boardText(), { shape }).path) {
    await new Promise((done) => setTimeout(done, kStepMs));
    if (mine !== run) return;
    play(letter);
  }
}

function hint() {
  const [first] = eight.hint(boardText(), { shape }).hints;
  if (first) play(first.letter, true);
}

async function pickShape(s) {
  wanted = s;
  document.body.dataset.ready = "0";
  for (const b of controls) b.disabled = true;
  statusEl.textContent = `Building the ${s} tables…`;
  const tables = await tablesFor(s);
  if (s !== wanted) return;  // another shape was picked meanwhile
  eight = tables;
  shape = s;
  newBoard();
  for (const b of controls) b.disabled = false;
  document.body.dataset.ready = "1";
}

// Every action stops a solution still playing; an error shows instead of
// vanishing into the console.
function action(fn) {
  return async (event) => {
    ++run;
    try {
      await fn(event);
    } catch (e) {
      statusEl.textContent = e.message;
    }
  };
}

boardEl.addEventListener("click", action((event) => {
  const b = event.target.closest("button");
  if (b) slide(Number(b.dataset.cell));
}));
$("new").addEventListener("click", action(newBoard));
$("hint").addEventListener("click", action(hint));
$("solve").addEventListener("click", action(solve));
shapeEl.addEventListener("change", action(() => pickShape(shapeEl.value)));

// For tests and the console: a known board, and the one on show.
window.eightExample = {
  setBoard(text) { ++run; return setBoard(text); },
  get board() { return boardText(); },
};

action(() => pickShape(shapeEl.value))();
