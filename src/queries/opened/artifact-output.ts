// A published artifact's output opened for reading. It was validated by the
// summarizer port and the gate before it was sealed, and AES-GCM
// authenticates it (bound to its artifact and field), so recall's hot path
// parses it without validating it again. An output whose key is gone
// (erased) reads as undefined.
import type { SummarizerOutput } from '../../domain/consolidation/output.js';
import type { Sealed } from '../../domain/events/sealed.js';
import type { KeyStore, SubjectRef } from '../../infrastructure/key-store/port.js';
import { openOutputJson } from '../../reads/opened/artifact-output.js';

export async function openPublishedOutput(
  keys: KeyStore,
  ref: SubjectRef,
  artifactId: string,
  sealed: Sealed,
): Promise<SummarizerOutput | undefined> {
  return (await openOutputJson(keys, ref, artifactId, sealed)) as SummarizerOutput | undefined;
}
