/**
 * The one error-code → HTTP status table, and the error type domain code throws.
 *
 * Domain modules throw `AppError` with a code; route glue turns any thrown value into a problem
 * response with `problemFromError` (lib/http/problem.ts). Anything that is not an AppError is an
 * internal error: logged, answered 500 without internals (or 503 when the database is down).
 */

export const ERROR_STATUS = {
  bad_request: 400,
  unauthorized: 401,
  forbidden: 403,
  /** A cookie-authenticated change (or a login) from another origin: the CSRF defence. */
  csrf: 403,
  not_found: 404,
  method_not_allowed: 405,
  conflict: 409,
  payload_too_large: 413,
  invalid: 422,
  rate_limited: 429,
  internal: 500,
  db_unavailable: 503,
  limiter_unavailable: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

export const ERROR_TITLE: Record<ErrorCode, string> = {
  bad_request: "Bad Request",
  unauthorized: "Unauthorized",
  forbidden: "Forbidden",
  csrf: "Forbidden",
  not_found: "Not Found",
  method_not_allowed: "Method Not Allowed",
  conflict: "Conflict",
  payload_too_large: "Payload Too Large",
  invalid: "Unprocessable Content",
  rate_limited: "Too Many Requests",
  internal: "Internal Server Error",
  db_unavailable: "Service Unavailable",
  limiter_unavailable: "Service Unavailable",
};

/** Per-field messages of a 422: path (e.g. `rules.0.limit`) → messages. */
export type FieldErrors = Record<string, string[]>;

export class AppError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly extra: { errors?: FieldErrors; headers?: Record<string, string> } = {},
  ) {
    super(message);
    this.name = "AppError";
  }

  get status(): number {
    return ERROR_STATUS[this.code];
  }
}

/**
 * Whether an error means Postgres could not be reached (connection refused, reset, timed out),
 * as raised by pg through Prisma's driver adapter.
 */
export function isDbUnavailable(error: unknown): boolean {
  const seen = new Set<unknown>();
  let current: unknown = error;
  while (current && typeof current === "object" && !seen.has(current)) {
    seen.add(current);
    const e = current as { code?: unknown; message?: unknown; cause?: unknown; name?: unknown };
    if (typeof e.code === "string" && /^(ECONNREFUSED|ECONNRESET|ETIMEDOUT|EPIPE|ENOTFOUND|57P0[123]|08\w{3}|P1001|P1002|P1017)$/.test(e.code)) return true;
    if (typeof e.message === "string" && /ECONNREFUSED|Connection terminated|connection timeout|timeout exceeded when trying to connect|Can't reach database|terminating connection/i.test(e.message)) return true;
    if (e.name === "DriverAdapterError" && typeof e.cause === "object" && e.cause && "kind" in e.cause) {
      const kind = String((e.cause as { kind: unknown }).kind);
      if (/DatabaseNotReachable|ConnectionClosed|SocketTimeout|TooManyConnections/.test(kind)) return true;
    }
    current = e.cause;
  }
  return false;
}
