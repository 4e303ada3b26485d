#!/bin/sh
# Entrypoint of the test-only Postgres stand-in (postgres.Containerfile): on the first start, with
# an empty PGDATA, creates the cluster the way the official image does — POSTGRES_USER (default
# postgres) as the superuser with POSTGRES_PASSWORD, the database POSTGRES_DB (default the user's
# name), scram-sha-256 for connections over the network — then runs the command (postgres) as PID 1.
set -eu
if [ "${1:-}" = postgres ] && [ ! -s "$PGDATA/PG_VERSION" ]; then
  if [ -z "${POSTGRES_PASSWORD:-}" ]; then
    echo "error: POSTGRES_PASSWORD is not set; the database would accept anyone over the network" >&2
    exit 1
  fi
  user=${POSTGRES_USER:-postgres}
  db=${POSTGRES_DB:-$user}
  echo "initialising the database in $PGDATA (user $user, database $db)"
  pwfile=$(mktemp)
  printf '%s\n' "$POSTGRES_PASSWORD" > "$pwfile"
  initdb --username="$user" --pwfile="$pwfile" --auth-local=trust --auth-host=trust \
    --encoding=UTF8 --locale=C.UTF-8 -D "$PGDATA" >/dev/null
  rm -f "$pwfile"
  printf '\n# from the entrypoint: password auth for every other host\nhost all all all scram-sha-256\n' >> "$PGDATA/pg_hba.conf"
  if [ "$db" != postgres ]; then
    # Local socket only while setting up, so nothing connects before the database exists.
    pg_ctl -D "$PGDATA" -o "-c listen_addresses=''" -w start >/dev/null
    psql -v ON_ERROR_STOP=1 -q --username="$user" --dbname=postgres --set=db="$db" <<'SQL'
CREATE DATABASE :"db";
SQL
    pg_ctl -D "$PGDATA" -m fast -w stop >/dev/null
  fi
  echo "database ready; starting postgres"
fi
exec "$@"
