// The manifest of a consolidation (DESIGN section 4, step 2) and the id of
// its artifact. The id is derived from the snapshot, so workers that prepare
// the same snapshot at once meet on one artifact stream (its no_stream append
// lets exactly one of them write it).
import { inputRoot } from '../canonical/input-root.js';
import { canonicalSha256 } from '../canonical/sha256.js';
import type { AliasTuple } from '../events/alias.js';
import type { Manifest, ManifestInput } from '../events/manifest.js';
import type { EntryState } from '../subject/state.js';
import type { SelectorVersion } from './selector.js';

export interface ManifestParts {
  readonly tenant: string;
  readonly subject: string;
  readonly through: number;
  readonly inputEpoch: number;
  readonly expectedAlias: AliasTuple | null;
  /** Every selected entry, hot and cold. */
  readonly entries: readonly EntryState[];
  readonly conflictIds: readonly string[];
  readonly parentArtifactId: string | null;
  readonly selectorVersion: SelectorVersion;
  readonly promptVersion: string;
  readonly modelSnapshot: string;
  /** Anything else the output depends on (e.g. the token budget). */
  readonly settings: Readonly<Record<string, string | number>>;
  readonly trigger: NonNullable<Manifest['trigger']>;
  /** 1 for the first try of a snapshot; a new try after a failed generation gets a new id. */
  readonly attempt: number;
}

export function manifestInputs(entries: readonly EntryState[]): ManifestInput[] {
  return entries.map((e) => ({
    memoryId: e.memoryId,
    sequence: e.sequence,
    valueHash: e.valueHash,
    ...(e.contentHash !== undefined ? { contentHash: e.contentHash } : {}),
  }));
}

export function buildManifest(parts: ManifestParts): Manifest {
  const inputs = manifestInputs(parts.entries);
  const root = inputRoot(inputs);
  const fenced = {
    tenant: parts.tenant,
    subject: parts.subject,
    newCoversThrough: parts.through,
    inputEpoch: parts.inputEpoch,
    expectedAlias: parts.expectedAlias,
    inputRoot: root,
    conflictIds: [...parts.conflictIds].sort(),
    parentArtifactId: parts.parentArtifactId,
    selectorVersion: parts.selectorVersion,
    promptVersion: parts.promptVersion,
    modelSnapshot: parts.modelSnapshot,
  };
  // A named boundary is part of the id (a hand-off's record is not the scheduled one of the same snapshot); the schedule keeps the ids it always had.
  const named = parts.trigger.reason !== 'schedule' || parts.trigger.runId !== undefined;
  const fingerprint = canonicalSha256({
    ...fenced,
    settings: parts.settings,
    attempt: parts.attempt,
    ...(named ? { trigger: parts.trigger } : {}),
  });
  return { artifactId: artifactIdFor(parts.subject, parts.through, fingerprint), ...fenced, inputs, trigger: parts.trigger };
}

/** `summary:{subject}:{H, six digits}:{fingerprint}`, as the seed's `summary:user-7:000184`; shortened when the subject is long. */
export function artifactIdFor(subject: string, through: number, fingerprint: string): string {
  const readable = `summary:${subject}:${String(through).padStart(6, '0')}:${fingerprint.slice(0, 12)}`;
  return readable.length <= 128 ? readable : `summary:${fingerprint.slice(0, 40)}`;
}
