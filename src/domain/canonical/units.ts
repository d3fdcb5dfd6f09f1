// Units that convert exactly: each maps to the smallest unit of its dimension
// by an integer factor, so conversion is a bigint multiplication.
// Units not listed here compare as written.

export type Dimension = 'time' | 'length' | 'mass' | 'data';

export interface UnitConversion {
  readonly dimension: Dimension;
  /** The base unit the amount is expressed in after conversion. */
  readonly base: string;
  readonly factor: bigint;
}

type UnitTable = Record<Dimension, { base: string; units: ReadonlyArray<readonly [bigint, readonly string[]]> }>;

const TABLE: UnitTable = {
  time: {
    base: 'ms',
    units: [
      [1n, ['ms', 'millisecond', 'milliseconds']],
      [1_000n, ['s', 'sec', 'secs', 'second', 'seconds']],
      [60_000n, ['min', 'mins', 'minute', 'minutes']],
      [3_600_000n, ['h', 'hr', 'hrs', 'hour', 'hours']],
      [86_400_000n, ['d', 'day', 'days']],
      [604_800_000n, ['w', 'wk', 'week', 'weeks']],
    ],
  },
  length: {
    base: 'mm',
    units: [
      [1n, ['mm', 'millimetre', 'millimetres', 'millimeter', 'millimeters']],
      [10n, ['cm', 'centimetre', 'centimetres', 'centimeter', 'centimeters']],
      [1_000n, ['m', 'metre', 'metres', 'meter', 'meters']],
      [1_000_000n, ['km', 'kilometre', 'kilometres', 'kilometer', 'kilometers']],
    ],
  },
  mass: {
    base: 'mg',
    units: [
      [1n, ['mg', 'milligram', 'milligrams']],
      [1_000n, ['g', 'gram', 'grams']],
      [1_000_000n, ['kg', 'kilogram', 'kilograms']],
      [1_000_000_000n, ['t', 'tonne', 'tonnes']],
    ],
  },
  data: {
    base: 'B',
    units: [
      [1n, ['B', 'byte', 'bytes']],
      [10n ** 3n, ['KB', 'kB']],
      [10n ** 6n, ['MB']],
      [10n ** 9n, ['GB']],
      [10n ** 12n, ['TB']],
      [10n ** 15n, ['PB']],
      [2n ** 10n, ['KiB']],
      [2n ** 20n, ['MiB']],
      [2n ** 30n, ['GiB']],
      [2n ** 40n, ['TiB']],
      [2n ** 50n, ['PiB']],
    ],
  },
};

const CONVERSIONS: ReadonlyMap<string, UnitConversion> = new Map(
  (Object.entries(TABLE) as Array<[Dimension, UnitTable[Dimension]]>).flatMap(([dimension, { base, units }]) =>
    units.flatMap(([factor, names]) => names.map((name) => [name, { dimension, base, factor }] as const)),
  ),
);

/** The exact conversion of a unit to its dimension's base unit, if the unit is known (case-sensitive: `m` is metre, `min` minute). */
export function unitConversion(unit: string): UnitConversion | undefined {
  return CONVERSIONS.get(unit);
}
