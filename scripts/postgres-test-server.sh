#!/usr/bin/env bash
# A throwaway PostgreSQL server for the PostgreSQL tests, in a folder of its own.
#
#   scripts/postgres-test-server.sh start DIR    initdb in DIR (empty or missing), start the server on a free
#                                                 port of 127.0.0.1, and print its URL, such as
#                                                 postgresql://postgres@127.0.0.1:54321/postgres
#   scripts/postgres-test-server.sh stop DIR     stop the server, if it runs, and remove DIR
#
# Run as root, the server runs as the `postgres` user (it refuses to run as root) and DIR is
# handed to that user; run as anyone else, it runs as the caller. Authentication is `trust`,
# for TCP connections from 127.0.0.1 only; durability is off (fsync, synchronous_commit), as
# nothing in DIR outlives the tests. scripts/test.sh starts one and stops it on exit.
set -euo pipefail

usage() {
    echo "usage: $0 start|stop DIR" >&2
    exit 64
}
[ "$#" -eq 2 ] || usage
command="$1"
dir="$2"

bin="$(find /usr/lib/postgresql -mindepth 2 -maxdepth 2 -type d -name bin 2>/dev/null | sort -V | tail -n 1)"
if [ -z "$bin" ] || [ ! -x "$bin/pg_ctl" ]; then
    echo "$0: no PostgreSQL server under /usr/lib/postgresql (install Debian's postgresql package)" >&2
    exit 1
fi

# Runs a server program as the user the server runs as, from DIR (the caller's folder may be
# closed to that user).
as_server_user() {
    if [ "$(id -u)" -eq 0 ]; then
        (cd "$dir" && runuser -u postgres -- "$@")
    else
        (cd "$dir" && "$@")
    fi
}

free_port() {
    python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()'
}

start() {
    mkdir -p "$dir"
    if [ -n "$(ls -A "$dir")" ]; then
        echo "$0: $dir is not empty" >&2
        exit 1
    fi
    if [ "$(id -u)" -eq 0 ]; then
        if ! id postgres >/dev/null 2>&1; then
            echo "$0: there is no postgres user to run the server as (install Debian's postgresql package)" >&2
            exit 1
        fi
        chown postgres: "$dir"
    fi
    chmod 700 "$dir"
    as_server_user "$bin/initdb" --pgdata="$dir/data" --username=postgres --encoding=UTF8 --locale=C \
        --auth=trust --no-sync >"$dir/initdb.log" 2>&1 || {
        cat "$dir/initdb.log" >&2
        exit 1
    }
    # Trust TCP connections from 127.0.0.1, and nothing else (no Unix socket, no other address).
    echo "host all all 127.0.0.1/32 trust" | as_server_user tee "$dir/data/pg_hba.conf" >/dev/null

    # A free port may be taken between choosing and binding it; try a few.
    for _ in 1 2 3 4 5; do
        port="$(free_port)"
        if as_server_user "$bin/pg_ctl" --pgdata="$dir/data" --log="$dir/server.log" --wait --timeout=60 \
            -o "-c listen_addresses=127.0.0.1 -c port=$port -c unix_socket_directories= -c max_connections=200 -c fsync=off -c synchronous_commit=off -c full_page_writes=off" \
            start >/dev/null; then
            echo "postgresql://postgres@127.0.0.1:$port/postgres"
            return
        fi
    done
    echo "$0: the server did not start; its log:" >&2
    cat "$dir/server.log" >&2 || true
    exit 1
}

stop() {
    if [ -f "$dir/data/postmaster.pid" ]; then
        as_server_user "$bin/pg_ctl" --pgdata="$dir/data" --mode=immediate --wait stop >/dev/null 2>&1 || true
    fi
    rm -rf "$dir"
}

case "$command" in
start) start ;;
stop) stop ;;
*) usage ;;
esac
