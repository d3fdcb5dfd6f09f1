// Stream names: one subject stream per (tenant, subject) — the consistency
// boundary of writes — and one stream per artifact.
import { requireId } from '../values/ids.js';

export const SUBJECT_STREAM_PREFIX = 'memory-';
export const ARTIFACT_STREAM_PREFIX = 'artifact-';
export const WRITE_POLICY_STREAM_PREFIX = 'write-policy-';
export const LIFECYCLE_POLICY_STREAM_PREFIX = 'lifecycle-policy-';
export const RECALL_STREAM_PREFIX = 'recall-';
/** Every stream memledger writes starts with one of these (its scope in a log shared with other applications). */
export const MEMLEDGER_STREAM_PREFIXES = [
  SUBJECT_STREAM_PREFIX,
  ARTIFACT_STREAM_PREFIX,
  WRITE_POLICY_STREAM_PREFIX,
  LIFECYCLE_POLICY_STREAM_PREFIX,
  RECALL_STREAM_PREFIX,
] as const;

/** `memory-{tenant}/{subject}`; throws InvalidInput naming `tenant` or `subject`. */
export function subjectStreamName(tenant: string, subject: string): string {
  return `${SUBJECT_STREAM_PREFIX}${requireId('tenant', tenant)}/${requireId('subject', subject)}`;
}

/** `artifact-{artifactId}`; throws InvalidInput naming `artifactId`. */
export function artifactStreamName(artifactId: string): string {
  return `${ARTIFACT_STREAM_PREFIX}${requireId('artifactId', artifactId)}`;
}

/** `write-policy-{tenant}`: the tenant's versioned write policy (issue 17); throws InvalidInput naming `tenant`. */
export function writePolicyStreamName(tenant: string): string {
  return `${WRITE_POLICY_STREAM_PREFIX}${requireId('tenant', tenant)}`;
}

/** `lifecycle-policy-{tenant}`: the tenant's versioned lifecycle policy (issue 18); throws InvalidInput naming `tenant`. */
export function lifecyclePolicyStreamName(tenant: string): string {
  return `${LIFECYCLE_POLICY_STREAM_PREFIX}${requireId('tenant', tenant)}`;
}

/** `recall-{tenant}/{subject}`: what each recall of the subject served (issue 18); throws InvalidInput naming `tenant` or `subject`. */
export function recallStreamName(tenant: string, subject: string): string {
  return `${RECALL_STREAM_PREFIX}${requireId('tenant', tenant)}/${requireId('subject', subject)}`;
}

/** The stream prefix of all subjects of one tenant (for filtered subscriptions). */
export function tenantStreamPrefix(tenant: string): string {
  return `${SUBJECT_STREAM_PREFIX}${requireId('tenant', tenant)}/`;
}

const SUBJECT_STREAM = /^memory-([A-Za-z0-9][A-Za-z0-9._:@-]{0,127})\/([A-Za-z0-9][A-Za-z0-9._:@-]{0,127})$/;
const ARTIFACT_STREAM = /^artifact-([A-Za-z0-9][A-Za-z0-9._:@-]{0,127})$/;

export function parseSubjectStreamName(stream: string): { tenant: string; subject: string } | undefined {
  const m = SUBJECT_STREAM.exec(stream);
  return m ? { tenant: m[1]!, subject: m[2]! } : undefined;
}

export function parseArtifactStreamName(stream: string): { artifactId: string } | undefined {
  const m = ARTIFACT_STREAM.exec(stream);
  return m ? { artifactId: m[1]! } : undefined;
}
