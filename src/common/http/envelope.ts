/** The spec's response envelopes. A success is a class, so the answer pipeline recognises it (answer.interceptor.ts). */
export class SuccessEnvelope<T> {
  readonly success = true as const;
  readonly data: T;

  constructor(data: T) {
    this.data = data; // after `success`: the JSON keeps the spec's key order
  }
}

export interface ErrorEnvelope {
  success: false;
  error: { message: string };
}

export function ok<T>(data: T): SuccessEnvelope<T> {
  return new SuccessEnvelope(data);
}

export function errorEnvelope(message: string): ErrorEnvelope {
  return { success: false, error: { message } };
}

/** The gateway's 401 body: deliberately not the envelope (spec, Errors). */
export const UNAUTHORIZED_BODY = Object.freeze({ message: 'Unauthorized' });
