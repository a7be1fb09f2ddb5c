#!/usr/bin/env bash
# Socket activation for real: systemd-socket-activate (from the systemd
# package) binds a free loopback port and, at the first connection, execs
# eight-server with LISTEN_PID/LISTEN_FDS=1 and the socket as descriptor 3,
# as eight-server.socket does. Checks that
#   - /readyz answers 200 on that port, with the table's checksum, and the
#     server says it serves the socket passed; its own --port is never bound;
#   - SIGHUP (the unit's ExecReload) reloads the table, SIGTERM stops it, exit 0;
#   - two sockets passed (LISTEN_FDS=2) are refused: exit 4, with the reason;
#   - LISTEN_PID naming another process leaves the server on its own --port.
#   socket_activation_test.sh BIN_DIR TABLE
set -euo pipefail
bin=$1
table=$2
work=$(mktemp -d)
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  rm -rf "$work"
}
trap cleanup EXIT
fail() {
  echo "FAIL: $*"
  for f in "$work"/*.log; do [ -f "$f" ] && { echo "--- $f"; cat "$f"; }; done
  exit 1
}
free_port() {
  python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}
# get PORT PATH: the status and body of an HTTP GET on loopback.
get() {
  python3 - "$1" "$2" <<'PY'
import sys, urllib.request, urllib.error
try:
    with urllib.request.urlopen(f"http://127.0.0.1:{sys.argv[1]}{sys.argv[2]}", timeout=10) as r:
        print(r.status, r.read().decode())
except urllib.error.HTTPError as e:
    print(e.code, e.read().decode())
except OSError as e:
    print("000", e)
PY
}
wait_for_log() {  # FILE TEXT: up to 10 s
  for _ in $(seq 1 200); do
    grep -qF "$2" "$1" && return 0
    sleep 0.05
  done
  return 1
}

# The header's checksum, as eight info prints it once it has checked it (the
# build proved the table's entries: eight verify, cmake/install.cmake).
checksum=$("$bin/eight" info "$table" | sed -n 's/^checksum *\([0-9a-f]*\) .*/\1/p')
[ -n "$checksum" ] || fail "eight info printed no checksum"

port=$(free_port)
own_port=$(free_port)
systemd-socket-activate -l "127.0.0.1:$port" \
  "$bin/eight-server" --table "$table" --host 127.0.0.1 --port "$own_port" 2>"$work/server.log" &
pids+=($!)
activator=$!
wait_for_log "$work/server.log" "Listening on 127.0.0.1:$port" || fail "systemd-socket-activate did not listen on $port"
# The first connection starts the server; it is answered by it.
answer=$(get "$port" /readyz)
[ "${answer%% *}" = 200 ] || fail "/readyz through the passed socket answered: $answer"
case "$answer" in *"$checksum"*) ;; *) fail "/readyz does not name the table's checksum $checksum: $answer" ;; esac
wait_for_log "$work/server.log" "listening on http://127.0.0.1:$port, the socket passed by the service manager (table" ||
  fail "the server did not say it serves the passed socket"
[ "$(get "$own_port" /readyz | cut -d' ' -f1)" = 000 ] || fail "the server also bound its own --port $own_port"
answer=$(get "$port" '/solve?board=867254301')
case "$answer" in "200 "*'"distance":31,'*'"path":"ruulddruuldldrrullurrdlldruurdd"'*) ;; *) fail "/solve?board=867254301: $answer" ;; esac
echo "ok: socket-activated on 127.0.0.1:$port: /readyz 200 (checksum $checksum), /solve 31 moves, --port $own_port unbound"

# systemd-socket-activate execs the server: same process.
kill -HUP "$activator"
wait_for_log "$work/server.log" "SIGHUP: reloaded table $table" || fail "SIGHUP did not reload the table"
kill -TERM "$activator"
status=0
wait "$activator" || status=$?
[ "$status" = 0 ] || fail "exit status $status after SIGTERM"
echo "ok: SIGHUP reloaded the table; SIGTERM stopped the server, exit 0"

# Two sockets: refused, exit 4 (cannot listen).
port2=$(free_port)
systemd-socket-activate -l "127.0.0.1:$port" -l "127.0.0.1:$port2" \
  "$bin/eight-server" --table "$table" 2>"$work/two.log" &
activator=$!
pids+=($activator)
wait_for_log "$work/two.log" "Listening on 127.0.0.1:$port2" || fail "systemd-socket-activate did not listen twice"
get "$port" /readyz >/dev/null || true
status=0
wait "$activator" || status=$?
[ "$status" = 4 ] || fail "two sockets: exit status $status, not 4"
grep -qF "LISTEN_FDS is 2: eight-server takes exactly one listening socket" "$work/two.log" ||
  fail "two sockets: no reason given"
echo "ok: two sockets passed: exit 4, 'takes exactly one listening socket'"

# Variables meant for another process (a parent's): ignored.
own_port=$(free_port)
LISTEN_PID=1 LISTEN_FDS=1 "$bin/eight-server" --table "$table" --port "$own_port" 2>"$work/own.log" &
pids+=($!)
server=$!
wait_for_log "$work/own.log" "listening on http://127.0.0.1:$own_port (table" ||
  fail "with another process's LISTEN_PID the server did not bind its own --port"
[ "$(get "$own_port" /readyz | cut -d' ' -f1)" = 200 ] || fail "/readyz on its own --port"
kill -TERM "$server"
wait "$server" || fail "exit status $? after SIGTERM"
echo "ok: LISTEN_PID of another process: the server binds its own --port $own_port"
