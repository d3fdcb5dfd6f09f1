// An artifact's output sealed under the artifact's own key (bound to the
// artifact id and field), with a keyed hash of its canonical JSON under the
// artifact's hash key: summaries restate personal values, so they never reach
// disk in clear, and erasing a memory destroys the key of every artifact that
// derives from it (see the key store), output and hash alike.
import { canonicalJson } from '../../domain/canonical/canonical-json.js';
import type { SummarizerOutput } from '../../domain/consolidation/output.js';
import type { Sealed } from '../../domain/events/sealed.js';
import type { ArtifactDerivation, KeyStore, SubjectRef } from '../../infrastructure/key-store/port.js';
import { sealArtifactField } from '../../infrastructure/key-store/sealing.js';
import type { AnchorStatements } from '../../domain/compaction/record.js';
import { ARTIFACT_OUTPUT_FIELD, ARTIFACT_STATEMENTS_FIELD } from '../../reads/opened/artifact-output.js';

export type SealedOutput =
  | { readonly status: 'sealed'; readonly output: Sealed; readonly outputHash: string; readonly statements?: Sealed }
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
  /** The compaction record's anchor statements, sealed under the same key. */
  statements?: AnchorStatements,
): Promise<SealedOutput> {
  const text = canonicalJson(output);
  const cited = citedMemoryIds(output);
  const lineage: ArtifactDerivation = {
    derivedFrom: [...new Set([...(derivation?.derivedFrom ?? []), ...cited])],
    parentArtifactId: derivation?.parentArtifactId ?? null,
  };
  const sealed = await sealArtifactField(
    keys,
    { tenant: ref.tenant, subject: ref.subject },
    artifactId,
    lineage,
    ARTIFACT_OUTPUT_FIELD,
    text,
  );
  if (sealed.status !== 'sealed') return { status: 'forgotten', scope: sealed.scope };
  if (statements === undefined) return { status: 'sealed', output: sealed.sealed, outputHash: sealed.hash };
  const place = { tenant: ref.tenant, subject: ref.subject };
  const words = await sealArtifactField(keys, place, artifactId, lineage, ARTIFACT_STATEMENTS_FIELD, canonicalJson(statements));
  if (words.status !== 'sealed') return { status: 'forgotten', scope: words.scope };
  return { status: 'sealed', output: sealed.sealed, outputHash: sealed.hash, statements: words.sealed };
}
