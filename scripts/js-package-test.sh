#!/usr/bin/env bash
# The JavaScript package as a user gets it: `npm pack` of the built package
# (make js), its size (JavaScript and WebAssembly together, gzipped, under
# the 200 KB floor of issue 21), installed from the tarball into a fresh
# project (offline: it has no dependencies), imported from outside the tree
# by Node, and its declarations checked by Debian's TypeScript (tsc
# --strict) against tests/js/types_check.ts.
#   js-package-test.sh PACKAGE_DIR    (build-js/js/package)
set -euo pipefail
package=$(cd "${1:-build-js/js/package}" && pwd)
src=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

tarball=$(cd "$work" && npm pack --silent "$package")
tar -tzf "$work/$tarball" | sort > "$work/files"
for f in package/index.js package/index.d.ts package/client.js package/client.d.ts package/answer_fields.js package/board_text.js \
         package/eight-wasm.mjs package/eight-wasm.wasm package/package.json package/README.md; do
  grep -qx "$f" "$work/files" || { echo "js-package-test: $tarball lacks $f" >&2; exit 1; }
done
# The floor: everything a page downloads to play, gzipped (-9), one file at
# a time as a server sends them.
size=0
for f in index.js client.js answer_fields.js board_text.js eight-wasm.mjs eight-wasm.wasm; do
  size=$((size + $(gzip -9c "$package/$f" | wc -c)))
done
echo "js-package-test: $tarball: JavaScript and WebAssembly $size bytes gzipped (floor: under 204800)"
[ "$size" -lt 204800 ] || { echo "js-package-test: over 200 KB gzipped" >&2; exit 1; }

mkdir -p "$work/app"
cd "$work/app"
printf '{"name": "app", "private": true, "type": "module"}\n' > package.json
npm install --silent --offline --no-audit --no-fund "$work/$tarball"
node --input-type=module -e '
  import { Eight, EightClient } from "eight";
  const e = await Eight.build({ shapes: "3x3" });
  const a = e.solve("867254301");
  if (a.distance !== 31 || a.path.length !== 31) throw new Error("867254301: " + JSON.stringify(a));
  if (typeof EightClient !== "function") throw new Error("no EightClient");
  console.log("js-package-test: installed from the tarball, 867254301 in " + a.distance + " moves");
'
cp "$src/tests/js/types_check.ts" .
# (No @types/node: the package's declarations need none.)
tsc --strict --noEmit --target es2022 --module nodenext --moduleResolution nodenext types_check.ts
echo "ok: npm pack, under 200 KB gzipped, installed offline, imported, and its types check with tsc --strict"
