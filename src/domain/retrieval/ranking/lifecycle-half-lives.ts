// A tenant's lifecycle policy sets how fast each kind's ranking weight
// decays (issue 18 item 3): its half-lives replace the retrieval policy's.
import { MEMORY_KINDS } from '../../entry/vocabulary.js';
import type { LifecyclePolicy } from '../../lifecycle/policy.js';
import type { RetrievalPolicy } from './policy.js';

const DAY_SECONDS = 86_400;

export function withLifecycleHalfLives(policy: RetrievalPolicy, lifecycle: LifecyclePolicy): RetrievalPolicy {
  const halfLifeDays = Object.fromEntries(
    MEMORY_KINDS.map((kind) => {
      const seconds = lifecycle.halfLifeSeconds[kind];
      return [kind, seconds === null ? Number.POSITIVE_INFINITY : seconds / DAY_SECONDS];
    }),
  ) as unknown as RetrievalPolicy['halfLifeDays'];
  return { ...policy, halfLifeDays };
}
