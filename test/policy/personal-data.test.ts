// Personal-data detectors (issue 17 item 4): identifiers with their check
// digits, phone shapes, addresses, special categories and third parties.
import { describe, expect, it } from 'vitest';
import { cnIdCheckValid, ibanCheckValid, luhnValid } from '../../src/domain/policy/personal/checksums.js';
import { personalSpans } from '../../src/domain/policy/personal/detect-personal.js';

const kinds = (text: string) => personalSpans(text).map((s) => s.kind);
const found = (text: string) => personalSpans(text).map((s) => text.slice(s.start, s.end));

describe('check digits', () => {
  it('Luhn: the card test numbers pass, one changed digit fails', () => {
    for (const card of ['4111111111111111', '5555555555554444', '378282246310005', '6200000000000005']) expect(luhnValid(card)).toBe(true);
    expect(luhnValid('4111111111111112')).toBe(false);
  });

  it('ISO 7064 MOD 11-2: the GB 11643 sample ID passes, a wrong check character fails', () => {
    expect(cnIdCheckValid('11010519491231002X')).toBe(true);
    expect(cnIdCheckValid('110105194912310021')).toBe(false);
    expect(cnIdCheckValid('440304198506151237')).toBe(true);
  });

  it('IBAN mod 97: the textbook IBANs pass, a swapped pair fails', () => {
    expect(ibanCheckValid('GB82WEST12345698765432')).toBe(true);
    expect(ibanCheckValid('DE89370400440532013000')).toBe(true);
    expect(ibanCheckValid('GB82WEST12345698765423')).toBe(false);
  });
});

describe('identifiers', () => {
  it.each([
    ['my email is alex@example.com', 'personal:email', 'alex@example.com'],
    ['我的手机号是13812345678。', 'personal:phone', '13812345678'],
    ['call +86 138-0013-8000 after six', 'personal:phone', '+86 138-0013-8000'],
    ['text me at +1 415 555 0132', 'personal:phone', '+1 415 555 0132'],
    ['office (415) 555-0132', 'personal:phone', '(415) 555-0132'],
    ['London +44 20 7946 0958', 'personal:phone', '+44 20 7946 0958'],
    ['身份证 11010519491231002X 过期', 'personal:cn_national_id', '11010519491231002X'],
    ['card 4111 1111 1111 1111 exp 12/29', 'personal:card_number', '4111 1111 1111 1111'],
    ['amex 3782-822463-10005', 'personal:card_number', '3782-822463-10005'],
    ['IBAN GB82 WEST 1234 5698 7654 32.', 'personal:iban', 'GB82 WEST 1234 5698 7654 32'],
    ['退款到 FR14 2004 1010 0505 0001 3M02 606', 'personal:iban', 'FR14 2004 1010 0505 0001 3M02 606'],
    ['收货地址：杭州市西湖区文三路90号', 'personal:postal_address', '杭州市西湖区文三路90号'],
    ['ship to 221 Baker Street, London', 'personal:postal_address', '221 Baker Street'],
  ])('%s', (text, kind, value) => {
    const spans = personalSpans(text);
    expect(spans.map((s) => s.kind)).toContain(kind);
    expect(found(text)).toContain(value);
  });

  it.each([
    ['an ID number with a wrong check character', '身份证 110105194912310021'],
    ['an ID number with no such birth date', '身份证 110105194902301234'],
    ['a Luhn-valid number with no card prefix', 'ref 9111111111111119'],
    ['a card number with one digit wrong', 'card 4111 1111 1111 1112'],
    ['an IBAN of the wrong length for its country', 'GB82 WEST 1234 5698 7654'],
    ['epoch milliseconds', 'at 1752566400000 ms'],
    ['an order number', '订单号 SO20260715000123456789'],
    ['a date and a time', '2026-07-15 09:30:00'],
    ['a UUID', '550e8400-e29b-41d4-a716-446655440000'],
    ['credentials in a URL', 'postgres://app:pw@db.internal/app'],
    ['a git remote', 'git@github.com:example/memledger.git'],
    ['a city alone', '常用收货城市：上海'],
    ['"disabled" as a setting', 'MFA is disabled for this account'],
  ])('does not take %s for personal data', (_name, text) => {
    expect(kinds(text)).toEqual([]);
  });

  it('keeps one finding where identifiers overlap: the ID number, not a card or a phone inside it', () => {
    expect(kinds('证件 620102199502287772')).toEqual(['personal:cn_national_id']);
  });
});

describe('special categories and third parties', () => {
  it.each([
    ['User is probably suffering from depression', 'personal:health'],
    ['推测用户可能患有抑郁症', 'personal:health'],
    ['Inferred religion: Muslim', 'personal:religion'],
    ['用户可能是基督徒', 'personal:religion'],
    ['might be gay', 'personal:sexuality'],
    ['推断用户的政治倾向偏左', 'personal:politics'],
  ])('%s', (text, kind) => {
    expect(kinds(text)).toContain(kind);
  });

  it('marks an identifier after a relation word as a third party, from the relation word to the identifier', () => {
    const text = "My colleague Li Wei's number is 13912345678, call him";
    const third = personalSpans(text).find((s) => s.kind === 'personal:third_party');
    expect(third && text.slice(third.start, third.end)).toBe("colleague Li Wei's number is 13912345678");
    expect(kinds('我同事王伟的手机号是 15900001111')).toContain('personal:third_party');
  });

  it('does not mark a relation word without an identifier, nor the subject as its own customer', () => {
    expect(kinds('My wife loves roses')).toEqual([]);
    expect(kinds('Customer note: reach the customer at alex@example.com')).toEqual(['personal:email']);
  });
});
