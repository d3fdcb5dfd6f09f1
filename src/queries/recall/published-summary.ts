// The published summary a recall serves, opened once per artifact and key
// (issue 20, speed): the opened output, each entry's rendered text, labels
// and token count (they depend on the artifact alone) and its retrieval
// document (remade when its sources' versions or trust move) are kept with
// the subject's opened corpus, in memory only. The output's key is looked
// up on every recall all the same: a summary whose key an erasure destroyed
// is never served from memory (only the decryption and the rendering are
// reused, while the key is the one it was opened with). Another artifact,
// or the same one sealed again, is opened anew.
import type { SummarizerOutput } from '../../domain/consolidation/output.js';
import type { Sealed } from '../../domain/events/sealed.js';
import type { KeyStore, SubjectRef } from '../../infrastructure/key-store/port.js';
import { openPublishedOutput } from '../opened/artifact-output.js';
import type { DocumentMemo } from './retrieval/documents.js';

/** A summary entry's text, labels and token count: they depend on the artifact alone (a claim's sources are its distinct derivedFrom). */
export interface RenderedEntry {
  readonly text: string;
  readonly labels: readonly string[];
  readonly tokens: number;
}

/** Where a summary entry's rendering is remembered: made on first use. */
export type Rendering = (identity: string, make: () => RenderedEntry) => RenderedEntry;

export interface OpenedSummary {
  readonly artifactId: string;
  /** The keyed hash of its content: the subject statement leaves out the ciphertext of the output it names. */
  readonly outputHash: string | null;
  /** The key and nonce of the sealing it was opened from: a new sealing of the same artifact (a fresh nonce) is another output. */
  readonly keyId: string;
  readonly iv: string;
  readonly output: SummarizerOutput;
  /** Entry identity (`c:<artifact>:<i>`, `o:<artifact>:<i>`) -> its rendering, made on first use. */
  readonly rendered: Map<string, RenderedEntry>;
  /** The entries' retrieval documents (retrieval/documents.ts), by document id. */
  readonly documents: DocumentMemo;
}

/** True while the key the output is sealed under still exists (an `sk_` output: the subject's data key; otherwise the artifact's). */
async function keyLive(keys: KeyStore, ref: SubjectRef, artifactId: string, keyId: string): Promise<boolean> {
  const found = keyId.startsWith('sk_') ? await keys.subjectKeys(ref) : await keys.artifactKey(ref, artifactId);
  return found.status === 'found' && found.key.keyId === keyId;
}

const envelopeOf = (artifactId: string, sealed: Pick<Sealed, 'keyId' | 'iv'>) => `${artifactId}\u0000${sealed.keyId}\u0000${sealed.iv}`;

/** Openings under way, by subject: concurrent recalls of a newly published summary open and render it once. */
export type SummaryOpenings = Map<string, { readonly envelope: string; readonly opening: Promise<OpenedSummary | undefined> }>;

/**
 * The artifact's output, reused from `held` (or from a concurrent recall's
 * opening) when it is the same envelope and its key is still there;
 * undefined when the key is gone.
 */
export async function openSummary(
  keys: KeyStore,
  ref: SubjectRef,
  artifactId: string,
  sealed: Sealed,
  outputHash: string | null,
  held: OpenedSummary | undefined,
  openings?: SummaryOpenings,
): Promise<OpenedSummary | undefined> {
  const envelope = envelopeOf(artifactId, sealed);
  const live = async (summary: OpenedSummary | undefined) =>
    summary && (await keyLive(keys, ref, artifactId, sealed.keyId)) ? summary : undefined;
  if (held && envelopeOf(held.artifactId, held) === envelope) return await live(held);
  const subjectKey = `${ref.tenant}\u0000${ref.subject}`;
  const pending = openings?.get(subjectKey);
  if (pending?.envelope === envelope) return await live(await pending.opening);
  const opening = openPublishedOutput(keys, ref, artifactId, sealed).then((output) =>
    output ? { artifactId, outputHash, keyId: sealed.keyId, iv: sealed.iv, output, rendered: new Map(), documents: new Map() } : undefined,
  );
  openings?.set(subjectKey, { envelope, opening });
  try {
    return await opening;
  } finally {
    if (openings?.get(subjectKey)?.opening === opening) openings.delete(subjectKey);
  }
}

/** The rendering of one of the summary's entries, made once. */
export function renderedOnce(summary: OpenedSummary): Rendering {
  return (identity, make) => {
    let known = summary.rendered.get(identity);
    if (!known) summary.rendered.set(identity, (known = make()));
    return known;
  };
}
