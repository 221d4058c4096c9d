#!/usr/bin/env bash
# The official postgres image's entry point contract, in short: on the first start (empty PGDATA)
# initdb with POSTGRES_USER / POSTGRES_PASSWORD(_FILE), create POSTGRES_DB, run
# /docker-entrypoint-initdb.d/*.sql and *.sh with the server listening on its socket only, then run
# postgres listening on every address with password (scram-sha-256) authentication over TCP.
set -Eeuo pipefail

# VAR or VAR_FILE (the file's content), never both.
file_env() {
  local var=$1 def=${2:-} fvar="${1}_FILE" val
  if [ -n "${!var:-}" ] && [ -n "${!fvar:-}" ]; then echo >&2 "error: both $var and $fvar are set"; exit 1; fi
  val=$def
  if [ -n "${!var:-}" ]; then val=${!var}; elif [ -n "${!fvar:-}" ]; then val=$(<"${!fvar}"); fi
  export "$var"="$val"
  unset "$fvar"
}

if [ "${1:0:1}" = '-' ]; then set -- postgres "$@"; fi

# Read the *_FILE variables first, as root (secrets are often readable by root only); the values reach
# the unprivileged run below in the environment, as in the official entry point.
if [ "$1" = postgres ]; then
  file_env POSTGRES_PASSWORD
  file_env POSTGRES_USER postgres
  file_env POSTGRES_DB "$POSTGRES_USER"
fi

if [ "$1" = postgres ] && [ "$(id -u)" = 0 ]; then
  # As root: own the data directory, then start again as postgres (the official image uses gosu).
  mkdir -p "$PGDATA" && chown postgres:postgres "$PGDATA" && chmod 700 "$PGDATA"
  exec setpriv --reuid=postgres --regid=postgres --init-groups "$BASH_SOURCE" "$@"
fi

if [ "$1" = postgres ] && [ ! -s "$PGDATA/PG_VERSION" ]; then
  if [ -z "$POSTGRES_PASSWORD" ] && [ "${POSTGRES_HOST_AUTH_METHOD:-}" != trust ]; then
    echo >&2 "error: database is uninitialized and superuser password is not specified (POSTGRES_PASSWORD)"
    exit 1
  fi
  pwfile=$(mktemp)
  printf '%s\n' "$POSTGRES_PASSWORD" >"$pwfile"
  initdb --username="$POSTGRES_USER" --pwfile="$pwfile" --auth-local=trust --auth-host=scram-sha-256 \
    --encoding=UTF8 --locale=C.UTF-8 -D "$PGDATA" >/dev/null
  rm -f "$pwfile"
  printf '\nhost all all all %s\n' "${POSTGRES_HOST_AUTH_METHOD:-scram-sha-256}" >>"$PGDATA/pg_hba.conf"
  # Socket only while initialising: a health check over TCP passes only once the real server runs.
  pg_ctl -D "$PGDATA" -o "-c listen_addresses='' -c unix_socket_directories=/var/run/postgresql" -w start >/dev/null
  psql=(psql -v ON_ERROR_STOP=1 --username "$POSTGRES_USER" --no-password --no-psqlrc -h /var/run/postgresql)
  if [ "$POSTGRES_DB" != postgres ]; then
    "${psql[@]}" --dbname postgres -qc "CREATE DATABASE \"$POSTGRES_DB\""
  fi
  for f in /docker-entrypoint-initdb.d/*; do
    case "$f" in
      *.sh) echo "$0: running $f"; . "$f" ;;
      *.sql) echo "$0: running $f"; "${psql[@]}" --dbname "$POSTGRES_DB" -f "$f" ;;
      *) if [ -e "$f" ]; then echo "$0: ignoring $f"; fi ;;
    esac
  done
  pg_ctl -D "$PGDATA" -m fast -w stop >/dev/null
  echo "PostgreSQL init process complete; ready for start up."
fi

if [ "$1" = postgres ]; then
  shift
  exec postgres -c listen_addresses='*' -c unix_socket_directories=/var/run/postgresql "$@"
fi
exec "$@"
