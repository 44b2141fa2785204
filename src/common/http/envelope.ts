/** The spec's response envelopes. */
export interface SuccessEnvelope<T> {
  success: true;
  data: T;
}

export interface ErrorEnvelope {
  success: false;
  error: { message: string };
}

export function ok<T>(data: T): SuccessEnvelope<T> {
  return { success: true, data };
}

export function errorEnvelope(message: string): ErrorEnvelope {
  return { success: false, error: { message } };
}

/** The gateway's 401 body: deliberately not the envelope (spec, Errors). */
export const UNAUTHORIZED_BODY = Object.freeze({ message: 'Unauthorized' });
