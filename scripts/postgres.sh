#!/usr/bin/env bash
# postgres.sh start DIR  -> starts a private server in DIR on a free loopback port, prints its URL
# postgres.sh stop DIR
# postgres.sh resume DIR PORT  -> starts a stopped server of DIR again on PORT (an outage's end)
set -eu
cmd=$1; dir=$2
bin=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n 1)
user=postgres
run() { if [ "$(id -u)" = 0 ]; then chown -R $user "$dir"; su $user -s /bin/sh -c "$*"; else sh -c "$*"; fi; }
case "$cmd" in
  start)
    port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
    run "$bin/initdb -D $dir/data -U kw --auth=trust >/dev/null"
    run "$bin/pg_ctl -D $dir/data -o '-h 127.0.0.1 -p $port -k $dir' -l $dir/log -w start >/dev/null"
    run "$bin/createdb -h 127.0.0.1 -p $port -U kw kwtest"
    echo "postgresql+psycopg://kw@127.0.0.1:$port/kwtest"
    ;;
  stop)
    run "$bin/pg_ctl -D $dir/data -m immediate stop" ;;
  resume)
    run "$bin/pg_ctl -D $dir/data -o '-h 127.0.0.1 -p $3 -k $dir' -l $dir/log -w start >/dev/null" ;;
esac
