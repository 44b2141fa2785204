import type { S3Client } from '@aws-sdk/client-s3';
import { once } from '../common/async/once';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { messageOf } from '../common/errors/message-of';
import type { AppConfig, S3BackupSettings } from '../config/app-config';
import { BACKUP_NAME, BACKUP_NAME_TEXT, BackupManifest, MANIFEST_FILE, manifestProblem } from './backup-manifest';
import { fileTarget } from '../store/backup-statements';

export interface ListedBackup {
  name: string;
  complete: boolean;
  manifest?: BackupManifest;
  /** Why it is not restorable, for an incomplete one. */
  problem?: string;
  modifiedAt: string;
}

export class BackupLocationError extends Error {}

export function assertBackupName(name: string): void {
  if (!BACKUP_NAME.test(name)) {
    throw new BackupLocationError(`backup name must be ${BACKUP_NAME_TEXT}, got "${name}"`);
  }
}

/**
 * Where backups live: a folder (BACKUP_DIR) or S3-compatible storage (BACKUP_S3_URL). Each backup is a folder (or
 * prefix) holding a ClickHouse backup per part of the store (`store` for one server, `s1`, `s2`, … for a cluster's
 * shards), and `manifest.json` (backup-manifest.ts), written last, once every part is complete: one without it is an
 * incomplete backup (interrupted or failed), listed as such and never restored; one whose manifest breaks its rules is
 * listed as not restorable, saying which field.
 *
 * The location the configuration names: S3 when BACKUP_S3_URL is set, else the folder BACKUP_DIR.
 */
export function backupLocation(config: AppConfig['backup']): BackupLocation {
  return config.s3 ? new S3Location(config.s3) : new FolderLocation(config.dir);
}

/** The shared logic of every location over a few primitives (read, write, list, remove). */
export abstract class BackupLocation {
  /** The location in messages (never a secret). */
  abstract readonly description: string;
  /** The ClickHouse backup engine (SQL) of one part of a backup. */
  abstract engine(name: string, folder: string): string;
  /** A file of a backup in messages. */
  abstract describe(name: string, ...path: string[]): string;
  /** A message without the location's secrets (ClickHouse masks them itself; this holds whatever it does not). */
  redact(message: string): string {
    return message;
  }
  /** Makes room for a new backup, refusing a name taken and a location that cannot be written. */
  abstract prepare(name: string): Promise<void>;
  abstract remove(name: string): Promise<void>;
  protected abstract names(): Promise<{ name: string; modifiedAt: string }[]>;
  protected abstract read(name: string, ...path: string[]): Promise<string | undefined>;
  protected abstract write(name: string, file: string, text: string): Promise<void>;
  /** The size of every file under a part of a backup, by its path relative to the part. */
  protected abstract sizes(name: string, folder: string): Promise<Map<string, number>>;

  /** Writes the manifest whole (a reader sees none or all of it): the backup is complete from then on. */
  async writeManifest(manifest: BackupManifest): Promise<void> {
    await this.write(manifest.name, MANIFEST_FILE, `${JSON.stringify(manifest, null, 2)}\n`);
  }

  /** Whether ClickHouse's listing of a part is where this process looks (BACKUP_DIR must be the same for both). */
  async hasPart(name: string, folder: string): Promise<boolean> {
    return (await this.read(name, folder, '.backup')) !== undefined;
  }

  /**
   * Why a part just written is not whole, or undefined when it is: its `.backup` listing complete and every file it
   * stores present with the size it lists. ClickHouse can report a backup created although the disk filled up under
   * it (measured: chDB 26.7 on a full tmpfs, an empty `.backup`), so a backup is never taken on its word alone.
   */
  async incompletePart(name: string, folder: string): Promise<string | undefined> {
    const listing = await this.read(name, folder, '.backup');
    const where = this.describe(name, folder, '.backup');
    if (listing === undefined) return `${where} is missing`;
    if (!/<\/config>\s*$/.test(listing)) return `${where} is cut short (${listing.length} bytes)`;
    const sizes = await this.sizes(name, folder);
    for (const [, entry] of listing.matchAll(/<file>(.*?)<\/file>/gs)) {
      if (/<use_base>true<\/use_base>/.test(entry)) continue;
      const size = Number(/<size>(\d+)<\/size>/.exec(entry)?.[1] ?? 0);
      const stored = /<data_file>(.*?)<\/data_file>/.exec(entry)?.[1] ?? /<name>(.*?)<\/name>/.exec(entry)?.[1];
      if (size === 0 || stored === undefined) continue;
      if (sizes.get(stored) !== size && !/<base_size>/.test(entry)) {
        return `${this.describe(name, folder, stored)} has ${sizes.get(stored) ?? 'no'} bytes, ${size} expected`;
      }
    }
    return undefined;
  }

