// The shape of a labeled candidate write, and a compact builder for rows.
//
// The labels come from the seeds' rules (listed in LABEL_RULES), written
// before the detectors and the default policy: a row says what SHOULD happen
// to the write, not what the code does.

export const LABEL_RULES = [
  'L1 a secret is refused (reject), whoever writes it (seed 003 "Secret Memorization", issue 17 item 3)',
  'L2 injection markers: from a tool, a summary or a model -> candidate; from the user or a reviewer -> accept, except into procedural, permission or constraint memory, which needs human review -> candidate (seed 001 G, issue 17 item 5)',
  'L3 external content (web pages, documents, tool output marked external) never becomes procedural, permission or constraint memory -> reject, unless a reviewer writes it; external facts of other kinds -> accept, served as untrusted (seed 001 D row 5, seed 001 I)',
  'L4 security, permission and compliance changes (kinds permission, constraint; keys security.*, permission(s).*, access.*, auth.*, compliance.*, role(s).*) not from the user or a reviewer -> candidate (seed 001 D row 6, issue 17 item 1)',
  'L5 a one-off emotional or temporary statement marked so -> accept with a short TTL (seed 001 D row 3, seed 003 temporary preference)',
  'L6 personal data -> accept with sensitivity raised to personal; a tenant that refuses ID numbers, phone numbers and addresses -> reject; a tenant that requires consent -> reject without consentRef (seed 004 8.3, issue 17 items 4 and 7)',
  'L7 personal identifiers of a third party (someone other than the subject) -> candidate (seed 003 third-party information)',
  'L8 a model inference of a sensitive trait (health, religion, sexuality, politics) -> reject (seed 001 I: no automatic sensitive profiling)',
  'L9 a source type above what the credential may claim -> reject (issue 17 item 8)',
  'L10 everything else (explicit preferences, negations, stable preferences, tool-failure episodes) -> accept (seed 001 D rows 1, 2, 4)',
] as const;

export type Expectation = 'accept' | 'accept_with_ttl' | 'candidate' | 'reject';
export type CorpusPolicy = 'default' | 'strict';

/** Which seed row or case a write exercises (the id's first segment). */
export const CASES = {
  D1: 'seed 001 D: user explicitly asks to remember, not sensitive',
  D2: 'seed 001 D: repeated stable preference',
  D3: 'seed 001 D: one-off emotion, complaint, temporary choice',
  D4: 'seed 001 D: root cause of a tool failure',
  D5: 'seed 001 D: rules induced by an external web page',
  D6: 'seed 001 D: security, permission, compliance change',
  EP: 'seed 003 write case: explicit preference',
  NG: 'seed 003 write case: negation',
  TT: 'seed 003 write case: temporary preference',
  TP: 'seed 003 write case: third-party information',
  SI: 'seed 003 write case: sensitive inference',
  SC: 'seed 003 write case: secret',
  IJ: 'seed 003 write case: indirect prompt injection',
  WD: 'seed 003 write case: user withdrawal',
  CC: 'seed 003 write case: two concurrent updates of one field',
  DI: 'seed 003 security: memory poisoning / persistent prompt injection',
  PD: 'issue 17 item 4: personal data',
  SP: 'seed 004 8.3: tenant refuses ID numbers, phones, addresses; consent required',
  OC: 'issue 17 item 8: source type above the credential',
  EX: 'seed 001 A/I: external facts (not instructions)',
  NM: 'near-misses: ids, hashes, injection-like harmless text',
} as const;
export type CaseTag = keyof typeof CASES;

export interface WriteRow {
  readonly id: string;
  readonly case: CaseTag;
  readonly lang: 'en' | 'zh';
  /** The entry as a client sends it (parsed with parseEntry). */
  readonly entry: Record<string, unknown>;
  readonly marks: readonly string[];
  /** Highest source type the writer's credential may claim; defaults to the claimed one. */
  readonly ceiling?: string;
  readonly policy: CorpusPolicy;
  readonly expect: Expectation;
  /** Set when part of the case needs more than the pure gate (the decider): what. The label is still the gate's part. */
  readonly beyondGate?: string;
  /** Set when the pure gate cannot decide the row at all (an extractor must mark it): why. Listed, not counted. */
  readonly gateCannotDecide?: string;
}

export interface RowOptions {
  readonly content?: string;
  readonly refs?: readonly string[];
  readonly sensitivity?: string;
  readonly marks?: readonly string[];
  readonly ceiling?: string;
  readonly policy?: CorpusPolicy;
  readonly polarity?: 'affirmed' | 'negated';
  readonly value?: Record<string, unknown>;
  readonly consentRef?: string;
  readonly beyondGate?: string;
  readonly gateCannotDecide?: string;
}

const DEFAULT_REFS: Record<string, string> = {
  human_review: 'review://queue/r-1',
  user_assertion: 'msg://thread-9/turn-14',
  verified_tool_fact: 'tool://orders/call-3',
  derived_summary: 'summary://thread-9/s-2',
  model_inference: 'model://extractor/run-5',
};

/** A row: id `<case>.<lang>.<n>`, the expected outcome, the entry's kind, key, text value and source type. */
export function w(id: string, expect: Expectation, kind: string, key: string, text: string, source: string, o: RowOptions = {}): WriteRow {
  const [tag, lang] = id.split('.') as [CaseTag, 'en' | 'zh'];
  if (!(tag in CASES) || (lang !== 'en' && lang !== 'zh')) throw new Error(`bad corpus id ${id}`);
  const entry: Record<string, unknown> = {
    kind,
    key,
    value: o.value ?? { type: 'text', text },
    source: { type: source, refs: o.refs ?? [DEFAULT_REFS[source] ?? 'msg://thread-9/turn-1'] },
    ...(o.content !== undefined ? { content: o.content } : {}),
    ...(o.sensitivity !== undefined ? { sensitivity: o.sensitivity } : {}),
    ...(o.polarity !== undefined ? { polarity: o.polarity } : {}),
    ...(o.consentRef !== undefined ? { consentRef: o.consentRef } : {}),
  };
  return {
    id,
    case: tag,
    lang,
    entry,
    marks: o.marks ?? [],
    ...(o.ceiling !== undefined ? { ceiling: o.ceiling } : {}),
    policy: o.policy ?? 'default',
    expect,
    ...(o.beyondGate !== undefined ? { beyondGate: o.beyondGate } : {}),
    ...(o.gateCannotDecide !== undefined ? { gateCannotDecide: o.gateCannotDecide } : {}),
  };
}
