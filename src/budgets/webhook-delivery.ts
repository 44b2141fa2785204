/**
 * One delivery attempt of a budget-alert webhook: a POST to a destination WEBHOOK_ALLOWED_HOSTS allows, connected
 * only to addresses that are not refused (checked on the resolved addresses, the ones the socket connects to, so a
 * name pointing at a metadata service is refused however its DNS answers), never redirected, cut at a deadline.
 * The receiver's answer is read and discarded; no error message carries the URL's credentials or a header's value.
 */
import { lookup as dnsLookup, LookupAddress } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { LookupFunction } from 'node:net';
import { rootCertificates } from 'node:tls';
import { messageOf } from '../common/errors/message-of';
import { destinationProblems, isRefusedAddress } from './webhook-destination';

export interface DeliveryOutcome {
  status?: number;
  error?: string;
  delivered: boolean;
}

export interface DeliveryOptions {
  /** The whole attempt: connection, TLS, request and the receiver's status line. Default 10 s. */
  timeoutMs?: number;
  allowedHosts: readonly string[];
  /** A CA trusted besides the system's (tests' self-signed receivers). */
  ca?: string | Buffer;
}

const USER_AGENT = 'cost-insights-webhooks/1';
/** Shorter header values are no secrets, and scrubbing them would garble ordinary words of a message. */
const SCRUBBED_LENGTH = 8;

/** POSTs `body` (JSON) to `url` once: delivered on a 2xx answer; a 3xx is not followed. */
export async function deliverWebhook(
  url: string,
  body: string,
  headers: Record<string, string>,
  options: DeliveryOptions,
): Promise<DeliveryOutcome> {
  const problems = destinationProblems(url, options.allowedHosts);
  if (problems.length) return { delivered: false, error: problems.join('; ') };
  const outcome = await attempt(new URL(url), body, requestOptions(headers, body, options), options.timeoutMs ?? 10_000).catch(
    (error: unknown): DeliveryOutcome => ({ delivered: false, error: messageOf(error) }),
  );
  return outcome.error === undefined ? outcome : { ...outcome, error: scrubbed(outcome.error, Object.values(headers)) };
}

/** `lookup`, failing when any address it resolves is refused: the addresses checked are those connected to. */
export function refusingLookup(lookup: LookupFunction): LookupFunction {
  return (hostname, options, callback) =>
    lookup(hostname, options, (error, address, family) => {
      const refused = error ? undefined : addressesOf(address).find((ip) => isRefusedAddress(ip));
      if (!refused) return callback(error, address, family);
      callback(
        new Error(`${hostname} resolves to ${refused}, a refused address (link-local, cloud metadata or unspecified)`),
        address,
        family,
      );
    });
}

function requestOptions(headers: Record<string, string>, body: string, options: DeliveryOptions): https.RequestOptions {
  return {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json', 'user-agent': USER_AGENT, 'content-length': Buffer.byteLength(body) },
    lookup: refusingLookup(dnsLookup),
    // A connection of its own: each attempt resolves (and checks) the name afresh, and no socket outlives it.
    agent: false,
    ...(options.ca === undefined ? {} : { ca: [...rootCertificates, options.ca] }),
  };
}

/** Settles at the receiver's status line; its body is drained in the background until its end or the deadline. */
function attempt(target: URL, body: string, options: https.RequestOptions, timeoutMs: number): Promise<DeliveryOutcome> {
  return new Promise((resolve) => {
    const transport = target.protocol === 'https:' ? https : http;
    const request = transport.request(target, options, (response) => {
      response.on('error', () => undefined).resume();
      resolve(outcomeOf(response.statusCode ?? 0));
    });
    const timer = setTimeout(() => request.destroy(new Error(`timed out after ${timeoutMs / 1000} s`)), timeoutMs);
    request.on('close', () => clearTimeout(timer));
    request.on('error', (error) => resolve({ delivered: false, error: messageOf(error) }));
    request.end(body);
  });
}

function outcomeOf(status: number): DeliveryOutcome {
  if (status >= 300 && status < 400) return { status, delivered: false, error: `redirects are not followed (${status})` };
  return { status, delivered: status >= 200 && status < 300 };
}

function addressesOf(address: string | LookupAddress[]): string[] {
  return typeof address === 'string' ? [address] : address.map((entry) => entry.address);
}

function scrubbed(message: string, secrets: string[]): string {
  return secrets
    .filter((secret) => secret.length >= SCRUBBED_LENGTH)
    .reduce((text, secret) => text.split(secret).join('[redacted]'), message);
}
