import { randomBytes } from 'node:crypto';

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
}

/**
 * JSON.stringify that splices JsonText values in verbatim. Each JsonText first becomes a placeholder
 * string carrying a per-call random nonce (so no string in the data can imitate one), then the quoted
 * placeholder is replaced by the text.
 */
export function serializeJson(value: unknown): string {
  const pieces: string[] = [];
  const nonce = randomBytes(12).toString('hex');
  const text = JSON.stringify(value, (_key, inner: unknown) =>
    inner instanceof JsonText ? `${nonce}:${pieces.push(inner.json) - 1}` : inner,
  );
  if (pieces.length === 0) return text;
  return text.replace(new RegExp(`"${nonce}:(\\d+)"`, 'g'), (_match, index: string) => pieces[Number(index)]);
}
