/**
 * RFC 9457 problem responses. Every error response of Sluice is made here, so every one is
 * `application/problem+json` and none carries a stack trace or an internal message.
 */
import { AppError, ERROR_STATUS, ERROR_TITLE, isDbUnavailable, type ErrorCode } from "./errors";
import { errorSummary } from "./redactSecrets";

export const PROBLEM_TYPE = "application/problem+json";

export interface ProblemFields {
  type?: string;
  title?: string;
  detail?: string;
  [extension: string]: unknown;
}

export function problemResponse(status: number, fields: ProblemFields, headers: Record<string, string> = {}): Response {
  const body = { type: fields.type ?? "about:blank", title: fields.title, status, ...fields };
  return new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": PROBLEM_TYPE, "cache-control": "no-store", ...headers },
  });
}

export function problemFor(code: ErrorCode, detail: string, extra: Omit<ProblemFields, "detail"> = {}, headers: Record<string, string> = {}): Response {
  return problemResponse(ERROR_STATUS[code], { title: ERROR_TITLE[code], detail, ...extra }, headers);
}

/**
 * Any thrown value as a problem response; unexpected errors are logged (name and message, with
 * secrets masked: a Prisma message renders the failed call's arguments), never shown.
 */
export function problemFromError(error: unknown): Response {
  if (error instanceof AppError) {
    return problemFor(error.code, error.message, error.extra.errors ? { errors: error.extra.errors } : {}, error.extra.headers);
  }
  if (isDbUnavailable(error)) {
    return problemFor("db_unavailable", "The rule store (Postgres) is unavailable. Try again shortly.", {}, { "retry-after": "5" });
  }
  console.error("sluice: unexpected error", errorSummary(error));
  return problemFor("internal", "An internal error occurred.");
}
