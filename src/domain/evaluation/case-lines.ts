// A case file is JSON Lines: one case per line, blank lines and lines
// starting with // skipped. Every line is checked before anything runs; the
// first bad one is named by its line number and field.
import { InvalidInput, parseWith } from '../validation/invalid-input.js';
import { evalCaseSchema, type EvalCase } from './case.js';

export class InvalidCaseLine extends InvalidInput {
  readonly details: { readonly line: number };
  constructor(
    readonly line: number,
    field: string,
    reason: string,
  ) {
    super(field, reason);
    this.message = `line ${line}: ${field || 'case'}: ${reason}`;
    this.details = { line };
  }
}

export function parseCaseLines(text: string): EvalCase[] {
  const cases: EvalCase[] = [];
  const seen = new Map<string, number>();
  for (const [i, raw] of text.split(/\r?\n/).entries()) {
    const line = i + 1;
    const trimmed = raw.trim();
    if (trimmed === '' || trimmed.startsWith('//')) continue;
    let json: unknown;
    try {
      json = JSON.parse(trimmed);
    } catch (error) {
      throw new InvalidCaseLine(line, '', `is not valid JSON: ${(error as Error).message}`);
    }
    const parsed = parseWith(evalCaseSchema, json);
    if (!parsed.ok) throw new InvalidCaseLine(line, parsed.error.field, parsed.error.reason);
    const earlier = seen.get(parsed.value.case_id);
    if (earlier !== undefined) throw new InvalidCaseLine(line, 'case_id', `repeats the case_id of line ${earlier}`);
    seen.set(parsed.value.case_id, line);
    cases.push(parsed.value);
  }
  if (cases.length === 0) throw new InvalidCaseLine(1, '', 'the file holds no case');
  return cases;
}
