# Sourced by scripts/container-test.sh and scripts/fresh-machine-test.sh, from
# the repository's root, after CACHE, BASE_MAX_AGE_DAYS, say, die and now_ms are
# set. Sets BASE, BASE_REF and SUITE; defines setup_podman (podman + runc with
# this project's containers.conf and storage under $CACHE) and
# ensure_base_podman (the Dockerfile's base image, debootstrapped from apt's
# own mirror, imported under the FROM's name and cached).

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

