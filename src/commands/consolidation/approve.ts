// Shadow mode: an artifact of a shadow tenant is generated and gated, then
// waits for a reviewer. `approve` records ArtifactApproved on its stream and
// publishes it through the same fenced switch as any other.
import { instantOf } from '../../domain/values/instant.js';
import { requireId } from '../../domain/values/ids.js';
import { WrongExpectedVersion } from '../../infrastructure/event-store/port.js';
import type { Ledger } from '../ledger.js';
import { appendArtifactEvents, readArtifact } from './artifact-stream.js';
import { publishArtifact, publishable, type ArtifactContext, type PublishResult } from './publish.js';
import type { Result } from '../../domain/result/result.js';
import type { ConsolidationServices } from './services.js';

const ATTEMPTS = 10;

export async function approveArtifact(
  ledger: Ledger,
  services: ConsolidationServices,
  context: ArtifactContext,
  artifactIdInput: string,
): Promise<Result<PublishResult>> {
  const artifactId = requireId('artifact', artifactIdInput);
  for (let attempt = 1; attempt <= ATTEMPTS; attempt++) {
    const record = await readArtifact(ledger.eventStore, artifactId);
    const checked = publishable(record, context);
    if (!checked.ok) return checked;
    if (record.approved || record.rejected) break;
    try {
      const data = { artifactId, ...(context.actor ? { approvedBy: context.actor } : {}), approvedAt: instantOf(ledger.clock()) };
      await appendArtifactEvents(
        ledger.eventStore,
        artifactId,
        [{ type: 'ArtifactApproved', data }],
        { commandId: `approve:${artifactId}`, ...(context.actor ? { actor: context.actor } : {}) },
        record.revision,
      );
      break;
    } catch (error) {
      if (!(error instanceof WrongExpectedVersion)) throw error;
    }
  }
  return publishArtifact(ledger, services, context, artifactId);
}
