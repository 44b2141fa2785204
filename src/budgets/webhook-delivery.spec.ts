import { spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import net, { AddressInfo, LookupFunction } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deliverWebhook, refusingLookup } from './webhook-delivery';
import { signatureHeader, verifySignature } from './webhook-signature';

interface Received {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

type Answer = (request: http.IncomingMessage, response: http.ServerResponse) => void;

/** A receiver on a free loopback port: what it received, by path, and how it answers. */
async function receiver(answer: Answer, server: http.Server = http.createServer()) {
  const received: Received[] = [];
  server.on('request', (request: http.IncomingMessage, response: http.ServerResponse) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({ path: request.url ?? '', headers: request.headers, body: Buffer.concat(chunks).toString('utf8') });
      answer(request, response);
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const port = (server.address() as AddressInfo).port;
  const close = () => {
    server.closeAllConnections();
    server.close();
  };
  return { port, received, close, hits: (path: string) => received.filter((request) => request.path === path).length };
}

const BODY = JSON.stringify({ type: 'budget.threshold', name: 'Team ✓' });
const SECRET = 'whsec_delivery-spec-secret';
const closers: (() => void)[] = [];

afterEach(() => closers.splice(0).forEach((close) => close()));

async function started(answer: Answer, server?: http.Server) {
  const started = await receiver(answer, server);
  closers.push(started.close);
  return started;
}

describe('webhook delivery over http (loopback)', () => {
  it('POSTs the body as JSON with its signature, and counts a 2xx as delivered', async () => {
    const hook = await started((_request, response) => response.writeHead(202).end('{"ok":true,"ignored":"by the sender"}'));
    const now = Math.floor(Date.now() / 1000);
    const headers = { 'x-cost-insights-signature': signatureHeader(SECRET, BODY, now), 'x-cost-insights-delivery': 'd_1' };
    const outcome = await deliverWebhook(`http://127.0.0.1:${hook.port}/hook?team=1`, BODY, headers, {
      allowedHosts: [`127.0.0.1:${hook.port}`],
    });
    expect(outcome).toEqual({ status: 202, delivered: true });
    expect(hook.received).toHaveLength(1);
    const [{ path, headers: seen, body }] = hook.received;
    expect([path, body, seen['content-type'], seen['user-agent'], seen['x-cost-insights-delivery']]).toEqual([
      '/hook?team=1',
      BODY,
      'application/json',
      'cost-insights-webhooks/1',
      'd_1',
    ]);
    expect(verifySignature(String(seen['x-cost-insights-signature']), SECRET, body, now)).toBe(true);
  });

  it('keeps its own content type and user agent over the caller headers', async () => {
    const hook = await started((_request, response) => response.writeHead(200).end());
    const headers = { 'Content-Type': 'text/plain', 'User-Agent': 'curl/8' };
    await deliverWebhook(`http://localhost:${hook.port}/`, BODY, headers, { allowedHosts: [`localhost:${hook.port}`] });
    expect([hook.received[0].headers['content-type'], hook.received[0].headers['user-agent']]).toEqual([
      'application/json',
      'cost-insights-webhooks/1',
    ]);
  });

  it('does not count a 5xx or 4xx as delivered, and keeps the status', async () => {
    const hook = await started((request, response) => response.writeHead(request.url === '/gone' ? 410 : 500).end('oops'));
    const options = { allowedHosts: [`127.0.0.1:${hook.port}`] };
    expect(await deliverWebhook(`http://127.0.0.1:${hook.port}/`, BODY, {}, options)).toEqual({ status: 500, delivered: false });
    expect(await deliverWebhook(`http://127.0.0.1:${hook.port}/gone`, BODY, {}, options)).toEqual({ status: 410, delivered: false });
  });

  it('never follows a redirect', async () => {
    const hook = await started((request, response) =>
      response.writeHead(request.url === '/hook' ? 302 : 200, { location: '/moved' }).end(),
    );
    const outcome = await deliverWebhook(`http://127.0.0.1:${hook.port}/hook`, BODY, {}, { allowedHosts: [`127.0.0.1:${hook.port}`] });
    expect(outcome).toEqual({ status: 302, delivered: false, error: 'redirects are not followed (302)' });
    expect([hook.hits('/hook'), hook.hits('/moved')]).toEqual([1, 0]);
  });

  it('cuts a receiver that never answers at the deadline', async () => {
    const hook = await started(() => undefined);
    const options = { allowedHosts: [`127.0.0.1:${hook.port}`], timeoutMs: 300 };
    expect(await deliverWebhook(`http://127.0.0.1:${hook.port}/`, BODY, {}, options)).toEqual({
      delivered: false,
      error: 'timed out after 0.3 s',
    });
    expect(hook.received).toHaveLength(1);
  });

  it('settles at the status line, draining a body that never ends in the background', async () => {
    const hook = await started((_request, response) => response.writeHead(200, { 'content-type': 'text/plain' }).write('partial…'));
    const options = { allowedHosts: [`127.0.0.1:${hook.port}`], timeoutMs: 60_000 };
    expect(await deliverWebhook(`http://127.0.0.1:${hook.port}/`, BODY, {}, options)).toEqual({ status: 200, delivered: true });
  });

  it('sends nothing to a destination the allow-list refuses, and names no credentials', async () => {
    const hook = await started((_request, response) => response.writeHead(200).end());
    const url = `http://127.0.0.1:${hook.port}/`;
    expect(await deliverWebhook(url, BODY, {}, { allowedHosts: [] })).toEqual({
      delivered: false,
      error: 'WEBHOOK_ALLOWED_HOSTS allows no host',
    });
    const withCredentials = await deliverWebhook(
      `http://bob:pa55word@127.0.0.1:${hook.port}/`,
      BODY,
      {},
      { allowedHosts: [`127.0.0.1:${hook.port}`] },
    );
    expect(withCredentials).toEqual({ delivered: false, error: 'the webhook URL must not carry credentials (user:password@)' });
    expect(hook.received).toHaveLength(0);
  });

  it('reports a refused connection, and a header it cannot send without its value', async () => {
    const closed = await started(() => undefined);
    closed.close();
    const options = { allowedHosts: [`127.0.0.1:${closed.port}`] };
    const refused = await deliverWebhook(`http://127.0.0.1:${closed.port}/`, BODY, {}, options);
    expect(refused).toEqual({ delivered: false, error: expect.stringContaining('ECONNREFUSED') as unknown });
    const badHeader = await deliverWebhook(`http://127.0.0.1:${closed.port}/`, BODY, { 'x-token': 'tok-secret-value\r\nx: y' }, options);
    expect(badHeader.delivered).toBe(false);
    expect(badHeader.error).toMatch(/header/i);
    expect(badHeader.error).not.toContain('tok-secret-value');
  });
});

const OPENSSL = spawnSync('openssl', ['version']).status === 0;
if (!OPENSSL) console.warn('webhook-delivery.spec: `openssl` is not installed, so the HTTPS test is SKIPPED (apt-get install openssl).');

describe('webhook delivery over https (a self-signed receiver)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'webhook-delivery-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  /** A key and a certificate for localhost and 127.0.0.1, self-signed for a day. */
  function selfSigned(): { key: Buffer; cert: Buffer } {
    const [key, cert] = [join(dir, 'key.pem'), join(dir, 'cert.pem')];
    const subject = ['-subj', '/CN=localhost', '-addext', 'subjectAltName=DNS:localhost,IP:127.0.0.1'];
    const made = spawnSync('openssl', [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-days',
      '1',
      '-keyout',
      key,
      '-out',
      cert,
      ...subject,
    ]);
    if (made.status !== 0) throw new Error(`openssl req failed: ${made.stderr.toString()}`);
    return { key: readFileSync(key), cert: readFileSync(cert) };
  }

  (OPENSSL ? it : it.skip)('delivers to a receiver whose CA is trusted through `ca`, and to no other', async () => {
    const { key, cert } = selfSigned();
    const hook = await started((_request, response) => response.writeHead(200).end(), https.createServer({ key, cert }));
    const [url, allowedHosts] = [`https://localhost:${hook.port}/hook`, [`localhost:${hook.port}`]];
    expect(await deliverWebhook(url, BODY, {}, { allowedHosts, ca: cert })).toEqual({ status: 200, delivered: true });
    const untrusted = await deliverWebhook(url, BODY, {}, { allowedHosts });
    expect(untrusted).toEqual({ delivered: false, error: expect.stringMatching(/self[- ]signed certificate/) as unknown });
    expect(hook.received).toHaveLength(1);
  });

  it('cuts a TLS handshake that never happens at the deadline', async () => {
    const silent = net.createServer(() => undefined).listen(0, '127.0.0.1');
    await once(silent, 'listening');
    const port = (silent.address() as AddressInfo).port;
    const sockets: net.Socket[] = [];
    silent.on('connection', (socket: net.Socket) => sockets.push(socket));
    closers.push(() => {
      sockets.forEach((socket) => socket.destroy());
      silent.close();
    });
    const outcome = await deliverWebhook(`https://localhost:${port}/`, BODY, {}, { allowedHosts: [`localhost:${port}`], timeoutMs: 300 });
    expect(outcome).toEqual({ delivered: false, error: 'timed out after 0.3 s' });
  });
});

describe('the resolution that refuses addresses', () => {
  /** A resolver answering `answer` for every name, in the form asked (one address, or all with `all: true`). */
  const resolver =
    (...answer: string[]): LookupFunction =>
    (_hostname, options, callback) => {
      const entries = answer.map((address) => ({ address, family: net.isIP(address) }));
      if (options.all) callback(null, entries);
      else callback(null, entries[0].address, entries[0].family);
    };
  const resolved = (lookup: LookupFunction, all: boolean) =>
    new Promise<{ error: Error | null; address: unknown }>((resolve) =>
      refusingLookup(lookup)('metadata.localtest', { all }, (error, address) => resolve({ error, address })),
    );

  it('refuses a name that resolves to a metadata address', async () => {
    const { error } = await resolved(resolver('169.254.169.254'), false);
    expect(error?.message).toBe(
      'metadata.localtest resolves to 169.254.169.254, a refused address (link-local, cloud metadata or unspecified)',
    );
  });

  it('refuses a name when any of its addresses is refused', async () => {
    const { error } = await resolved(resolver('203.0.113.7', '::ffff:169.254.169.254'), true);
    expect(error?.message).toBe(
      'metadata.localtest resolves to ::ffff:169.254.169.254, a refused address (link-local, cloud metadata or unspecified)',
    );
  });

  it('passes other answers and errors through unchanged', async () => {
    expect(await resolved(resolver('203.0.113.7'), false)).toEqual({ error: null, address: '203.0.113.7' });
    const all = await resolved(resolver('203.0.113.7', '2001:db8::7'), true);
    expect(all).toEqual({
      error: null,
      address: [
        { address: '203.0.113.7', family: 4 },
        { address: '2001:db8::7', family: 6 },
      ],
    });
    const failing: LookupFunction = (_hostname, _options, callback) =>
      callback(Object.assign(new Error('getaddrinfo ENOTFOUND x'), { code: 'ENOTFOUND' }), '');
    expect((await resolved(failing, false)).error?.message).toBe('getaddrinfo ENOTFOUND x');
  });
});
