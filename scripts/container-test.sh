#!/usr/bin/env bash
# make container-test: builds the image from the Dockerfile and checks it for
# real: runs it on a loopback port, checks /readyz, a /solve answer, the /table
# ETag against the table's checksum and the health check, stops it and checks
# it exited 0 within 2 seconds, then removes the container. Prints the image
# size and the time from `run` to ready.
#
# Engine: docker when a Docker engine answers, else podman (rootful, as CI
# runs), installed from Debian with runc and debootstrap when missing. With
# podman everything lives under a cache folder ($EIGHT_CONTAINER_CACHE, else
# ${XDG_CACHE_HOME:-~/.cache}/eight-container): its own containers.conf
# (runc, lowered default ulimits: crun and the stock limits fail on these
# machines), its own image storage, and the Debian base image, built with
# debootstrap --variant=minbase from the mirror this machine's apt uses and
# imported under the exact name the Dockerfile's FROM uses, so the build runs
# with --pull=never and the same Dockerfile builds unchanged where a registry
# exists.
#
# Environment:
#   EIGHT_CONTAINER_ENGINE   docker or podman (default: docker if its engine answers)
#   EIGHT_CONTAINER_CACHE    cache folder (see above)
#   EIGHT_IMAGE              tag to build (default localhost/eight:test)
#   EIGHT_BASE_MAX_AGE_DAYS  rebuild the cached base image when older (default 30)
#   EIGHT_DEBIAN_MIRROR      Debian mirror for debootstrap (default: from apt's sources)
set -euo pipefail
cd "$(dirname "$0")/.."

IMAGE=${EIGHT_IMAGE:-localhost/eight:test}
CACHE=${EIGHT_CONTAINER_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/eight-container}
BASE_MAX_AGE_DAYS=${EIGHT_BASE_MAX_AGE_DAYS:-30}
READY_TIMEOUT_S=30
STOP_LIMIT_MS=2000
NAME=eight-container-test-$$

mkdir -p "$CACHE"

say() { echo "container-test: $*"; }
die() { echo "container-test: FAILED: $*" >&2; exit 1; }
now_ms() { echo $(( $(date +%s%N) / 1000000 )); }

# ---------------------------------------------------------------- engine

ENGINE=${EIGHT_CONTAINER_ENGINE:-}
if [ -z "$ENGINE" ]; then
  if command -v docker >/dev/null 2>&1 && timeout 20 docker info >/dev/null 2>&1; then
    ENGINE=docker
  else
    ENGINE=podman
  fi
fi
case "$ENGINE" in docker | podman) ;; *) die "unknown engine '$ENGINE'" ;; esac

# The base image the Dockerfile builds FROM (its first FROM), fully qualified.
BASE=$(awk 'toupper($1) == "FROM" { print $2; exit }' Dockerfile)
[ -n "$BASE" ] || die "no FROM in Dockerfile"
case "$BASE" in
  */*/*) BASE_REF=$BASE ;;
  */*) BASE_REF=docker.io/$BASE ;;
  *) BASE_REF=docker.io/library/$BASE ;;
esac
SUITE=${BASE#*:}
SUITE=${SUITE%%-*}  # debian:bookworm-slim -> bookworm

# The first URI of an enabled "deb" source for SUITE in apt's sources
# (deb822 *.sources and one-line *.list files alike).
apt_source_uri() {
  local suite=$1 f
  for f in /etc/apt/sources.list.d/*.sources; do
    [ -f "$f" ] || continue
    awk -v want="$suite" '
      function flush() {
        if (enabled && (" " types " ") ~ / deb / && (" " suites " ") ~ (" " want " ") && uris != "") {
          split(uris, u, " "); print u[1]; found = 1; exit
        }
        types = ""; suites = ""; uris = ""; enabled = 1
      }
      BEGIN { enabled = 1 }
      /^[ \t]*#/ { next }
      /^[ \t]*$/ { flush(); next }
      { key = tolower($1); $1 = "" }
      key == "types:" { types = $0 }
      key == "uris:" { uris = $0 }
      key == "suites:" { suites = $0 }
      key == "enabled:" && tolower($2) == "no" { enabled = 0 }
      END { if (!found) flush() }' "$f"
  done | head -n1 | grep . && return 0
  cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null |
    sed -e 's/#.*//' -e 's/\[[^]]*\]//' |
    awk -v want="$suite" '$1 == "deb" && $3 == want { print $2; exit }' | grep .
}

# ---------------------------------------------------------------- podman set-up

