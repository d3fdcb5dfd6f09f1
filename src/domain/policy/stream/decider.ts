// The decider of a tenant's write-policy stream: the current version and
// document; setting one appends the next version. The document was
// validated at the boundary (writePolicySchema); decide checks it again so
// that nothing invalid is ever appended.
import { unhandled, type Decider } from '../../decider/decider.js';
import type { Instant } from '../../values/instant.js';
import { describeWritePolicy, parseWritePolicy, type VersionedWritePolicy } from '../policy-document.js';
import type { PolicyEvent } from './events.js';

export interface PolicyStreamState {
  /** Undefined until a policy is set: the tenant writes under the built-in default. */
  readonly current?: VersionedWritePolicy;
}

export type PolicyCommand = { readonly type: 'SetWritePolicy'; readonly document: unknown; readonly now: Instant };

export const policyDecider: Decider<PolicyStreamState, PolicyCommand, PolicyEvent> = {
  initialState: () => ({}),
  evolve: (state, event) => {
    switch (event.type) {
      case 'WritePolicySet': {
        const parsed = parseWritePolicy(event.data.document);
        return parsed.ok ? { current: { version: event.data.version, policy: parsed.value } } : state;
      }
      default:
        return unhandled(event.type);
    }
  },
  decide: (state, command) => {
    switch (command.type) {
      case 'SetWritePolicy': {
        const parsed = parseWritePolicy(command.document);
        if (!parsed.ok) throw parsed.error;
        const version = (state.current?.version ?? 0) + 1;
        const document = describeWritePolicy(parsed.value);
        return { ok: true, events: [{ type: 'WritePolicySet', data: { version, document, setAt: command.now } }] };
      }
      default:
        return unhandled(command.type);
    }
  },
};
