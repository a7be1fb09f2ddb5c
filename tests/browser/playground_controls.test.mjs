// The playground's controls in Chromium: the shape picker (only what the
// server answers, one request a pick, never another shape than the
// board's), the visitor's messages (plain sentences, never the server's
// problem text), the "thinking" state, the player's moves counted apart
// from the solver's, the board on a desktop screen, the favicon, and the
// requests a replaced board or a busy server leaves. The server and the
// browser are support.mjs's; screenshots go to EIGHT_ARTIFACT_DIR (the
// build's test-artifacts/ under CTest), named below.
import { test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import {
  DESKTOP, kHangGuardMs, api, artifacts, assertFits, base, boardOf, exactOffered, goalText, openPage,
  pickSize, q, searchedOffered, sleep, startServerAndBrowser, until,
} from "./support.mjs";

startServerAndBrowser();

// Every shape from 2x2 to 10x10.
const everyShape = [];
for (let r = 2; r <= 10; ++r) for (let c = 2; c <= 10; ++c) everyShape.push(`${r}x${c}`);

// What a visitor reads on the page: no problem text of the server's (its
// details quote command lines in backticks, such as eight-tablegen's).
async function assertNoServerText(page) {
  const shown = await page.locator("body").innerText();
  assert.ok(!shown.includes("`") && !shown.includes("eight-tablegen"), `the page shows: ${shown}`);
}

test("the shape picker offers only the shapes the server answers, and a sentence names the rest", async () => {
  const { page, errors } = await openPage({ width: 800, height: 900 });
  const ready = await api("/readyz");
  const exact = await exactOffered(page);
  const searched = await searchedOffered(page);
  assert.deepEqual(exact, ready.shapes);
  assert.ok(searched.includes("5x5") && searched.includes("10x10") && searched.includes("2x7"));
  const offered = [...exact, ...searched];
  assert.equal(new Set(offered).size, offered.length, "a shape offered twice");
  // The server answers every offered shape, and refuses every other one:
  // a shape of up to 12 cells, or 4x4, is asked the distance of its goal
  // (answered only from a table); a larger one for a random board (asking
  // it a distance would have the server build its pattern databases).
  for (const shape of everyShape) {
    const [rows, cols] = shape.split("x").map(Number);
    const goal = q(goalText(rows, cols));
    const path = rows * cols <= 12 || shape === "4x4" ? `/distance?board=${goal}&goal=${goal}`
                                                      : `/random?shape=${shape}`;
    const r = await fetch(base + path);
    await r.arrayBuffer();
    assert.equal(r.status, offered.includes(shape) ? 200 : 404, path);
  }
  const unserved = everyShape.filter((s) => !offered.includes(s));
  // The default table holds every shape up to 10 cells and 4x4's databases:
  // the 12-cell shapes are the ones left out.
  assert.deepEqual([...unserved].sort(), ["2x6", "3x4", "4x3", "6x2"]);
  assert.equal(await page.locator("#unserved").textContent(),
               "Not offered: 3x4, 4x3, 2x6 and 6x2, which this server answers only from a table it does not hold.");
  assert.equal(await page.locator("#shape").inputValue(), "3x3");
  await assertNoServerText(page);
  await page.screenshot({ path: join(artifacts, "playground-shape-picker.png") });
  assert.deepEqual(errors, []);
  await page.close();
});

test("a pick asks for its own shape alone, a refused draw keeps the board, and the picker shows the board's shape", async () => {
  const { page, errors } = await openPage({ width: 800, height: 900 });
  // The shape of every board the page shows, what the picker says then,
  // and whether a draw is under way (the picker and buttons disabled).
  await page.evaluate(() => {
    const board = document.getElementById("board");
    const picker = document.getElementById("shape");
    window.shown = [];
    new MutationObserver(() => {
      window.shown.push({ board: board.dataset.shape, picker: picker.value, drawing: picker.disabled });
    }).observe(board, { attributes: true, attributeFilter: ["data-shape", "data-board"] });
  });
  // The questions the page asks of a shape: /random's, /distance's and /stats' shape or goal.
  const asked = [];
  page.on("request", (r) => {
    const url = new URL(r.url());
    if (["/random", "/distance", "/stats", "/hint", "/solve"].includes(url.pathname)) {
      asked.push(url.searchParams.get("shape") ?? url.searchParams.get("goal"));
    }
  });
  const picks = [["4x4", "1,2,3,4/5,6,7,8/9,10,11,12/13,14,15,0"], ["5x5", goalText(5, 5)]];
  for (const [shape, goal] of picks) {
    asked.length = 0;
    const [rows, cols] = shape.split("x").map(Number);
    await pickSize(page, rows, cols);
    assert.ok(asked.length > 0);
    for (const a of asked) assert.ok(a === shape || a === goal, `picking ${shape} asked about ${a}`);
  }
  // A draw the server refuses (here its problem text as it words a missing
  // table): a plain sentence, the 5x5 board kept, and the picker on it.
  await page.route((url) => url.pathname === "/random" && url.searchParams.get("shape") === "6x6",
                   (route) => route.fulfill({
                     status: 404, headers: { "Content-Type": "application/problem+json" },
                     body: JSON.stringify({ type: `${base}/problems/shape-not-served`, title: "Shape not served",
                                            status: 404, detail: "no table holds 6x6; `eight-tablegen --shape 6x6` generates them" }),
                   }));
  await page.selectOption("#shape", "6x6");
  await page.waitForFunction(() => document.getElementById("status").dataset.detail !== undefined);
  assert.equal(await page.locator("#status").textContent(), "This server has no table for boards of this shape.");
  assert.equal(await page.locator("#board").getAttribute("data-shape"), "5x5");
  assert.equal(await page.locator("#shape").inputValue(), "5x5");
  assert.equal(await page.locator("#new").isDisabled(), false);
  await assertNoServerText(page);
  await page.screenshot({ path: join(artifacts, "playground-refused-draw.png") });
  await page.unrouteAll({ behavior: "ignoreErrors" });
  // A searched shape: drawn at random, no slider, no histogram.
  await pickSize(page, 3, 7);
  assert.equal(await page.locator("button.tile").count(), 20);
  assert.equal(await page.locator("#difficulty").isVisible(), false);
  assert.equal(await page.locator("figure.histogram").isVisible(), false);
  // And back to 3x3: the slider, its difficulty and the histogram return.
  await page.selectOption("#shape", "3x3");
  await page.waitForFunction(() => document.getElementById("board").dataset.shape === "3x3" &&
                                   /^New puzzle, 20 moves/.test(document.getElementById("status").textContent));
  await page.waitForFunction(() => document.querySelector("#histogram-marker")?.dataset.distance === "20");
  assert.equal(await page.locator("#difficulty").isVisible(), true);
  assert.equal(await page.locator("#quality").textContent(), "optimal");
  // Every board in play stood under its own shape in the picker (while a
  // draw is under way the picker, disabled, shows the shape being drawn).
  const shown = (await page.evaluate(() => window.shown)).filter((s) => !s.drawing);
  for (const s of shown) assert.equal(s.picker, s.board);
  assert.deepEqual(shown.map((s) => s.board).filter((b, i, all) => b !== all[i - 1]),
                   ["4x4", "5x5", "3x7", "3x3"]);
  assert.deepEqual(errors, []);
  await page.close();
});

test("hint and solve show that the server is thinking until the answer comes", async () => {
  const { page, errors } = await openPage({ width: 800, height: 900 });
  for (const [button, path, words] of [["#hint", "/hint", "a hint"], ["#solve", "/solve", "a solution"]]) {
    // The question is held until the page has shown its thinking.
    let release;
    const held = new Promise((resolve) => { release = resolve; });
    await page.route((url) => url.pathname === path, async (route) => { await held; await route.continue(); });
    await page.click(button);
    await page.waitForFunction((b) => document.querySelector(b).getAttribute("aria-busy") === "true", button);
    assert.equal(await page.locator("#status").textContent(), `Thinking about ${words}\u2026`);
    assert.equal(await page.locator("#status.thinking").count(), 1);
    assert.equal(await page.locator("#board").getAttribute("aria-busy"), "true");
    // The spinner before the words is drawn.
    const spinner = await page.locator("#status").evaluate((s) => getComputedStyle(s, "::before").animationName);
    assert.equal(spinner, "spin");
    await page.screenshot({ path: join(artifacts, `playground-thinking-${path.slice(1)}.png`) });
    release();
    await page.waitForFunction((b) => document.querySelector(b).getAttribute("aria-busy") === null, button);
    await page.waitForFunction(() => !/^Thinking/.test(document.getElementById("status").textContent));
    assert.equal(await page.locator("#status.thinking").count(), 0);
    await page.unrouteAll({ behavior: "ignoreErrors" });
    if (path === "/hint") assert.match(await page.locator("#status").textContent(), /^Hint: slide tile \d/);
  }
  await page.waitForFunction(() => document.getElementById("distance").textContent === "0");
  assert.deepEqual(errors, []);
  await page.close();
});

test("the player's moves are counted apart from the solver's", async () => {
  const { page, errors } = await openPage({ width: 800, height: 900 });
  await page.locator("#difficulty").fill("3");
  await page.click("#new");
  await page.waitForFunction(() => !document.getElementById("new").disabled &&
                                   /^New puzzle, 3 moves/.test(document.getElementById("status").textContent));
  // Solved by hand, hint by hint: three moves, all the player's.
  for (let i = 0; i < 3; ++i) {
    await page.click("#hint");
    await page.locator("button.tile.hint").click();
  }
  await page.waitForFunction(() => document.getElementById("distance").textContent === "0");
  assert.equal(await page.locator("#status").textContent(), "Solved in 3 moves.");
  assert.equal(await page.locator("#moves").textContent(), "3");
  assert.equal(await page.locator("#solver-moves").textContent(), "0");
  // A new puzzle: one slide by hand, the rest by the solver, each counted.
  await page.click("#new");
  await page.waitForFunction(() => !document.getElementById("new").disabled &&
                                   document.getElementById("moves").textContent === "0");
  await page.locator("button.tile:not([disabled])").first().click();
  const board = await boardOf(page);
  const left = (await api(`/distance?board=${board}&goal=123456780`)).distance;
  await page.click("#solve");
  // The last move shows distance 0 before the goal's own answer says it is solved.
  await page.waitForFunction(() => document.getElementById("board").dataset.board === "123456780" &&
                                   /^Solved/.test(document.getElementById("status").textContent));
  assert.equal(await page.locator("#moves").textContent(), "1");
  assert.equal(await page.locator("#solver-moves").textContent(), String(left));
  assert.equal(await page.locator("#status").textContent(),
               `Solved by the solver in ${left} moves, after 1 move of yours.`);
  await page.screenshot({ path: join(artifacts, "playground-moves-counted.png") });
  assert.deepEqual(errors, []);
  await page.close();
});

test("on a 1280x800 desktop screen the board takes most of the height, with the controls beside it", async () => {
  const screen = { width: 1280, height: 800 };
  const { page, errors } = await openPage(screen);
  for (const [rows, cols] of [[3, 3], [5, 5]]) {
    if (rows !== 3) await pickSize(page, rows, cols);
    const { board } = await assertFits(page, screen);
    // At least three quarters of the screen's height (it was 352px, 44%, for 5x5).
    assert.ok(board.height >= 0.75 * screen.height && board.width >= 0.75 * screen.height,
              `${rows}x${cols} board is ${board.width}x${board.height}px on 1280x800`);
    assert.ok(board.y >= 0 && board.y + board.height <= screen.height);
    // The controls show beside it, without scrolling.
    for (const id of ["#shape", "#new", "#hint", "#solve"]) {
      const b = await page.locator(id).boundingBox();
      assert.ok(b.x >= board.x + board.width && b.y + b.height <= screen.height, `${id} at ${JSON.stringify(b)}`);
    }
    await page.screenshot({ path: join(artifacts, `playground-${rows}x${cols}-1280x800.png`) });
  }
  assert.deepEqual(errors, []);
  await page.close();
});

test("the page has its own icon and no request of it is refused (no favicon 404)", async () => {
  const { page, errors, requests, failed } = await openPage(DESKTOP);
  const href = await page.locator('link[rel="icon"]').getAttribute("href");
  assert.match(href, /^data:image\/svg\+xml,/);
  // The icon is a picture the browser draws.
  const width = await page.evaluate(async (src) => {
    const img = new Image();
    img.src = src;
    await img.decode();
    return img.naturalWidth;
  }, href);
  assert.ok(width > 0);
  // Time for a browser's own ask for /favicon.ico, were there one.
  await sleep(1000);
  assert.deepEqual(requests.filter((u) => new URL(u).pathname === "/favicon.ico"), []);
  assert.deepEqual(failed, []);
  assert.deepEqual(errors, []);
  await page.close();
});

// The server runs one long request of a client at a time (with two compute
// threads), so a board's /distance still searching would make the next
// board's draw wait behind it, and be refused once it waited past the
// server's queue limit: .ci/run saw the 5x5 pick hang so on a busy machine,
// where the 5x3 board picked before took its search 35 s. Here that
// search never ends (the page's request is held), and the next pick must
// abort it, closing its connection so the server cancels the search.
test("a board replaced drops its /distance question: picking 5x5 after 5x3 aborts the 5x3 board's", async () => {
  const { page, errors } = await openPage(DESKTOP);
  const goal5x3 = goalText(5, 3);
  const held = [];
  const isFor5x3 = (url) => url.pathname === "/distance" && url.searchParams.get("goal") === goal5x3;
  await page.route(isFor5x3, (route) => { held.push(route.request().url()); });
  const aborted = [];
  page.on("requestfailed", (r) => {
    if (isFor5x3(new URL(r.url()))) aborted.push({ url: r.url(), error: r.failure()?.errorText });
  });
  // The 5x5 board's draw must come after the abort: on the server it would
  // wait behind the search. (It gets a second to see the abort's event;
  // otherwise the abort never came before it.)
  const abortsBeforeDraw = [];
  await page.route((url) => url.pathname === "/random" && url.searchParams.get("shape") === "5x5",
                   async (route) => {
                     await until(() => aborted.length > 0, 1000);
                     abortsBeforeDraw.push(aborted.length);
                     await route.continue();
                   });
  await page.selectOption("#shape", "5x3");
  await page.waitForFunction(() => document.getElementById("board").dataset.shape === "5x3" &&
                                   !document.getElementById("shape").disabled,
                             null, { timeout: kHangGuardMs });
  // The 5x3 board's question is asked, and stays unanswered.
  await until(() => held.length > 0);
  assert.equal(held.length, 1, "the 5x3 board's /distance was never asked");
  assert.equal(aborted.length, 0);
  await page.selectOption("#shape", "5x5");
  await page.waitForFunction(() => {
    const board = document.getElementById("board");
    return board.dataset.shape === "5x5" &&
           document.getElementById("distance").dataset.board === board.dataset.board;
  }, null, { timeout: kHangGuardMs });
  assert.deepEqual(abortsBeforeDraw, [1], "the 5x5 board was drawn with the 5x3 board's search in flight");
  assert.deepEqual(aborted, [{ url: held[0], error: "net::ERR_ABORTED" }]);
  assert.match(await page.locator("#status").textContent(), /^New puzzle: a random 5x5 board/);
  await page.unrouteAll({ behavior: "ignoreErrors" });
  assert.deepEqual(errors, []);
  await page.close();
});

// A busy server's 503 with Retry-After: the page asks again after the wait
// named, and shows the answer, not the refusal.
test("a busy server's 503 with Retry-After is asked again after the wait, and the answer shows", async () => {
  const { page, errors } = await openPage(DESKTOP);
  const refused = [];
  await page.route((url) => url.pathname === "/distance", async (route) => {
    if (refused.length < 2) {
      refused.push(Date.now());
      await route.fulfill({
        status: 503,
        headers: { "Retry-After": "1", "Content-Type": "application/problem+json" },
        body: JSON.stringify({ type: "https://eight.invalid/problems/overloaded", title: "Overloaded",
                               status: 503, detail: "busy (a test's refusal)" }),
      });
    } else {
      await route.continue();
    }
  });
  await page.click("#new");
  // Both refusals first (the page showed the last board's answer until the
  // click's draw), then the answer of the new board.
  await until(() => refused.length >= 2);
  assert.equal(refused.length, 2, "the page did not ask again after a 503 with Retry-After");
  await page.waitForFunction(() => {
    const board = document.getElementById("board");
    return /^New puzzle, 20 moves/.test(document.getElementById("status").textContent) &&
           document.getElementById("distance").dataset.board === board.dataset.board;
  }, null, { timeout: kHangGuardMs });
  assert.ok(refused[1] - refused[0] >= 900, `asked again after ${refused[1] - refused[0]} ms`);
  assert.equal(await page.locator("#distance").textContent(), "20");
  await page.unrouteAll({ behavior: "ignoreErrors" });
  assert.deepEqual(errors, []);
  await page.close();
});

// The page's retries are bounded: a server that answers 503 forever is
// asked kBusyRetries (5) times again, then a plain sentence shows; a Retry-After
// past a minute (a hostile or broken server's) is not waited for at all.
test("a server that stays busy is asked 5 times again, and a Retry-After past a minute not at all", async () => {
  const { page, errors } = await openPage(DESKTOP);
  for (const [retryAfter, asked] of [["1", 6], ["3600", 1]]) {
    const refused = [];
    await page.route((url) => url.pathname === "/distance", (route) => {
      refused.push(route.request().url());
      return route.fulfill({
        status: 503,
        headers: { "Retry-After": retryAfter, "Content-Type": "application/problem+json" },
        body: JSON.stringify({ type: "https://eight.invalid/problems/overloaded", title: "Overloaded",
                               status: 503, detail: `busy for good (Retry-After ${retryAfter})` }),
      });
    });
    await page.click("#new");
    // A plain sentence shows; the server's detail is kept out of sight.
    const detail = `busy for good (Retry-After ${retryAfter})`;
    await page.waitForFunction((d) => document.getElementById("status").dataset.detail === d,
                               detail, { timeout: kHangGuardMs });
    assert.equal(await page.locator("#status").textContent(), "The server is busy. Try again in a moment.");
    assert.ok(!(await page.locator("body").innerText()).includes(detail));
    // Nothing more is asked once the detail shows.
    await sleep(1500);
    assert.equal(refused.length, asked, `asked ${refused.length} times with Retry-After ${retryAfter}`);
    assert.equal(new Set(refused).size, 1);
    await page.unrouteAll({ behavior: "ignoreErrors" });
  }
  assert.deepEqual(errors, []);
  await page.close();
});
