import { isAbsolute, normalize } from 'node:path';
import { SOURCE_KINDS, SourceKind } from '../store/repositories/sources.repository';

/** An integration id a source's rows are stored under (admin API and CLI alike). */
export const INTEGRATION_ID_PATTERN = /^[A-Za-z0-9._:-]{1,128}$/;
export const INTEGRATION_ID_RULE = '1 to 128 letters, digits or ._:-';

export function isSourceKind(value: unknown): value is SourceKind {
  return typeof value === 'string' && (SOURCE_KINDS as readonly string[]).includes(value);
}

/**
 * Where the service finds a secret: the names of environment variables of the process that checks the source (never
 * the values, which are neither stored nor shown). S3: access key id and secret; Azure: account name and key, or a
 * SAS token. None: the SDK's own chain (S3: instance role, AWS_* variables) or anonymous access.
 */
export interface CredentialReferences {
  /** S3 access key id, or Azure account name. */
  idEnv?: string;
  /** S3 secret access key, or Azure account key. */
  secretEnv?: string;
  /** Azure shared access signature. */
  sasTokenEnv?: string;
}

/** How to reach an object store: endpoint (S3-compatible server; Azure account URL), region, path-style addressing. */
export interface SourceOptions {
  endpoint?: string;
  region?: string;
  pathStyle?: boolean;
  credentials?: CredentialReferences;
}

export type SourceLocation =
  | { scheme: 'file'; path: string }
  | {
      scheme: 's3';
      bucket: string;
      prefix: string;
      endpoint?: string;
      region: string;
      pathStyle: boolean;
      credentials: CredentialReferences;
    }
  | { scheme: 'azure'; container: string; prefix: string; accountUrl: string; credentials: CredentialReferences };

/**
 * Credentials are read only from variables the operator set aside for sources: a source must not be able to name
 * another of the process's secrets (CLICKHOUSE_PASSWORD, say) and have it sent to an endpoint it chose.
 */
export const CREDENTIALS_ENV_PREFIX = 'SOURCE_CREDENTIALS_';
const CREDENTIALS_ENV_NAME = new RegExp(`^${CREDENTIALS_ENV_PREFIX}[A-Z0-9_]{1,100}$`);
export const CREDENTIALS_ENV_RULE = `the NAME of an environment variable starting with ${CREDENTIALS_ENV_PREFIX} (then A-Z, 0-9, _)`;
const BUCKET = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;
const CONTAINER = /^(\$root|[a-z0-9](?!.*--)[a-z0-9-]{1,61}[a-z0-9])$/;

/** The location a source URL and its options name, or the reason it is refused (a message naming the field). */
export function parseSourceLocation(url: string, options: SourceOptions = {}): SourceLocation | { problem: string } {
  if (url.length > 2048) return { problem: 'url: at most 2048 characters' };
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { problem: 'url: not a URL; use file:///directory, s3://bucket/prefix or azure://container/prefix' };
  }
  if (parsed.search !== '' || parsed.hash !== '') return { problem: 'url: no query or fragment (options are fields of their own)' };
  const credentials = credentialsProblem(options.credentials);
  if (typeof credentials === 'string') return { problem: credentials };
  switch (parsed.protocol) {
    case 'file:':
      return fileLocation(parsed);
    case 's3:':
      return s3Location(parsed, options, credentials);
    case 'azure:':
      return azureLocation(parsed, options, credentials);
    default:
      return { problem: 'url: use file:///directory, s3://bucket/prefix or azure://container/prefix' };
  }
}

function fileLocation(parsed: URL): SourceLocation | { problem: string } {
  if (parsed.host !== '') return { problem: 'url: a file URL has no host (file:///absolute/path)' };
  const path = decodeURIComponent(parsed.pathname);
  // eslint-disable-next-line no-control-regex -- control characters are what this refuses
  if (!isAbsolute(path) || /[\u0000-\u001f\u007f]/.test(path))
    return { problem: 'url: the path must be absolute, without control characters' };
  return { scheme: 'file', path: normalize(path).replace(/\/+$/, '') || '/' };
}

function s3Location(parsed: URL, options: SourceOptions, credentials: CredentialReferences): SourceLocation | { problem: string } {
  if (!BUCKET.test(parsed.host)) return { problem: 'url: s3://bucket/prefix with a valid bucket name' };
  const endpoint = endpointProblem(options.endpoint, false);
  if (typeof endpoint === 'object') return endpoint;
  const region = options.region ?? 'us-east-1';
  if (!/^[a-z0-9-]{1,32}$/.test(region)) return { problem: 'region: letters, digits and dashes (e.g. eu-west-1)' };
  if (credentials.sasTokenEnv) return { problem: 'credentials: a SAS token is for azure:// sources' };
  return {
    scheme: 's3',
    bucket: parsed.host,
    prefix: prefixOf(parsed),
    endpoint,
    region,
    pathStyle: options.pathStyle === true,
    credentials,
  };
}

function azureLocation(parsed: URL, options: SourceOptions, credentials: CredentialReferences): SourceLocation | { problem: string } {
  if (!CONTAINER.test(parsed.host)) return { problem: 'url: azure://container/prefix with a valid container name' };
  const accountUrl = endpointProblem(options.endpoint, true);
  if (typeof accountUrl === 'object') return accountUrl;
  if (options.region !== undefined || options.pathStyle !== undefined) return { problem: 'region, pathStyle: for s3:// sources only' };
  return { scheme: 'azure', container: parsed.host, prefix: prefixOf(parsed), accountUrl: accountUrl!, credentials };
}

function prefixOf(parsed: URL): string {
  const prefix = decodeURIComponent(parsed.pathname).replace(/^\/+/, '');
  return prefix === '' || prefix.endsWith('/') ? prefix : `${prefix}/`;
}

function endpointProblem(endpoint: string | undefined, required: boolean): string | undefined | { problem: string } {
  if (endpoint === undefined)
    return required ? { problem: 'endpoint: the storage account URL, e.g. https://<account>.blob.core.windows.net' } : undefined;
  try {
    const url = new URL(endpoint);
    if ((url.protocol === 'https:' || url.protocol === 'http:') && url.username === '' && url.password === '' && url.search === '') {
      return endpoint.replace(/\/+$/, '');
    }
  } catch {
    // refused below
  }
  return { problem: 'endpoint: an http(s) URL without credentials or query' };
}

function credentialsProblem(credentials: CredentialReferences | undefined): CredentialReferences | string {
  if (credentials === undefined) return {};
  const names = Object.entries(credentials).filter(([, value]) => value !== undefined);
  for (const [field, name] of names) {
    if (!['idEnv', 'secretEnv', 'sasTokenEnv'].includes(field)) return `credentials.${field}: unknown`;
    if (typeof name !== 'string' || !CREDENTIALS_ENV_NAME.test(name)) return `credentials.${field}: ${CREDENTIALS_ENV_RULE}`;
  }
  if ((credentials.idEnv === undefined) !== (credentials.secretEnv === undefined)) return 'credentials: idEnv and secretEnv go together';
  return credentials;
}

/** The location as stored and shown: the URL alone (options apart, credential references by name only). */
export function locationUrl(location: SourceLocation): string {
  switch (location.scheme) {
    case 'file':
      return `file://${location.path}`;
    case 's3':
      return `s3://${location.bucket}/${location.prefix}`;
    case 'azure':
      return `azure://${location.container}/${location.prefix}`;
  }
}
