// The tenant's lifecycle-policy stream `lifecycle-policy-{tenant}`, a sibling
// of the write-policy stream and handled by the same stream machinery: each
// `set` appends the next version with the document as `show` prints it (every
// kind, durations in ISO 8601), so the log reads back exactly what a sweep
// and a recall decided under. Version 0 is the built-in default.
import { z } from 'zod';
import { unhandled, type Decider } from '../decider/decider.js';
import { sequenceSchema } from '../events/fields.js';
import type { Instant } from '../values/instant.js';
import { instantSchema } from '../values/instant-schema.js';
import { describeLifecyclePolicy, lifecyclePolicySchema, parseLifecyclePolicy, type VersionedLifecyclePolicy } from './policy.js';

export const lifecyclePolicySetSchema = z.strictObject({
  version: sequenceSchema,
  document: z
    .record(z.string(), z.unknown())
    .refine((document) => lifecyclePolicySchema.safeParse(document).success, { error: 'must be a valid lifecycle policy document' }),
  setAt: instantSchema,
});

export const LIFECYCLE_POLICY_EVENT_SCHEMAS = { LifecyclePolicySet: lifecyclePolicySetSchema } as const;

export type LifecyclePolicyEvent = { readonly type: 'LifecyclePolicySet'; readonly data: z.output<typeof lifecyclePolicySetSchema> };

export interface LifecyclePolicyState {
  /** Undefined until a policy is set: the built-in default applies. */
  readonly current?: VersionedLifecyclePolicy;
}

export type LifecyclePolicyCommand = { readonly type: 'SetLifecyclePolicy'; readonly document: unknown; readonly now: Instant };

export const lifecyclePolicyDecider: Decider<LifecyclePolicyState, LifecyclePolicyCommand, LifecyclePolicyEvent> = {
  initialState: () => ({}),
  evolve: (state, event) => {
    switch (event.type) {
      case 'LifecyclePolicySet': {
        const parsed = parseLifecyclePolicy(event.data.document);
        return parsed.ok ? { current: { version: event.data.version, policy: parsed.value } } : state;
      }
      default:
        return unhandled(event.type);
    }
  },
  decide: (state, command) => {
    switch (command.type) {
      case 'SetLifecyclePolicy': {
        // Validated at the boundary too; checked again so that nothing invalid is appended.
        const parsed = parseLifecyclePolicy(command.document);
        if (!parsed.ok) throw parsed.error;
        const version = (state.current?.version ?? 0) + 1;
        return {
          ok: true,
          events: [{ type: 'LifecyclePolicySet', data: { version, document: describeLifecyclePolicy(parsed.value), setAt: command.now } }],
        };
      }
      default:
        return unhandled(command.type);
    }
  },
};