setup_podman() {
  scripts/install-deps.sh podman runc debootstrap
  mkdir -p "$CACHE/storage" "$CACHE/run" "$CACHE/tmp" "$CACHE/base"
  cat >"$CACHE/containers.conf" <<EOF
# Written by scripts/container-test.sh: runc (crun fails here) and default
# ulimits within this machine's hard limits.
[containers]
default_ulimits = ["nofile=20000:20000", "nproc=4096:4096"]

[engine]
runtime = "runc"
cgroup_manager = "cgroupfs"
events_logger = "file"
events_logfile_path = "$CACHE/events.log"
EOF
  cat >"$CACHE/storage.conf" <<EOF
# Written by scripts/container-test.sh: this project's own image storage.
[storage]
driver = "overlay"
runroot = "$CACHE/run"
graphroot = "$CACHE/storage"
EOF
  export CONTAINERS_CONF=$CACHE/containers.conf
  export CONTAINERS_STORAGE_CONF=$CACHE/storage.conf
  export TMPDIR=$CACHE/tmp
}

# Builds the base image's root file system with debootstrap, made like the
# official -slim images (no docs, man pages or locales; apt keeps no caches).
build_base_tarball() {
  local tarball=$1 mirror security updates root
  mirror=${EIGHT_DEBIAN_MIRROR:-$(apt_source_uri "$SUITE" || true)}
  [ -n "$mirror" ] || die "no Debian mirror for $SUITE in /etc/apt/sources.list{,.d}; set EIGHT_DEBIAN_MIRROR"
  security=$(apt_source_uri "$SUITE-security" || true)
  updates=$(apt_source_uri "$SUITE-updates" || true)
  root=$(mktemp -d "$CACHE/tmp/rootfs.XXXXXX")
  say "building the $BASE_REF base: debootstrap --variant=minbase $SUITE from apt's mirror"
  local t0
  t0=$(now_ms)
  if ! debootstrap --variant=minbase --components=main "$SUITE" "$root" "$mirror" \
    >"$CACHE/debootstrap.log" 2>&1; then
    tail -n 20 "$CACHE/debootstrap.log" >&2
    rm -rf "$root"
    die "debootstrap failed (log: $CACHE/debootstrap.log)"
  fi
  # apt sources of the image: the same mirrors as this machine's.
  rm -f "$root/etc/apt/sources.list"
  {
    echo "Types: deb"
    echo "URIs: $mirror"
    echo "Suites: $SUITE${updates:+ $SUITE-updates}"
    echo "Components: main"
    echo "Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg"
    if [ -n "$security" ]; then
      echo
      echo "Types: deb"
      echo "URIs: $security"
      echo "Suites: $SUITE-security"
      echo "Components: main"
      echo "Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg"
    fi
  } >"$root/etc/apt/sources.list.d/debian.sources"
  cat >"$root/etc/dpkg/dpkg.cfg.d/docker-slim" <<'EOF'
path-exclude /usr/share/doc/*
path-include /usr/share/doc/*/copyright
path-exclude /usr/share/groff/*
path-exclude /usr/share/info/*
path-exclude /usr/share/linda/*
path-exclude /usr/share/lintian/overrides/*
path-exclude /usr/share/locale/*
path-exclude /usr/share/man/*
EOF
  cat >"$root/etc/apt/apt.conf.d/docker-clean" <<'EOF'
DPkg::Post-Invoke { "rm -f /var/cache/apt/archives/*.deb /var/cache/apt/archives/partial/*.deb /var/cache/apt/*.bin || true"; };
APT::Update::Post-Invoke { "rm -f /var/cache/apt/archives/*.deb /var/cache/apt/archives/partial/*.deb /var/cache/apt/*.bin || true"; };
Dir::Cache::pkgcache "";
Dir::Cache::srcpkgcache "";
EOF
  echo 'Acquire::Languages "none";' >"$root/etc/apt/apt.conf.d/docker-no-languages"
  echo 'Acquire::GzipIndexes "true";' >"$root/etc/apt/apt.conf.d/docker-gzip-indexes"
  printf '#!/bin/sh\nexit 101\n' >"$root/usr/sbin/policy-rc.d"
  chmod 0755 "$root/usr/sbin/policy-rc.d"
  find "$root/usr/share/doc" -mindepth 1 -not -name copyright -not -type d -delete 2>/dev/null || true
  find "$root/usr/share/doc" -mindepth 1 -type d -empty -delete 2>/dev/null || true
  rm -rf "$root"/usr/share/{man,info,groff,linda,lintian/overrides}/* "$root"/usr/share/locale/*
  rm -rf "$root"/var/lib/apt/lists/* "$root"/var/cache/apt/*.bin "$root"/var/cache/apt/archives/*.deb
  rm -rf "$root"/var/log/*.log "$root"/var/log/apt/* "$root"/debootstrap
  : >"$root/etc/machine-id"
  rm -f "$root/etc/hostname" "$root/etc/resolv.conf"
  tar --numeric-owner --xattrs -C "$root" -cf "$tarball.tmp" .
  mv "$tarball.tmp" "$tarball"
  rm -rf "$root"
  say "base root file system: $(du -h "$tarball" | cut -f1) in $(( ($(now_ms) - t0) / 1000 )) s"
}

ensure_base_podman() {
  local tarball=$CACHE/base/debian-$SUITE-minbase.tar
  local fresh=0
  if [ ! -s "$tarball" ] || [ -n "$(find "$tarball" -mtime +"$BASE_MAX_AGE_DAYS" 2>/dev/null)" ]; then
    build_base_tarball "$tarball"
    fresh=1
  fi
  if [ "$fresh" = 1 ] || ! podman image exists "$BASE_REF"; then
    podman rmi -f "$BASE_REF" >/dev/null 2>&1 || true
    podman import --quiet --change 'CMD ["bash"]' --message "debootstrap --variant=minbase $SUITE" \
      "$tarball" "$BASE_REF" >/dev/null
    say "imported the base as $BASE_REF"
  else
    say "base $BASE_REF from the cache ($CACHE)"
  fi
}

# ---------------------------------------------------------------- HTTP over bash

WORK=$(mktemp -d)
# http_get PORT PATH [HEADER]: fetches into $WORK/head (status line and
# headers, CR stripped) and $WORK/body. No curl needed in the image or here.
http_get() {
  local port=$1 path=$2 extra=${3:-}
  : >"$WORK/raw"
  (
    exec 3<>"/dev/tcp/127.0.0.1/$port" || exit 1
    printf 'GET %s HTTP/1.1\r\nHost: 127.0.0.1:%s\r\n%sConnection: close\r\n\r\n' \
      "$path" "$port" "${extra:+$extra$'\r\n'}" >&3
    timeout 10 cat <&3 >"$WORK/raw"
  ) 2>/dev/null || true
  local head_bytes
  head_bytes=$(LC_ALL=C awk '{ n += length($0) + 1 } /^\r?$/ { print n; exit }' "$WORK/raw")
  LC_ALL=C awk '{ sub(/\r$/, "") } /^$/ { exit } { print }' "$WORK/raw" >"$WORK/head"
  tail -c +"$(( ${head_bytes:-0} + 1 ))" "$WORK/raw" >"$WORK/body"
}
http_status() { awk 'NR == 1 { print $2 }' "$WORK/head"; }
http_header() { awk -v h="$(echo "$1" | tr 'A-Z' 'a-z')" 'index(tolower($0), h ": ") == 1 { sub(/^[^:]*: */, ""); print; exit }' "$WORK/head"; }

