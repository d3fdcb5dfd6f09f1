// What the deterministic summarizer keeps of an entry's words (issue 15):
// the sentences holding a fact, as written; and how a claim reads.
import { describe, expect, it } from 'vitest';
import { claimText, joinStatements, openItemText, statementOf } from '../../src/domain/consolidation/statements.js';
import { bool, entity, input, num, text } from './fixtures.js';

describe('a statement', () => {
  it('keeps the sentences that hold a fact, as written, and leaves out those that hold none', () => {
    const note = input('m-1', 'refund.ORD-A1B2C3D4', num('45.90', 'EUR'), {
      content: 'She sounded relieved. Refund of €45.90 for ORD-A1B2C3D4 approved on 3 July 2026; no store credit. The call was friendly.',
    });
    expect(statementOf(note)).toBe('Refund of €45.90 for ORD-A1B2C3D4 approved on 3 July 2026; no store credit.');
    expect(statementOf(input('m-2', 'chat.turn', text('small talk'), { content: 'We talked about the weather.' }))).toBeUndefined();
    expect(statementOf(input('m-3', 'note', text('Never call.'), { content: 'Never call.' }))).toBeUndefined();
    expect(statementOf(input('m-4', 'zh', text('x'), { content: '客户很客气。退款300元已批准，不要代金券。' }))).toBe(
      '退款300元已批准，不要代金券。',
    );
  });

  it('of several entries states each distinct one once, each ending its sentence', () => {
    expect(joinStatements(['Never phone me', 'Never phone me', undefined, '不要发短信'])).toBe('Never phone me. 不要发短信。');
    expect(joinStatements(['Never phone me'])).toBe('Never phone me');
    expect(joinStatements([undefined])).toBeUndefined();
  });
});

describe('a claim reads as a person would write it', () => {
  const claim = (key: string, value: ReturnType<typeof text>, statement: string | undefined, extra = {}) => ({
    key,
    scopes: {},
    value,
    polarity: 'affirmed' as const,
    ...(statement !== undefined ? { statement } : {}),
    ...extra,
  });

  it('its words alone when they say what the typed statement says', () => {
    expect(claimText(claim('notification.preference', text('sms'), 'Prefers SMS; never phone calls.'))).toBe(
      'Prefers SMS; never phone calls.',
    );
    expect(claimText(claim('refund.wait', num('72', 'h'), 'Refunds wait at most 3 days.'))).toBe('Refunds wait at most 3 days.');
    expect(claimText(claim('order.open', entity('ORD-A1B2C3D4'), 'Order ORD-A1B2C3D4 placed.'))).toBe('Order ORD-A1B2C3D4 placed.');
    expect(claimText(claim('notification.preference', text('sms'), 'Prefers SMS.', { scopes: { project: 'shop-a' } }))).toBe(
      '[project=shop-a] Prefers SMS.',
    );
  });

  it('the typed statement first when the words do not say it, and always for a yes/no or a negated value', () => {
    expect(claimText(claim('ticket.TCK-88231', text('escalated'), 'Ticket TCK-88231: parcel damaged.'))).toBe(
      'ticket.TCK-88231: escalated — Ticket TCK-88231: parcel damaged.',
    );
    expect(claimText(claim('refund.wait', num('72', 'h'), 'Refunds wait at most 72 days.'))).toBe(
      'refund.wait: 72 h — Refunds wait at most 72 days.',
    );
    expect(claimText({ ...claim('contact.phone_calls', bool(true), 'Never phone me.'), polarity: 'negated' })).toBe(
      'contact.phone_calls: no — Never phone me.',
    );
    expect(claimText({ ...claim('notification.preference', text('sms'), 'Not SMS.'), polarity: 'negated' })).toBe(
      'notification.preference: not sms — Not SMS.',
    );
    expect(claimText(claim('contact.phone_calls', bool(true), undefined))).toBe('contact.phone_calls: yes');
  });

  it('an open item keeps its whole content, with the typed statement when the content misses a fact of the value', () => {
    const refund = input('m-1', 'task.refund', text('refund ORD-A1B2C3D4 by 2026-07-15'), {
      content: 'Refund pending. The customer was kind.',
    });
    expect(openItemText(refund)).toBe('task.refund: refund ORD-A1B2C3D4 by 2026-07-15 — Refund pending. The customer was kind.');
    const whole = input('m-2', 'task.refund', entity('ORD-A1B2C3D4'), { content: 'Refund ORD-A1B2C3D4. The customer was kind.' });
    expect(openItemText(whole)).toBe('Refund ORD-A1B2C3D4. The customer was kind.');
  });
});
