#!/usr/bin/env bash
# The part of scripts/deb-test.sh that runs inside the fresh Debian 12
# container, as root: deb-test-inside.sh PATH_TO_DEB
set -euo pipefail
deb=$1
export DEBIAN_FRONTEND=noninteractive
passed=0
ok() { passed=$((passed + 1)); echo "deb-test: ok: $*"; }
die() { echo "deb-test: FAILED: $*"; exit 1; }
# Everything on the root file system but the kernel's, apt's and dpkg's own
# state, which installing anything changes.
snapshot() {
  find / -xdev \( -path /proc -o -path /sys -o -path /dev -o -path /run -o -path /tmp \
    -o -path /var/lib/dpkg -o -path /var/lib/apt -o -path /var/cache -o -path /var/log \
    -o -path /var/lib/systemd/deb-systemd-helper-enabled -o -path /var/lib/man-db \) -prune \
    -o -print | sort
}

# A real machine installs man pages: the slim base excludes them.
rm -f /etc/dpkg/dpkg.cfg.d/docker-slim
apt-get update -qq
deps=$(dpkg-deb -f "$deb" Depends | tr ',' '\n' | sed 's/(.*)//; s/|.*//; s/ //g' | grep .)
# shellcheck disable=SC2086
# ...and its Recommends, which the Python module needs (python3, NumPy).
recommends=$(dpkg-deb -f "$deb" Recommends | tr ',' '\n' | sed 's/(.*)//; s/|.*//; s/ //g' | grep . | sort -u)
# shellcheck disable=SC2086
apt-get install -y -qq --no-install-recommends $deps $recommends man-db >/dev/null
ok "the Depends and Recommends lines install: $(echo $deps $recommends | tr '\n' ' ')"
snapshot >/tmp/before

apt-get install -y --no-install-recommends "$deb" >/tmp/apt-install.log 2>&1 ||
  { cat /tmp/apt-install.log; die "apt-get install $deb"; }
newly=$(sed -n 's/^The following NEW packages will be installed:$/&/p; /^The following NEW/,/^[0-9]/p' /tmp/apt-install.log |
  grep '^ ' | tr -s ' ' '\n' | grep . | sort -u | tr '\n' ' ')
[ "$newly" = "eight " ] || die "apt-get install of the .deb brought in more than eight: $newly"
dpkg -L eight | sort >/tmp/eight-files
ok "apt-get install ./$(basename "$deb"): eight alone, $(wc -l </tmp/eight-files) paths"

[ "$(eight solve --table /usr/share/eight/eight.tbl 867254301)" = ruulddruuldldrrullurrdlldruurdd ] ||
  die "eight solve 867254301"
[ "$(echo 123/405 | eight solve --table /usr/share/eight/eight.tbl --format distance)" = 1 ] ||
  die "eight solve of a 2x3 board"
ok "eight solve 867254301: ruulddruuldldrrullurrdlldruurdd (31 moves); 123/405 (2x3): 1"
eight verify /usr/share/eight/eight.tbl >/tmp/verify.out || die "eight verify: $(cat /tmp/verify.out)"
eight verify --tables /usr/share/eight >/dev/null || die "eight verify --tables /usr/share/eight"
ok "eight verify: $(head -n1 /tmp/verify.out)"

unit=/lib/systemd/system/eight-server.service
[ -f /lib/systemd/system/eight-server.socket ] || die "no eight-server.socket"
exec_start=$(sed -n 's/^ExecStart=//p' "$unit")
exec_reload=$(sed -n 's/^ExecReload=//p' "$unit")
[ -n "$exec_start" ] && [ -n "$exec_reload" ] || die "no ExecStart= or ExecReload= in $unit"
# As systemd runs it: an unprivileged user (DynamicUser), the unit's line.
# shellcheck disable=SC2086
setpriv --reuid=65534 --regid=65534 --clear-groups $exec_start 2>/tmp/server.log &
server=$!
ready=""
for _ in $(seq 1 100); do
  if eight probe --port 8080 --path /readyz >/dev/null 2>&1; then ready=1; break; fi
  sleep 0.1
