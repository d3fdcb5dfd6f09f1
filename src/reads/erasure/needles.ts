// What a verification searches the read paths for, taken in memory just
// before the keys are destroyed (afterwards nobody can read the content, the
// verifier included): the erased entries' distinctive plaintexts, the SHA-256
// of each, and their keyed hashes. Needles never leave this process: checks
// fetch rows and search them here, so the plaintext is never sent to the
// database (where a statement log could write it to disk) nor printed.
import { createHash } from 'node:crypto';
import { canonicalValueJson } from '../../domain/canonical/canonical-value.js';
import { renderValue } from '../../domain/consolidation/rendering.js';
import type { SubjectState } from '../../domain/subject/state.js';
import type { EventStore } from '../../infrastructure/event-store/port.js';
import type { KeyStore } from '../../infrastructure/key-store/port.js';
import { openEntries } from '../opened/opened-entries.js';
import { openProposals } from './proposal-texts.js';

/** Shorter texts ("sms", "yes", "42") would be found in unrelated places: they are searched by hash only. */
export const MIN_PLAINTEXT_LENGTH = 8;

export interface ErasureNeedles {
  /** Distinctive plaintexts, raw and as the body of a JSON string. */
  readonly plaintexts: readonly string[];
  /** SHA-256 (hex) of each plaintext and canonical value: an unkeyed hash of the content must appear nowhere either. */
  readonly sha256: readonly string[];
  /** The entries' keyed hashes (valueHash, contentHash): read paths must not return them. */
  readonly keyedHashes: readonly string[];
  /** False when the content could not be read any more (a resumed erasure): the plaintext is searched for by nobody. */
  readonly plaintextKnown: boolean;
}

export type NeedleKind = 'plaintext' | 'sha256' | 'keyed_hash';

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

/** The needles of the erased entries; texts that a remaining entry also says are left out (read paths rightly return those). */
export async function takeNeedles(
  store: EventStore,
  keys: KeyStore,
  ref: { tenant: string; subject: string },
  stream: string,
  revision: number,
  state: SubjectState,
  erased: readonly string[],
): Promise<ErasureNeedles> {
  const erasedSet = new Set(erased);
  const all = new Set([...state.entries.values()].filter((e) => e.status !== 'forgotten').map((e) => e.memoryId));
  const open = await openEntries(store, keys, ref, stream, revision, all);
  const texts = new Set<string>();
  const kept = new Set<string>();
  const hashes = new Set<string>();
  const digests = new Set<string>();
  let known = erased.length > 0;
  for (const entry of state.entries.values()) {
    const opened = all.has(entry.memoryId) ? open(entry) : undefined;
    if (erasedSet.has(entry.memoryId)) {
      hashes.add(entry.valueHash);
      if (entry.contentHash) hashes.add(entry.contentHash);
      if (!opened) {
        known = false;
        continue;
      }
      for (const text of [
        renderValue(opened.value),
        opened.content,
        canonicalValueJson(opened.value),
        ...(opened.anticipatedQueries ?? []),
      ]) {
        if (text === undefined) continue;
        digests.add(sha256(text));
        texts.add(text);
      }
    } else if (opened) {
      kept.add(renderValue(opened.value));
      if (opened.content !== undefined) kept.add(opened.content);
      for (const query of opened.anticipatedQueries ?? []) kept.add(query);
    }
  }
  // Candidates erased by id or with the subject: what they say is searched for too.
  const proposals = await openProposals(
    store,
    keys,
    ref,
    stream,
    new Set(erased.filter((id) => state.proposals.has(id) && !state.entries.has(id))),
  );
  for (const proposal of proposals.values()) {
    for (const hash of proposal.keyedHashes) hashes.add(hash);
    if (proposal.texts.length === 0) known = false;
    for (const text of proposal.texts) {
      digests.add(sha256(text));
      texts.add(text);
    }
  }
  const keptText = [...kept].join('\u0000');
  const plaintexts = [...texts].filter((t) => t.length >= MIN_PLAINTEXT_LENGTH && !keptText.includes(t));
  const escaped = plaintexts.map((t) => JSON.stringify(t).slice(1, -1)).filter((t) => !plaintexts.includes(t));
  return { plaintexts: [...plaintexts, ...escaped], sha256: [...digests], keyedHashes: [...hashes], plaintextKnown: known };
}

/** Needles found in a text, by kind (counts of needles, not of occurrences). */
export function findNeedles(
  text: string,
  needles: ErasureNeedles,
  kinds: readonly NeedleKind[] = ['plaintext', 'sha256', 'keyed_hash'],
): number {
  let found = 0;
  if (kinds.includes('plaintext')) found += needles.plaintexts.filter((n) => text.includes(n)).length;
  if (kinds.includes('sha256')) found += needles.sha256.filter((n) => text.includes(n)).length;
  if (kinds.includes('keyed_hash')) found += needles.keyedHashes.filter((n) => text.includes(n)).length;
  return found;
}
