import type { SuccessEnvelope } from './envelope';

/** An answer already serialized: the exact bytes of a response body (as the answer cache keeps them). */
export class SerializedAnswer {
  constructor(readonly bytes: Buffer) {}
}

/** A handler's envelope on its way to serialization, with a taker for the bytes it becomes (the answer cache). */
export class AnswerToKeep {
  constructor(
    readonly envelope: SuccessEnvelope<unknown>,
    readonly keep: (bytes: Buffer) => void,
  ) {}
}
