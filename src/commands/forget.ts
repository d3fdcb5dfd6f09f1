// Erasure by crypto-shredding, the entry points: one memory, a whole subject,
// or every entry of a subject recorded from a source ref. Each runs the
// erasure pipeline (forgetting/erase.ts): keys destroyed first (the content
// is gone the moment they are, and so is every summary deriving from it),
// then tombstones, then the checks, then the deletion receipt.
//
// Keyed hashes. MemoryRecorded keeps valueHash/contentHash (HMAC-SHA256
// under the subject's hash key) for dedup and fences, and manifests repeat
// them. They stay in the immutable log after one memory is erased: testing a
// guess against them needs the subject's hash key, which exists only wrapped
// by the master key (never stored with the data), so the database, its WAL
// and its backups alone cannot test guesses; forgetting the subject destroys
// the hash key and with it any use of those hashes. What the erasure does
// remove: every read path stops returning them (projections null them, the
// checks search read paths for them), and an artifact's output hash is keyed
// by the artifact's own key, destroyed with it. What it cannot promise: that
// a holder of the master key and a copy of the log could not test guesses
// for an erased memory of a live subject — rotating hashes would mean
// re-hashing every live entry of the subject, which the fences would see as
// changed inputs.
import type { CommandContext, Ledger } from './ledger.js';
import type { DeletionReceipt } from '../reads/erasure/history.js';
import { erase, type ErasureOptions } from './forgetting/erase.js';
import type { Result } from '../domain/result/result.js';

export type { ErasureOptions } from './forgetting/erase.js';
export type { DeletionReceipt };
export type { ErasureRequest } from './forgetting/scope.js';

export function forgetMemory(
  ledger: Ledger,
  context: CommandContext,
  memoryId: string,
  reason?: string,
  options: Omit<ErasureOptions, 'reason'> = {},
): Promise<Result<DeletionReceipt>> {
  return erase(ledger, context, { scope: 'memory', memoryId }, { ...options, ...(reason !== undefined ? { reason } : {}) });
}

export function forgetSubject(
  ledger: Ledger,
  context: CommandContext,
  reason?: string,
  options: Omit<ErasureOptions, 'reason'> = {},
): Promise<Result<DeletionReceipt>> {
  return erase(ledger, context, { scope: 'subject' }, { ...options, ...(reason !== undefined ? { reason } : {}) });
}

/** Every entry of the subject recorded from `sourceRef` (entries it only corroborated stay). */
export function forgetSourceRef(
  ledger: Ledger,
  context: CommandContext,
  sourceRef: string,
  reason?: string,
  options: Omit<ErasureOptions, 'reason'> = {},
): Promise<Result<DeletionReceipt>> {
  return erase(ledger, context, { scope: 'source_ref', sourceRef }, { ...options, ...(reason !== undefined ? { reason } : {}) });
}
