#!/usr/bin/env python3
"""Runs a real ClickHouse HTTP server from libchdb (no Docker, no separate binary).

Usage: clickhouse-server.py LIBCHDB_SO HTTP_PORT DATA_DIR [EXTRA_ARG...]

EXTRA_ARGs are passed to clickhouse-local as they are (e.g. --config-file=... to enable system.query_log).

chdb_query_cmdline runs clickhouse-local with the given arguments; the query starts the HTTP
listener and then blocks forever, so the server lives until this process is killed.
"""
import ctypes
import sys

lib_path, port, data_dir = sys.argv[1], sys.argv[2], sys.argv[3]
extra_args = [arg.encode() for arg in sys.argv[4:]]
lib = ctypes.CDLL(lib_path)
args = [
    b"clickhouse",
    *extra_args,
    f"--http_port={port}".encode(),
    b"--listen_host=127.0.0.1",
    f"--path={data_dir}".encode(),
    b"--multiquery",
    b"--query=SYSTEM START LISTEN HTTP; "
    b"SELECT sleepEachRow(1) FROM system.numbers SETTINGS max_block_size=1 FORMAT Null",
]
argv = (ctypes.c_char_p * len(args))(*args)
lib.chdb_query_cmdline.restype = ctypes.c_void_p
lib.chdb_query_cmdline(len(args), argv)
