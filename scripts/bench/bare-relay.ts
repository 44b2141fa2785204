/**
 * The floor of any HTTP service in front of ClickHouse on this host: a bare Node `http` server in the API's
 * process — no framework, no authentication, no validation, no envelope — that answers a request with the very
 * statements the API sent for a case, read through the same ClickhouseService as the API reads them (bytes, or
 * parsed rows), written in one buffer with its Content-Length.
 *
 * API ÷ ClickHouse = (relay ÷ ClickHouse) × (API ÷ relay): the first factor is the extra hop itself (request
 * in, answer out, through one more process), which no service in front of ClickHouse avoids; the second is
 * what the API does on top of it.
 */
import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import type { ClickhouseService } from '../../src/store/clickhouse/clickhouse.service';
import type { Statement } from './measuring-client';

export interface BareRelay {
  /** The relay's URL answering with these statements. */
  route(statements: Statement[]): string;
  close(): Promise<void>;
}

export async function startBareRelay(clickhouse: ClickhouseService): Promise<BareRelay> {
  const routes = new Map<string, Statement[]>();
  const answer = async (statements: Statement[]): Promise<Buffer> => {
    const results = await Promise.all(
      statements.map((s) => (s.format === 'TabSeparatedRaw' ? clickhouse.queryRaw(s.sql, s.params) : clickhouse.query(s.sql, s.params))),
    );
    // One statement read as bytes (/data) is passed on as those bytes; parsed rows are sent as JSON.
    const [only] = results;
    return results.length === 1 && statements[0].format === 'TabSeparatedRaw'
      ? Buffer.concat(only as Buffer[])
      : Buffer.from(JSON.stringify(results));
  };
  const server: Server = createServer((request, response) => {
    request.resume(); // the body is not needed: the route names the statements
    request.on('end', () => {
      const statements = routes.get(request.url ?? '');
      if (!statements) {
        response.writeHead(404).end();
        return;
      }
      answer(statements).then(
        (body) => response.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': body.length }).end(body),
        (error: unknown) => response.writeHead(502, { 'Content-Type': 'text/plain' }).end(String(error)),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    route(statements) {
      const path = `/relay/${routes.size}`;
      routes.set(path, statements);
      return `http://127.0.0.1:${port}${path}`;
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
