import { StreamableFile } from '@nestjs/common';
import type { Response } from 'express';
import { Readable } from 'node:stream';
import { AnswersUndeliveredException } from '../common/errors/api-errors';
import type { AnswerMediaType } from './answer-format';

export interface AnswerDeliveryLimits {
  /** A response that makes no progress for this long (its client reads nothing) is dropped. */
  sendTimeoutMs: number;
  /** Bytes of one organisation's answers still being sent, beyond which it gets 429 instead of more. */
  unsentBytesPerOrganization: number;
}

/** Progress unit: each chunk the socket takes restarts the send timeout. */
const CHUNK_BYTES = 1024 * 1024;

/**
 * Sends serialized answers (already the exact bytes of the response) so that a client that stops
 * reading cannot hold memory for long: the answer goes out in chunks with backpressure, a response
 * with no progress for `sendTimeoutMs` is dropped with its connection, and an organisation whose
 * answers in flight hold `unsentBytesPerOrganization` gets 429 (Retry-After) until they are delivered.
 */
export class AnswerDelivery {
  private readonly unsent = new Map<string, number>();
  /** Answers being sent, with when each last took a chunk (a 1 MiB slice is read only once the socket drained the one before). */
  private readonly inDelivery = new Map<Response, { lastProgress: number }>();
  private watchdog?: NodeJS.Timeout;
  private dropped = 0;

  constructor(private readonly limits: AnswerDeliveryLimits) {}

  /** Refuses, before any work, a request of an organisation whose earlier answers are still unread. */
  admit(organizationId: string): void {
    if ((this.unsent.get(organizationId) ?? 0) >= this.limits.unsentBytesPerOrganization) throw new AnswersUndeliveredException();
  }

  /** The answer for Nest to send, with its media type and Content-Length. */
  send(response: Response, organizationId: string, body: Buffer, mediaType: AnswerMediaType): StreamableFile {
    const unsent = this.unsent.get(organizationId) ?? 0;
    // One answer always fits, however large (MAX_RESULT_ROWS bounds it); more must fit within the budget.
    if (unsent > 0 && unsent + body.length > this.limits.unsentBytesPerOrganization) throw new AnswersUndeliveredException();
    response.type(mediaType); // Express adds `; charset=utf-8`
    const delivery = { lastProgress: Date.now() };
    const answer = new StreamableFile(
      chunked(body, () => (delivery.lastProgress = Date.now())),
      { length: body.length },
    );
    // A client gone while the answer was computed: 'close' has fired already and would never release the count.
    if (response.destroyed) return answer;
    this.unsent.set(organizationId, unsent + body.length);
    this.inDelivery.set(response, delivery);
    this.watch();
    response.once('close', () => {
      this.inDelivery.delete(response);
      const left = (this.unsent.get(organizationId) ?? 0) - body.length;
      if (left > 0) this.unsent.set(organizationId, left);
      else this.unsent.delete(organizationId);
    });
    return answer;
  }

  /** Answers being sent and their bytes, all organisations together, and answers dropped unread so far (for tests and metrics). */
  get load(): { answers: number; bytes: number; dropped: number } {
    return {
      answers: this.inDelivery.size,
      bytes: [...this.unsent.values()].reduce((sum, bytes) => sum + bytes, 0),
      dropped: this.dropped,
    };
  }

  /**
   * Drops answers without progress for sendTimeoutMs. Our own check: Node's socket timeout is not one, as
   * it restarts whenever the kernel takes more of a pending write while its buffers grow.
   */
  private watch(): void {
    if (this.watchdog) return;
    this.watchdog = setInterval(
      () => {
        const stalledSince = Date.now() - this.limits.sendTimeoutMs;
        for (const [response, delivery] of this.inDelivery) {
          if (delivery.lastProgress > stalledSince) continue;
          this.dropped++;
          this.inDelivery.delete(response);
          response.destroy();
        }
        if (this.inDelivery.size === 0) {
          clearInterval(this.watchdog);
          this.watchdog = undefined;
        }
      },
      Math.min(this.limits.sendTimeoutMs, 1000),
    );
    this.watchdog.unref();
  }
}

/**
 * The bytes as a stream of CHUNK_BYTES slices (no copies), each read only once the socket has taken the
 * one before: `onProgress` marks every slice read.
 */
function chunked(bytes: Buffer, onProgress: () => void): Readable {
  let offset = 0;
  return new Readable({
    highWaterMark: CHUNK_BYTES,
    read() {
      onProgress();
      if (offset >= bytes.length) {
        this.push(null);
        return;
      }
      const end = Math.min(offset + CHUNK_BYTES, bytes.length);
      this.push(bytes.subarray(offset, end));
      offset = end;
    },
  });
}
