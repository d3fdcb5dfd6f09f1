// An artifact's sealed output opened for reading (sealing it is
// src/commands/consolidation/artifact-output.ts): under the artifact's own
// key, or the subject's data key for outputs sealed before artifacts had
// keys of their own (sk_…). An output whose key is gone (erased) reads as
// undefined.
import { parseSummarizerOutput, type SummarizerOutput } from '../../domain/consolidation/output.js';
import { anchorStatementsSchema, type AnchorStatements } from '../../domain/compaction/record.js';
import type { Sealed } from '../../domain/events/sealed.js';
import type { KeyStore, SubjectRef } from '../../infrastructure/key-store/port.js';
import { openArtifactField, openSubjectField } from '../../infrastructure/key-store/sealing.js';

/** The field an artifact's output is sealed as (bound into the envelope). */
export const ARTIFACT_OUTPUT_FIELD = 'output';
/** The field a compaction record's anchor statements are sealed as. */
export const ARTIFACT_STATEMENTS_FIELD = 'statements';

/** The opened output's JSON, unchecked; undefined when its key is gone. */
export function openOutputJson(keys: KeyStore, ref: SubjectRef, artifactId: string, sealed: Sealed): Promise<unknown> {
  return openJson(keys, ref, artifactId, ARTIFACT_OUTPUT_FIELD, sealed);
}

async function openJson(keys: KeyStore, ref: SubjectRef, artifactId: string, field: string, sealed: Sealed): Promise<unknown> {
  const place = { tenant: ref.tenant, subject: ref.subject };
  const opened = sealed.keyId.startsWith('sk_')
    ? await openSubjectField(keys, place, artifactId, field, sealed)
    : await openArtifactField(keys, place, artifactId, field, sealed);
  return opened.status === 'opened' ? JSON.parse(opened.plaintext) : undefined;
}

/** A compaction record's anchor statements; undefined when the key is gone or they do not validate. */
export async function openStatements(
  keys: KeyStore,
  ref: SubjectRef,
  artifactId: string,
  sealed: Sealed,
): Promise<AnchorStatements | undefined> {
  const parsed = anchorStatementsSchema.safeParse(await openJson(keys, ref, artifactId, ARTIFACT_STATEMENTS_FIELD, sealed));
  return parsed.success ? parsed.data : undefined;
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
