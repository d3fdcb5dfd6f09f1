// The closed vocabularies of a memory entry (DESIGN section 10).
import { z } from 'zod';
import { fieldMessage } from '../validation/invalid-input.js';

export const MEMORY_KINDS = ['episodic', 'semantic', 'profile', 'procedural', 'constraint', 'permission'] as const;
export type MemoryKind = (typeof MEMORY_KINDS)[number];
export const memoryKindSchema = z.enum(MEMORY_KINDS, { error: fieldMessage(`must be one of ${MEMORY_KINDS.join(', ')}`) });

export const POLARITIES = ['affirmed', 'negated'] as const;
export type Polarity = (typeof POLARITIES)[number];
export const polaritySchema = z.enum(POLARITIES, { error: fieldMessage('must be affirmed or negated') });

/** Lowest to highest. */
export const SENSITIVITIES = ['public', 'normal', 'personal', 'confidential', 'restricted'] as const;
export type Sensitivity = (typeof SENSITIVITIES)[number];
export const sensitivitySchema = z.enum(SENSITIVITIES, { error: fieldMessage(`must be one of ${SENSITIVITIES.join(', ')}`) });

/** Orders sensitivities, for a reader's ceiling. */
export function sensitivityRank(s: Sensitivity): number {
  return SENSITIVITIES.indexOf(s);
}
