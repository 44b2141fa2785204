import type { S3Client } from '@aws-sdk/client-s3';
import type { ContainerClient } from '@azure/storage-blob';
import { createWriteStream } from 'node:fs';
import { statfs } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { once } from '../common/async/once';
import { ExportPart, FocusIngestError } from '../ingest/focus-files';
import { confiningFolder } from './file-confinement';
import { FileStore, MAX_MANIFEST_BYTES } from './file-store';
import {
  keyOrder,
  ListedObject,
  LISTING_SLICE,
  ListingTooLong,
  objectKeyProblem,
  SourceListing,
  sortInSlices,
  yieldToEventLoop,
} from './source-listing';
import type { CredentialReferences, SourceLocation } from './source-location';

/**
 * A source's objects wherever they are: one listing (names, sizes, changes; no object read), a manifest's text, and
 * the parts for the importer (a remote part is streamed to disk, never held in memory).
 */
export interface SourceStore {
  list(): Promise<SourceListing>;
  readText(key: string): Promise<string>;
  /** The importer's parts of `objects`; remote objects are downloaded into `dir` first, under names of the check's. */
  parts(objects: ListedObject[], dir: string): Promise<ExportPart[]>;
}

/** What a check's store may do: whose source it is, the operator's root, and the listing and size caps. */
export interface StoreContext {
  organizationId: string;
  fileRoot: string;
  maxListedObjects: number;
  environment?: NodeJS.ProcessEnv;
}

/**
 * The object stores' SDKs, loaded when a source first reads a bucket or container: together about a second and a half
 * of every process's start otherwise (each CLI command's too), for what most installations never use.
 */
const awsSdk = once(() => import('@aws-sdk/client-s3'));
const azureSdk = once(() => import('@azure/storage-blob'));

/** A credential a source names is not set in this process: said by name, never by value. */
export class MissingCredential extends Error {}

export function openStore(location: SourceLocation, context: StoreContext): SourceStore {
  const environment = context.environment ?? process.env;
  switch (location.scheme) {
    case 'file':
      return new FileStore(
        location.path,
        confiningFolder(location.path, context.organizationId, context.fileRoot),
        context.maxListedObjects,
      );
    case 's3':
      return new S3Store(location, environment, context.maxListedObjects);
    case 'azure':
      return new AzureStore(location, environment, context.maxListedObjects);
  }
}

function secret(environment: NodeJS.ProcessEnv, name: string): string {
  const value = environment[name];
  if (!value) throw new MissingCredential(`the environment variable ${name} the source names is not set in the process checking it`);
  return value;
}

function resolved(credentials: CredentialReferences, environment: NodeJS.ProcessEnv) {
  return {
    id: credentials.idEnv ? secret(environment, credentials.idEnv) : undefined,
    secret: credentials.secretEnv ? secret(environment, credentials.secretEnv) : undefined,
    sas: credentials.sasTokenEnv ? secret(environment, credentials.sasTokenEnv) : undefined,
  };
}

/**
 * Collects a remote listing: a key that could not name a part is refused (named in the check), the rest kept;
 * past the cap the listing stops. Keys are relative to the source's prefix.
 */
class RemoteListing {
  readonly listing: SourceListing = { objects: [], refused: [] };

  constructor(private readonly maxListedObjects: number) {}

  async add(key: string, object: Omit<ListedObject, 'key'>): Promise<void> {
    const { objects, refused } = this.listing;
    if (objects.length + refused.length >= this.maxListedObjects) throw new ListingTooLong(this.maxListedObjects);
    if ((objects.length + refused.length) % LISTING_SLICE === 0) await yieldToEventLoop();
    const problem = objectKeyProblem(key);
    if (problem) refused.push({ key, reason: problem });
    else objects.push({ key, ...object });
  }

  async sorted(): Promise<SourceListing> {
    return { ...this.listing, objects: await sortInSlices(this.listing.objects, (a, b) => keyOrder(a.key, b.key)) };
  }
}

/**
 * Downloads each object to a file named by its place in the delivery (never by its key), refusing one that is larger
 * than its listing said, and the whole delivery first when it would not fit in the temporary folder's free space.
 */
async function downloadParts(
  objects: ListedObject[],
  dir: string,
  nameOf: (key: string) => string,
  download: (key: string) => Promise<Readable>,
): Promise<ExportPart[]> {
  const needed = objects.reduce((bytes, object) => bytes + object.size, 0);
  const { bavail, bsize } = await statfs(dir);
  if (needed > bavail * bsize) {
    throw new FocusIngestError(
      `the delivery's ${objects.length} part(s) (${needed} bytes) are more than the temporary folder's free space (${bavail * bsize} bytes); nothing was downloaded`,
    );
  }
  const parts: ExportPart[] = [];
  for (const [index, object] of objects.entries()) {
    const path = join(dir, `part-${String(index + 1).padStart(6, '0')}`);
    await pipeline(await download(object.key), noLargerThan(object.size, nameOf(object.key)), createWriteStream(path, { mode: 0o600 }));
    parts.push({ name: nameOf(object.key), open: () => Promise.resolve({ path, close: () => Promise.resolve() }) });
  }
  return parts;
}

