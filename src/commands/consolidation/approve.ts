// Shadow mode: an artifact of a shadow tenant is generated and gated, then
// waits for a reviewer. `approve` records ArtifactApproved on its stream and
// publishes it through the same fenced switch as any other.
import type { Result } from '../../domain/result/result.js';
import { requireId } from '../../domain/values/ids.js';
import type { Ledger } from '../ledger.js';
import { executeArtifactCommand } from './artifact-stream.js';
import { publishArtifact, type ArtifactContext, type PublishResult } from './publish.js';
import type { ConsolidationServices } from './services.js';

export async function approveArtifact(
  ledger: Ledger,
  services: ConsolidationServices,
  context: ArtifactContext,
  artifactIdInput: string,
): Promise<Result<PublishResult>> {
  const artifactId = requireId('artifact', artifactIdInput);
  const actor = context.actor ? { actor: context.actor } : {};
  const approved = await executeArtifactCommand(ledger, { artifactId, commandId: `approve:${artifactId}`, ...actor }, (now) => ({
    type: 'ApproveArtifact',
    artifactId,
    tenant: context.tenant,
    ...(context.subject !== undefined ? { subject: context.subject } : {}),
    ...(context.actor ? { approvedBy: context.actor } : {}),
    now,
  }));
  if (!approved.ok) return approved;
  return publishArtifact(ledger, services, context, artifactId);
}
