#!/usr/bin/env bash
# Install PostgreSQL 15 + pgvector on Debian bookworm, create DocQA test databases, and run a streaming
# replica of the cluster on 127.0.0.1:5433 (read-replica tests).
# Idempotent: safe to re-run; only Debian mirrors are used (pgvector built from trixie source).
set -euo pipefail
export DEBIAN_FRONTEND=noninteractive
PGV=15
PG_CONFIG=/usr/lib/postgresql/$PGV/bin/pg_config
PGBIN=/usr/lib/postgresql/$PGV/bin
REPLICA_PORT=5433
REPLICA_DIR=/var/lib/postgresql/$PGV/replica
REPLICA_LOG=/var/log/postgresql/postgresql-$PGV-replica.log
REPLICA_SLOT=docqa_replica
if [ "$(id -u)" -eq 0 ]; then SUDO=""; AS_PG="runuser -u postgres --"; else SUDO="sudo"; AS_PG="sudo -u postgres"; fi

echo "==> [1/7] Installing PostgreSQL $PGV, server dev headers and build tools (if missing)"
PKGS="postgresql-$PGV postgresql-client-$PGV postgresql-server-dev-$PGV build-essential dpkg-dev"
MISSING=""
for p in $PKGS; do
  [ "$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)" = "install ok installed" ] || MISSING="$MISSING $p"
done
if [ -n "$MISSING" ]; then
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq --no-install-recommends $MISSING
else
  echo "    all packages already installed"
fi

echo "==> [2/7] Building pgvector from Debian trixie source (if not installed)"
if [ -f /usr/share/postgresql/$PGV/extension/vector.control ]; then
  echo "    pgvector already installed, skipping build"
