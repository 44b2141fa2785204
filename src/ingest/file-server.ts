import { randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { createServer, Server } from 'node:http';
import { connect } from 'node:net';

/** One file offered to a ClickHouse server over HTTP while an import reads it. */
export interface ServedFile {
  /** What the server's url() table function reads: unguessable, valid while served. */
  url: string;
  /** A tiny resource beside it, to learn whether the server can reach this process at all. */
  probeUrl: string;
  bytesServed(): number;
  close(): Promise<void>;
}

/**
 * Serves one file, with HTTP range requests (HEAD and `Range: bytes=a-b`), to the ClickHouse server at `clickhouseUrl`,
 * so the server reads a Parquet file the way it reads its own files — column chunk by column chunk, in bounded
 * memory — instead of receiving it as a request body, which it would hold whole (a Parquet file's index is at its end).
 *
 * Listens on the address this machine uses to reach that server (the server can likely reach it back), on a free port,
 * under a random path: only that server, only this file, only while the import reads it.
 */
export async function serveFile(path: string, bytes: number, clickhouseUrl: string): Promise<ServedFile> {
  const address = await localAddressTowards(new URL(clickhouseUrl));
  const token = randomBytes(16).toString('hex');
  let served = 0;
  const server: Server = createServer((request, response) => {
    if (request.url === `/${token}/probe`) {
      response.writeHead(200, { 'Content-Type': 'text/plain', 'Content-Length': 2 }).end('ok');
      return;
    }
    if (request.url !== `/${token}/export-part` || (request.method !== 'GET' && request.method !== 'HEAD')) {
      response.writeHead(404).end();
      return;
    }
    const range = /^bytes=(\d*)-(\d*)$/.exec(request.headers.range ?? '');
    let [start, end] = [0, bytes - 1];
    if (range) {
      if (range[1] === '') start = Math.max(0, bytes - Number(range[2]));
      else [start, end] = [Number(range[1]), range[2] === '' ? bytes - 1 : Math.min(Number(range[2]), bytes - 1)];
      if (start > end || start >= bytes) {
        response.writeHead(416, { 'Content-Range': `bytes */${bytes}` }).end();
        return;
      }
    }
    const headers = { 'Accept-Ranges': 'bytes', 'Content-Length': end - start + 1, 'Content-Type': 'application/octet-stream' };
    if (range) response.writeHead(206, { ...headers, 'Content-Range': `bytes ${start}-${end}/${bytes}` });
    else response.writeHead(200, headers);
    if (request.method === 'HEAD' || bytes === 0) {
      response.end();
      return;
    }
    const stream = createReadStream(path, { start, end, highWaterMark: 1024 * 1024 });
    stream.on('data', (chunk) => (served += chunk.length));
    stream.on('error', () => response.destroy());
    stream.pipe(response);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, address, resolve);
  });
  const { port } = server.address() as { port: number };
  const base = `http://${address.includes(':') ? `[${address}]` : address}:${port}/${token}`;
  return {
    url: `${base}/export-part`,
    probeUrl: `${base}/probe`,
    bytesServed: () => served,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The local address of a TCP connection to the server: the interface the server can reach this machine on. */
function localAddressTowards(target: URL): Promise<string> {
  const port = Number(target.port || (target.protocol === 'https:' ? 443 : 80));
  return new Promise((resolve, reject) => {
    const socket = connect({ host: target.hostname.replace(/^\[|\]$/g, ''), port, timeout: 5000 });
    socket.once('connect', () => {
      const address = socket.localAddress ?? '127.0.0.1';
      socket.destroy();
      resolve(address.replace(/^::ffff:/, ''));
    });
    socket.once('timeout', () => {
      socket.destroy();
      reject(new Error(`no connection to ${target.host} within 5 s`));
    });
    socket.once('error', reject);
  });
}
