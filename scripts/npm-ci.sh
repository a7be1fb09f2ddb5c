#!/usr/bin/env bash
# Installs a test's npm packages into a build folder (the source tree stays
# clean): Node.js and npm from Debian when the commands are missing, then
# the lock file's exact packages with `npm ci`. Skips npm ci when WORKDIR
# already holds the same lock file's packages.
#
#   scripts/npm-ci.sh SRCDIR WORKDIR MIN_NODE_MAJOR NAME
# SRCDIR holds package.json and package-lock.json; NAME labels the messages.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
src=$(cd "${1:?usage: npm-ci.sh SRCDIR WORKDIR MIN_NODE_MAJOR NAME}" && pwd)
work=${2:?}
min=${3:?}
name=${4:?}

if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
  "$root/scripts/install-deps.sh" nodejs npm
fi
major=$(node -p 'process.versions.node.split(".")[0]')
if [ "$major" -lt "$min" ]; then
  echo "$name: Node.js $(node --version) is too old; $min or later is needed" >&2
  exit 1
fi

mkdir -p "$work"
want=$(cat "$src/package.json" "$src/package-lock.json" | sha256sum | cut -d' ' -f1)
if [ -d "$work/node_modules" ] && [ "$(cat "$work/.installed" 2>/dev/null)" = "$want" ]; then
  echo "$name: packages up to date in $work (node $(node --version))"
  exit 0
fi
cp "$src/package.json" "$src/package-lock.json" "$work/"
(cd "$work" && npm ci --no-audit --no-fund --loglevel=error)
echo "$want" >"$work/.installed"
echo "$name: installed $(cd "$work" && npm ls --depth=0 --parseable 2>/dev/null | sed 1d | xargs -n1 basename | tr '\n' ' ')with node $(node --version), npm $(npm --version)"
