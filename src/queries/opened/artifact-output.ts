// A published artifact's output opened for reading, as
// commands/consolidation/artifact-output.ts opens it (the artifact's own key,
// or the subject's data key for outputs sealed before artifacts had keys).
// It was validated by the summarizer port and the gate before it was sealed,
// and AES-GCM authenticates it (bound to its artifact and field), so recall's
// hot path parses it without validating it again. An output whose key is
// gone (erased) reads as undefined.
import type { SummarizerOutput } from '../../domain/consolidation/output.js';
import type { Sealed } from '../../domain/events/sealed.js';
import type { KeyStore, SubjectRef } from '../../infrastructure/key-store/port.js';
import { openArtifactField, openSubjectField } from '../../infrastructure/key-store/sealing.js';

const FIELD = 'output';

export async function openPublishedOutput(
  keys: KeyStore,
  ref: SubjectRef,
  artifactId: string,
  sealed: Sealed,
): Promise<SummarizerOutput | undefined> {
  const place = { tenant: ref.tenant, subject: ref.subject };
  const opened = sealed.keyId.startsWith('sk_')
    ? await openSubjectField(keys, place, artifactId, FIELD, sealed)
    : await openArtifactField(keys, place, artifactId, FIELD, sealed);
  return opened.status === 'opened' ? (JSON.parse(opened.plaintext) as SummarizerOutput) : undefined;
}
