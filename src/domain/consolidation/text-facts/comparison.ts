// How a fact stated in a summary relates to one it should have kept: the
// same fact, a changed value (72 h as 27 h, 3.5 as 35, another order id of
// the same kind), a changed unit (72 h as 72 d or as a bare 72), or nothing
// to do with it.
import type { TextFact } from './fact.js';

export type FactChange = 'value_changed' | 'unit_changed';

export function factChange(expected: TextFact, stated: TextFact): FactChange | undefined {
  if (expected.kind !== stated.kind || expected.canonical === stated.canonical) return undefined;
  switch (expected.kind) {
    case 'number': {
      if (stated.kind !== 'number') return undefined;
      if (expected.written === stated.written) return 'unit_changed';
      return expected.dimension === stated.dimension ? 'value_changed' : undefined;
    }
    case 'money': {
      if (stated.kind !== 'money') return undefined;
      if (expected.currency === stated.currency) return 'value_changed';
      return expected.amount === stated.amount ? 'unit_changed' : undefined;
    }
    case 'identifier':
      return stated.kind === 'identifier' && stated.shape === expected.shape ? 'value_changed' : undefined;
    case 'date':
    case 'time':
    case 'permission':
      return 'value_changed';
    case 'negation':
      // A negation changes polarity, not value: see negationStatus.
      return undefined;
  }
}
