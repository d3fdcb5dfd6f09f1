// The column conventions every read model's typed tables share: instants are
// timestamptz (written as ISO text, millisecond precision, read back as
// Date); positions of the global log are two bigint columns (commit,
// prepare), read back as decimal strings; structured values are jsonb.
import type { ColumnType } from 'kysely';

export type Instant = ColumnType<Date, string, string>;
export type NullableInstant = ColumnType<Date | null, string | null, string | null>;
/** int8: pg returns decimal strings. */
export type Int8 = ColumnType<string, string | bigint, string | bigint>;
export type NullableInt8 = ColumnType<string | null, string | bigint | null, string | bigint | null>;
/** jsonb written as JSON text (so arrays are not taken for PostgreSQL arrays). */
export type Json<T> = ColumnType<T, string, string>;
export type NullableJson<T> = ColumnType<T | null, string | null, string | null>;
