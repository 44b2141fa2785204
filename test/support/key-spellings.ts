/**
 * How a client may spell an API key in a URL, and the tests' own decoder: log scans undo every
 * encoding before they look for key material, so a redaction that misses a spelling is caught
 * independently of the production pattern (src/observability/log-redaction.ts).
 */

/** Percent-encodes the characters of `text` that `which` picks, in upper- or lower-case hex. */
export function percentEncode(text: string, which: (char: string, index: number) => boolean, hexCase: 'upper' | 'lower' = 'upper'): string {
  return [...text]
    .map((char, index) => {
      if (!which(char, index)) return char;
      const hex = char.charCodeAt(0).toString(16);
      return `%${hexCase === 'upper' ? hex.toUpperCase() : hex}`;
    })
    .join('');
}

/** The spellings of `key` found in the wild (URL-encoded query values) and those an attacker would try. */
export function keySpellings(key: string): Record<string, string> {
  const everyCharacter = percentEncode(key, () => true);
  return {
    'underscores as %5F (a URL-encoded query value)': percentEncode(key, (c) => c === '_'),
    'underscores as %5f': percentEncode(key, (c) => c === '_', 'lower'),
    'the prefix letters encoded (%63%69%6B)': percentEncode(key, (_, i) => i < 3),
    'every character encoded, upper-case hex': everyCharacter,
    'every character encoded, lower-case hex': percentEncode(key, () => true, 'lower'),
    'every other character encoded': percentEncode(key, (_, i) => i % 2 === 0),
    'double-encoded underscores (%255F)': key.replace(/_/g, '%255F'),
    'double-encoded everything (%2563%2569…)': everyCharacter.replace(/%/g, '%25'),
    'JSON-escaped underscores (\\u005f)': key.replace(/_/g, '\\u005f'),
    'an upper-case prefix (CIK_)': `CIK_${key.slice(4)}`,
  };
}

/** `text` with percent-encoding and \u00XX escapes undone until nothing changes. */
export function decodeRepeatedly(text: string): string {
  for (;;) {
    const decoded = text
      .replace(/%([0-9a-f]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)))
      .replace(/\\+u00([0-9a-f]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
    if (decoded === text) return text;
    text = decoded;
  }
}
