#!/bin/sh
# Starts and stops the nginx the PostFeedHTTP tests and benchmarks run against.
#
#   nginx-test-server.sh start PREFIX ROOT PORT [TLS_PORT]
#                                                 render the config into PREFIX and start
#                                                 nginx in the background; returns once it
#                                                 listens on 127.0.0.1:PORT (and, given
#                                                 TLS_PORT, HTTPS + HTTP/2 there, with a
#                                                 self-signed certificate in PREFIX/tls.crt)
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
    echo "usage: $0 start PREFIX ROOT PORT [TLS_PORT] | stop PREFIX" >&2
    exit 64
}

start() {
    prefix=$1 root=$2 port=$3 tls_port=${4:-}
    mkdir -p "$prefix"
    tls_server=""
    if [ -n "$tls_port" ]; then
        # A P-256 key is generated in milliseconds. The certificate names 127.0.0.1 and
        # localhost, so clients that trust it verify the peer and host name as usual.
        if ! openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes \
            -keyout "$prefix/tls.key" -out "$prefix/tls.crt" -days 7 -subj "/CN=127.0.0.1" \
            -addext "subjectAltName=IP:127.0.0.1,DNS:localhost" >"$prefix/openssl.log" 2>&1; then
            echo "cannot make a test certificate with openssl:" >&2
            tail -n 5 "$prefix/openssl.log" >&2
            exit 1
        fi
        sed -e "s|@PREFIX@|$prefix|g" -e "s|@ROOT@|$root|g" -e "s|@TLS_PORT@|$tls_port|g" \
            "$here/tls-server.conf.template" > "$prefix/tls-server.conf"
        tls_server="include $prefix/tls-server.conf;"
    fi
    modules="" echo_locations=""
    if [ -f "$echo_module" ]; then
        modules="load_module $echo_module;"
        echo_locations="include $here/echo-locations.conf;"
    fi
    sed -e "s|@PREFIX@|$prefix|g" -e "s|@ROOT@|$root|g" -e "s|@PORT@|$port|g" \
        -e "s|@MODULES@|$modules|" -e "s|@ECHO_LOCATIONS@|        $echo_locations|" \
        -e "s|@TLS_SERVER@|    $tls_server|" \
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
    start) [ $# -eq 4 ] || [ $# -eq 5 ] || usage; start "$2" "$3" "$4" "${5:-}" ;;
    stop) [ $# -eq 2 ] || usage; stop "$2" ;;
    *) usage ;;
esac
