/**
 * Free text from outside (names, emails, path globs, identifiers) must be text Postgres and
 * Redis store as it was given. Postgres refuses NUL in a text value, and an unpaired UTF-16
 * surrogate cannot be encoded as UTF-8 at all (Prisma fails on it; ioredis writes U+FFFD, so two
 * different identifiers would share one counter): sent through, both were 500s. Other control
 * characters (C0, DEL, C1) are stored but have no place in a one-line value and hide in displays.
 *
 * `plainText(schema, field)` adds that one check to a string schema, refusing with a 422 message
 * naming the field and the first offending character (`name must not contain control
 * characters (U+0000 at position 3)`). Every free-text schema field uses it.
 */
import type { z } from "zod";

// C0 controls, DEL and C1 controls.
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

const codePoint = (ch: string): string => `U+${ch.charCodeAt(0).toString(16).toUpperCase().padStart(4, "0")}`;

export interface PlainTextOptions {
  /**
   * Let control characters through (only well-formed Unicode is required): for values that
   * never reach Postgres nor a display line, where the contract promises any string (the
   * check API's `identifier`, a Redis key part that is binary safe).
   */
  allowControls?: boolean;
}

/** Why `text` is not plain text, or null when it is. */
export function plainTextProblem(text: string, options: PlainTextOptions = {}): string | null {
  const control = options.allowControls ? null : CONTROL.exec(text);
  const lone = LONE_SURROGATE.exec(text);
  if (control && (!lone || control.index < lone.index))
    return `must not contain control characters (${codePoint(control[0])} at position ${control.index})`;
  if (lone)
    return `must not contain an unpaired surrogate (${codePoint(lone[0])} at position ${lone.index}); send well-formed Unicode`;
  return null;
}

export function plainText<S extends z.ZodString>(schema: S, field: string, options: PlainTextOptions = {}): S {
  return schema.check((ctx) => {
    const problem = plainTextProblem(ctx.value, options);
    if (problem) ctx.issues.push({ code: "custom", message: `${field} ${problem}`, input: ctx.value });
  });
}
