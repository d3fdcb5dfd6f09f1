// Marks a writer (or its extractor) puts on a candidate write, for what the
// text alone does not say: a one-off choice ("just this once"), an emotional
// statement ("so annoyed today"), or information about someone other than
// the subject. They travel with the write request, not the entry: the
// policy turns them into a TTL or a review, and the verdict records them.
import { z } from 'zod';
import { fieldMessage } from '../validation/invalid-input.js';

export const WRITE_MARKS = ['transient', 'emotional', 'third_party'] as const;
export type WriteMark = (typeof WRITE_MARKS)[number];
export const writeMarkSchema = z.enum(WRITE_MARKS, { error: fieldMessage(`must be one of ${WRITE_MARKS.join(', ')}`) });
export const writeMarksSchema = z.array(writeMarkSchema, { error: 'must be an array of marks' }).max(WRITE_MARKS.length).default([]);
