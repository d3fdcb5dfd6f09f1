// The check digits that tell a real identifier from a run of digits: Luhn
// (payment cards), ISO 7064 MOD 11-2 (Chinese resident ID, GB 11643), and
// ISO 7064 MOD 97-10 (IBAN, ISO 13616).

export function luhnValid(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) d = d * 2 > 9 ? d * 2 - 9 : d * 2;
    sum += d;
  }
  return digits.length > 1 && sum % 10 === 0;
}

const ID_WEIGHTS = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2];
const ID_CHECK = '10X98765432';

/** An 18-character Chinese resident ID number: 17 digits and the MOD 11-2 check character (0-9 or X). */
export function cnIdCheckValid(id: string): boolean {
  if (!/^\d{17}[\dX]$/i.test(id)) return false;
  const sum = ID_WEIGHTS.reduce((acc, w, i) => acc + w * Number(id[i]), 0);
  return ID_CHECK[sum % 11] === id[17]!.toUpperCase();
}

/** An IBAN without spaces: the country and check digits moved to the end, letters as 10-35, mod 97 is 1. */
export function ibanCheckValid(iban: string): boolean {
  const rearranged = iban.slice(4) + iban.slice(0, 4);
  let remainder = 0;
  for (const c of rearranged) {
    const code = c >= 'A' && c <= 'Z' ? String(c.charCodeAt(0) - 55) : c;
    for (const d of code) remainder = (remainder * 10 + Number(d)) % 97;
  }
  return remainder === 1;
}
