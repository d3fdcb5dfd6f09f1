// A current version that passed the hard filters, with its personal fields opened.
import type { PersonalFields } from '../opened/memory-fields.js';
import type { CurrentVersion } from './subject-view-shape.js';

export interface ReadableMemory {
  readonly version: CurrentVersion;
  readonly fields: Extract<PersonalFields, { status: 'readable' }>;
}
