// Reads a tenant's lifecycle policy (stream `lifecycle-policy-{tenant}`):
// the sweeper and recall read the current version, or the built-in
// default (version 0) when none was set. Folded states are kept per stream,
// so a read costs one short read of what is newer.
import { isLifecyclePolicyEvent } from '../../domain/events/catalog.js';
import { lifecyclePolicyStreamName } from '../../domain/events/stream-names.js';
import { DEFAULT_LIFECYCLE_POLICY, describeLifecyclePolicy, type VersionedLifecyclePolicy } from '../../domain/lifecycle/policy.js';
import {
  lifecyclePolicyDecider,
  type LifecyclePolicyCommand,
  type LifecyclePolicyEvent,
  type LifecyclePolicyState,
} from '../../domain/lifecycle/stream.js';
import type { EventStore } from '../../infrastructure/event-store/port.js';
import type { StreamKind } from '../streams/stream-kind.js';
import { StreamRepository } from '../streams/stream-repository.js';

export const lifecyclePolicyStream: StreamKind<LifecyclePolicyState, LifecyclePolicyCommand, LifecyclePolicyEvent> = {
  decider: lifecyclePolicyDecider,
  owns: isLifecyclePolicyEvent,
  // Two admins setting a policy at once are two versions, never one retry.
  eventIds: 'fresh',
};

/** What `lifecycle policy show` prints. */
export interface LifecyclePolicyView {
  readonly tenant: string;
  readonly version: number;
  readonly builtIn: boolean;
  readonly policy: Record<string, unknown>;
}

export const lifecyclePolicyView = (tenant: string, current: VersionedLifecyclePolicy | undefined): LifecyclePolicyView => {
  const shown = current ?? DEFAULT_LIFECYCLE_POLICY;
  return { tenant, version: shown.version, builtIn: current === undefined, policy: describeLifecyclePolicy(shown.policy) };
};

export class LifecyclePolicyReader {
  readonly repository: StreamRepository<LifecyclePolicyState, LifecyclePolicyCommand, LifecyclePolicyEvent>;

  constructor(eventStore: EventStore) {
    this.repository = new StreamRepository(lifecyclePolicyStream, eventStore, 1_000);
  }

  /** The version in force (the built-in default when none was set). */
  async current(tenant: string): Promise<VersionedLifecyclePolicy> {
    return (await this.repository.load(lifecyclePolicyStreamName(tenant))).state.current ?? DEFAULT_LIFECYCLE_POLICY;
  }

  async show(tenant: string): Promise<LifecyclePolicyView> {
    return lifecyclePolicyView(tenant, (await this.repository.load(lifecyclePolicyStreamName(tenant))).state.current);
  }
}
