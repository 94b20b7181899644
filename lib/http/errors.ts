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
  /** `If-Match` names a state that is no longer current (a policy document's ETag). */
  precondition_failed: 412,
  payload_too_large: 413,
  invalid: 422,
  rate_limited: 429,
  internal: 500,
  /** The gateway could not reach the tenant's upstream (lib/dataplane/gateway/forwardToUpstream.ts). */
  upstream_unreachable: 502,
  db_unavailable: 503,
  limiter_unavailable: 503,
  /** A tenant's JWKS was never fetched and cannot be now: its JWTs cannot be judged (lib/policy/identity/jwksSource.ts). */
  jwks_unavailable: 503,
  /** This instance already runs as many rule simulations as it allows at once. */
  simulator_busy: 503,
  /** Saved, but this instance could not reload it yet (lib/policy/changes/announceChange.ts). */
  change_not_in_force: 503,
  /** The tenant's upstream did not answer within its timeoutMs. */
  upstream_timeout: 504,
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
  precondition_failed: "Precondition Failed",
  payload_too_large: "Payload Too Large",
  invalid: "Unprocessable Content",
  rate_limited: "Too Many Requests",
  internal: "Internal Server Error",
  upstream_unreachable: "Bad Gateway",
  db_unavailable: "Service Unavailable",
  limiter_unavailable: "Service Unavailable",
  jwks_unavailable: "Service Unavailable",
  simulator_busy: "Service Unavailable",
  change_not_in_force: "Service Unavailable",
  upstream_timeout: "Gateway Timeout",
};

/** Per-field messages of a 422: path (e.g. `rules.0.limit`) → messages. */
export type FieldErrors = Record<string, string[]>;

/** Marks an AppError whichever bundle's copy of this class made it (see `Symbol.hasInstance` below). */
const APP_ERROR = Symbol.for("sluice.AppError");

export class AppError extends Error {
  /**
   * `instanceof AppError` holds for an AppError of any copy of this module: Next's bundles and
   * the data plane's (lib/dataplane) each carry one, and share the process's services, so an
   * error thrown by one copy's code may be caught by another's.
   */
  static [Symbol.hasInstance](value: unknown): boolean {
    return typeof value === "object" && value !== null && (value as Record<symbol, unknown>)[APP_ERROR] === true;
  }

  readonly [APP_ERROR] = true;

  constructor(
    readonly code: ErrorCode,
    message: string,
    /** `members`: extension members of the problem body (e.g. what was saved despite the error). */
    readonly extra: { errors?: FieldErrors; headers?: Record<string, string>; members?: Record<string, unknown> } = {},
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
/**
 * True for the limiter's "Redis did not answer in time / is down" error (lib/limiter/types.ts),
 * recognised by name so this table needs no import from the limiter and any bundle's copy counts.
 * An admin or login call that needs Redis and meets it answers 503 with Retry-After, never 500.
 */
export function isLimiterUnavailable(error: unknown): boolean {
  return error instanceof Error && error.name === "LimiterUnavailableError";
}

export function isDbUnavailable(error: unknown): boolean {
  const seen = new Set<unknown>();
  let current: unknown = error;
  while (current && typeof current === "object" && !seen.has(current)) {
    seen.add(current);
    const e = current as { code?: unknown; message?: unknown; cause?: unknown; name?: unknown };
    if (
      typeof e.code === "string" &&
      /^(ECONNREFUSED|ECONNRESET|ETIMEDOUT|EPIPE|ENOTFOUND|57P0[123]|08\w{3}|P1001|P1002|P1017)$/.test(e.code)
    )
      return true;
    if (
      typeof e.message === "string" &&
      /ECONNREFUSED|Connection terminated|connection timeout|timeout exceeded when trying to connect|Can't reach database|terminating connection/i.test(
        e.message,
      )
    )
      return true;
    if (e.name === "DriverAdapterError" && typeof e.cause === "object" && e.cause && "kind" in e.cause) {
      const kind = String((e.cause as { kind: unknown }).kind);
      if (/DatabaseNotReachable|ConnectionClosed|SocketTimeout|TooManyConnections/.test(kind)) return true;
    }
    current = e.cause;
  }
  return false;
}
