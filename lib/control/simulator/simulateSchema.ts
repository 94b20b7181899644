/**
 * The body of POST /api/admin/tenants/{tenantId}/simulate, one schema for the route and the
 * dashboard's simulator form: the candidate rules (exactly the body of PUT .../rules, so the same
 * 422 messages under `rules.<i>.<field>`) and the range to replay, `fromMs` < `toMs`, at most 24 h.
 */
import { z } from "zod";
import { tenantRulesSchema } from "../admin/schemas";

/** The longest range one simulation replays (the trace keeps at most a day anyway). */
export const MAX_SIMULATION_RANGE_MS = 86_400_000;

const epochMs = (name: string) =>
  z
    .number({ error: `${name} must be a number (epoch milliseconds)` })
    .int(`${name} must be a whole number of milliseconds`)
    .min(0, `${name} must not be negative`)
    .max(8_640_000_000_000_000, `${name} is not a valid time`);

export const simulateSchema = z
  .object({
    rules: tenantRulesSchema,
    fromMs: epochMs("fromMs"),
    toMs: epochMs("toMs"),
  })
  .strict()
  .superRefine((body, ctx) => {
    if (body.toMs <= body.fromMs)
      ctx.addIssue({ code: "custom", path: ["toMs"], message: "toMs must be after fromMs" });
    else if (body.toMs - body.fromMs > MAX_SIMULATION_RANGE_MS)
      ctx.addIssue({ code: "custom", path: ["toMs"], message: "the range must be at most 24 hours" });
  });

export type SimulateInput = z.output<typeof simulateSchema>;
export type SimulateBody = z.input<typeof simulateSchema>;
