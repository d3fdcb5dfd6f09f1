// The write gate's pure core (DESIGN section 12): detectors, the tenant's
// write policy, its evaluation, and trust bounded by the credential.
export * from './credential-trust.js';
export * from './default-policy.js';
export * from './detection.js';
export * from './evaluate.js';
export * from './gated-entry.js';
export * from './inspect.js';
export * from './origin.js';
export * from './policy-document.js';
export * from './rule-match.js';
export * from './text-fields.js';
export * from './verdict.js';
export * from './write-marks.js';
