/**
 * Last line of defence for logs: whatever a log line contains (message, error, serialized request),
 * API key material (`cik_…`) and bearer credentials are replaced before the line is written, in
 * whatever spelling a client sent them: keys pasted into URLs arrive percent-encoded.
 * Request serializers already log no headers and no query string (loggableUrl); this catches keys
 * that reach a line by accident.
 */
const KEY_ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_';

/**
 * A regular-expression source for one character of `chars`, in either letter case, in any spelling a
 * log line may hold: itself, percent-encoded in any hex case (`%5F`, `%5f`, double-encoded `%255F`) or
 * JSON-escaped (`\u005f`). Used with the `i` flag.
 */
function anySpelling(chars: string): string {
  const bothCases = [...chars].flatMap((char) => [char.toLowerCase(), char.toUpperCase()]);
  const codes = [...new Set(bothCases.map((char) => char.charCodeAt(0).toString(16)))].join('|');
  const literal = [...chars].map((char) => (/[A-Za-z0-9]/.test(char) ? char : `\\${char}`)).join('');
  return `(?:[${literal}]|%(?:25)*(?:${codes})|\\\\+u00(?:${codes}))`;
}

const anySpellingOf = (word: string) => [...word].map((char) => anySpelling(char)).join('');

/** `cik_` (in any letter case: the secret after it is what matters) and the key characters after it. */
export const KEY_MATERIAL = new RegExp(`${anySpellingOf('cik_')}${anySpelling(KEY_ALPHABET)}+`, 'gi');
/** `Bearer`, then whitespace (literal, `+` as in forms, `%20`, `%09`, `\u0020`), then the credential. */
const BEARER_VALUE = new RegExp(`(${anySpellingOf('bearer')})(?:\\s|\\+|%(?:25)*(?:20|09)|\\\\+u00(?:20|09))+[^\\s"'\\\\,;&]+`, 'gi');

export function redactSecrets(text: string): string {
  return text.replace(KEY_MATERIAL, 'cik_[redacted]').replace(BEARER_VALUE, '$1 [redacted]');
}

/**
 * The request target as logged: its path, and only a marker for a query string or fragment. This API
 * reads no query parameters, and a query string is where clients paste keys (`?api_key=…`).
 */
export function loggableUrl(url: string): string {
  const end = url.search(/[?#]/);
  return end === -1 ? url : `${url.slice(0, end)}${url[end]}[redacted]`;
}
