import { randomBytes } from 'node:crypto';

/** The serialization in progress (serializeJson is synchronous, so one at a time). */
let splicing: { nonce: string; pieces: string[] } | undefined;

/**
 * A piece of a response that is already JSON text (e.g. rows ClickHouse formatted itself), embedded
 * as it is by serializeJson instead of being parsed and re-serialized.
 */
export class JsonText {
  constructor(readonly json: string) {}

  /** A JSON array of already-serialized elements. */
  static array(elements: string[]): JsonText {
    return new JsonText(`[${elements.join(',')}]`);
  }

  /**
   * Inside serializeJson: a placeholder, replaced by the text afterwards. toJSON (rather than a
   * replacer function) keeps JSON.stringify on its fast path for everything else. Anywhere else: the
   * parsed value, so a plain JSON.stringify is still correct.
   */
  toJSON(): unknown {
    if (!splicing) return JSON.parse(this.json);
    return `${splicing.nonce}:${splicing.pieces.push(this.json) - 1}`;
  }
}

/**
 * JSON.stringify that splices JsonText values in verbatim. Each JsonText first becomes a placeholder
 * string carrying a per-call random nonce (so no string in the data can imitate one), then the quoted
 * placeholder is replaced by the text.
 */
export function serializeJson(value: unknown): string {
  const outer = splicing;
  const state = { nonce: randomBytes(12).toString('hex'), pieces: [] as string[] };
  splicing = state;
  let text: string;
  try {
    text = JSON.stringify(value);
  } finally {
    splicing = outer;
  }
  if (state.pieces.length === 0) return text;
  return text.replace(new RegExp(`"${state.nonce}:(\\d+)"`, 'g'), (_match, index: string) => state.pieces[Number(index)]);
}
