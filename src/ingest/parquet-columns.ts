import { promises as fs } from 'node:fs';

/**
 * The column names of a Parquet file, read from its footer (FileMetaData, Thrift compact protocol) without reading a
 * row: what tells a FOCUS dataset from another before the engine reads it. Names of nested columns' parts (a map's
 * `key_value`, `key`, `value`) are listed too; the root's name is not.
 */
export async function parquetColumnNames(path: string): Promise<string[]> {
  const handle = await fs.open(path, 'r');
  try {
    const { size } = await handle.stat();
    const tail = Buffer.alloc(8);
    await handle.read(tail, 0, 8, size - 8);
    if (tail.subarray(4).toString('latin1') !== 'PAR1') throw new Error('not a Parquet file (no PAR1 at its end)');
    const footerLength = tail.readUInt32LE(0);
    if (footerLength > size - 12 || footerLength > MAX_FOOTER_BYTES) throw new Error('a Parquet footer of an impossible length');
    const footer = Buffer.alloc(footerLength);
    await handle.read(footer, 0, footerLength, size - 8 - footerLength);
    return schemaNames(footer);
  } finally {
    await handle.close();
  }
}

/** A footer past this is no dataset's this service reads: refused rather than held. */
const MAX_FOOTER_BYTES = 64 * 1024 * 1024;

/** Thrift compact types. */
const enum T {
  Stop = 0,
  True = 1,
  False = 2,
  Byte = 3,
  I16 = 4,
  I32 = 5,
  I64 = 6,
  Double = 7,
  Binary = 8,
  List = 9,
  Set = 10,
  Map = 11,
  Struct = 12,
}

/** FileMetaData field 2 is the schema, a list of SchemaElement structs whose field 4 is the name. */
function schemaNames(footer: Buffer): string[] {
  const reader = new CompactReader(footer);
  const names: string[] = [];
  reader.struct((id, type) => {
    if (id !== 2 || type !== T.List) return false;
    reader.list((elementType) => {
      if (elementType !== T.Struct) throw new Error('a Parquet schema that is not a list of elements');
      reader.struct((field, fieldType) => {
        if (field !== 4 || fieldType !== T.Binary) return false;
        names.push(reader.binary().toString('utf8'));
        return true;
      });
    });
    return true;
  });
  return names.slice(1);
}

/** Just enough of Thrift's compact protocol to walk a struct, reading the fields asked for and skipping the rest. */
class CompactReader {
  private at = 0;

  constructor(private readonly buffer: Buffer) {}

  /** Walks a struct's fields; `visit` reads a field it wants and returns true, or returns false to have it skipped. */
  struct(visit: (id: number, type: number) => boolean): void {
    let lastId = 0;
    for (;;) {
      const header = this.byte();
      const type = header & 0x0f;
      if (type === T.Stop) return;
      const delta = header >> 4;
      const id = delta === 0 ? this.zigzag() : lastId + delta;
      lastId = id;
      if (!visit(id, type)) this.skip(type);
    }
  }

  list(visit: (elementType: number) => void): void {
    const header = this.byte();
    const size = header >> 4 === 15 ? this.varint() : header >> 4;
    for (let i = 0; i < size; i++) visit(header & 0x0f);
  }

  binary(): Buffer {
    const length = this.varint();
    if (this.at + length > this.buffer.length) throw new Error('a truncated Parquet footer');
    const value = this.buffer.subarray(this.at, this.at + length);
    this.at += length;
    return value;
  }

  private skip(type: number): void {
    switch (type) {
      case T.True:
      case T.False:
        return; // a struct field's boolean is in its header
      case T.Byte:
        this.at += 1;
        return;
      case T.I16:
      case T.I32:
      case T.I64:
        this.varint();
        return;
      case T.Double:
        this.at += 8;
        return;
      case T.Binary:
        this.binary();
        return;
      case T.List:
      case T.Set:
        this.list((elementType) => this.skipElement(elementType));
        return;
      case T.Map:
        this.skipMap();
        return;
      case T.Struct:
        this.struct(() => false);
        return;
      default:
        throw new Error(`an unknown Thrift type ${type} in a Parquet footer`);
    }
  }

  /** A list's boolean element takes a byte of its own. */
  private skipElement(type: number): void {
    if (type === T.True || type === T.False) this.at += 1;
    else this.skip(type);
  }

  private skipMap(): void {
    const size = this.varint();
    if (size === 0) return;
    const types = this.byte();
    for (let i = 0; i < size; i++) {
      this.skipElement(types >> 4);
      this.skipElement(types & 0x0f);
    }
  }

  private byte(): number {
    if (this.at >= this.buffer.length) throw new Error('a truncated Parquet footer');
    return this.buffer[this.at++];
  }

  private varint(): number {
    let value = 0;
    let shift = 0;
    for (;;) {
      const byte = this.byte();
      value += (byte & 0x7f) * 2 ** shift;
      if ((byte & 0x80) === 0) return value;
      shift += 7;
      if (shift > 63) throw new Error('a malformed varint in a Parquet footer');
    }
  }

  private zigzag(): number {
    const value = this.varint();
    return value % 2 === 0 ? value / 2 : -(value + 1) / 2;
  }
}
