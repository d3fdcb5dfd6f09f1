// An artifact's output sealed under the subject's data key (bound to the
// artifact id and field), with a keyed hash of its canonical JSON: summaries
// restate personal values, so they never reach disk in clear.
import { canonicalJson } from '../../domain/canonical/canonical-json.js';
import { parseSummarizerOutput, type SummarizerOutput } from '../../domain/consolidation/output.js';
import type { Sealed } from '../../domain/events/sealed.js';
import type { KeyStore, SubjectRef } from '../../infrastructure/key-store/port.js';
import { openSubjectField, sealSubjectField, subjectKeyedHash } from '../../infrastructure/key-store/sealing.js';

const FIELD = 'output';

export type SealedOutput = { readonly status: 'sealed'; readonly output: Sealed; readonly outputHash: string } | { readonly status: 'forgotten' };

export async function sealOutput(keys: KeyStore, ref: SubjectRef, artifactId: string, output: SummarizerOutput): Promise<SealedOutput> {
  const text = canonicalJson(output);
  const sealed = await sealSubjectField(keys, ref, artifactId, FIELD, text);
  const hashed = await subjectKeyedHash(keys, ref, text);
  if (sealed.status !== 'sealed' || hashed.status !== 'hashed') return { status: 'forgotten' };
  return { status: 'sealed', output: sealed.sealed, outputHash: hashed.hash };
}

/** The opened output, or undefined when the subject's key is gone or the stored output no longer validates. */
export async function openOutput(keys: KeyStore, ref: SubjectRef, artifactId: string, sealed: Sealed): Promise<SummarizerOutput | undefined> {
  const opened = await openSubjectField(keys, ref, artifactId, FIELD, sealed);
  if (opened.status !== 'opened') return undefined;
  const parsed = parseSummarizerOutput(JSON.parse(opened.plaintext));
  return parsed.ok ? parsed.output : undefined;
}
