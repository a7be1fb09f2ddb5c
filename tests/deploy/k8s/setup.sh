#!/usr/bin/env bash
# Installs what the Kubernetes manifest validation needs into WORKDIR (a build
# folder, so the source tree stays clean): Node.js and npm from Debian when the
# commands are missing, then package-lock.json's exact packages with `npm ci`.
# Skips npm ci when WORKDIR already holds the same lock file's packages.
#
#   tests/deploy/k8s/setup.sh WORKDIR
set -euo pipefail
src=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$src/../../.." && pwd)
work=${1:?usage: setup.sh WORKDIR}

if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
  "$root/scripts/install-deps.sh" nodejs npm
fi
major=$(node -p 'process.versions.node.split(".")[0]')
if [ "$major" -lt 18 ]; then
  echo "k8s validation: Node.js $(node --version) is too old; 18 or later is needed" >&2
  exit 1
fi

mkdir -p "$work"
want=$(cat "$src/package.json" "$src/package-lock.json" | sha256sum | cut -d' ' -f1)
if [ -d "$work/node_modules" ] && [ "$(cat "$work/.installed" 2>/dev/null)" = "$want" ]; then
  echo "k8s validation: packages up to date in $work (node $(node --version))"
  exit 0
fi
cp "$src/package.json" "$src/package-lock.json" "$work/"
(cd "$work" && npm ci --no-audit --no-fund --loglevel=error)
echo "$want" >"$work/.installed"
echo "k8s validation: installed $(cd "$work" && npm ls --depth=0 --parseable 2>/dev/null | sed 1d | xargs -n1 basename | tr '\n' ' ')with node $(node --version), npm $(npm --version)"
