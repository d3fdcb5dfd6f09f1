// Boundary validation of key store arguments, with the domain's id rules and
// its InvalidInput error (which names the field).
import { z } from 'zod';
import { invalidInputFromZod } from '../../domain/validation/invalid-input.js';
import { artifactIdSchema, memoryIdSchema, subjectIdSchema, tenantIdSchema } from '../../domain/values/ids.js';
import type { ArtifactDerivation, SubjectRef } from './port.js';

const subjectRefSchema = z.object(
  { tenant: tenantIdSchema, subject: subjectIdSchema },
  { error: 'must be an object with tenant and subject' },
);
const memoryIdsSchema = z
  .array(memoryIdSchema, { error: 'must be an array of memory ids' })
  .max(10_000, { error: 'must hold at most 10000 ids' });

function parse<S extends z.ZodType>(schema: S, input: unknown, field?: string): z.output<S> {
  const result = schema.safeParse(input);
  if (!result.success) throw invalidInputFromZod(result.error, field);
  return result.data;
}

export function validSubjectRef(ref: SubjectRef): SubjectRef {
  const { tenant, subject } = parse(subjectRefSchema, ref);
  return { tenant, subject };
}

export function validMemoryId(memoryId: string): string {
  return parse(memoryIdSchema, memoryId, 'memoryId');
}

/** Distinct ids, in first-seen order. */
export function validMemoryIds(memoryIds: readonly string[]): string[] {
  return [...new Set(parse(memoryIdsSchema, memoryIds, 'memoryIds'))];
}

export function validArtifactId(artifactId: string): string {
  return parse(artifactIdSchema, artifactId, 'artifactId');
}

const derivationSchema = z.object(
  {
    derivedFrom: memoryIdsSchema,
    parentArtifactId: artifactIdSchema.nullable(),
  },
  { error: 'must be an object with derivedFrom and parentArtifactId' },
);

/** Distinct memory ids, sorted, and the parent. */
export function validDerivation(derivation: ArtifactDerivation): ArtifactDerivation {
  const { derivedFrom, parentArtifactId } = parse(derivationSchema, derivation, 'derivation');
  return { derivedFrom: [...new Set(derivedFrom)].sort(), parentArtifactId };
}
