/** Path parameters of admin routes: a value that cannot be an id names nothing (404). */
import { AppError } from "../http/errors";
import { isId } from "../ids";
import { AUDIT_ID_PATTERN } from "./schemas";

export function tenantIdParam(value: string): string {
  if (!isId(value)) throw new AppError("not_found", `No tenant with id ${JSON.stringify(value)}.`);
  return value;
}

export function keyIdParam(value: string): string {
  if (!isId(value)) throw new AppError("not_found", `No API key with id ${JSON.stringify(value)}.`);
  return value;
}

/** Operator ids are cuids (lower-case letters and digits). */
export function operatorIdParam(value: string): string {
  if (!/^[a-z0-9]{1,64}$/.test(value)) throw new AppError("not_found", `No operator with id ${JSON.stringify(value)}.`);
  return value;
}

export function auditIdParam(value: string): string {
  if (!AUDIT_ID_PATTERN.test(value)) throw new AppError("not_found", `No audit event with id ${JSON.stringify(value)}.`);
  return value;
}
