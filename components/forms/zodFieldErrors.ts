/** A zod failure as one message per top-level field, the same shape ApiError.fieldErrors has. */
import type { z } from "zod";

export function zodFieldErrors(error: z.ZodError): Record<string, string> {
  const out: Record<string, string> = {};
  for (const issue of error.issues) {
    const path = issue.path.map(String).join(".");
    out[path] ??= issue.message;
  }
  return out;
}
