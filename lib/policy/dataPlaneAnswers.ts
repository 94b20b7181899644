/**
 * The data plane's own answers (the decision service and the demo route), as zod schemas: the one
 * description of their shape, shared by the data plane that answers them (lib/dataplane) and the
 * OpenAPI document that renders them (lib/control/openapi/paths/dataPlane.ts), two peers that do
 * not import each other. The client package gets them through the generated document.
 */
import { z } from "zod";

/** POST /api/v1/check: the identifier verdict (lib/dataplane/admission/checkIdentifier.ts). */
export const checkAnswerSchema = z.object({
  allowed: z.boolean(),
  limit: z.number().int().meta({ description: "The rule's limit: units per window (per refill time for a bucket)." }),
  capacity: z.number().int().meta({
    description: "The most `remaining` can be: the bucket's `burst` for token_bucket and gcra, else `limit`.",
  }),
  windowMs: z.number().int().meta({
    description:
      "The rule's window in ms (for token_bucket and gcra the time in which `limit` refills): with `limit`, its `RateLimit-Policy` (`q`, `w`).",
  }),
  remaining: z.number().int(),
  resetMs: z.number().int().meta({ description: "Milliseconds until the rule is whole again." }),
  retryAfterMs: z
    .number()
    .int()
    .meta({ description: "0 when allowed; else milliseconds until a request of this cost would pass." }),
  rule: z.string(),
});
export type CheckAnswer = z.infer<typeof checkAnswerSchema>;

/** GET|POST|... /api/v1/echo: who the caller is (every caller under /api/v1 has a key). */
export const echoAnswerSchema = z.object({
  ok: z.literal(true),
  tenantId: z.string(),
  keyId: z
    .string()
    .nullable()
    .meta({ description: "The caller's key (null only for a caller without one, which /api/v1 never admits)." }),
  method: z.string(),
  path: z.string(),
});
export type EchoAnswer = z.infer<typeof echoAnswerSchema>;
