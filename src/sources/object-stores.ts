import { GetObjectCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { AnonymousCredential, ContainerClient, StorageSharedKeyCredential } from '@azure/storage-blob';
import { createWriteStream } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ListedObject } from './delivery-layouts';
import { FileStore, MAX_MANIFEST_BYTES } from './file-store';
import type { CredentialReferences, SourceLocation } from './source-location';

/**
 * A source's objects wherever they are: one listing (names, sizes, changes; no object read), a manifest's text, and
 * the parts as local files for the importer (a remote part is streamed to disk, never held in memory).
 */
export interface SourceStore {
  list(): Promise<ListedObject[]>;
  readText(key: string): Promise<string>;
  /** Local paths of `keys`; remote objects are downloaded into `dir` first. */
  localPaths(keys: string[], dir: string): Promise<string[]>;
}

/** A credential a source names is not set in this process: said by name, never by value. */
export class MissingCredential extends Error {}

export function openStore(location: SourceLocation, environment: NodeJS.ProcessEnv = process.env): SourceStore {
  switch (location.scheme) {
    case 'file':
      return new FileStore(location.path);
    case 's3':
      return new S3Store(location, environment);
    case 'azure':
      return new AzureStore(location, environment);
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

/** An S3-compatible bucket (AWS S3, OCI, GCS interoperability, on-prem) through the AWS SDK. */
class S3Store implements SourceStore {
  private readonly client: S3Client;

  constructor(
    private readonly location: Extract<SourceLocation, { scheme: 's3' }>,
    environment: NodeJS.ProcessEnv,
  ) {
    const { id, secret: key } = resolved(location.credentials, environment);
    this.client = new S3Client({
      region: location.region,
      endpoint: location.endpoint,
      forcePathStyle: location.pathStyle,
      credentials: id && key ? { accessKeyId: id, secretAccessKey: key } : undefined,
      maxAttempts: 3,
    });
  }

  async list(): Promise<ListedObject[]> {
    const listed: ListedObject[] = [];
    let token: string | undefined;
    do {
      const page = await this.client.send(
        new ListObjectsV2Command({ Bucket: this.location.bucket, Prefix: this.location.prefix, ContinuationToken: token }),
      );
      for (const object of page.Contents ?? []) {
        if (!object.Key || object.Key.endsWith('/')) continue;
        listed.push({
          key: object.Key.slice(this.location.prefix.length),
          size: object.Size ?? 0,
          modifiedMs: object.LastModified?.getTime() ?? 0,
          etag: object.ETag,
        });
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
    return listed.sort((a, b) => a.key.localeCompare(b.key));
  }

  async readText(key: string): Promise<string> {
    const object = await this.client.send(new GetObjectCommand({ Bucket: this.location.bucket, Key: this.location.prefix + key }));
    if ((object.ContentLength ?? 0) > MAX_MANIFEST_BYTES)
      throw new Error(`${key}: larger than ${MAX_MANIFEST_BYTES} bytes, not a manifest`);
    return (await object.Body?.transformToString('utf8')) ?? '';
  }

  async localPaths(keys: string[], dir: string): Promise<string[]> {
    const paths: string[] = [];
    for (const key of keys) {
      const path = join(dir, ...key.split('/'));
      await mkdir(dirname(path), { recursive: true });
      const object = await this.client.send(new GetObjectCommand({ Bucket: this.location.bucket, Key: this.location.prefix + key }));
      await pipeline(object.Body as Readable, createWriteStream(path));
      paths.push(path);
    }
    return paths;
  }
}

/** An Azure Blob Storage container through the Azure SDK: shared key, SAS token, or anonymous (public) access. */
class AzureStore implements SourceStore {
  private readonly container: ContainerClient;

  constructor(
    private readonly location: Extract<SourceLocation, { scheme: 'azure' }>,
    environment: NodeJS.ProcessEnv,
  ) {
    const { id, secret: key, sas } = resolved(location.credentials, environment);
    const url = `${location.accountUrl}/${location.container}${sas ? `?${sas.replace(/^\?/, '')}` : ''}`;
    // Few, short retries (as the S3 client's 3 attempts): the worker tries an unreachable source again at its own
    // pace (CheckSchedule), and the SDK's default (4 tries, 4 s doubling) would hold up every other source's check.
    this.container = new ContainerClient(url, id && key ? new StorageSharedKeyCredential(id, key) : new AnonymousCredential(), {
      retryOptions: { maxTries: 3, retryDelayInMs: 500, maxRetryDelayInMs: 2_000 },
    });
  }

  async list(): Promise<ListedObject[]> {
    const listed: ListedObject[] = [];
    for await (const blob of this.container.listBlobsFlat({ prefix: this.location.prefix })) {
      listed.push({
        key: blob.name.slice(this.location.prefix.length),
        size: blob.properties.contentLength ?? 0,
        modifiedMs: blob.properties.lastModified?.getTime() ?? 0,
        etag: blob.properties.etag,
      });
    }
    return listed.sort((a, b) => a.key.localeCompare(b.key));
  }

  async readText(key: string): Promise<string> {
    const blob = this.container.getBlobClient(this.location.prefix + key);
    const properties = await blob.getProperties();
    if ((properties.contentLength ?? 0) > MAX_MANIFEST_BYTES)
      throw new Error(`${key}: larger than ${MAX_MANIFEST_BYTES} bytes, not a manifest`);
    return (await blob.downloadToBuffer()).toString('utf8');
  }

  async localPaths(keys: string[], dir: string): Promise<string[]> {
    const paths: string[] = [];
    for (const key of keys) {
      const path = join(dir, ...key.split('/'));
      await mkdir(dirname(path), { recursive: true });
      const download = await this.container.getBlobClient(this.location.prefix + key).download();
      await pipeline(download.readableStreamBody as NodeJS.ReadableStream, createWriteStream(path));
      paths.push(path);
    }
    return paths;
  }
}