# ---------------------------------------------------------------- run

cleanup() {
  "$ENGINE" rm -f "$NAME" >/dev/null 2>&1 || true
  rm -rf "$WORK"
}
trap cleanup EXIT

say "engine: $ENGINE ($("$ENGINE" --version 2>/dev/null | head -n1 || echo '?'))"
build_args=(--build-arg "REVISION=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)")
if [ "$ENGINE" = podman ]; then
  setup_podman
  ensure_base_podman
  # Docker image format, so HEALTHCHECK is kept (the OCI format drops it).
  build_args+=(--format docker --pull=never)
fi

say "building $IMAGE (build stage: deps, build, suite, table)"
t0=$(now_ms)
if ! "$ENGINE" build "${build_args[@]}" -t "$IMAGE" -f Dockerfile . >"${CACHE}/build.log" 2>&1; then
  tail -n 40 "$CACHE/build.log" >&2
  die "image build failed (log: $CACHE/build.log)"
fi
say "built in $(( ($(now_ms) - t0) / 1000 )) s (log: $CACHE/build.log)"
grep -E 'tests passed|tests failed' "$CACHE/build.log" | tail -n1 | sed 's/^/container-test: build-stage suite: /' || true

size_bytes=$("$ENGINE" image inspect --format '{{.Size}}' "$IMAGE")
say "image size: $(( size_bytes / 1000000 )) MB ($size_bytes bytes)"
user=$("$ENGINE" image inspect --format '{{.Config.User}}' "$IMAGE")
[ -n "$user" ] && [ "${user%%:*}" != 0 ] && [ "${user%%:*}" != root ] || die "image runs as '$user'"

