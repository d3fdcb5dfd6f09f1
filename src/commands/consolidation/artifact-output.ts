// An artifact's output sealed under the artifact's own key (bound to the
// artifact id and field), with a keyed hash of its canonical JSON under the
// artifact's hash key: summaries restate personal values, so they never reach
// disk in clear, and erasing a memory destroys the key of every artifact that
// derives from it (see the key store), output and hash alike.
import { canonicalJson } from '../../domain/canonical/canonical-json.js';
import { parseSummarizerOutput, type SummarizerOutput } from '../../domain/consolidation/output.js';
import type { Sealed } from '../../domain/events/sealed.js';
import type { ArtifactDerivation, KeyStore, SubjectRef } from '../../infrastructure/key-store/port.js';
import { openArtifactField, openSubjectField, sealArtifactField } from '../../infrastructure/key-store/sealing.js';

const FIELD = 'output';

export type SealedOutput =
  | { readonly status: 'sealed'; readonly output: Sealed; readonly outputHash: string }
  /** subject: the subject was forgotten; artifact: something the output derives from was erased meanwhile. */
  | { readonly status: 'forgotten'; readonly scope: 'subject' | 'artifact' | 'memory' };

/** Memory ids an output cites (claims and open items). */
export function citedMemoryIds(output: SummarizerOutput): string[] {
  return [...new Set([...output.claims.flatMap((c) => c.derivedFrom), ...output.openItems.flatMap((o) => o.derivedFrom)])].sort();
}

/** `derivation` defaults to what the output cites, with no parent. */
export async function sealOutput(
  keys: KeyStore,
  ref: SubjectRef,
  artifactId: string,
  output: SummarizerOutput,
  derivation?: ArtifactDerivation,
): Promise<SealedOutput> {
  const text = canonicalJson(output);
  const cited = citedMemoryIds(output);
  const lineage: ArtifactDerivation = {
    derivedFrom: [...new Set([...(derivation?.derivedFrom ?? []), ...cited])],
    parentArtifactId: derivation?.parentArtifactId ?? null,
  };
  const sealed = await sealArtifactField(keys, { tenant: ref.tenant, subject: ref.subject }, artifactId, lineage, FIELD, text);
  if (sealed.status !== 'sealed') return { status: 'forgotten', scope: sealed.scope };
  return { status: 'sealed', output: sealed.sealed, outputHash: sealed.hash };
}

/** The opened output, or undefined when its key is gone (erased) or the stored output no longer validates. */
export async function openOutput(
  keys: KeyStore,
  ref: SubjectRef,
  artifactId: string,
  sealed: Sealed,
): Promise<SummarizerOutput | undefined> {
  const place = { tenant: ref.tenant, subject: ref.subject };
  // Artifacts sealed before artifacts had keys of their own used the subject's data key (sk_…).
  const opened = sealed.keyId.startsWith('sk_')
    ? await openSubjectField(keys, place, artifactId, FIELD, sealed)
    : await openArtifactField(keys, place, artifactId, FIELD, sealed);
  if (opened.status !== 'opened') return undefined;
  const parsed = parseSummarizerOutput(JSON.parse(opened.plaintext));
  return parsed.ok ? parsed.output : undefined;
}