  /** Every backup, newest first, complete or not. */
  async list(): Promise<ListedBackup[]> {
    const listed = await Promise.all((await this.names()).filter(({ name }) => BACKUP_NAME.test(name)).map((entry) => this.inspect(entry)));
    return listed.sort((a, b) => (b.manifest?.startedAt ?? b.modifiedAt).localeCompare(a.manifest?.startedAt ?? a.modifiedAt));
  }

  /** The manifest of a complete backup; an unknown or incomplete one is refused, saying why. */
  async readManifest(name: string): Promise<BackupManifest> {
    assertBackupName(name);
    const entry = (await this.names()).find((candidate) => candidate.name === name);
    if (!entry) {
      const known = (await this.list()).filter((backup) => backup.complete);
      throw new BackupLocationError(
        `no backup named ${name} in ${this.description}` +
          (known.length ? ` (complete backups: ${known.map((b) => b.name).join(', ')})` : ''),
      );
    }
    const listed = await this.inspect(entry);
    if (!listed.complete) throw new BackupLocationError(`backup ${name} is not restorable: ${listed.problem}`);
    return listed.manifest!;
  }

  /**
   * The file of a backup part whose content has this checksum, as ClickHouse's `.backup` lists it, followed into the
   * bases of an incremental one (`chain`: the backup and its bases, newest first): how a corrupt file is named.
   */
  async fileWithChecksum(chain: string[], folder: string, checksum: string): Promise<string | undefined> {
    for (const name of chain) {
      const listing = await this.read(name, folder, '.backup');
      const entry = [...(listing ?? '').matchAll(/<file>(.*?)<\/file>/gs)]
        .map((match) => match[1])
        .find((text) => text.includes(`<checksum>${checksum}</checksum>`));
      if (!entry) return undefined;
      if (/<use_base>true<\/use_base>/.test(entry)) continue;
      const stored = /<data_file>(.*?)<\/data_file>/.exec(entry)?.[1] ?? /<name>(.*?)<\/name>/.exec(entry)?.[1];
      return stored === undefined ? undefined : this.describe(name, folder, stored);
    }
    return undefined;
  }

  private async inspect({ name, modifiedAt }: { name: string; modifiedAt: string }): Promise<ListedBackup> {
    const text = await this.read(name, MANIFEST_FILE);
    const where = this.describe(name, MANIFEST_FILE);
    if (text === undefined)
      return { name, complete: false, modifiedAt, problem: `it is incomplete (no ${MANIFEST_FILE}: interrupted or failed)` };
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      return { name, complete: false, modifiedAt, problem: `its ${MANIFEST_FILE} is not valid JSON (${where})` };
    }
    // Checked before any of its fields is used: the part folders are paths, the database goes into SQL.
    const problem = manifestProblem(parsed, name);
    if (problem) return { name, complete: false, modifiedAt, problem: `${problem}: a damaged or altered backup (${where})` };
    const manifest = parsed as BackupManifest;
    for (const part of manifest.parts) {
      if (!(await this.hasPart(name, part.folder))) {
        return { name, complete: false, modifiedAt, manifest, problem: `file ${this.describe(name, part.folder, '.backup')} is missing` };
      }
    }
    return { name, complete: true, modifiedAt, manifest };
  }
}

/** BACKUP_DIR: ClickHouse's File engine; the backup commands read and write the same folder. */
export class FolderLocation extends BackupLocation {
  constructor(readonly dir: string) {
    super();
  }

