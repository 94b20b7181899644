/**
 * The error of a Redis call that could not be answered in time or at all: raised by the deadline
 * (lib/redis/deadline.ts), handed on by the limiter as its own (lib/limiter/types.ts re-exports it),
 * and turned into a fail-open/fail-closed decision or a 503 above. It lives here, under the
 * limiter, so Redis never imports upward.
 */
/**
 * Why Redis could not answer: `timeout` (the deadline ran out with this process's timers on time:
 * Redis was late), `timeout_after_lag` (the deadline was extended for event-loop lag and Redis was
 * still late), `down` (the connection is known to be down), `error` (Redis answered with an error,
 * or a malformed reply).
 */
export type UnavailableKind = "timeout" | "timeout_after_lag" | "down" | "error";

export class LimiterUnavailableError extends Error {
  readonly kind: UnavailableKind;

  constructor(message: string, options?: { cause?: unknown; kind?: UnavailableKind }) {
    super(message, options);
    this.name = "LimiterUnavailableError";
    this.kind = options?.kind ?? "error";
  }
}
