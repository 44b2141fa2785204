import { randomBytes } from 'node:crypto';

/** The serialization in progress (serializeJson is synchronous, so one at a time). */
let splicing: { nonce: string; values: JsonText[] } | undefined;

/**
 * A piece of a response that is already JSON (e.g. rows ClickHouse formatted itself, as the chunks of
 * bytes it sent), embedded as it is by serializeJson instead of being decoded, parsed and re-serialized.
 */
export class JsonText {
  readonly chunks: Buffer[];

  constructor(...pieces: (string | Buffer)[]) {
    this.chunks = pieces.map((piece) => (typeof piece === 'string' ? Buffer.from(piece) : piece));
  }

  /** A JSON array around `inside`: already-serialized elements with their separating commas. */
  static arrayOf(inside: Buffer[]): JsonText {
    return new JsonText('[', ...inside, ']');
  }

  /**
   * Inside serializeJson: a placeholder, replaced by the bytes afterwards. toJSON (rather than a
   * replacer function) keeps JSON.stringify on its fast path for everything else. Anywhere else: the
   * parsed value, so a plain JSON.stringify is still correct.
   */
  toJSON(): unknown {
    if (!splicing) return JSON.parse(Buffer.concat(this.chunks).toString('utf8'));
    return `${splicing.nonce}:${splicing.values.push(this) - 1}`;
  }
}

/**
 * JSON.stringify, as UTF-8 bytes, with JsonText values spliced in verbatim. Each JsonText first
 * becomes a placeholder string carrying a per-call random nonce (so no string in the data can imitate
 * one); the answer is then the text between placeholders and each JsonText's own chunks, joined in
 * one copy: one buffer is one write to the socket (chunk by chunk, a large answer would wait for the
 * socket to drain between chunks).
 */
export function serializeJson(value: unknown): Buffer {
  const outer = splicing;
  const state = { nonce: randomBytes(12).toString('hex'), values: [] as JsonText[] };
  splicing = state;
  let text: string;
  try {
    text = JSON.stringify(value);
  } finally {
    splicing = outer;
  }
  if (state.values.length === 0) return Buffer.from(text);
  const chunks: Buffer[] = [];
  let from = 0;
  for (const match of text.matchAll(new RegExp(`"${state.nonce}:(\\d+)"`, 'g'))) {
    chunks.push(Buffer.from(text.slice(from, match.index)), ...state.values[Number(match[1])].chunks);
    from = match.index + match[0].length;
  }
  chunks.push(Buffer.from(text.slice(from)));
  return Buffer.concat(chunks);
}
