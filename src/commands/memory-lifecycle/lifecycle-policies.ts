// Setting a tenant's lifecycle policy: validated first (the error names the
// field, e.g. `policy.capacity.episodic`; nothing is appended), then the next
// version through the one command loop, as the write policy is set.
import { lifecyclePolicyStreamName } from '../../domain/events/stream-names.js';
import { parseLifecyclePolicy } from '../../domain/lifecycle/policy.js';
import type { Result } from '../../domain/result/result.js';
import type { EventStore } from '../../infrastructure/event-store/port.js';
import { LifecyclePolicyReader, lifecyclePolicyView, type LifecyclePolicyView } from '../../reads/lifecycle/lifecycle-policy-reader.js';
import { newCommandId } from '../ids/command-ids.js';
import { handleCommand } from '../stream/handle-command.js';
import type { TenantPolicies } from '../policy/tenant-policies.js';

export class LifecyclePolicies extends LifecyclePolicyReader implements TenantPolicies<LifecyclePolicyView> {
  constructor(
    private readonly eventStore: EventStore,
    private readonly clock: () => Date,
  ) {
    super(eventStore);
  }

  async set(tenant: string, document: unknown, actor?: string): Promise<Result<LifecyclePolicyView>> {
    const stream = lifecyclePolicyStreamName(tenant);
    const parsed = parseLifecyclePolicy(document);
    if (!parsed.ok) throw parsed.error;
    const deps = { eventStore: this.eventStore, clock: this.clock };
    const envelope = { stream, commandId: newCommandId(), ...(actor ? { actor } : {}) };
    const outcome = await handleCommand(this.repository, deps, envelope, (_loaded, now) => ({
      type: 'SetLifecyclePolicy' as const,
      document,
      now,
    }));
    if (!outcome.ok) return outcome;
    return { ok: true, result: lifecyclePolicyView(tenant, outcome.result.state.current) };
  }
}
