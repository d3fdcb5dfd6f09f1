// Which world a key or a tenant belongs to (seed 003: "a test environment
// polluting the production profile"): a test one never reaches a production
// one, nor the other way round. A tenant not marked is production.
export const ENVIRONMENTS = ['production', 'test'] as const;
export type Environment = (typeof ENVIRONMENTS)[number];

export function isEnvironment(value: unknown): value is Environment {
  return typeof value === 'string' && (ENVIRONMENTS as readonly string[]).includes(value);
}
