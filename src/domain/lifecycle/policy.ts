// A tenant's lifecycle policy (issue 18 item 3; seed 001 F/H, seed 004's
// three forgetting layers): how fast each kind's ranking weight decays, when
// a memory is demoted (no longer served unless asked for), and how many live
// memories of a kind a subject keeps before the lowest-value are archived.
// Versioned on its own stream (stream.ts); version 0 is the built-in default
// below. Durations are ISO 8601 in weeks, days, hours, minutes and seconds;
// null means "never" (no decay, no demotion by that rule, no capacity).
import { z } from 'zod';
import { MEMORY_KINDS, type MemoryKind } from '../entry/vocabulary.js';
import { durationSchema, formatDuration } from '../retention/duration.js';
import { parseWith, type Parsed } from '../validation/invalid-input.js';

const positiveDuration = durationSchema.refine((seconds) => seconds > 0, { error: 'must be longer than zero' });
const share = z
  .number({ error: 'must be a number from 0 to 1' })
  .min(0, { error: 'must be from 0 to 1' })
  .max(1, { error: 'must be from 0 to 1' });

const DAY = 86_400;
const LOW_CONFIDENCE = { below: 0.3, after: 30 * DAY };
const RARELY_USEFUL = { ignoredAtLeast: 5, usefulShareBelow: 0.2 };

/** One optional value per memory kind; a kind left out keeps its default. */
const perKind = <T extends z.ZodType>(value: T) =>
  z.strictObject(Object.fromEntries(MEMORY_KINDS.map((k) => [k, value.optional()])) as Record<MemoryKind, z.ZodOptional<T>>, {
    error: `must be an object keyed by memory kind (${MEMORY_KINDS.join(', ')})`,
  });

export const lifecyclePolicySchema = z.strictObject(
  {
    /** Ranking weight halves every so long without reinforcement. */
    halfLives: perKind(positiveDuration.nullable()).default({}),
    demotion: z
      .strictObject(
        {
          /** Demoted after so long without reinforcement (rule `unreinforced`). */
          unreinforcedFor: perKind(positiveDuration.nullable()).default({}),
          /** Demoted when its confidence is below `below` and it went unreinforced for `after` (rule `low_confidence`). */
          lowConfidence: z.strictObject({ below: share, after: durationSchema }).nullable().default(LOW_CONFIDENCE),
          /** Demoted when ignored `ignoredAtLeast` times or more and (used + confirmed) / (used + confirmed + ignored) is below `usefulShareBelow`. */
          rarelyUseful: z
            .strictObject({
              ignoredAtLeast: z.number({ error: 'must be a whole number' }).int({ error: 'must be a whole number' }).min(1),
              usefulShareBelow: share,
            })
            .nullable()
            .default(RARELY_USEFUL),
        },
        { error: 'must be an object (unreinforcedFor, lowConfidence, rarelyUseful)' },
      )
      .default({ unreinforcedFor: {}, lowConfidence: LOW_CONFIDENCE, rarelyUseful: RARELY_USEFUL }),
    /** At most so many live (active or demoted) memories of a kind per subject; beyond it the lowest-value are archived. */
    capacity: perKind(
      z
        .number({ error: 'must be a whole number' })
        .int({ error: 'must be a whole number' })
        .min(1, { error: 'must be at least 1' })
        .nullable(),
    ).default({}),
  },
  { error: 'must be a JSON object (a lifecycle policy document)' },
);

type PerKind<T> = Readonly<Record<MemoryKind, T>>;

/** A policy with every kind filled in: what the sweeper and the ranking read. Seconds; null: never. */
export interface LifecyclePolicy {
  readonly halfLifeSeconds: PerKind<number | null>;
  readonly demotion: {
    readonly unreinforcedSeconds: PerKind<number | null>;
    readonly lowConfidence: { readonly below: number; readonly afterSeconds: number } | null;
    readonly rarelyUseful: { readonly ignoredAtLeast: number; readonly usefulShareBelow: number } | null;
  };
  readonly capacity: PerKind<number | null>;
}

export interface VersionedLifecyclePolicy {
  readonly version: number;
  readonly policy: LifecyclePolicy;
}

/** The built-in defaults (version 0). Half-lives are the retrieval policy's (ranking/policy.ts); constraints and permissions never decay. */
export const DEFAULT_LIFECYCLE_POLICY: VersionedLifecyclePolicy = {
  version: 0,
  policy: {
    halfLifeSeconds: {
      episodic: 90 * DAY,
      semantic: 365 * DAY,
      profile: 365 * DAY,
      procedural: 365 * DAY,
      constraint: null,
      permission: null,
    },
    demotion: {
      unreinforcedSeconds: {
        episodic: 365 * DAY,
        semantic: 730 * DAY,
        profile: 730 * DAY,
        procedural: 730 * DAY,
        constraint: null,
        permission: null,
      },
      lowConfidence: { below: LOW_CONFIDENCE.below, afterSeconds: LOW_CONFIDENCE.after },
      rarelyUseful: RARELY_USEFUL,
    },
    capacity: { episodic: 1000, semantic: null, profile: null, procedural: null, constraint: null, permission: null },
  },
};

function filled<T>(given: Partial<Record<MemoryKind, T | undefined>>, defaults: PerKind<T>): PerKind<T> {
  return Object.fromEntries(MEMORY_KINDS.map((k) => [k, given[k] === undefined ? defaults[k] : given[k]])) as PerKind<T>;
}

/** Validates a document; the error names the first offending field (e.g. `policy.capacity.episodic`). */
export function parseLifecyclePolicy(input: unknown): Parsed<LifecyclePolicy> {
  const parsed = parseWith(lifecyclePolicySchema, input, 'policy');
  if (!parsed.ok) return parsed;
  const d = parsed.value;
  const defaults = DEFAULT_LIFECYCLE_POLICY.policy;
  return {
    ok: true,
    value: {
      halfLifeSeconds: filled(d.halfLives, defaults.halfLifeSeconds),
      demotion: {
        unreinforcedSeconds: filled(d.demotion.unreinforcedFor, defaults.demotion.unreinforcedSeconds),
        lowConfidence: d.demotion.lowConfidence && { below: d.demotion.lowConfidence.below, afterSeconds: d.demotion.lowConfidence.after },
        rarelyUseful: d.demotion.rarelyUseful,
      },
      capacity: filled(d.capacity, defaults.capacity),
    },
  };
}

const shown = (seconds: number | null) => (seconds === null ? null : formatDuration(seconds));
const shownPerKind = (values: PerKind<number | null>) => Object.fromEntries(MEMORY_KINDS.map((k) => [k, shown(values[k])]));

/** The document as `lifecycle policy show` prints it and `set` takes it back: every kind, durations in ISO 8601. */
export function describeLifecyclePolicy(policy: LifecyclePolicy): Record<string, unknown> {
  const { lowConfidence, rarelyUseful } = policy.demotion;
  return {
    halfLives: shownPerKind(policy.halfLifeSeconds),
    demotion: {
      unreinforcedFor: shownPerKind(policy.demotion.unreinforcedSeconds),
      lowConfidence: lowConfidence && { below: lowConfidence.below, after: formatDuration(lowConfidence.afterSeconds) },
      rarelyUseful,
    },
    capacity: { ...policy.capacity },
  };
}
