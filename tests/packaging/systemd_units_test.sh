#!/usr/bin/env bash
# The systemd units as `cmake --install` writes them:
#   - `systemd-analyze verify` passes on both, with no message at all (it
#     checks every directive, that ExecStart's and ExecReload's programs
#     exist and that Documentation='s man page opens);
#   - the service has the sandbox docs/deployment.md promises, directive by
#     directive, and ExecReload sends SIGHUP;
#   - `systemd-analyze security --offline=yes` scores it at most
#     MAX_EXPOSURE (the score recorded in docs/deployment.md).
# Installed into a temporary prefix, so ExecStart names a program that exists.
#   systemd_units_test.sh BUILD_DIR MAX_EXPOSURE
set -euo pipefail
build=$1
max_exposure=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
prefix=$work/prefix
cmake --install "$build" --prefix "$prefix" --component runtime >/dev/null
units=$prefix/lib/systemd/system
service=$units/eight-server.service
socket=$units/eight-server.socket
fail() { echo "FAIL: $*"; exit 1; }

grep -qx "ExecStart=$prefix/bin/eight-server --tables $prefix/share/eight --pdb-dir /var/lib/eight" "$service" ||
  fail "ExecStart is not the installed eight-server on the installed tables: $(grep ExecStart= "$service")"

out=$(MANPATH=$prefix/share/man SYSTEMD_LOG_LEVEL=notice systemd-analyze verify "$service" "$socket" 2>&1) ||
  fail "systemd-analyze verify: $out"
[ -z "$out" ] || fail "systemd-analyze verify printed: $out"
echo "ok: systemd-analyze verify passes on eight-server.service and eight-server.socket"

for want in DynamicUser=yes ProtectSystem=strict NoNewPrivileges=yes CapabilityBoundingSet= \
  SystemCallFilter=@system-service MemoryDenyWriteExecute=yes PrivateTmp=yes PrivateDevices=yes \
  DevicePolicy=closed ProtectHome=yes StateDirectory=eight "ExecReload=/bin/sh -c 'kill -HUP \"\$MAINPID\"'"; do
  grep -qxF "$want" "$service" || fail "eight-server.service lacks $want"
done
grep -qx 'ListenStream=127.0.0.1:8080' "$socket" || fail "eight-server.socket does not listen on 127.0.0.1:8080"
echo "ok: the service has every directive of the sandbox; ExecReload sends SIGHUP"

report=$(systemd-analyze security --offline=yes "$service" 2>&1) || fail "systemd-analyze security: $report"
score=$(echo "$report" | sed -n 's/.*Overall exposure level for eight-server.service: \([0-9.]*\).*/\1/p')
[ -n "$score" ] || fail "no exposure level in: $(echo "$report" | tail -n 3)"
awk -v s="$score" -v m="$max_exposure" 'BEGIN { exit !(s <= m) }' ||
  fail "exposure $score is above $max_exposure: $(echo "$report" | grep '✗')"
echo "ok: systemd-analyze security: exposure $score (at most $max_exposure)"
