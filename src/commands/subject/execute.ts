// A command on a subject stream, through the one command loop
// (src/commands/stream/handle-commands.ts) with the subject's decider.
import { subjectCommandSchema, type SubjectCommand } from '../../domain/subject/commands.js';
import type { WriteDecision } from '../../domain/subject/decision.js';
import type { Result } from '../../domain/result/result.js';
import type { SubjectState } from '../../domain/subject/state.js';
import { parseWith } from '../../domain/validation/invalid-input.js';
import type { Instant } from '../../domain/values/instant.js';
import type { EventStore } from '../../infrastructure/event-store/port.js';
import { handleCommand, type CommandEffect, type CommandEnvelope } from '../stream/handle-command.js';
import type { LoadedSubject } from './loaded-subject.js';
import type { SubjectRepository } from '../../reads/streams/subject-repository.js';

export interface SubjectCommandDeps {
  readonly eventStore: EventStore;
  readonly subjects: SubjectRepository;
  readonly clock: () => Date;
}

export type SubjectEffect = CommandEffect<SubjectState, WriteDecision>;

export function executeSubjectCommand(
  deps: SubjectCommandDeps,
  envelope: CommandEnvelope,
  build: (loaded: LoadedSubject, now: Instant) => SubjectCommand,
  /** The subject as the caller has just loaded it: the first attempt decides against it (handleCommands' `first`). */
  first?: LoadedSubject,
): Promise<Result<SubjectEffect>> {
  return handleCommand(deps.subjects, deps, envelope, (loaded, now) => requireCommand(build(loaded, now)), first);
}

/**
 * The command as the domain's schema defines it: what a caller passed on
 * unchecked (a reason with NUL, a taint pattern with a space) is refused
 * here, naming the field, before anything is decided or appended.
 */
function requireCommand(command: SubjectCommand): SubjectCommand {
  const parsed = parseWith(subjectCommandSchema, command);
  if (!parsed.ok) throw parsed.error;
  return command;
}
