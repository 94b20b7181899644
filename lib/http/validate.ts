/**
 * Parses input with a zod schema; a failure becomes a 422 AppError with per-field messages keyed
 * by the field's path (`name`, `rules.0.limit`, `""` for the body as a whole).
 */
import type { z } from "zod";
import { AppError, type FieldErrors } from "./errors";

export function fieldErrors(error: z.ZodError, base: string[] = []): FieldErrors {
  const out: FieldErrors = {};
  for (const issue of error.issues) {
    const path = [...base, ...issue.path.map(String)].join(".");
    (out[path] ??= []).push(issue.message);
  }
  return out;
}

export function parseInput<S extends z.ZodType>(schema: S, input: unknown, base: string[] = []): z.output<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const errors = fieldErrors(result.error, base);
  const first = Object.entries(errors)[0];
  const summary = first ? `${first[0] || "body"}: ${first[1][0]}` : "invalid input";
  throw new AppError("invalid", `The input is invalid (${summary}).`, { errors });
}
