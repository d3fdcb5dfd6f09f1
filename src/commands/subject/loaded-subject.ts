// A subject stream folded up to a revision (see src/commands/stream).
import type { SubjectState } from '../../domain/subject/state.js';
import type { LoadedStream } from '../../reads/streams/loaded-stream.js';

export type LoadedSubject = LoadedStream<SubjectState>;
