import { ANSWER_MEDIA_TYPES, AnswerMediaType } from './answer-format';
import type { CsvText } from './csv-text';
import type { SuccessEnvelope } from '../common/http/envelope';

/**
 * An answer already serialized: the exact bytes of a response body, its media type, and the response
 * headers that describe the data it was computed from (as the answer cache keeps them).
 */
export class SerializedAnswer {
  constructor(
    readonly bytes: Buffer,
    readonly mediaType: AnswerMediaType = ANSWER_MEDIA_TYPES.json,
    readonly headers: Readonly<Record<string, string>> = {},
  ) {}
}

/** A handler's answer on its way to serialization, with a taker for what it becomes (the answer cache). */
export class AnswerToKeep {
  constructor(
    readonly answer: SuccessEnvelope<unknown> | CsvText,
    readonly keep: (serialized: SerializedAnswer) => void,
  ) {}
}
