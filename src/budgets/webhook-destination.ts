/**
 * Where a budget-alert webhook may go: only to the hosts the operator lists in WEBHOOK_ALLOWED_HOSTS, over https:
 * (http: only to a loopback host, for local receivers), never with credentials in the URL, and never to a link-local,
 * cloud-metadata or unspecified address, so a webhook cannot be turned into a probe of the service's own network.
 *
 * Patterns: `host`, `host:port`, `*.suffix`, `*.suffix:port`, `[v6]`, `[v6]:port`. A pattern without a port allows
 * only the scheme's default port (443, or 80 for http:); `*.example.com` allows every name under example.com, not
 * example.com itself. Private and loopback addresses are not refused here: the allow-list is what confines them.
 */
import { isIP } from 'node:net';

interface HostPattern {
  wildcard: boolean;
  host: string;
  port?: number;
}

const DEFAULT_PORTS: Record<string, number> = { 'https:': 443, 'http:': 80 };
const PATTERN = /^(\*\.)?([\p{L}\p{N}._-]+|\[[0-9A-Fa-f:.]+\])(?::(\d{1,5}))?$/u;

/** The patterns of WEBHOOK_ALLOWED_HOSTS (comma or space separated), canonical; throws on one that could never match. */
export function parseAllowedHosts(text: string | undefined): string[] {
  return (text ?? '')
    .split(/[\s,]+/)
    .filter(Boolean)
    .map((pattern) => canonicalPattern(pattern));
}

/** What keeps `url` from being a webhook destination under `allowedHosts`: empty when it may be one. */
export function destinationProblems(url: string, allowedHosts: readonly string[]): string[] {
  const target = parsedUrl(url);
  if (!target) return ['the webhook URL is not a URL'];
  if (!(target.protocol in DEFAULT_PORTS)) return [`the webhook URL must be https: (${target.protocol} is not)`];
  const problems = [schemeProblem(target), credentialsProblem(target), hostProblem(target, allowedHosts), addressProblem(target)];
  return problems.filter((problem): problem is string => problem !== undefined);
}

/**
 * Addresses no webhook may reach: link-local (169.254.0.0/16, fe80::/10, home of the cloud metadata services),
 * AWS's IPv6 metadata fd00:ec2::254, Alibaba's 100.100.100.200, unspecified 0.0.0.0/8 and ::, and the IPv6 forms of
 * those IPv4 ones (IPv4-mapped ::ffff:0:0/96, NAT64 64:ff9b::/96). False for text that is not an IP address.
 */
export function isRefusedAddress(ip: string): boolean {
  const address = ip.replace(/^\[(.*)\]$/, '$1').replace(/%.*$/, '');
  if (isIP(address) === 4) return refusedIpv4(ipv4Value(address));
  if (isIP(address) !== 6) return false;
  const value = ipv6Value(address);
  if (IPV4_INSIDE_IPV6.some(([base, bits]) => inCidr(value, ipv6Value(base), bits, 128))) return refusedIpv4(value & 0xffff_ffffn);
  return REFUSED_IPV6.some(([base, bits]) => inCidr(value, ipv6Value(base), bits, 128));
}

/** localhost, 127.0.0.0/8 or [::1]: the hosts plain http: may reach (a receiver on the same machine). */
export function isLoopbackHost(hostname: string): boolean {
  const address = hostname.replace(/^\[(.*)\]$/, '$1');
  if (isIP(address) === 4) return inCidr(ipv4Value(address), ipv4Value('127.0.0.0'), 8, 32);
  return hostname === 'localhost' || (isIP(address) === 6 && ipv6Value(address) === 1n);
}

const REFUSED_IPV4: [string, number][] = [
  ['0.0.0.0', 8],
  ['169.254.0.0', 16],
  ['100.100.100.200', 32],
];
const REFUSED_IPV6: [string, number][] = [
  ['::', 128],
  ['fe80::', 10],
  ['fd00:ec2::254', 128],
];
const IPV4_INSIDE_IPV6: [string, number][] = [
  ['::ffff:0:0', 96],
  ['64:ff9b::', 96],
];

