/**
 * Characters that hide or reorder what people read (in the key table, the CLI, the audit log): C0 and C1 controls
 * (TAB, CR, LF, NEL included), bidirectional marks, embeddings, overrides and isolates (U+061C, U+200E–U+200F,
 * U+202A–U+202E, U+2066–U+2069), zero-width characters (U+180E, U+200B–U+200D, U+2060–U+2064, U+FEFF) and the line
 * and paragraph separators (U+2028–U+2029). Key names refuse them; text recorded from outside has them removed.
 */
// eslint-disable-next-line no-control-regex -- control characters are what this names
const HIDDEN_CHARACTER = /[\u0000-\u001f\u007f-\u009f\u061c\u180e\u200b-\u200f\u2028-\u202e\u2060-\u2064\u2066-\u2069\ufeff]/;
const HIDDEN_CHARACTERS = new RegExp(HIDDEN_CHARACTER.source, 'g');

/** The first hidden character of `text`, or undefined. */
export function firstHiddenCharacter(text: string): string | undefined {
  return HIDDEN_CHARACTER.exec(text)?.[0];
}

/** `text` without its hidden characters, cut to `maxCharacters` (whole code points: no half of a surrogate pair left). */
export function readableText(text: string, maxCharacters: number): string {
  return Array.from(text.replace(HIDDEN_CHARACTERS, '')).slice(0, maxCharacters).join('');
}
