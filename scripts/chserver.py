import ctypes, sys
lib = ctypes.CDLL(sys.argv[1])
port, path = sys.argv[2], sys.argv[3]
args = [b"clickhouse", f"--http_port={port}".encode(), b"--listen_host=127.0.0.1", f"--path={path}".encode(), b"--multiquery",
        b"--query=SYSTEM START LISTEN HTTP; SELECT sleepEachRow(1) FROM system.numbers SETTINGS max_block_size=1 FORMAT Null"]
argv = (ctypes.c_char_p * len(args))(*args)
lib.chdb_query_cmdline.restype = ctypes.c_void_p
lib.chdb_query_cmdline(len(args), argv)