/** Passes bytes on until there are more than the listing said the object has: then the download is refused. */
function noLargerThan(bytes: number, name: string): Transform {
  let seen = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      seen += chunk.length;
      if (seen > bytes) done(new FocusIngestError(`${name}: refused: more bytes than its listing's ${bytes}`));
      else done(null, chunk);
    },
  });
}

/** An S3-compatible bucket (AWS S3, OCI, GCS interoperability, on-prem) through the AWS SDK. */
class S3Store implements SourceStore {
  private readonly client: () => Promise<S3Client>;

  constructor(
    private readonly location: Extract<SourceLocation, { scheme: 's3' }>,
    environment: NodeJS.ProcessEnv,
    private readonly maxListedObjects: number,
  ) {
    const { id, secret: key } = resolved(location.credentials, environment);
    this.client = once(async () => {
      const { S3Client } = await awsSdk();
      return new S3Client({
        region: location.region,
        endpoint: location.endpoint,
        forcePathStyle: location.pathStyle,
        credentials: id && key ? { accessKeyId: id, secretAccessKey: key } : undefined,
        maxAttempts: 3,
      });
    });
  }

  async list(): Promise<SourceListing> {
    const [{ ListObjectsV2Command }, client] = await Promise.all([awsSdk(), this.client()]);
    const listed = new RemoteListing(this.maxListedObjects);
    let token: string | undefined;
    do {
      const page = await client.send(
        new ListObjectsV2Command({ Bucket: this.location.bucket, Prefix: this.location.prefix, ContinuationToken: token }),
      );
      for (const object of page.Contents ?? []) {
        if (!object.Key?.startsWith(this.location.prefix) || object.Key.endsWith('/')) continue;
        await listed.add(object.Key.slice(this.location.prefix.length), {
          size: object.Size ?? 0,
          modifiedMs: object.LastModified?.getTime() ?? 0,
          etag: object.ETag,
        });
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
    return listed.sorted();
  }

  async readText(key: string): Promise<string> {
    const object = await this.get(key);
    if ((object.ContentLength ?? 0) > MAX_MANIFEST_BYTES)
      throw new Error(`${key}: larger than ${MAX_MANIFEST_BYTES} bytes, not a manifest`);
    return (await object.Body?.transformToString('utf8')) ?? '';
  }

  parts(objects: ListedObject[], dir: string): Promise<ExportPart[]> {
    return downloadParts(
      objects,
      dir,
      (key) => `s3://${this.location.bucket}/${this.location.prefix}${key}`,
      async (key) => (await this.get(key)).Body as Readable,
    );
  }

  private async get(key: string) {
    const [{ GetObjectCommand }, client] = await Promise.all([awsSdk(), this.client()]);
    return client.send(new GetObjectCommand({ Bucket: this.location.bucket, Key: this.location.prefix + key }));
  }
}

/** An Azure Blob Storage container through the Azure SDK: shared key, SAS token, or anonymous (public) access. */
class AzureStore implements SourceStore {
  private readonly container: () => Promise<ContainerClient>;

  constructor(
    private readonly location: Extract<SourceLocation, { scheme: 'azure' }>,
    environment: NodeJS.ProcessEnv,
    private readonly maxListedObjects: number,
  ) {
    const { id, secret: key, sas } = resolved(location.credentials, environment);
    const url = `${location.accountUrl}/${location.container}${sas ? `?${sas.replace(/^\?/, '')}` : ''}`;
    this.container = once(async () => {
      const { AnonymousCredential, ContainerClient, StorageSharedKeyCredential } = await azureSdk();
      // Few, short retries (as the S3 client's 3 attempts): the worker tries an unreachable source again at its own
      // pace (CheckSchedule), and the SDK's default (4 tries, 4 s doubling) would hold up every other source's check.
      return new ContainerClient(url, id && key ? new StorageSharedKeyCredential(id, key) : new AnonymousCredential(), {
        retryOptions: { maxTries: 3, retryDelayInMs: 500, maxRetryDelayInMs: 2_000 },
      });
    });
  }

  async list(): Promise<SourceListing> {
    const listed = new RemoteListing(this.maxListedObjects);
    for await (const blob of (await this.container()).listBlobsFlat({ prefix: this.location.prefix })) {
      if (!blob.name.startsWith(this.location.prefix)) continue;
      await listed.add(blob.name.slice(this.location.prefix.length), {
        size: blob.properties.contentLength ?? 0,
        modifiedMs: blob.properties.lastModified?.getTime() ?? 0,
        etag: blob.properties.etag,
      });
    }
    return listed.sorted();
  }

  async readText(key: string): Promise<string> {
    const blob = (await this.container()).getBlobClient(this.location.prefix + key);
    const properties = await blob.getProperties();
    if ((properties.contentLength ?? 0) > MAX_MANIFEST_BYTES)
      throw new Error(`${key}: larger than ${MAX_MANIFEST_BYTES} bytes, not a manifest`);
    return (await blob.downloadToBuffer()).toString('utf8');
  }

  parts(objects: ListedObject[], dir: string): Promise<ExportPart[]> {
    return downloadParts(
      objects,
      dir,
      (key) => `azure://${this.location.container}/${this.location.prefix}${key}`,
      async (key) => {
        const download = await (await this.container()).getBlobClient(this.location.prefix + key).download();
        return download.readableStreamBody as Readable;
      },
    );
  }
}
