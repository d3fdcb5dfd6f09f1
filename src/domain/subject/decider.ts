// The subject stream's decider.
import type { Decider } from '../decider/decider.js';
import type { SubjectEvent } from '../events/subject-events.js';
import type { SubjectCommand } from './commands.js';
import { decide } from './decide.js';
import type { WriteDecision } from './decision.js';
import { evolve } from './evolve.js';
import { initialState, type SubjectState } from './state.js';

export const subjectDecider: Decider<SubjectState, SubjectCommand, SubjectEvent, WriteDecision> = { initialState, evolve, decide };
