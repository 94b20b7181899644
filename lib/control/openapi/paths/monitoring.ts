/** Live monitoring and the rule simulator: /api/admin/monitoring/..., /api/admin/tenants/{tenantId}/simulate */
import { z } from "zod";
import type { ZodOpenApiPathsObject } from "zod-openapi";
import {
  callerHistoryParamsSchema,
  limitedParamsSchema,
  listParamsSchema,
  seriesParamsSchema,
  trafficParamsSchema,
} from "../../../monitoring/query/monitoringParams";
import {
  callerHistorySchema,
  hotDescriptorsSchema,
  hotKeysSchema,
  limitedNowSchema,
  nearLimitSchema,
  refusalRatesSchema,
  trafficSeriesSchema,
  upstreamHealthSchema,
} from "../../../monitoring/query/monitoringAnswers";
import { simulateSchema } from "../../simulator/simulateSchema";
import { simulationResultSchema } from "../../simulator/simulationResult";
import { adminOperation, errors, jsonAnswer, jsonBody, tenantIdPath } from "../common";

const WINDOW =
  "Window: `range=1m|5m|15m|1h|6h|24h` ending at `to` (default now), or `from` with an optional `to` (epoch ms); none means the last 5 minutes. Unknown or repeated parameters are a 422.";

const monitoring = (id: string, summary: string, query: z.ZodObject, schema: z.ZodObject, answer: string) =>
  adminOperation("read", {
    operationId: id,
    tags: ["Monitoring"],
    summary,
    description: WINDOW,
    requestParams: { query },
    responses: {
      "200": jsonAnswer(answer, schema.meta({ description: answer })),
      ...errors("invalid", "not_found", "limiter_unavailable"),
    },
  });

export const monitoringPaths: ZodOpenApiPathsObject = {
  "/api/admin/monitoring/traffic": {
    get: monitoring(
      "getTraffic",
      "Allowed, refused and would-refuse requests over time",
      trafficParamsSchema,
      trafficSeriesSchema,
      "A series of allowed / refused / shadow-refused counts per step, overall or of one tenant or rule.",
    ),
  },
  "/api/admin/monitoring/refusal-rate": {
    get: monitoring(
      "getRefusalRate",
      "Refusal rate over time, with the top tenants and rules",
      seriesParamsSchema,
      refusalRatesSchema,
      "Refusal-rate series, overall and per top tenant and rule.",
    ),
  },
  "/api/admin/monitoring/hot-keys": {
    get: monitoring(
      "getHotKeys",
      "The callers with the most requests",
      listParamsSchema,
      hotKeysSchema,
      "The busiest callers in the window: API keys, JWT subjects and anonymous addresses on tenant hosts, each with its `kind` (`key`, `jwt`, `anonymous`).",
    ),
  },
  "/api/admin/monitoring/hot-descriptors": {
    get: monitoring(
      "getHotDescriptors",
      "The Envoy descriptor values with the most calls",
      listParamsSchema,
      hotDescriptorsSchema,
      "The descriptor subjects of Envoy's rate limit calls with the most calls in the window: per rule, the values it counts by, calls and calls refused.",
    ),
  },
  "/api/admin/monitoring/upstream": {
    get: monitoring(
      "getUpstreamHealth",
      "A tenant's upstream health (tenantId required)",
      listParamsSchema,
      upstreamHealthSchema,
      "The answers the tenant's clients got through the gateway: `byStatus` (2xx, 3xx, 4xx, 5xx, and 502 unreachable / 504 timed out apart), `answers`, and `latency` p50/p90/p99 to the answer's status (upper bounds of histogram buckets, ms; null past `slowerThanMs`).",
    ),
  },
  "/api/admin/monitoring/caller": {
    get: monitoring(
      "getCallerHistory",
      "One caller's requests and refusals over time, by rule (tenantId and caller required)",
      callerHistoryParamsSchema,
      callerHistorySchema,
      "`caller` is a key id, `~<JWT subject id>` or `@<address>` as the hot callers name it. `points`: per minute (per hour past 1 h) the caller's `requests`, `refused` and `byRule` (refusals per rule ref; a request refused by two rules counts under each); `rules` names every rule that refused it, most first; `current` is the last complete minute.",
    ),
  },
  "/api/admin/monitoring/near-limit": {
    get: monitoring(
      "getNearLimit",
      "Clients closest to their limits",
      listParamsSchema,
      nearLimitSchema,
      "Clients that came closest to a limit in the window.",
    ),
  },
  "/api/admin/monitoring/limited": {
    get: adminOperation("read", {
      operationId: "getLimitedNow",
      tags: ["Monitoring"],
      summary: "Who an enforce rule refused in the last minute, with their live quota",
      requestParams: { query: limitedParamsSchema },
      responses: {
        "200": jsonAnswer(
          "Clients refused in the last minute.",
          limitedNowSchema.meta({
            description: "Clients refused in the last minute, per rule, with their remaining quota now.",
          }),
        ),
        ...errors("invalid", "limiter_unavailable"),
      },
    }),
  },
  "/api/admin/tenants/{tenantId}/simulate": {
    post: adminOperation("read", {
      operationId: "simulateRules",
      tags: ["Simulator"],
      summary: "Replay recorded traffic through the current and candidate rules",
      description: "A viewer may run it (it changes nothing); a session call must be same-origin.",
      requestParams: { path: tenantIdPath },
      requestBody: jsonBody(simulateSchema),
      responses: {
        "200": jsonAnswer(
          "Allowed and refused per minute, clients affected and clients newly refused, current beside candidate.",
          simulationResultSchema.meta({
            description:
              "The simulation report. Concurrency rules (the trace holds no request durations), header/query rules (it holds no request headers or query strings) and rules counted by response (chargeOn: it holds no response statuses) are not replayed: `notSimulated` names them, each with its reason.",
          }),
        ),
        ...errors("not_found", "invalid", "limiter_unavailable"),
      },
    }),
  },
};
