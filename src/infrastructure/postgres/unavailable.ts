// Is this error the database being out of reach (down, restarting, refusing
// connections), rather than anything about the request? Such errors answer
// 503 with Retry-After over HTTP: the request may simply be sent again.
// Only the error itself is judged (pg and kysely hand connection errors up
// unwrapped), not its causes: a model endpoint's fetch failing with
// ECONNREFUSED is not the database.
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN']);
/** SQLSTATEs of a server shutting down, crashed, starting or full. Class 08 is "connection exception". */
const SERVER_STATES = new Set(['57P01', '57P02', '57P03', '53300']);
/** pg's own messages for a connection that broke or never came up. */
const DRIVER_MESSAGES =
  /Connection terminated|connection error and is not queryable|timeout exceeded when trying to connect|Client was closed/i;

export function isDatabaseUnavailable(error: unknown, depth = 0): boolean {
  if (!(error instanceof Error) || depth > 5) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && (NETWORK_CODES.has(code) || SERVER_STATES.has(code) || /^08[0-9A-Z]{3}$/.test(code))) return true;
  // A Unix-domain socket that is not there: the server is down (it removes its socket file as it stops).
  if (code === 'ENOENT' && (error as { syscall?: unknown }).syscall === 'connect') return true;
  if (DRIVER_MESSAGES.test(error.message)) return true;
  // net's connect to every address of a host (localhost: ::1 and 127.0.0.1) fails as one AggregateError.
  return error instanceof AggregateError && error.errors.some((inner) => isDatabaseUnavailable(inner, depth + 1));
}
