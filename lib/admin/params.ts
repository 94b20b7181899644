/**
 * Path parameters of admin routes: a value that cannot be an id names nothing (404). The answer
 * quotes the value with secrets masked: a full API key pasted where its id belongs is not echoed.
 */
import { AppError } from "../http/errors";
import { redactSecrets } from "../http/redactSecrets";
import { isId } from "../ids";
import { AUDIT_ID_PATTERN } from "./schemas";

const quoted = (value: string): string => JSON.stringify(redactSecrets(value));

export function tenantIdParam(value: string): string {
  if (!isId(value)) throw new AppError("not_found", `No tenant with id ${quoted(value)}.`);
  return value;
}

export function keyIdParam(value: string): string {
  if (!isId(value)) throw new AppError("not_found", `No API key with id ${quoted(value)}.`);
  return value;
}

/** Operator ids are cuids (lower-case letters and digits). */
export function operatorIdParam(value: string): string {
  if (!/^[a-z0-9]{1,64}$/.test(value)) throw new AppError("not_found", `No operator with id ${quoted(value)}.`);
  return value;
}

export function auditIdParam(value: string): string {
  if (!AUDIT_ID_PATTERN.test(value)) throw new AppError("not_found", `No audit event with id ${quoted(value)}.`);
  return value;
}
