// Seed 003's five evaluation conditions: what each serves and which cases it
// is judged on. C, D and E all use production retrieval; D and E are judged
// on the cases whose history carries what they are about (invalidated or
// conflicting memory; lures in other subjects or tenants).
import type { EvalCase } from './case.js';

export const CONDITIONS = ['A', 'B', 'C', 'D', 'E'] as const;
export type Condition = (typeof CONDITIONS)[number];

export type Serving = 'none' | 'oracle' | 'production';

/** `label`: a table column's heading. */
export const CONDITION_INFO: Readonly<Record<Condition, { readonly name: string; readonly label: string; readonly serving: Serving }>> = {
  A: { name: 'no memory', label: 'none', serving: 'none' },
  B: { name: 'oracle memory', label: 'oracle', serving: 'oracle' },
  C: { name: 'production retrieval', label: 'production', serving: 'production' },
  D: { name: 'stale or conflicting memory injected', label: 'stale/conflict', serving: 'production' },
  E: { name: 'unauthorized memory must be blocked', label: 'unauthorized', serving: 'production' },
};

export function judgedOn(condition: Condition, c: EvalCase): boolean {
  switch (condition) {
    case 'A':
    case 'B':
    case 'C':
      return true;
    case 'D':
      return c.expected_invalidated_memory_ids.length > 0 || c.expected_conflicts.length > 0;
    case 'E':
      return c.forbidden_namespaces.length > 0;
    default: {
      const never: never = condition;
      throw new Error(`unknown condition ${String(never)}`);
    }
  }
}