t0=$(now_ms)
# podman without systemd (as here) says it cannot set up the health check's
# timer; the check itself still runs on demand below.
if ! "$ENGINE" run -d --name "$NAME" -p 127.0.0.1::8080 "$IMAGE" >/dev/null 2>"$WORK/run.err"; then
  cat "$WORK/run.err" >&2
  die "$ENGINE run failed"
fi
port=$("$ENGINE" port "$NAME" 8080/tcp | head -n1 | sed 's/.*://')
[ -n "$port" ] || die "no host port for 8080"
ready=""
while [ $(( $(now_ms) - t0 )) -lt $(( READY_TIMEOUT_S * 1000 )) ]; do
  http_get "$port" /readyz
  if [ "$(http_status)" = 200 ]; then
    ready=$(( $(now_ms) - t0 ))
    break
  fi
  sleep 0.05
done
if [ -z "$ready" ]; then
  "$ENGINE" logs "$NAME" 2>&1 | tail -n 20 >&2
  die "not ready on 127.0.0.1:$port within ${READY_TIMEOUT_S} s"
fi
say "run to ready: ${ready} ms (/readyz 200 on 127.0.0.1:$port)"

http_get "$port" "/solve?board=867254301"
[ "$(http_status)" = 200 ] && grep -q '"distance": *31' "$WORK/body" &&
  grep -q '"path": *"ruulddruuldldrrullurrdlldruurdd"' "$WORK/body" ||
  die "/solve?board=867254301 answered $(http_status): $(head -c 300 "$WORK/body")"
say "/solve?board=867254301: 31 moves, ruulddruuldldrrullurrdlldruurdd"

checksum=$("$ENGINE" exec "$NAME" eight verify | sed -n 's/.*checksum \([0-9a-f]*\).*/\1/p')
[ -n "$checksum" ] || die "eight verify in the container printed no checksum"
http_get "$port" /table
etag=$(http_header etag)
[ "$(http_status)" = 200 ] || die "/table answered $(http_status)"
[ "$(stat -c %s "$WORK/body")" = "$(http_header content-length)" ] || die "/table body is not Content-Length long"
case "$etag" in *"$checksum"*) ;; *) die "/table ETag '$etag' does not hold the table checksum $checksum" ;; esac
http_get "$port" /table "If-None-Match: $etag"
[ "$(http_status)" = 304 ] || die "/table with If-None-Match: $etag answered $(http_status), not 304"
say "/table ETag $etag is the table's checksum; If-None-Match gives 304"

if [ "$ENGINE" = podman ]; then
  podman healthcheck run "$NAME" >/dev/null || die "health check reports unhealthy"
  health=$(podman inspect --format '{{.State.Health.Status}}' "$NAME" 2>/dev/null ||
    podman inspect --format '{{.State.Healthcheck.Status}}' "$NAME")
else
  health=""
  for _ in $(seq 1 40); do
    health=$(docker inspect --format '{{.State.Health.Status}}' "$NAME")
    [ "$health" = healthy ] && break
    sleep 0.5
  done
fi
[ "$health" = healthy ] || die "health status '$health'"
say "health check: $health"

t0=$(now_ms)
# (podman without systemd also complains here that it has no health-check timer to remove)
"$ENGINE" stop -t 10 "$NAME" >/dev/null 2>"$WORK/stop.err" || { cat "$WORK/stop.err" >&2; die "stop failed"; }
stopped=$(( $(now_ms) - t0 ))
code=$("$ENGINE" inspect --format '{{.State.ExitCode}}' "$NAME")
[ "$code" = 0 ] || die "exit code $code after stop"
[ "$stopped" -lt "$STOP_LIMIT_MS" ] || die "stop took ${stopped} ms (limit ${STOP_LIMIT_MS} ms)"
say "stopped in ${stopped} ms, exit code $code"

"$ENGINE" rm "$NAME" >/dev/null 2>&1 || die "cannot remove $NAME"
if [ "$ENGINE" = podman ]; then
  # Drop the build stage's layers (about 400 MB) so the cache does not grow
  # run after run: it keeps the base and the image just tested, and every run
  # builds the build stage afresh (deps, build, suite, table).
  podman image prune -f >/dev/null 2>&1 || true
fi
rm -rf "$WORK"
trap - EXIT
say "passed: image $(( size_bytes / 1000000 )) MB, ready in ${ready} ms, stopped in ${stopped} ms"
