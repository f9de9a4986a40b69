#!/bin/sh
# Starts and stops the nginx the PostFeedHTTP tests and benchmarks run against.
#
#   nginx-test-server.sh start PREFIX ROOT PORT   render the config into PREFIX and start
#                                                 nginx in the background; returns once it
#                                                 listens on 127.0.0.1:PORT
#   nginx-test-server.sh stop PREFIX              stop it and wait until it has exited
#
# PREFIX gets the pid file, error.log, access.log and nginx's temp folders; ROOT is the
# document root (files under ROOT/files/). Exit status 0 on success; on failure the
# error log's tail is printed to stderr (a port already taken shows up there).
set -eu

here=$(cd "$(dirname "$0")" && pwd)
nginx=${NGINX:-/usr/sbin/nginx}
echo_module=/usr/lib/nginx/modules/ngx_http_echo_module.so

usage() {
    echo "usage: $0 start PREFIX ROOT PORT | stop PREFIX" >&2
    exit 64
}

start() {
    prefix=$1 root=$2 port=$3
    mkdir -p "$prefix"
    modules="" echo_locations=""
    if [ -f "$echo_module" ]; then
        modules="load_module $echo_module;"
        echo_locations="include $here/echo-locations.conf;"
    fi
    sed -e "s|@PREFIX@|$prefix|g" -e "s|@ROOT@|$root|g" -e "s|@PORT@|$port|g" \
        -e "s|@MODULES@|$modules|" -e "s|@ECHO_LOCATIONS@|        $echo_locations|" \
        "$here/nginx.conf.template" > "$prefix/nginx.conf"
    rm -f "$prefix/nginx.pid"
    # `daemon on` (the default): nginx binds the port before it forks, so once this
    # command returns successfully the server is listening.
    # Its output goes to the log: the daemon must not hold the caller's pipes open.
    if ! "$nginx" -p "$prefix" -e "$prefix/error.log" -c "$prefix/nginx.conf" \
        </dev/null >>"$prefix/error.log" 2>&1; then
        tail -n 5 "$prefix/error.log" >&2
        exit 1
    fi
    # The pid file is written by the daemonised child; wait for it so `stop` finds it.
    tries=0
    while [ ! -s "$prefix/nginx.pid" ]; do
        tries=$((tries + 1))
        if [ "$tries" -gt 100 ]; then
            echo "nginx wrote no pid file in $prefix" >&2
            exit 1
        fi
        sleep 0.05
    done
}

stop() {
    prefix=$1
    [ -s "$prefix/nginx.pid" ] || exit 0
    pid=$(cat "$prefix/nginx.pid")
    kill -TERM "$pid" 2>/dev/null || exit 0
    tries=0
    while kill -0 "$pid" 2>/dev/null; do
        tries=$((tries + 1))
        if [ "$tries" -gt 200 ]; then
            kill -KILL "$pid" 2>/dev/null || true
            break
        fi
        sleep 0.05
    done
}

[ $# -ge 1 ] || usage
case $1 in
    start) [ $# -eq 4 ] || usage; start "$2" "$3" "$4" ;;
    stop) [ $# -eq 2 ] || usage; stop "$2" ;;
    *) usage ;;
esac
