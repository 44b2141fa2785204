#!/usr/bin/env python3
"""Runs a real ClickHouse server from libchdb (no Docker, no separate binary).

Usage: clickhouse-server.py LIBCHDB_SO HTTP_PORT DATA_DIR [--relay-port=N] [EXTRA_ARG...]

EXTRA_ARGs are passed to clickhouse-local as they are (e.g. --config-file=... to enable system.query_log,
or to declare remote_servers and macros for a cluster node). With --tcp_port=N among them the native TCP
interface is served too (what the nodes of a cluster talk to each other over).

--relay-port=N (for cluster nodes; consumed here) also serves the TCP interface on port N through a relay in
this process, which the other nodes of a test cluster connect to. A node that cancels a distributed query
(a time limit, a LIMIT reached, a failed shard) closes its connections to the other nodes with data still
unread, i.e. with a TCP reset; libchdb's TCP handler does not catch the reset and aborts the whole node
("Terminate called for uncaught exception: Connection reset by peer"). A real clickhouse-server handles it.
The relay turns a reset on either side into an orderly close (FIN) of the other, after reading what is left,
so the node only ever sees a peer that hung up. It lives and dies with the node.

chdb_query_cmdline runs clickhouse-local with the given arguments; the query starts the listeners and
then blocks forever, so the server lives until this process is killed.
"""
import ctypes
import socket
import sys
import threading

lib_path, port, data_dir = sys.argv[1], sys.argv[2], sys.argv[3]
relay_port = None
extra_args = []
for arg in sys.argv[4:]:
    if arg.startswith("--relay-port="):
        relay_port = int(arg.split("=", 1)[1])
    else:
        extra_args.append(arg.encode())
tcp_port = next((int(a.split(b"=", 1)[1]) for a in extra_args if a.startswith(b"--tcp_port=")), None)


def pump(source, sink):
    """Copies source to sink until source ends or fails, then half-closes sink (FIN). Once sink fails, goes on
    reading source dry without writing: a socket closed with unread data would send a reset."""
    sink_open = True
    try:
        while True:
            data = source.recv(65536)
            if not data:
                break
            if sink_open:
                try:
                    sink.sendall(data)
                except OSError:
                    sink_open = False
    except OSError:
        pass
    try:
        sink.shutdown(socket.SHUT_WR)
    except OSError:
        pass


def relay_connection(client):
    try:
        upstream = socket.create_connection(("127.0.0.1", tcp_port))
    except OSError:
        client.close()
        return
    for sock in (client, upstream):
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    back = threading.Thread(target=pump, args=(upstream, client), daemon=True)
    back.start()
    pump(client, upstream)
    back.join()
    client.close()
    upstream.close()


def serve_relay():
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind(("127.0.0.1", relay_port))
    listener.listen(128)
    while True:
        client, _ = listener.accept()
        threading.Thread(target=relay_connection, args=(client,), daemon=True).start()


if relay_port is not None:
    threading.Thread(target=serve_relay, daemon=True).start()

listeners = b"SYSTEM START LISTEN HTTP; "
if tcp_port is not None:
    listeners += b"SYSTEM START LISTEN TCP; "
lib = ctypes.CDLL(lib_path)
args = [
    b"clickhouse",
    *extra_args,
    f"--http_port={port}".encode(),
    b"--listen_host=127.0.0.1",
    f"--path={data_dir}".encode(),
    b"--multiquery",
    b"--query=" + listeners + b"SELECT sleepEachRow(1) FROM system.numbers SETTINGS max_block_size=1 FORMAT Null",
]
argv = (ctypes.c_char_p * len(args))(*args)
lib.chdb_query_cmdline.restype = ctypes.c_void_p
lib.chdb_query_cmdline(len(args), argv)
