// End-to-end test of the playground page: the real eight-server on a
// loopback port, Debian's Chromium (never a downloaded browser) driven
// headless by playwright-core (support.mjs); playground_controls.test.mjs
// holds the tests of the shape picker, the requests, the thinking state,
// the move counts, the desktop board and the favicon.
//
//   scripts/npm-ci.sh tests/browser build/tests/browser 18 browser
//   EIGHT_BIN_DIR=build/bin EIGHT_BROWSER_WORK=build/tests/browser \
//   EIGHT_ARTIFACT_DIR=build/test-artifacts node --test tests/browser/*.test.mjs
//
// Keeps screenshots in EIGHT_ARTIFACT_DIR (under CTest, the build's
// test-artifacts/): playground-*.png, each named where the test takes it.
import { test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import {
  GOAL, DESKTOP, PHONE, kHangGuardMs, api, artifacts, base, assertFits, boardOf, exactOffered, goalText,
  openPage, pickSize, q, quality, slid, startServerAndBrowser, viewportName,
} from "./support.mjs";

startServerAndBrowser();

test("the playground loads with a puzzle at the chosen difficulty, from our server only", async () => {
  const { page, errors, foreign } = await openPage({ width: 800, height: 900 });
  const board = await boardOf(page);
  assert.equal((await api(`/distance?board=${board}&goal=${GOAL}`)).distance, 20);
  assert.equal(await page.locator("#distance").textContent(), "20");
  assert.equal(await page.title(), "eight: the 8-puzzle, solved");
  // Every tile is a labelled button; controls have names.
  assert.equal(await page.locator("button.tile[aria-label]").count(), 8);
  for (const id of ["new", "hint", "solve"]) {
    assert.ok((await page.locator(`#${id}`).textContent()).trim().length > 0);
  }
  assert.ok(await page.locator('label[for="difficulty"]').count());
  assert.deepEqual(errors, []);
  assert.deepEqual(foreign, []);
  await page.close();
});

test("clicking a tile next to the gap slides it, and the arrow keys do too", async () => {
  const { page, errors } = await openPage({ width: 800, height: 900 });
  const before = await boardOf(page);
  const tile = page.locator("button.tile:not([disabled])").first();
  const cell = Number(await tile.getAttribute("data-cell"));
  await tile.click();
  const after = await boardOf(page);
  assert.equal(after, slid(before, cell));
  assert.equal(await page.locator("#moves").textContent(), "1");
  // A tile that is not next to the gap does not move.
  const stuck = page.locator("button.tile[disabled]").first();
  await stuck.click({ force: true });
  assert.equal(await boardOf(page), after);
  // ArrowUp slides the tile below the gap up, when there is one.
  const gap = after.indexOf("0");
  const key = gap < 6 ? "ArrowUp" : "ArrowDown";
  await page.keyboard.press(key);
  assert.equal(await boardOf(page), slid(after, gap < 6 ? gap + 3 : gap - 3));
  assert.equal(await page.locator("#moves").textContent(), "2");
  assert.deepEqual(errors, []);
  await page.close();
});

test("the hint highlights a tile whose move is optimal", async () => {
  const { page, errors } = await openPage({ width: 800, height: 900 });
  const board = await boardOf(page);
  const before = (await api(`/distance?board=${board}&goal=${GOAL}`)).distance;
  await page.click("#hint");
  const hinted = page.locator("button.tile.hint");
  await hinted.waitFor();
  assert.equal(await hinted.count(), 1);
  const cell = Number(await hinted.getAttribute("data-cell"));
  const next = slid(board, cell);
  assert.equal((await api(`/distance?board=${next}&goal=${GOAL}`)).distance, before - 1);
  assert.match(await page.locator("#status").textContent(), /^Hint: slide tile \d/);
  await page.screenshot({ path: join(artifacts, "playground-hint.png") });
  assert.deepEqual(errors, []);
  await page.close();
});

// The histogram's bars and mark as the page drew them.
async function histogramOf(page) {
  return page.locator("#histogram").evaluate((svg) => ({
    bars: [...svg.querySelectorAll("rect.bar")].map((r) => ({
      distance: Number(r.dataset.distance), count: Number(r.dataset.count),
      height: Number(r.getAttribute("height")), y: Number(r.getAttribute("y")),
      current: r.classList.contains("current"),
    })),
    marker: svg.querySelector("#histogram-marker")?.dataset.distance,
  }));
}

test("the histogram shows /stats of the shape in play and marks where the board sits", async () => {
  const { page, errors } = await openPage({ width: 800, height: 1000 });
  const stats = await api("/stats?shape=3x3");
  await page.waitForFunction(() => document.querySelector("#histogram-marker") !== null);
  let h = await histogramOf(page);
  // One bar per distance 0..max, in order, each its /stats count, heights
  // in proportion (the tallest the full height), all on one foot line.
  assert.equal(h.bars.length, stats.max_distance + 1);
  assert.deepEqual(h.bars.map((b) => b.distance), [...Array(stats.max_distance + 1).keys()]);
  assert.deepEqual(h.bars.map((b) => b.count), stats.histogram);
  const tallest = Math.max(...stats.histogram);
  const full = Math.max(...h.bars.map((b) => b.height));
  for (const b of h.bars) assert.ok(Math.abs(b.height - full * b.count / tallest) < 0.01, `bar ${b.distance}`);
  assert.equal(new Set(h.bars.map((b) => (b.y + b.height).toFixed(1))).size, 1);
  // The marked bar is the board's distance, and only that one.
  const distance = Number(await page.locator("#distance").textContent());
  assert.deepEqual(h.bars.filter((b) => b.current).map((b) => b.distance), [distance]);
  assert.equal(Number(h.marker), distance);
  assert.match(await page.locator("#histogram").getAttribute("aria-label"),
               new RegExp(`this board is ${distance} moves away`));
  await page.locator("#histogram").scrollIntoViewIfNeeded();
  await page.screenshot({ path: join(artifacts, "playground-histogram.png"), fullPage: true });
  // A slide moves the mark one bar, to the new board's distance.
  await page.locator("button.tile:not([disabled])").first().click();
  await page.waitForFunction((d) => {
    const t = document.getElementById("distance").textContent;
    return t !== String(d) && document.querySelector("#histogram-marker")?.dataset.distance === t;
  }, distance);
  h = await histogramOf(page);
  const after = Number(await page.locator("#distance").textContent());
  assert.equal(Math.abs(after - distance), 1);
  assert.deepEqual(h.bars.filter((b) => b.current).map((b) => b.distance), [after]);
  // Another shape: its own histogram.
  await page.selectOption("#shape", "2x3");
  await page.waitForFunction(() => document.querySelectorAll("#histogram rect.bar").length === 22);
  h = await histogramOf(page);
  assert.deepEqual(h.bars.map((b) => b.count), (await api("/stats?shape=2x3")).histogram);
  assert.deepEqual(errors, []);
  await page.close();
});

test("solve animates a 20-move puzzle to the goal move by move, the histogram's mark with it", async () => {
  const { page, errors } = await openPage({ width: 800, height: 1100 });
  await page.locator("#difficulty").evaluate((el) => {
    el.value = "20";
    el.dispatchEvent(new Event("input", { bubbles: true }));
  });
  // The page's own first puzzle may already say "New puzzle, 20 moves": the
  // one asked here is in when the buttons, disabled from the click on, are
  // enabled again (a slow server showed the first board being read).
  await page.click("#new");
  await page.waitForFunction(() => !document.getElementById("new").disabled &&
                                    /New puzzle, 20 moves/.test(document.getElementById("status").textContent));
  const board = await boardOf(page);
  assert.equal((await api(`/distance?board=${board}&goal=${GOAL}`)).distance, 20);
  const solution = await api(`/solve?board=${board}&goal=${GOAL}&boards=1`);
  // Every board the page shows, and where the histogram's mark stands then.
  await page.evaluate(() => {
    const el = document.getElementById("board");
    window.seen = [{ board: el.dataset.board }];
    new MutationObserver(() => {
      const b = el.dataset.board;
      const mark = document.querySelector("#histogram-marker")?.dataset.distance;
      if (window.seen.at(-1).board !== b) {
        window.seen.push({ board: b, distance: document.getElementById("distance").textContent, mark });
      } else {
        Object.assign(window.seen.at(-1), { distance: document.getElementById("distance").textContent, mark });
      }
    }).observe(el, { attributes: true, childList: true, subtree: false });
  });
  await page.click("#solve");
  // Mid-way: part of the way there, one move at a time.
  await page.waitForFunction(() => Number(document.getElementById("board").dataset.step) >= 8);
  await page.screenshot({ path: join(artifacts, "playground-animation.png") });
  assert.match(await page.locator("#status").textContent(), /^Solving: move \d+ of 20, tile \d$/);
  assert.equal(await page.locator(".tile.moved").count(), 1);
  await page.waitForFunction((goal) => document.getElementById("board").dataset.board === goal,
                             GOAL, { timeout: kHangGuardMs });
  await page.waitForFunction(() => document.getElementById("distance").textContent === "0");
  // The solver's 20 moves, counted apart from the player's none.
  assert.equal(await page.locator("#solver-moves").textContent(), "20");
  assert.equal(await page.locator("#moves").textContent(), "0");
  assert.equal(await page.locator("#status").textContent(), "Solved by the solver in 20 moves, after 0 moves of yours.");
  // The boards shown are the solution's, in order, one slide apart, and the
  // mark walked down the histogram with them to 0.
  const seen = (await page.evaluate(() => window.seen)).slice(1);
  assert.deepEqual(seen.map((x) => x.board), solution.boards);
  for (const [i, x] of seen.entries()) {
    assert.equal(x.distance, String(19 - i));
    assert.equal(x.mark, String(19 - i));
  }
  await page.screenshot({ path: join(artifacts, "playground-solved.png") });
  assert.deepEqual(errors, []);
  await page.close();
});

test("the page fits a phone-sized screen without sideways scrolling", async () => {
  const { page, errors } = await openPage({ width: 360, height: 740 });
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(width <= 360, `page is ${width}px wide on a 360px screen`);
  const box = await page.locator("#board").boundingBox();
  assert.ok(box.width >= 250 && box.x >= 0 && box.x + box.width <= 360);
  // Tap targets stay at least 44px.
  const tile = await page.locator("button.tile").first().boundingBox();
  assert.ok(tile.width >= 44 && tile.height >= 44);
  await page.screenshot({ path: join(artifacts, "playground-phone.png"), fullPage: true });
  assert.deepEqual(errors, []);
  await page.close();
});

test("the shape selector offers every shape the server holds, and a 2x3 puzzle solves", async () => {
  const { page, errors } = await openPage({ width: 800, height: 900 });
  const ready = await api("/readyz");
  const offered = await exactOffered(page);
  assert.deepEqual(offered, ready.shapes);
  assert.ok(offered.includes("2x3") && offered.includes("5x2"));
  assert.equal(await page.locator("#shape").inputValue(), "3x3");
  await page.selectOption("#shape", "2x3");
  await page.waitForFunction(() => document.getElementById("board").dataset.shape === "2x3" &&
                                   /New puzzle/.test(document.getElementById("status").textContent));
  // /stats says 2x3's farthest board is 21 moves away: the slider stops there.
  assert.equal(await page.locator("#difficulty").getAttribute("max"), "21");
  assert.equal(await page.locator("button.tile").count(), 5);
  const board = await boardOf(page);
  const d = (await api(`/distance?board=${board}&goal=123/450`)).distance;
  assert.ok(d > 0);
  await page.click("#solve");
  await page.waitForFunction(() => document.getElementById("board").dataset.board === "123/450",
                             null, { timeout: kHangGuardMs });
  await page.waitForFunction(() => document.getElementById("distance").textContent === "0");
  assert.equal(await page.locator("#solver-moves").textContent(), String(d));
  assert.equal(await page.locator("#moves").textContent(), "0");
  await page.screenshot({ path: join(artifacts, "playground-2x3.png") });
  assert.deepEqual(errors, []);
  await page.close();
});

test("a 4x4 puzzle (the 15-puzzle) takes a hint and solves, searched by the server", async () => {
  const { page, errors } = await openPage({ width: 800, height: 900 });
  const offered = await exactOffered(page);
  assert.ok(offered.includes("4x4"));
  await page.locator("#difficulty").fill("24");
  await page.selectOption("#shape", "4x4");
  await page.waitForFunction(() => document.getElementById("board").dataset.shape === "4x4" &&
                                   /New puzzle, 24 moves/.test(document.getElementById("status").textContent),
                             null, { timeout: kHangGuardMs });
  assert.equal(await page.locator("button.tile").count(), 15);
  // No table of 4x4 positions: no histogram.
  assert.equal(await page.locator("figure.histogram").isVisible(), false);
  const board = await boardOf(page);
  const goal = "1,2,3,4/5,6,7,8/9,10,11,12/13,14,15,0";
  const d = (await api(`/distance?board=${board}&goal=${goal}`)).distance;
  assert.equal(d, 24);
  await page.waitForFunction(() => document.getElementById("distance").textContent === "24");
  // The hint marks a tile whose slide is one of /hint's optimal moves.
  await page.click("#hint");
  await page.waitForFunction(() => /Hint: slide tile/.test(document.getElementById("status").textContent));
  const marked = Number(await page.locator("button.tile.hint").getAttribute("data-tile"));
  const hints = (await api(`/hint?board=${board}&goal=${goal}`)).hints;
  assert.ok(hints.some((h) => h.tile === marked), `tile ${marked} is not an optimal move`);
  await page.screenshot({ path: join(artifacts, "playground-4x4-hint.png") });
  await page.click("#solve");
  await page.waitForFunction((g) => document.getElementById("board").dataset.board === g,
                             goal, { timeout: kHangGuardMs });
  await page.waitForFunction(() => document.getElementById("distance").textContent === "0");
  assert.equal(await page.locator("#solver-moves").textContent(), "24");
  await page.screenshot({ path: join(artifacts, "playground-4x4-solved.png") });
  assert.deepEqual(errors, []);
  await page.close();
});

// ---------------------------------------------------------------- any size
// Boards of every size from 2x2 to 10x10, picked from the one shape picker
// ("Exact" and "Searched"). Past 16 cells no table holds the positions: the puzzle is a
// uniformly random board (/random?shape=RxC), the answer says how good it
// is (optimal, or a path found with a proven lower bound), and a solution
// runs to hundreds of moves.


async function playSize(rows, cols, viewport) {
  const shape = `${rows}x${cols}`;
  const name = `playground-${shape}-${viewportName(viewport)}`;
  const goal = goalText(rows, cols);
  const { page, errors, foreign, requests } = await openPage(viewport);
  await pickSize(page, rows, cols);
  assert.equal(await page.locator("button.tile").count(), rows * cols - 1);
  assert.equal(await page.locator("#shape").inputValue(), shape);
  // No exact distances here: no difficulty slider, no histogram.
  assert.equal(await page.locator("#difficulty").isVisible(), false);
  assert.equal(await page.locator("figure.histogram").isVisible(), false);
  const board = await boardOf(page);
  const cells = board.split(/[,/]/).map(Number);
  assert.deepEqual([...cells].sort((a, b) => a - b), [...Array(rows * cols).keys()]);
  assert.notEqual(board, goal);
  // The answer's quality, as /solve says it (the page's count is its
  // /solve, past 16 cells, to hold the path).
  const answer = await api(`/solve?board=${q(board)}&goal=${q(goal)}&boards=1`);
  assert.equal(answer.shape, shape);
  assert.equal(await page.locator("#quality").textContent(), quality(answer));
  assert.equal(await page.locator("#distance").textContent(),
               answer.optimal ? String(answer.distance) : `≤${answer.distance}`);
  // The board fits the screen, tiles as large as it allows: at least the
  // 44px of a comfortable tap up to 7 columns on a phone.
  const fit = await assertFits(page, viewport);
  assert.ok(fit.tile >= 44, `${shape} tiles are ${fit.tile}px on a ${viewport.width}px screen`);

  // The hint marks the move the API marks: an optimal one (/hint's), or on
  // an answer not proven optimal the next move of the path on show, which
  // the page holds, so it asks the server nothing (/hint's would be the
  // same move: its `hints` is /solve's first move, alone).
  const asked = (route) => requests.filter((u) => u.startsWith(`${base}${route}?`)).length;
  await page.click("#hint");
  await page.waitForFunction(() => /^Hint: slide tile/.test(document.getElementById("status").textContent));
  assert.equal(await page.locator("button.tile.hint").count(), 1);
  const marked = Number(await page.locator("button.tile.hint").getAttribute("data-tile"));
  let next;
  if (answer.optimal) {
    const h = await api(`/hint?board=${q(board)}&goal=${q(goal)}`);
    assert.ok(h.moves.some((m) => m.optimal && m.tile === marked), `tile ${marked} is not an optimal move`);
    next = h.moves.find((m) => m.tile === marked).board;
  } else {
    assert.equal(marked, answer.tiles[0]);
    assert.match(await page.locator("#status").textContent(), /not proven optimal/);
    assert.equal(asked("/hint"), 0);
    next = answer.boards[0];
  }
  await page.screenshot({ path: join(artifacts, `${name}-hint.png`), fullPage: true });
  // Following it: the marked tile slides to the next board of the path.
  await page.locator("button.tile.hint").click();
  assert.equal(await boardOf(page), next);
  assert.equal(await page.locator("#moves").textContent(), "1");
  // The count goes down (issue 39: it rose by a few moves on some boards):
  // the page held the path it showed, and sent its rest with the question
  // (path=), so the answer is no longer than that rest.
  await page.waitForFunction((b) => document.getElementById("distance").dataset.board === b, next);
  const held = await page.locator("#distance").getAttribute("data-path");
  const count = Number((await page.locator("#distance").textContent()).replace("≤", ""));
  assert.equal(held.length, count);
  assert.ok(count <= answer.distance - 1, `the count went from ${answer.distance} to ${count}`);

  // Solve: move by move to the goal, every board of the answer's path (the
  // path held, sent with the question) shown.
  const solution = await api(`/solve?board=${q(next)}&goal=${q(goal)}&boards=1&path=${held}`);
  assert.ok(solution.distance > 0 && solution.boards.length === solution.distance);
  assert.equal(solution.path, held);
  await page.evaluate(() => {
    const el = document.getElementById("board");
    window.seen = [el.dataset.board];
    new MutationObserver(() => {
      if (window.seen.at(-1) !== el.dataset.board) window.seen.push(el.dataset.board);
    }).observe(el, { attributes: true });
  });
  await page.selectOption("#speed", "5");
  // The count's /solve answered this board with the path held: the
  // solution is that answer's, asked of nobody.
  const solves = asked("/solve");
  await page.click("#solve");
  await page.waitForFunction((n) => Number(document.getElementById("board").dataset.step) >= n,
                             Math.min(20, solution.distance));
  assert.match(await page.locator("#status").textContent(),
               new RegExp(`^Solving: move \\d+ of ${solution.distance}, tile \\d+$`));
  assert.equal(await page.locator("#quality").textContent(), quality(solution));
  await page.screenshot({ path: join(artifacts, `${name}-solving.png`), fullPage: true });
  await page.waitForFunction((g) => document.getElementById("board").dataset.board === g,
                             goal, { timeout: kHangGuardMs });
  await page.waitForFunction(() => /^Solved/.test(document.getElementById("status").textContent));
  assert.equal(await boardOf(page), goal);
  // The player's one move, and the solver's counted apart.
  assert.equal(await page.locator("#moves").textContent(), "1");
  assert.equal(await page.locator("#solver-moves").textContent(), String(solution.distance));
  assert.deepEqual((await page.evaluate(() => window.seen)).slice(1), solution.boards);
  // One question at the goal: its count, the goal's own answer.
  assert.equal(asked("/solve"), solves + 1);
  // The goal itself is answered optimally.
  assert.equal(await page.locator("#quality").textContent(), "optimal");
  assert.equal(await page.locator("#status").textContent(),
               `Solved by the solver in ${solution.distance} moves, after 1 move of yours.`);
  await assertFits(page, viewport);
  await page.screenshot({ path: join(artifacts, `${name}-solved.png`), fullPage: true });
  assert.deepEqual(errors, []);
  assert.deepEqual(foreign, []);
  await page.close();
}

// 5x5 on both screens; 6x6 on a desktop and 7x7 on a phone, where its 7
// columns are the most that keep 44px tiles (each answer past 25 cells is
// a search of a second or two, which a loaded suite stretches).
for (const [rows, cols, viewport] of [[5, 5, DESKTOP], [5, 5, PHONE], [6, 6, DESKTOP], [7, 7, PHONE]]) {
  test(`a ${rows}x${cols} puzzle on a ${viewportName(viewport)} screen: picked, hinted, solved to the goal`,
       () => playSize(rows, cols, viewport));
}

test("a 10x10 board fits a 360px phone, its numbers legible, and a solution skips to the end", async () => {
  const { page, errors } = await openPage(PHONE);
  await pickSize(page, 10, 10);
  const goal = goalText(10, 10);
  assert.equal(await page.locator("button.tile").count(), 99);
  const fit = await assertFits(page, PHONE);
  // 36px a column at most on 360px: the tiles take nearly all of it.
  assert.ok(fit.tile >= 30, `10x10 tiles are ${fit.tile}px`);
  // Every number, 99 included, lies inside its tile at a readable size.
  const texts = await page.locator("button.tile").evaluateAll((ts) => ts.map((t) => {
    const range = document.createRange();
    range.selectNodeContents(t);
    const r = range.getBoundingClientRect(), b = t.getBoundingClientRect();
    return { tile: t.dataset.tile, size: parseFloat(getComputedStyle(t).fontSize),
             inside: r.left >= b.left && r.right <= b.right && r.top >= b.top && r.bottom <= b.bottom };
  }));
  assert.ok(texts.some((t) => t.tile === "99"));
  for (const t of texts) {
    assert.ok(t.inside, `tile ${t.tile}'s number overflows it`);
    assert.ok(t.size >= 12, `tile ${t.tile}'s number is ${t.size}px`);
  }
  await page.screenshot({ path: join(artifacts, "playground-10x10-phone.png"), fullPage: true });
  // The arrow keys slide tiles on it too.
  const before = await boardOf(page);
  const cells = before.split(/[,/]/);
  const gap = cells.indexOf("0");
  await page.locator("h1").click();  // focus off the shape picker, whose arrows they are
  await page.keyboard.press(gap < 90 ? "ArrowUp" : "ArrowDown");
  const other = gap < 90 ? gap + 10 : gap - 10;
  [cells[gap], cells[other]] = [cells[other], cells[gap]];
  const after = await boardOf(page);
  assert.deepEqual(after.split(/[,/]/), cells);
  assert.equal(await page.locator("#moves").textContent(), "1");
  // Solve, then skip to the end: the goal, every move of the path counted
  // as the solver's. The page holds a path past 16 cells (the slide back,
  // then the path it showed, or the shorter one the count's /solve found)
  // and sends it, so its solution is /solve's with that path.
  await page.waitForFunction((b) => document.getElementById("distance").dataset.board === b, after);
  const held = await page.locator("#distance").getAttribute("data-path");
  const solution = await api(`/solve?board=${q(after)}&goal=${q(goal)}&path=${held}`);
  assert.equal(solution.path, held);
  assert.ok(solution.distance > 100);
  assert.equal(await page.locator("#skip").isDisabled(), true);
  await page.click("#solve");
  await page.waitForFunction(() => Number(document.getElementById("board").dataset.step) >= 3);
  await page.click("#skip");
  await page.waitForFunction((g) => document.getElementById("board").dataset.board === g,
                             goal, { timeout: kHangGuardMs });
  await page.waitForFunction(() => document.getElementById("distance").textContent === "0");
  assert.equal(await page.locator("#moves").textContent(), "1");
  assert.equal(await page.locator("#solver-moves").textContent(), String(solution.distance));
  assert.equal(await page.locator("#skip").isDisabled(), true);
  await assertFits(page, PHONE);
  await page.screenshot({ path: join(artifacts, "playground-10x10-phone-solved.png"), fullPage: true });
  assert.deepEqual(errors, []);
  await page.close();
});
