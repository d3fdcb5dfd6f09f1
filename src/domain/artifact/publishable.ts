// Which artifacts may be published (or approved for publication): generated,
// gated, and the caller's own.
import type { Manifest } from '../events/manifest.js';
import { reject, type Result } from '../result/result.js';
import { manifestOf, type ArtifactState } from './state.js';

export interface ArtifactScope {
  readonly tenant: string;
  /** When given, the artifact must belong to this subject. */
  readonly subject?: string;
}

/** The manifest of an artifact that may be published, or why not. Another tenant's artifact does not exist for the caller. */
export function publishable(artifactId: string, state: ArtifactState, scope: ArtifactScope): Result<Manifest> {
  const manifest = manifestOf(state);
  if (!manifest || manifest.tenant !== scope.tenant || (scope.subject !== undefined && manifest.subject !== scope.subject)) {
    return reject('artifact_not_found', `artifact ${artifactId} does not exist`, 'artifact');
  }
  if (state.generationFailed || !state.generated)
    return reject(
      'generation_failed',
      `artifact ${artifactId} has no output: ${state.generationFailed?.error.code ?? 'unknown'}`,
      'artifact',
    );
  if (!state.gatePassed) {
    const codes = [...new Set((state.gateFailed?.reasons ?? []).map((r) => r.code))].join(', ');
    return reject('gate_failed', `artifact ${artifactId} did not pass the loss gate (${codes || 'not gated'})`, 'artifact');
  }
  return { ok: true, result: state.generated.manifest };
}
