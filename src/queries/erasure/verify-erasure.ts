// Re-running an issued receipt's checks later (an auditor's "is it still
// gone?", e.g. after a projection rebuild or a re-consolidation): every
// check of the ledger and the read side, searching for the erased entries'
// keyed hashes and for plaintexts the caller supplies (nobody else can: the
// content is unreadable now). Nothing is appended.
import { createHash } from 'node:crypto';
import { readErasureHistory } from '../../reads/erasure/history.js';
import { ledgerChecks } from '../../reads/erasure/ledger-checks.js';
import { MIN_PLAINTEXT_LENGTH, type ErasureNeedles } from '../../reads/erasure/needles.js';
import { runChecks, type ErasureCheck, type ErasureVerification } from '../../reads/erasure/verification.js';
import { subjectStreamName } from '../../domain/events/stream-names.js';
import { InvalidInput } from '../../domain/validation/invalid-input.js';
import { requireId } from '../../domain/values/ids.js';
import type { SubjectRepository } from '../../reads/streams/subject-repository.js';
import type { ReadSide } from '../read-side.js';
import { readSideErasureChecks } from './index.js';

export interface ErasureReverification {
  readonly tenant: string;
  readonly subject: string;
  readonly receiptId: string;
  readonly verification: ErasureVerification;
}

export interface ReverifyInput {
  readonly tenant: string;
  readonly subject: string;
  readonly receiptId: string;
  /** Texts to search for besides the hashes (held in memory only). */
  readonly plaintexts?: readonly string[];
  /** Checks beyond the ledger's and the read side's (e.g. an HTTP API's). */
  readonly checks?: readonly ErasureCheck[];
}

export async function reverifyErasure(
  read: ReadSide & { readonly subjects: SubjectRepository },
  input: ReverifyInput,
): Promise<ErasureReverification> {
  const ref = { tenant: requireId('tenant', input.tenant), subject: requireId('subject', input.subject) };
  const receiptId = requireId('receipt', input.receiptId);
  const stream = subjectStreamName(ref.tenant, ref.subject);
  const history = await readErasureHistory(read.eventStore, stream);
  const receipt = history.receipts.find((r) => r.data.receiptId === receiptId)?.data;
  if (!receipt) throw new InvalidInput('receipt', `no receipt ${receiptId} was issued for ${ref.tenant}/${ref.subject}`);
  const state = (await read.subjects.load(stream)).state;
  const plaintexts = (input.plaintexts ?? []).filter((t) => t.length >= MIN_PLAINTEXT_LENGTH);
  const keyedHashes = receipt.memoryIds.flatMap((id) => {
    const entry = state.entries.get(id);
    return entry ? [entry.valueHash, ...(entry.contentHash ? [entry.contentHash] : [])] : [];
  });
  const needles: ErasureNeedles = {
    plaintexts: [...plaintexts, ...plaintexts.map((t) => JSON.stringify(t).slice(1, -1)).filter((t) => !plaintexts.includes(t))],
    sha256: plaintexts.map((t) => createHash('sha256').update(t, 'utf8').digest('hex')),
    keyedHashes,
    plaintextKnown: plaintexts.length > 0,
  };
  const target = {
    ref,
    scope: receipt.scope,
    memoryIds: receipt.memoryIds,
    artifactIds: receipt.invalidatedArtifactIds,
    keyIds: receipt.destroyedKeyIds,
    needles,
    recordedAt: receipt.memoryIds.flatMap((id) => history.recordedAt.get(id) ?? []),
  };
  const checks = [...ledgerChecks(read), ...readSideErasureChecks(read), ...(input.checks ?? [])];
  return { ...ref, receiptId, verification: await runChecks(checks, target, read.clock) };
}