  get description(): string {
    return this.dir;
  }

  engine(name: string, folder: string): string {
    return fileTarget(this.path(name, folder));
  }

  describe(name: string, ...path: string[]): string {
    return this.path(name, ...path);
  }

  async prepare(name: string): Promise<void> {
    const path = this.path(name);
    if (existsSync(path)) throw new BackupLocationError(`a backup named ${name} already exists in ${this.dir}`);
    try {
      mkdirSync(path, { recursive: true });
      writeFileSync(join(path, '.writable'), '');
      rmSync(join(path, '.writable'));
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? String(error);
      throw new BackupLocationError(`cannot write to the backup folder ${path}: ${code}. Nothing was backed up.`);
    }
  }

  async remove(name: string): Promise<void> {
    rmSync(this.path(name), { recursive: true, force: true });
  }

  protected async names(): Promise<{ name: string; modifiedAt: string }[]> {
    if (!existsSync(this.dir)) return [];
    return readdirSync(this.dir, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => ({ name: entry.name, modifiedAt: statSync(join(this.dir, entry.name)).mtime.toISOString() }));
  }

  protected async read(name: string, ...path: string[]): Promise<string | undefined> {
    const file = this.path(name, ...path);
    return existsSync(file) ? readFileSync(file, 'utf8') : undefined;
  }

  protected async sizes(name: string, folder: string): Promise<Map<string, number>> {
    const root = this.path(name, folder);
    const sizes = new Map<string, number>();
    const walk = (relative: string) => {
      for (const entry of readdirSync(join(root, relative), { withFileTypes: true })) {
        const path = relative ? `${relative}/${entry.name}` : entry.name;
        if (entry.isDirectory()) walk(path);
        else sizes.set(path, statSync(join(root, path)).size);
      }
    };
    if (existsSync(root)) walk('');
    return sizes;
  }

  protected async write(name: string, file: string, text: string): Promise<void> {
    const path = this.path(name, file);
    writeFileSync(`${path}.tmp`, text);
    renameSync(`${path}.tmp`, path);
  }

  private path(name: string, ...path: string[]): string {
    assertBackupName(name);
    return join(this.dir, name, ...path);
  }
}

/** The AWS SDK, loaded at a backup location's first request (about half a second of every process's start otherwise). */
const awsSdk = once(() => import('@aws-sdk/client-s3'));

/** BACKUP_S3_URL: ClickHouse's S3 engine (path-style URLs) and the AWS SDK for the manifests and listings. */
export class S3Location extends BackupLocation {
  private readonly client: () => Promise<S3Client>;

  constructor(private readonly s3: S3BackupSettings) {
    super();
    this.client = once(async () => {
      const { S3Client } = await awsSdk();
      return new S3Client({
        endpoint: s3.endpoint,
        region: s3.region,
        forcePathStyle: true,
        credentials: s3.accessKeyId ? { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey } : undefined,
        maxAttempts: 3,
      });
    });
  }

  /** The SDK and the client, at the first request: most processes never reach a bucket. */
  private async aws() {
    const [sdk, client] = await Promise.all([awsSdk(), this.client()]);
    return { ...sdk, client };
  }

  get description(): string {
    return `s3://${this.s3.bucket}/${this.s3.prefix}`;
  }

  engine(name: string, folder: string): string {
    const url = `${this.s3.endpoint.replace(/\/$/, '')}/${this.s3.bucket}/${this.key(name, folder)}`;
    const literal = (text: string) => `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
    // ClickHouse masks the credentials of an S3 engine in its logs and errors; this process never logs statements.
    return this.s3.accessKeyId
      ? `S3(${literal(url)}, ${literal(this.s3.accessKeyId)}, ${literal(this.s3.secretAccessKey)})`
      : `S3(${literal(url)})`;
  }

  describe(name: string, ...path: string[]): string {
    return `s3://${this.s3.bucket}/${this.key(name, ...path)}`;
  }

  override redact(message: string): string {
    return this.s3.secretAccessKey ? message.split(this.s3.secretAccessKey).join('[HIDDEN]') : message;
  }

