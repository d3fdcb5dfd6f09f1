// Exact decimals as scaled bigints, so unit conversion never rounds:
// value = digits × 10^-scale, normalised (scale ≥ 0, no trailing zero in the fraction).

export interface Decimal {
  readonly digits: bigint;
  readonly scale: number;
}

/** Exponents beyond this are refused: the expanded form would be unreasonably long. */
export const MAX_DECIMAL_EXPONENT = 400;
const DECIMAL_TEXT = /^([+-])?(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/;

export type DecimalParse = { ok: true; decimal: Decimal } | { ok: false; message: string };

export function parseDecimal(input: string | number): DecimalParse {
  if (typeof input === 'number' && !Number.isFinite(input)) return { ok: false, message: 'must be a finite number' };
  // String(number) is the shortest text that reads back as the same double: what the writer meant.
  const text = typeof input === 'number' ? String(input) : input;
  const match = DECIMAL_TEXT.exec(text);
  if (!match) return { ok: false, message: 'must be a decimal number such as "72", "-0.5" or "1.5e3"' };
  const [, sign, whole, fraction = '', exponentText = '0'] = match;
  const exponent = Number(exponentText);
  if (!Number.isSafeInteger(exponent) || Math.abs(exponent) > MAX_DECIMAL_EXPONENT) {
    return { ok: false, message: `exponent must be within ±${MAX_DECIMAL_EXPONENT}` };
  }
  let digits = BigInt(whole! + fraction);
  if (sign === '-') digits = -digits;
  return { ok: true, decimal: normalise(digits, fraction.length - exponent) };
}

function normalise(digits: bigint, scale: number): Decimal {
  if (digits === 0n) return { digits: 0n, scale: 0 };
  let d = digits;
  let s = scale;
  if (s < 0) {
    d *= 10n ** BigInt(-s);
    s = 0;
  }
  while (s > 0 && d % 10n === 0n) {
    d /= 10n;
    s -= 1;
  }
  return { digits: d, scale: s };
}

export function multiplyDecimal(a: Decimal, factor: bigint): Decimal {
  return normalise(a.digits * factor, a.scale);
}

/** Plain decimal text without exponent: "72", "-0.005", "259200000". */
export function formatDecimal(a: Decimal): string {
  const negative = a.digits < 0n;
  const abs = (negative ? -a.digits : a.digits).toString();
  let text: string;
  if (a.scale === 0) {
    text = abs;
  } else {
    const padded = abs.padStart(a.scale + 1, '0');
    text = `${padded.slice(0, padded.length - a.scale)}.${padded.slice(padded.length - a.scale)}`;
  }
  return negative ? `-${text}` : text;
}
