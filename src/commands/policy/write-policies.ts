// Tenants' write policies on their streams `write-policy-{tenant}`, through
// the one command loop with the policy decider (src/domain/policy/stream):
// `set` validates the document (writePolicySchema, the error names the
// field) and appends the next version; `show` and the write gate read the
// current one, or the built-in default (version 0) when none was set.
import { isPolicyEvent } from '../../domain/events/catalog.js';
import { writePolicyStreamName } from '../../domain/events/stream-names.js';
import { DEFAULT_WRITE_POLICY, describeWritePolicy, parseWritePolicy, type VersionedWritePolicy } from '../../domain/policy/index.js';
import { policyDecider, type PolicyCommand, type PolicyStreamState } from '../../domain/policy/stream/decider.js';
import type { PolicyEvent } from '../../domain/policy/stream/events.js';
import type { Result } from '../../domain/result/result.js';
import type { EventStore } from '../../infrastructure/event-store/port.js';
import { newCommandId } from '../ids/command-ids.js';
import type { WritePolicySource } from '../ledger.js';
import { handleCommand } from '../stream/handle-command.js';
import type { TenantPolicies } from './tenant-policies.js';
import type { StreamKind } from '../../reads/streams/stream-kind.js';
import { StreamRepository } from '../../reads/streams/stream-repository.js';

export const policyStream: StreamKind<PolicyStreamState, PolicyCommand, PolicyEvent> = {
  decider: policyDecider,
  owns: isPolicyEvent,
  // Two admins setting a policy at once are two versions, never one retry.
  eventIds: 'fresh',
};

/** What `policy show` prints: the version, whether it is the default, and the document as `policy set` takes it. */
export interface WritePolicyView {
  readonly tenant: string;
  readonly version: number;
  readonly builtIn: boolean;
  readonly policy: Record<string, unknown>;
}

const viewOf = (tenant: string, current: VersionedWritePolicy | undefined): WritePolicyView => {
  const shown = current ?? DEFAULT_WRITE_POLICY;
  return { tenant, version: shown.version, builtIn: current === undefined, policy: describeWritePolicy(shown.policy) };
};

export class WritePolicies implements WritePolicySource, TenantPolicies<WritePolicyView> {
  readonly #repository: StreamRepository<PolicyStreamState, PolicyCommand, PolicyEvent>;

  constructor(
    private readonly eventStore: EventStore,
    private readonly clock: () => Date,
  ) {
    this.#repository = new StreamRepository(policyStream, eventStore, 1_000);
  }

  async current(tenant: string): Promise<VersionedWritePolicy | undefined> {
    return (await this.#repository.load(writePolicyStreamName(tenant))).state.current;
  }

  async show(tenant: string): Promise<WritePolicyView> {
    return viewOf(tenant, await this.current(tenant));
  }

  /** Validates first (InvalidInput naming `policy.…`): an invalid document appends nothing. */
  async set(tenant: string, document: unknown, actor?: string): Promise<Result<WritePolicyView>> {
    const stream = writePolicyStreamName(tenant);
    const parsed = parseWritePolicy(document);
    if (!parsed.ok) throw parsed.error;
    const deps = { eventStore: this.eventStore, clock: this.clock };
    const envelope = { stream, commandId: newCommandId(), ...(actor ? { actor } : {}) };
    const outcome = await handleCommand(this.#repository, deps, envelope, (_loaded, now) => ({
      type: 'SetWritePolicy' as const,
      document,
      now,
    }));
    if (!outcome.ok) return outcome;
    return { ok: true, result: viewOf(tenant, outcome.result.state.current) };
  }
}
