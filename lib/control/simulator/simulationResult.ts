/**
 * The answer of POST /api/admin/tenants/{tenantId}/simulate, as a zod schema: the one description
 * of its shape (fixed: the dashboard is built on it; see ../shared/CONTRACT.md and docs/simulator.md).
 * The simulator returns its inferred type, the OpenAPI document renders it, the dashboard imports the type.
 */
import { z } from "zod";

const count = z.number().int();

export const minuteFiguresSchema = z.object({
  minuteMs: z.number().int().meta({ description: "Epoch ms of the minute's start." }),
  allowed: count,
  refused: count,
});
export type MinuteFigures = z.infer<typeof minuteFiguresSchema>;

export const sideFiguresSchema = z.object({
  allowed: count,
  refused: count,
  clientsAffected: count.meta({ description: "Distinct clients with at least one refused request." }),
  perMinute: z.array(minuteFiguresSchema).meta({ description: "Every minute of the range, zeros included." }),
});
export type SideFigures = z.infer<typeof sideFiguresSchema>;

/** A client the candidate refuses more often than the current rules do. */
export const newlyRefusedClientSchema = z.object({
  keyId: z.string().nullable(),
  keyName: z.string().nullable(),
  clientIp: z.string().nullable().meta({
    description: "The client's IP when it is known by its IP only (requests without an API key), else null.",
  }),
  requests: count,
  currentRefused: count,
  candidateRefused: count,
});
export type NewlyRefusedClient = z.infer<typeof newlyRefusedClientSchema>;

export const simulationResultSchema = z.object({
  tenantId: z.string(),
  fromMs: z.number().int().meta({
    description: "The range actually replayed (after clipping to what is recorded, and to the replay cap).",
  }),
  toMs: z.number().int(),
  recordedFromMs: z
    .number()
    .int()
    .nullable()
    .meta({ description: "Oldest recorded request still kept for the tenant; null when nothing is recorded." }),
  requests: count,
  truncated: z
    .boolean()
    .meta({ description: "The range held more requests than the replay cap; only the first ones were replayed." }),
  notSimulated: z.array(z.object({ rule: z.string(), reason: z.string() })).meta({
    description:
      "Rules (current or candidate) left out of both replays: concurrency rules (slots depend on request durations), header/query rules (request attributes) and rules counted by response (chargeOn); the trace records none of these.",
  }),
  current: sideFiguresSchema,
  candidate: sideFiguresSchema,
  newlyRefused: z.array(newlyRefusedClientSchema),
});
export type SimulationResult = z.infer<typeof simulationResultSchema>;
