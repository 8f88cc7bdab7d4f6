# Sourced by scripts/test (the `make test` command, which .ci/run runs):
# install PostgreSQL from Debian packages if missing, start the cluster on
# loopback and create the test role and database. Needs root.
start_postgres() {
  if ! command -v pg_ctlcluster >/dev/null 2>&1; then
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null
  fi
  local version
  version=$(ls /usr/lib/postgresql | sort -n | tail -1)
  if ! pg_lsclusters -h | grep -q "^$version main"; then
    pg_createcluster "$version" main >/dev/null
  fi
  pg_ctlcluster "$version" main start 2>/dev/null || true
  for _ in $(seq 1 30); do
    pg_isready -q -h 127.0.0.1 -p 5432 && break
    sleep 1
  done
  pg_isready -h 127.0.0.1 -p 5432
  su postgres -c "psql -qtAc \"SELECT 1 FROM pg_roles WHERE rolname='forgetools'\"" | grep -q 1 ||
    su postgres -c "psql -qc \"CREATE ROLE forgetools LOGIN PASSWORD 'forgetools' SUPERUSER\""
  su postgres -c "psql -qtAc \"SELECT 1 FROM pg_database WHERE datname='forgetools'\"" | grep -q 1 ||
    su postgres -c "createdb -O forgetools forgetools"
}
