// What every command answers: its result, or why it did nothing (a
// rejection with a code of REJECTION_CODES and the field at fault).
import type { RejectionCode } from './rejection-codes.js';

export interface Rejection {
  readonly code: RejectionCode;
  readonly message: string;
  /** The command field at fault, when one is. */
  readonly field?: string;
}

export interface Rejected {
  readonly ok: false;
  readonly rejection: Rejection;
}

export type Result<R> = { readonly ok: true; readonly result: R } | Rejected;

export function reject(code: RejectionCode, message: string, field?: string): Rejected {
  return { ok: false, rejection: field === undefined ? { code, message } : { code, message, field } };
}
