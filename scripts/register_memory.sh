#!/bin/sh
# Resident memory of `umpire serve` around 128 concurrent registrations (issue 31, item 11).
# Usage: scripts/register_memory.sh [UMPIRE_BINARY]   (default target/ci/umpire). Linux only (/proc).
# Needs curl; binds client sockets to 127.0.0.2-127.0.0.9 (the loopback network is 127.0.0.0/8).
BIN=${1:-target/ci/umpire}
DIR=$(mktemp -d)
PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
nice -n 10 "$BIN" serve --listen 127.0.0.1:$PORT --data "$DIR" >"$DIR/log" 2>&1 &
PID=$!
for i in $(seq 50); do curl -s -o /dev/null "http://127.0.0.1:$PORT/api/games" && break; sleep 0.2; done
rss() { awk '/VmRSS/ {print $2/1024 " MiB"}' /proc/$PID/status; }
echo "idle: $(rss)"
for a in 2 3 4 5 6 7 8 9; do
  for n in $(seq 16); do
    curl -s -o /dev/null -w '%{http_code}\n' --interface 127.0.0.$a -H 'Content-Type: application/json' \
      -d "{\"name\":\"u$a-$n\",\"password\":\"correct horse $a $n\"}" "http://127.0.0.1:$PORT/api/register" &
  done
done > "$DIR/codes"
wait_codes() { while [ "$(wc -l < "$DIR/codes")" -lt 128 ]; do sleep 0.2; done; }
wait_codes
echo "after: $(rss)"; sort "$DIR/codes" | uniq -c | tr '\n' ' '; echo
sleep 5
echo "5 s later: $(rss)"
kill $PID; wait $PID 2>/dev/null; rm -rf "$DIR"
