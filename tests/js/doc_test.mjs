// docs/javascript.md's examples run, and print what the page shows: each
// ```js block followed by a ```text block runs in a fresh Node process that
// imports "eight" (the built package, linked into a scratch project's
// node_modules) and must print exactly that text; a block with no text
// after it (the client's, which needs a server) must at least parse.
//
//   EIGHT_JS_PACKAGE=build-js/js/package node --test tests/js/doc_test.mjs
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const pkg = resolve(process.env.EIGHT_JS_PACKAGE ?? "build-js/js/package");
const page = readFileSync(join(root, "docs/javascript.md"), "utf8");

const blocks = [...page.matchAll(/```(js|text)\n([\s\S]*?)```/g)].map((m) => ({ lang: m[1], body: m[2] }));

test("every example of docs/javascript.md runs and prints what the page shows", () => {
  const scratch = mkdtempSync(join(tmpdir(), "eight-js-doc-"));
  try {
    mkdirSync(join(scratch, "node_modules"));
    symlinkSync(pkg, join(scratch, "node_modules", "eight"), "dir");
    let ran = 0;
    let parsed = 0;
    blocks.forEach((b, i) => {
      if (b.lang !== "js") return;
      const file = join(scratch, `example${i}.mjs`);
      writeFileSync(file, b.body);
      const shown = blocks[i + 1]?.lang === "text" ? blocks[i + 1].body : null;
      if (shown === null) {
        const check = spawnSync(process.execPath, ["--check", file], { encoding: "utf8" });
        assert.equal(check.status, 0, `block ${i} does not parse: ${check.stderr}`);
        ++parsed;
        return;
      }
      const run = spawnSync(process.execPath, [file], { cwd: scratch, encoding: "utf8", timeout: 120000 });
      assert.equal(run.status, 0, `block ${i} failed: ${run.stderr}`);
      assert.equal(run.stdout, shown, `block ${i} printed something else than the page shows`);
      ++ran;
    });
    assert.ok(ran >= 3 && parsed >= 1, `${ran} blocks ran, ${parsed} parsed`);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
});
