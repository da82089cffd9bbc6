# Sourced by .ci/run: install PostgreSQL from Debian's packages if missing, start its cluster, and export
# VTT_TEST_POSTGRES_URL so that the storage and durability tests run on PostgreSQL as well as SQLite.
# If the cluster cannot be started, the tests fall back to a throw-away cluster of their own (e2e/pg_server.py).

SUDO=()
if [ "$(id -u)" -ne 0 ] && command -v sudo >/dev/null 2>&1; then SUDO=(sudo); fi

if ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then
    echo "ci: installing PostgreSQL from Debian's packages" >&2
    "${SUDO[@]}" apt-get update -q
    "${SUDO[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q postgresql
fi

if command -v pg_lsclusters >/dev/null 2>&1; then
    read -r PG_VERSION PG_CLUSTER PG_PORT _ < <(pg_lsclusters --no-header | head -n 1) || true
    if [ -n "${PG_VERSION:-}" ]; then
        "${SUDO[@]}" pg_ctlcluster "$PG_VERSION" "$PG_CLUSTER" start 2>/dev/null || true
        if "${SUDO[@]}" runuser -u postgres -- psql -p "$PG_PORT" -qc "ALTER USER postgres PASSWORD 'vtt-ci'" \
            >/dev/null 2>&1; then
            export VTT_TEST_POSTGRES_URL="postgresql://postgres:vtt-ci@127.0.0.1:${PG_PORT}/postgres"
            echo "ci: PostgreSQL $PG_VERSION ($PG_CLUSTER) on port $PG_PORT" >&2
        fi
    fi
fi