function canonicalPattern(text: string): string {
  const pattern = hostPattern(text.toLowerCase());
  if (!pattern) throw new Error(`WEBHOOK_ALLOWED_HOSTS: "${text}" is not host, host:port, *.suffix or *.suffix:port ([v6] in brackets)`);
  return `${pattern.wildcard ? '*.' : ''}${pattern.host}${pattern.port === undefined ? '' : `:${pattern.port}`}`;
}

/** A pattern with its host as URLs write it (lower case, punycode, IPv4 and IPv6 in their canonical forms). */
function hostPattern(text: string): HostPattern | undefined {
  const match = PATTERN.exec(text);
  const host = match ? parsedUrl(`http://${match[2]}/`)?.hostname : undefined;
  const port = match?.[3] === undefined ? undefined : Number(match[3]);
  if (!match || !host || (port !== undefined && (port < 1 || port > 65_535))) return undefined;
  const wildcard = match[1] !== undefined;
  // A wildcard names DNS labels: "*.10.0.0.1" or "*.[::1]" could never match a host.
  return wildcard && (isIP(host) || host.startsWith('[')) ? undefined : { wildcard, host, port };
}

function parsedUrl(text: string): URL | undefined {
  try {
    return new URL(text);
  } catch {
    return undefined;
  }
}

function schemeProblem(target: URL): string | undefined {
  if (target.protocol === 'http:' && !isLoopbackHost(target.hostname))
    return 'the webhook URL must be https: (http: only to a loopback host: localhost, 127.0.0.0/8, [::1])';
  return undefined;
}

/** Names no part of the credentials: the message is stored and shown. */
function credentialsProblem(target: URL): string | undefined {
  return target.username || target.password ? 'the webhook URL must not carry credentials (user:password@)' : undefined;
}

function hostProblem(target: URL, allowedHosts: readonly string[]): string | undefined {
  if (allowedHosts.length === 0) return 'WEBHOOK_ALLOWED_HOSTS allows no host';
  const patterns = allowedHosts.map((text) => hostPattern(text.toLowerCase()));
  return patterns.some((pattern) => pattern && matches(pattern, target))
    ? undefined
    : `host ${target.host} is not in WEBHOOK_ALLOWED_HOSTS`;
}

/** A pattern without a port allows only the scheme's default port (URL leaves `port` empty for it). */
function matches(pattern: HostPattern, target: URL): boolean {
  const defaultPort = DEFAULT_PORTS[target.protocol];
  const hostMatches = pattern.wildcard ? target.hostname.endsWith(`.${pattern.host}`) : target.hostname === pattern.host;
  return hostMatches && (target.port ? Number(target.port) : defaultPort) === (pattern.port ?? defaultPort);
}

function addressProblem(target: URL): string | undefined {
  if (!isRefusedAddress(target.hostname)) return undefined;
  return `${target.hostname} is a refused address (link-local, cloud metadata or unspecified)`;
}

function refusedIpv4(value: bigint): boolean {
  return REFUSED_IPV4.some(([base, bits]) => inCidr(value, ipv4Value(base), bits, 32));
}

/** Whether `value` lies in `base`/`bits` for addresses of `width` bits. */
function inCidr(value: bigint, base: bigint, bits: number, width: 32 | 128): boolean {
  const shift = BigInt(width - bits);
  return value >> shift === base >> shift;
}

/** A dotted IPv4 address (already checked by isIP) as an integer. */
function ipv4Value(text: string): bigint {
  return text.split('.').reduce((value, part) => (value << 8n) | BigInt(part), 0n);
}

/** An IPv6 address (already checked by isIP; `::` and a trailing dotted IPv4 allowed) as an integer. */
function ipv6Value(text: string): bigint {
  const [head, tail] = text.includes('::') ? text.split('::') : [text, undefined];
  const [first, last] = [groupsOf(head), groupsOf(tail ?? '')];
  const groups = tail === undefined ? first : [...first, ...Array<number>(8 - first.length - last.length).fill(0), ...last];
  return groups.reduce((value, group) => (value << 16n) | BigInt(group), 0n);
}

function groupsOf(text: string): number[] {
  if (!text) return [];
  return text.split(':').flatMap((group) => {
    if (!group.includes('.')) return [parseInt(group, 16)];
    const ipv4 = Number(ipv4Value(group));
    return [Math.floor(ipv4 / 65_536), ipv4 % 65_536];
  });
}
