import { createReadStream, promises as fs } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pipeline, Readable, Transform } from 'node:stream';
import { createGunzip, gunzipSync } from 'node:zlib';

/** A path to read an export part by, valid until it is closed. */
export interface OpenedPart {
  path: string;
  close(): Promise<void>;
}

/**
 * An export part as a data source offers it: named for messages by its place in the source, opened only while it
 * is read (the source checks, at each open, that it is still the file it listed: no link, inside its folder).
 */
export interface ExportPart {
  name: string;
  open(): Promise<OpenedPart>;
}

/** One export part to load. */
export interface FocusFile extends ExportPart {
  bytes: number;
  format: 'CSVWithNames' | 'Parquet';
  gzip: boolean;
}

/** A file of this machine read by its path (the operator's `ingest focus`). */
function fileAt(path: string): ExportPart {
  return { name: path, open: () => Promise.resolve({ path, close: () => Promise.resolve() }) };
}

/** Runs `read` with a path to the part, open for as long as it runs. */
export async function readingPart<T>(part: ExportPart, read: (path: string) => Promise<T>): Promise<T> {
  const opened = await part.open();
  try {
    return await read(opened.path);
  } finally {
    await opened.close();
  }
}

/** A file that cannot be imported, or an import that must stop; the message names the file. */
export class FocusIngestError extends Error {}

const GZIP_MAGIC = Buffer.from([0x1f, 0x8b]);
const PARQUET_MAGIC = Buffer.from('PAR1');
/** Extensions of export parts; anything else in a directory (manifests, checksums) is skipped. */
const EXPORT_PART = /\.(csv|csv\.gz|gz|parquet|snappy\.parquet|gz\.parquet)$/i;

/**
 * Expands files and directories (recursively, hidden entries skipped) into export parts in path
 * order, recognising each by content: gzip and Parquet by their magic bytes, CSV otherwise.
 */
export async function discoverFocusFiles(paths: string[]): Promise<{ files: FocusFile[]; skipped: string[] }> {
  const files: FocusFile[] = [];
  const skipped: string[] = [];
  const visit = async (path: string, explicit: boolean): Promise<void> => {
    const stat = await fs.stat(path).catch(() => null);
    if (!stat) throw new FocusIngestError(`${path}: no such file or directory`);
    if (stat.isDirectory()) {
      const entries = (await fs.readdir(path)).filter((name) => !name.startsWith('.')).sort();
      for (const name of entries) await visit(join(path, name), false);
      return;
    }
    if (!stat.isFile()) return;
    if (!explicit && !EXPORT_PART.test(path)) {
      skipped.push(path);
      return;
    }
    files.push(await describePart(fileAt(path)));
  };
  for (const path of paths) await visit(resolve(path), true);
  return { files, skipped };
}

/** A part's size and format, read from its first bytes. */
export async function describePart(part: ExportPart): Promise<FocusFile> {
  return readingPart(part, async (path) => {
    const { size } = await fs.stat(path);
    return { ...part, bytes: size, ...(await detectFormat(part.name, path)) };
  });
}

async function detectFormat(name: string, path: string): Promise<Pick<FocusFile, 'format' | 'gzip'>> {
  let head = await readHead(path, 64 * 1024);
  const gzip = head.subarray(0, 2).equals(GZIP_MAGIC);
  if (gzip) head = gunzipPrefix(head);
  if (head.subarray(0, 4).equals(PARQUET_MAGIC)) return { format: 'Parquet', gzip };
  if (head.length === 0) throw new FocusIngestError(`${name}: the file is empty`);
  if (head.includes(0)) throw new FocusIngestError(`${name}: neither CSV nor Parquet (binary content)`);
  return { format: 'CSVWithNames', gzip };
}

async function readHead(path: string, bytes: number): Promise<Buffer> {
  const handle = await fs.open(path, 'r');
  try {
    const buffer = Buffer.alloc(bytes);
    const { bytesRead } = await handle.read(buffer, 0, bytes, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

/** The decompressed start of a gzip stream of which only a prefix was read. */
function gunzipPrefix(prefix: Buffer): Buffer {
  try {
    return gunzipSync(prefix, { finishFlush: 2 /* Z_SYNC_FLUSH: accept a truncated stream */ });
  } catch {
    return Buffer.alloc(0);
  }
}

/** Column names of a CSV export's header line (RFC 4180 quoting, UTF-8 BOM ignored). */
export async function readCsvHeader(file: FocusFile): Promise<string[]> {
  const raw = await readingPart(file, (path) => readHead(path, 256 * 1024));
  const head = file.gzip ? gunzipPrefix(raw) : raw;
  let text = head.toString('utf8');
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  return parseCsvRecord(text);
}

/** Fields of the first CSV record of `text`. */
export function parseCsvRecord(text: string): string[] {
  const fields: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else field += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') {
      fields.push(field);
      field = '';
    } else if (ch === '\n' || ch === '\r') break;
    else field += ch;
  }
  fields.push(field);
  return fields.map((f) => f.trim());
}

/**
 * The file's bytes as sent to a server: decompressed when gzip, counted as they are read (a
 * counting Transform in the pipeline: a 'data' listener would start the flow before the client reads).
 */
export function openFocusFile(file: FocusFile, path: string, onBytes: (compressedBytesRead: number) => void): Readable {
  let read = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      read += chunk.length;
      onBytes(read);
      done(null, chunk);
    },
  });
  const source = createReadStream(path, { highWaterMark: 1024 * 1024 });
  const ignore = () => undefined; // errors reach the consumer through the last stream
  return file.gzip ? pipeline(source, counter, createGunzip(), ignore) : pipeline(source, counter, ignore);
}

/** Characters ClickHouse's file() expands as a glob (`*`, `?`, `{a,b}`, `{1..9}`); it has no escape for them. */
const CLICKHOUSE_GLOB_CHARACTERS = /[*?{}]/;

/**
 * Runs `read` with a path to the file at `path` that ClickHouse's file() reads literally: a symlink with a plain name
 * in a private temporary directory (mode 0700), removed afterwards whatever happens. File names are
 * literal (`part*.csv` is that one file), but file() would expand glob characters in the path itself.
 */
export async function withGlobFreePath<T>(path: string, read: (globFreePath: string) => Promise<T>): Promise<T> {
  const dir = await fs.mkdtemp(join(tmpdir(), 'cost-insights-ingest-'));
  try {
    if (CLICKHOUSE_GLOB_CHARACTERS.test(dir)) {
      throw new FocusIngestError(`the temporary directory ${dir} contains * ? { or }: set TMPDIR to a directory without them`);
    }
    const link = join(dir, 'export-part');
    await fs.symlink(resolve(path), link);
    return await read(link);
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}
