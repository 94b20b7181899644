/**
 * RFC 9457 problem responses. Every error response of Sluice is made here, so every one is
 * `application/problem+json` and none carries a stack trace or an internal message.
 */
import { AppError, ERROR_STATUS, ERROR_TITLE, isDbUnavailable, isLimiterUnavailable, type ErrorCode } from "./errors";
import { errorSummary } from "./redactSecrets";
import { toResponse, type Reply } from "./reply";

export const PROBLEM_TYPE = "application/problem+json";

export interface ProblemFields {
  type?: string;
  title?: string;
  detail?: string;
  [extension: string]: unknown;
}

export function problemReply(status: number, fields: ProblemFields, headers: Record<string, string> = {}): Reply {
  const body = { type: fields.type ?? "about:blank", title: fields.title, status, ...fields };
  return {
    status,
    headers: { "content-type": PROBLEM_TYPE, "cache-control": "no-store", ...headers },
    body: JSON.stringify(body),
  };
}

export function problemResponse(status: number, fields: ProblemFields, headers: Record<string, string> = {}): Response {
  return toResponse(problemReply(status, fields, headers));
}

export function problemReplyFor(
  code: ErrorCode,
  detail: string,
  extra: Omit<ProblemFields, "detail"> = {},
  headers: Record<string, string> = {},
): Reply {
  return problemReply(ERROR_STATUS[code], { title: ERROR_TITLE[code], detail, ...extra }, headers);
}

export function problemFor(
  code: ErrorCode,
  detail: string,
  extra: Omit<ProblemFields, "detail"> = {},
  headers: Record<string, string> = {},
): Response {
  return toResponse(problemReplyFor(code, detail, extra, headers));
}

/**
 * Any thrown value as a problem response; unexpected errors are logged (name and message, with
 * secrets masked: a Prisma message renders the failed call's arguments), never shown.
 */
export function problemReplyFromError(error: unknown): Reply {
  if (error instanceof AppError) {
    return problemReplyFor(
      error.code,
      error.message,
      { ...error.extra.members, ...(error.extra.errors ? { errors: error.extra.errors } : {}) },
      error.extra.headers,
    );
  }
  if (isDbUnavailable(error)) {
    return problemReplyFor(
      "db_unavailable",
      "The rule store (Postgres) is unavailable. Try again shortly.",
      {},
      { "retry-after": "5" },
    );
  }
  if (isLimiterUnavailable(error)) {
    return problemReplyFor(
      "limiter_unavailable",
      "Redis did not answer in time. Try again shortly.",
      {},
      { "retry-after": "1" },
    );
  }
  console.error("sluice: unexpected error", errorSummary(error));
  return problemReplyFor("internal", "An internal error occurred.");
}

export function problemFromError(error: unknown): Response {
  return toResponse(problemReplyFromError(error));
}
