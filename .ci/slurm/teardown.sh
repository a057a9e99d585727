#!/usr/bin/env bash
# Stop what .ci/slurm/setup.sh started, by pid file only (never by process name). Safe to run twice.
# State (munge key, MariaDB data, $BASE/state) is kept, so setup.sh can be run again afterwards.
BASE=${BASE:-/tmp/slurmci}
rc=0
for f in "$BASE/slurmd.pid" "$BASE/slurmctld.pid" "$BASE/slurmdbd.pid" /run/mysqld/mysqld.pid /run/munge/munged.pid; do
  [ -s "$f" ] || continue
  pid=$(cat "$f")
  if ! kill "$pid" 2>/dev/null; then echo "[slurm-teardown] $f: pid $pid not running"; rm -f "$f"; continue; fi
  for _ in $(seq 75); do kill -0 "$pid" 2>/dev/null || break; sleep 0.2; done   # up to 15 s
  if kill -0 "$pid" 2>/dev/null; then
    echo "[slurm-teardown] pid $pid ($f) ignored SIGTERM for 15 s; sending SIGKILL" >&2
    kill -9 "$pid" 2>/dev/null; sleep 0.5
    kill -0 "$pid" 2>/dev/null && { echo "[slurm-teardown] ERROR: pid $pid still alive" >&2; rc=1; }
  fi
  rm -f "$f"
  echo "[slurm-teardown] stopped $pid ($f)"
done
exit $rc
