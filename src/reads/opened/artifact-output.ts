// An artifact's sealed output opened for reading (sealing it is
// src/commands/consolidation/artifact-output.ts): under the artifact's own
// key, or the subject's data key for outputs sealed before artifacts had
// keys of their own (sk_…). An output whose key is gone (erased) reads as
// undefined.
import { parseSummarizerOutput, type SummarizerOutput } from '../../domain/consolidation/output.js';
import type { Sealed } from '../../domain/events/sealed.js';
import type { KeyStore, SubjectRef } from '../../infrastructure/key-store/port.js';
import { openArtifactField, openSubjectField } from '../../infrastructure/key-store/sealing.js';

/** The field an artifact's output is sealed as (bound into the envelope). */
export const ARTIFACT_OUTPUT_FIELD = 'output';

/** The opened output's JSON, unchecked; undefined when its key is gone. */
export async function openOutputJson(keys: KeyStore, ref: SubjectRef, artifactId: string, sealed: Sealed): Promise<unknown> {
  const place = { tenant: ref.tenant, subject: ref.subject };
  const opened = sealed.keyId.startsWith('sk_')
    ? await openSubjectField(keys, place, artifactId, ARTIFACT_OUTPUT_FIELD, sealed)
    : await openArtifactField(keys, place, artifactId, ARTIFACT_OUTPUT_FIELD, sealed);
  return opened.status === 'opened' ? JSON.parse(opened.plaintext) : undefined;
}

/** The opened output, or undefined when its key is gone (erased) or the stored output no longer validates. */
export async function openOutput(
  keys: KeyStore,
  ref: SubjectRef,
  artifactId: string,
  sealed: Sealed,
): Promise<SummarizerOutput | undefined> {
  const json = await openOutputJson(keys, ref, artifactId, sealed);
  if (json === undefined) return undefined;
  const parsed = parseSummarizerOutput(json);
  return parsed.ok ? parsed.output : undefined;
}
