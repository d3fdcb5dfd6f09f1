// The case file's one schema: the shipped set parses; a bad line is named by
// its number and field.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { InvalidCaseLine, parseCaseLines } from '../../src/domain/evaluation/case-lines.js';
import { luresOf } from '../../src/domain/evaluation/case.js';
import { SHIPPED_CASES } from '../../src/evaluation/shipped-cases.js';

const good = {
  case_id: 'M-PREF-013',
  lang: 'zh',
  scenario: 'preference_change',
  history_events: [
    {
      op: 'record',
      memory_id: 'mem_email_v1',
      entry: { kind: 'profile', key: 'notification.preference', value: { type: 'text', text: '邮件' }, source: { type: 'user_assertion' } },
    },
    {
      op: 'supersede',
      memory_id: 'mem_sms_v2',
      replaces: 'mem_email_v1',
      entry: { kind: 'profile', key: 'notification.preference', value: { type: 'text', text: '短信' }, source: { type: 'user_assertion' } },
    },
  ],
  current_task: '通知物流异常',
  expected_active_memory: ['mem_sms_v2'],
  expected_invalidated_memory_ids: ['mem_email_v1'],
  forbidden_namespaces: ['tenant/other/user/123'],
};

const lines = (...cases: unknown[]) => cases.map((c) => JSON.stringify(c)).join('\n');

function failure(text: string): InvalidCaseLine {
  try {
    parseCaseLines(text);
  } catch (error) {
    if (error instanceof InvalidCaseLine) return error;
    throw error;
  }
  throw new Error('parsed');
}

describe('parseCaseLines', () => {
  it('reads seed 003 M-PREF-013, defaults filled', () => {
    const [c] = parseCaseLines(`// a comment\n\n${lines(good)}\n`);
    expect(c).toMatchObject({ case_id: 'M-PREF-013', namespace: 'tenant/home/user/u1', expected_conflicts: [] });
    expect(luresOf(c!)).toEqual([]);
  });

  it('names the line and the field of the first bad line', () => {
    const bad = {
      ...good,
      case_id: 'second',
      history_events: [{ ...good.history_events[0], entry: { ...good.history_events[0]!.entry, key: '' } }],
    };
    const error = failure(lines(good, bad));
    expect(error).toMatchObject({ line: 2, field: 'history_events.0.entry.key', code: 'invalid_input' });
    expect(error.message).toMatch(/^line 2: history_events\.0\.entry\.key: /);
  });

  it('refuses ids the history never recorded, expected memory also expected invalidated, a forbidden own namespace, a repeated case id', () => {
    expect(failure(lines({ ...good, expected_active_memory: ['nope'] })).field).toBe('expected_active_memory.0');
    expect(failure(lines({ ...good, expected_active_memory: ['mem_email_v1'] })).field).toBe('expected_active_memory.0');
    expect(failure(lines({ ...good, forbidden_namespaces: ['tenant/home/user/u1'] })).field).toBe('forbidden_namespaces.0');
    expect(failure(lines(good, good))).toMatchObject({ line: 2, field: 'case_id' });
    expect(failure('{not json').line).toBe(1);
    expect(failure(lines({ ...good, extra: 1 })).field).toBe('extra');
  });

  it('ships at least 60 cases, English and Chinese, over the seeds scenarios', () => {
    const cases = parseCaseLines(readFileSync(SHIPPED_CASES, 'utf8'));
    expect(cases.length).toBeGreaterThanOrEqual(60);
    expect(new Set(cases.map((c) => c.lang))).toEqual(new Set(['en', 'zh']));
    const scenarios = new Set(cases.map((c) => c.scenario));
    for (const s of [
      'preference_change',
      'negation',
      'order_id',
      'threshold',
      'conflict',
      'retraction',
      'erasure',
      'cross_tenant_lure',
      'cross_subject_lure',
    ])
      expect(scenarios).toContain(s);
  });
});