done
[ -n "$ready" ] || { cat /tmp/server.log; die "'$exec_start' does not answer /readyz on 127.0.0.1:8080"; }
exec 3<>/dev/tcp/127.0.0.1/8080
printf 'GET /solve?board=867254301 HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n' >&3
answer=$(timeout 10 cat <&3)
exec 3>&-
case "$answer" in *'"distance":31'*) ;; *) die "/solve?board=867254301: $answer" ;; esac
ok "'$exec_start' (from the unit, as nobody) answers /readyz and /solve on 127.0.0.1:8080"
# As systemd runs a control process: MAINPID in its environment.
export MAINPID=$server
eval "$exec_reload"
for _ in $(seq 1 50); do grep -q 'SIGHUP: reloaded' /tmp/server.log && break; sleep 0.1; done
grep -q 'SIGHUP: reloaded' /tmp/server.log || { cat /tmp/server.log; die "ExecReload did not reload"; }
kill -TERM "$server"
status=0
wait "$server" || status=$?
[ "$status" = 0 ] || { cat /tmp/server.log; die "exit status $status after SIGTERM"; }
ok "the unit's ExecReload ('$exec_reload') reloads the tables; SIGTERM: exit 0"

MANPAGER=cat MANWIDTH=80 man eight 2>/tmp/man.err >/tmp/man.out || die "man eight: $(cat /tmp/man.err)"
grep -q 'eight - exact answers for sliding puzzles' /tmp/man.out || die "man eight shows: $(head -5 /tmp/man.out)"
MANPAGER=cat man 8 eight-server | grep -q 'SOCKET ACTIVATION' || die "man 8 eight-server"
ok "man eight and man 8 eight-server"
completed=$(bash -c 'source /usr/share/bash-completion/completions/eight
COMP_WORDS=(eight so); COMP_CWORD=1; _eight; echo "${COMPREPLY[*]}"')
[ "$completed" = solve ] || die "completing 'eight so' gave '$completed'"
ok "bash completion: 'eight so' completes to solve"
[ -f /usr/share/doc/eight/copyright ] || die "no /usr/share/doc/eight/copyright"
# The Python module, from Debian's python3, anywhere (not the source tree).
py=$(cd / && python3 -c 'import eight
print(eight.__file__)
print(eight.solve("867254301").distance, eight.Tables.open("/usr/share/eight/eight.tbl").solve("867254301").path)')
[ "$py" = "/usr/lib/python3/dist-packages/eight/__init__.py
31 ruulddruuldldrrullurrdlldruurdd" ] || die "python3 -c 'import eight': $py"
ok "python3: import eight from /usr/lib/python3/dist-packages answers 867254301 in 31"

apt-get remove -y eight >/tmp/apt-remove.log 2>&1 || { cat /tmp/apt-remove.log; die "apt-get remove eight"; }
status=$(dpkg-query -W -f='${Status}' eight)
[ "$status" = "deinstall ok config-files" ] || die "after remove, dpkg says '$status'"
conffiles=$(dpkg-query -W -f='${Conffiles}' eight | awk 'NF { print $1 }')
[ "$conffiles" = /etc/default/eight-server ] || die "conffiles: $conffiles"
left=""
while read -r f; do
  [ -e "$f" ] && [ ! -d "$f" ] && [ "$f" != /etc/default/eight-server ] && left+=" $f"
done </tmp/eight-files
[ -z "$left" ] || die "left behind after remove:$left"
snapshot >/tmp/after
changed=$(comm -3 /tmp/before /tmp/after | tr -d '\t')
[ "$changed" = /etc/default/eight-server ] || die "the file system differs by more than the conffile: $changed"
ok "apt-get remove eight: config-files; only /etc/default/eight-server is left"
echo "deb-test: $passed passed, 0 failed"