else
  # Reuse the Debian mirror already configured (deb822 .sources or legacy sources.list).
  MIRROR=$(grep -hsE '^\s*(URIs:|deb )' /etc/apt/sources.list.d/*.sources /etc/apt/sources.list \
    | grep -oE '(https?|file)://[^ ]+' | grep -E '/debian/?$' | head -n1 || true)
  MIRROR=${MIRROR:-http://deb.debian.org/debian}
  echo "    adding deb-src-only trixie entry for $MIRROR"
  $SUDO tee /etc/apt/sources.list.d/docqa-trixie-src.sources >/dev/null <<SRC
Types: deb-src
URIs: $MIRROR
Suites: trixie
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SRC
  $SUDO apt-get update -qq
  BUILD=$(mktemp -d)
  [ -n "$SUDO" ] || chown _apt "$BUILD" 2>/dev/null || true   # let apt's _apt sandbox user download here
  trap 'rm -rf "$BUILD"' EXIT
  (cd "$BUILD" && apt-get source -qq --download-only pgvector/trixie && dpkg-source -x --no-check pgvector_*.dsc src >/dev/null)
  echo "    compiling pgvector against PostgreSQL $PGV"
  make -s -C "$BUILD/src" USE_PGXS=1 PG_CONFIG="$PG_CONFIG" OPTFLAGS="" -j"$(nproc)"
  $SUDO make -s -C "$BUILD/src" USE_PGXS=1 PG_CONFIG="$PG_CONFIG" OPTFLAGS="" install
fi

echo "==> [3/7] Ensuring cluster $PGV/main exists"
[ -n "$(pg_lsclusters -h | awk -v v="$PGV" '$1==v && $2=="main"')" ] || $SUDO pg_createcluster $PGV main

echo "==> [4/7] Starting cluster $PGV/main"
[ "$(pg_lsclusters -h | awk -v v="$PGV" '$1==v && $2=="main" {print $4}')" = "online" ] \
  || $SUDO pg_ctlcluster $PGV main start
for _ in $(seq 1 30); do pg_isready -q -h 127.0.0.1 -p 5432 && break; sleep 1; done
pg_isready -h 127.0.0.1 -p 5432

echo "==> [5/7] Creating role 'docqa' and databases docqa_test, docqa_ci"
psql_pg() { (cd / && $AS_PG psql -v ON_ERROR_STOP=1 -qtAX "$@"); }
if [ "$(psql_pg -c "SELECT 1 FROM pg_roles WHERE rolname='docqa'")" = "1" ]; then
  psql_pg -c "ALTER ROLE docqa WITH LOGIN SUPERUSER PASSWORD 'docqa'"
else
  psql_pg -c "CREATE ROLE docqa WITH LOGIN SUPERUSER PASSWORD 'docqa'"
fi
for db in docqa_test docqa_ci; do
  [ "$(psql_pg -c "SELECT 1 FROM pg_database WHERE datname='$db'")" = "1" ] \
    || psql_pg -c "CREATE DATABASE $db OWNER docqa"
done

echo "==> [6/7] Enabling the vector extension (verifies pgvector over TCP with password auth)"
for db in docqa_test docqa_ci; do
  PGPASSWORD=docqa psql -v ON_ERROR_STOP=1 -qtAX -h 127.0.0.1 -p 5432 -U docqa -d "$db" \
    -c "SET client_min_messages = warning" -c "CREATE EXTENSION IF NOT EXISTS vector" \
    -c "SELECT '$db: vector ' || extversion FROM pg_extension WHERE extname='vector'"
done

echo "==> [7/7] Streaming replica of $PGV/main on 127.0.0.1:$REPLICA_PORT (the read-replica tests read from it)"
# A hot standby made by pg_basebackup -R: it replicates every database, so the databases tests
# create on the primary appear on it too. Its physical slot keeps the WAL it has not received
# while a test stops it (the primary is never stopped or restarted here: only reloaded).
if $AS_PG "$PGBIN/pg_ctl" status -D "$REPLICA_DIR" >/dev/null 2>&1; then
  echo "    replica already running"
else
  HBA=$(psql_pg -c "SHOW hba_file")
  if ! grep -qE '^host[[:space:]]+replication[[:space:]]+(all|docqa)[[:space:]]+127\.0\.0\.1/32' "$HBA"; then
    echo "host    replication     docqa           127.0.0.1/32            scram-sha-256" | $SUDO tee -a "$HBA" >/dev/null
    psql_pg -c "SELECT pg_reload_conf()" >/dev/null
  fi
  if [ ! -f "$REPLICA_DIR/standby.signal" ]; then
    # A copy left half-made (or a slot left by one removed) is started again from scratch.
    $SUDO rm -rf "$REPLICA_DIR"
    psql_pg -c "SELECT pg_drop_replication_slot('$REPLICA_SLOT') FROM pg_replication_slots
                WHERE slot_name = '$REPLICA_SLOT' AND NOT active" >/dev/null
    (cd / && $AS_PG env PGPASSWORD=docqa "$PGBIN/pg_basebackup" -h 127.0.0.1 -p 5432 -U docqa \
      -D "$REPLICA_DIR" -R -X stream -C -S "$REPLICA_SLOT" -c fast)
    # Debian keeps the cluster's configuration in /etc: the copy gets the primary's (a standby needs
    # max_connections and the like at least as high), with its own port, files and pid.
    CONF=$(psql_pg -c "SHOW config_file")
    $AS_PG tee "$REPLICA_DIR/postgresql.conf" >/dev/null <<CONFIG
include '$CONF'
data_directory = '$REPLICA_DIR'
hba_file = '$HBA'
ident_file = '$(psql_pg -c "SHOW ident_file")'
external_pid_file = ''
cluster_name = '$PGV/replica'
port = $REPLICA_PORT
listen_addresses = '127.0.0.1'
hot_standby = on
hot_standby_feedback = on
CONFIG
  fi
  (cd / && $AS_PG "$PGBIN/pg_ctl" start -w -D "$REPLICA_DIR" -l "$REPLICA_LOG" -o "-p $REPLICA_PORT")
fi
for _ in $(seq 1 30); do pg_isready -q -h 127.0.0.1 -p "$REPLICA_PORT" && break; sleep 1; done
pg_isready -h 127.0.0.1 -p "$REPLICA_PORT"

echo "==> PostgreSQL $PGV with pgvector is ready:"
echo "    DATABASE_URL (tests):  postgres://docqa:docqa@127.0.0.1:5432/docqa_test"
echo "    DATABASE_URL (server): postgres://docqa:docqa@127.0.0.1:5432/docqa_ci"
echo "    streaming replica:     127.0.0.1:$REPLICA_PORT (log $REPLICA_LOG)"