  async prepare(name: string): Promise<void> {
    const { PutObjectCommand, client } = await this.aws();
    if ((await this.names()).some((entry) => entry.name === name)) {
      throw new BackupLocationError(`a backup named ${name} already exists in ${this.description}`);
    }
    try {
      await client.send(new PutObjectCommand({ Bucket: this.s3.bucket, Key: this.key(name, '.started'), Body: new Date().toISOString() }));
    } catch (error) {
      throw new BackupLocationError(`cannot write to ${this.describe(name)}: ${messageOf(error)}. Nothing was backed up.`);
    }
  }

  async remove(name: string): Promise<void> {
    const { DeleteObjectsCommand, ListObjectsV2Command, client } = await this.aws();
    for (;;) {
      const page = await client.send(new ListObjectsV2Command({ Bucket: this.s3.bucket, Prefix: `${this.key(name)}/`, MaxKeys: 1000 }));
      const keys = (page.Contents ?? []).map((object) => ({ Key: object.Key! }));
      if (keys.length === 0) return;
      await client.send(new DeleteObjectsCommand({ Bucket: this.s3.bucket, Delete: { Objects: keys } }));
    }
  }

  protected async names(): Promise<{ name: string; modifiedAt: string }[]> {
    const { ListObjectsV2Command, client } = await this.aws();
    const names: { name: string; modifiedAt: string }[] = [];
    let token: string | undefined;
    do {
      const page = await client.send(
        new ListObjectsV2Command({ Bucket: this.s3.bucket, Prefix: this.prefix(), Delimiter: '/', ContinuationToken: token }),
      );
      for (const common of page.CommonPrefixes ?? []) {
        const name = common.Prefix!.slice(this.prefix().length).replace(/\/$/, '');
        const marker = await this.head(name, '.started');
        names.push({ name, modifiedAt: marker ?? new Date(0).toISOString() });
      }
      token = page.NextContinuationToken;
    } while (token);
    return names;
  }

  protected async read(name: string, ...path: string[]): Promise<string | undefined> {
    const { GetObjectCommand, client } = await this.aws();
    try {
      const object = await client.send(new GetObjectCommand({ Bucket: this.s3.bucket, Key: this.key(name, ...path) }));
      return await object.Body!.transformToString('utf8');
    } catch (error) {
      if (isNotFound(error)) return undefined;
      throw error;
    }
  }

  protected async write(name: string, file: string, text: string): Promise<void> {
    const { PutObjectCommand, client } = await this.aws();
    await client.send(new PutObjectCommand({ Bucket: this.s3.bucket, Key: this.key(name, file), Body: text }));
  }

  protected async sizes(name: string, folder: string): Promise<Map<string, number>> {
    const { ListObjectsV2Command, client } = await this.aws();
    const prefix = `${this.key(name, folder)}/`;
    const sizes = new Map<string, number>();
    let token: string | undefined;
    do {
      const page = await client.send(new ListObjectsV2Command({ Bucket: this.s3.bucket, Prefix: prefix, ContinuationToken: token }));
      for (const object of page.Contents ?? []) sizes.set(object.Key!.slice(prefix.length), object.Size ?? 0);
      token = page.NextContinuationToken;
    } while (token);
    return sizes;
  }

  private async head(name: string, file: string): Promise<string | undefined> {
    const { HeadObjectCommand, client } = await this.aws();
    try {
      const head = await client.send(new HeadObjectCommand({ Bucket: this.s3.bucket, Key: this.key(name, file) }));
      return head.LastModified?.toISOString();
    } catch (error) {
      if (isNotFound(error)) return undefined;
      throw error;
    }
  }

  private prefix(): string {
    return this.s3.prefix ? `${this.s3.prefix}/` : '';
  }

  private key(name: string, ...path: string[]): string {
    assertBackupName(name);
    return [`${this.prefix()}${name}`, ...path].join('/');
  }
}

function isNotFound(error: unknown): boolean {
  const { name, $metadata } = error as { name?: string; $metadata?: { httpStatusCode?: number } };
  return name === 'NoSuchKey' || name === 'NotFound' || $metadata?.httpStatusCode === 404;
}
