// Summary or raw entries (DESIGN section 7; seed 000: the alias's epoch must
// equal the clock, otherwise fall back to raw retrieval): the published
// summary serves only while the alias's sourceEpoch equals the subject's
// current inputEpoch, its artifact belongs to this subject and is not STALE,
// and its output can still be read.
import type { SubjectView } from './subject-view-shape.js';

export type RawReason = 'subject_forgotten' | 'no_alias' | 'behind_epoch' | 'stale' | 'unreadable';

export interface AliasInfo {
  readonly artifactId: string;
  readonly sourceEpoch: number;
  readonly coversThrough: number;
}

export type SourceChoice =
  | { readonly source: 'summary'; readonly reason: 'summary_current'; readonly message: string; readonly alias: AliasInfo }
  | { readonly source: 'raw'; readonly reason: RawReason; readonly message: string; readonly alias: AliasInfo | null };

export function chooseSource(view: SubjectView, tenant: string, subject: string): SourceChoice {
  const a = view.alias;
  const alias = a ? { artifactId: a.artifactId, sourceEpoch: a.sourceEpoch, coversThrough: a.coversThrough } : null;
  if (view.clock?.forgotten)
    return { source: 'raw', reason: 'subject_forgotten', message: 'the subject was forgotten: nothing of it is returned', alias };
  if (!a || !alias)
    return { source: 'raw', reason: 'no_alias', message: 'no summary has been published for this subject: raw entries', alias };
  const epoch = view.clock?.inputEpoch ?? 0;
  if (a.sourceEpoch !== epoch) {
    return {
      source: 'raw',
      reason: 'behind_epoch',
      message: `the summary was built at inputEpoch ${a.sourceEpoch}, the subject is at ${epoch} (an input changed since): raw entries until a new summary is published`,
      alias,
    };
  }
  if (a.stale) {
    const via = a.stale.viaArtifactId ? ` through ${a.stale.viaArtifactId}` : '';
    const memory = a.stale.causeMemoryId ? ` of ${a.stale.causeMemoryId}` : '';
    return { source: 'raw', reason: 'stale', message: `the summary is STALE (${a.stale.causeType}${memory}${via}): raw entries`, alias };
  }
  const artifact = a.artifact;
  if (
    !artifact ||
    artifact.tenant !== tenant ||
    artifact.subject !== subject ||
    artifact.status !== 'published' ||
    artifact.output === null ||
    artifact.outputErased
  ) {
    return {
      source: 'raw',
      reason: 'unreadable',
      message: 'the summary cannot be read (its output was erased or is missing): raw entries',
      alias,
    };
  }
  return {
    source: 'summary',
    reason: 'summary_current',
    message: `the published summary is current (inputEpoch ${epoch}, not STALE): its claims, plus raw entries it does not cover`,
    alias,
  };
}

export function unreadableSummary(alias: AliasInfo): SourceChoice {
  return { source: 'raw', reason: 'unreadable', message: 'the summary cannot be opened (its key is gone): raw entries', alias };
}
