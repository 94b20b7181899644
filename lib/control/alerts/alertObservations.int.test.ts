/**
 * What the alert evaluator reads, against the shared local Redis under its own prefix: decisions
 * recorded at known times (an injected clock) and flushed by the real recorder are read back as
 * the refusal totals of a range (per-second data for short ranges, per-minute data for long
 * ones) and as refusals per limited subject over some minutes.
 */
import { afterAll, describe, expect, it } from "vitest";
import { decisionOf } from "@/test/support/decisions";
import { monitoringTestBed, per, perRefused, req } from "@/test/support/monitoringTestBed";
import { DecisionRecorder } from "../../monitoring/record/decisionRecorder";
import { limitedMember } from "../../monitoring/record/limitedSubjects";
import { readObservations } from "./alertObservations";

const bed = monitoringTestBed("alertobs");
afterAll(() => bed.close());

const MIN = 60_000;
// A minute boundary 20 minutes ago, so every recorded time is well inside the data's retention.
const T0 = Math.floor(Date.now() / MIN) * MIN - 20 * MIN;

describe("readObservations", () => {
  const tenant = bed.newTenant();
  const deps = { redis: bed.redis, prefix: bed.prefix, timeoutMs: 2_000 };
  const setup = (async () => {
    const recorder = new DecisionRecorder({
      redis: bed.redis,
      prefix: bed.prefix,
      timeoutMs: 2_000,
      log: () => undefined,
    });
    // Minute 0, second 10: 3 admitted, 2 refused (one subject: key KeyAAAA1). Minute 2, second 30: 1 refused.
    for (let i = 0; i < 3; i++) recorder.recordRequest(req(tenant, "KeyAAAA1", decisionOf([per])), T0 + 10_000);
    for (let i = 0; i < 2; i++) recorder.recordRequest(req(tenant, "KeyAAAA1", decisionOf([perRefused])), T0 + 10_000);
    recorder.recordRequest(req(tenant, "KeyAAAA1", decisionOf([perRefused])), T0 + 2 * MIN + 30_000);
    expect(await recorder.flush()).toBe("written");
  })();

  it("short ranges count exactly from the per-second data, to the second", async () => {
    await setup;
    expect((await readObservations(deps, tenant, { refusalRange: { fromMs: T0, toMs: T0 + 5 * MIN } })).totals).toEqual(
      { allowed: 3, refused: 3 },
    );
    expect(
      (await readObservations(deps, tenant, { refusalRange: { fromMs: T0 + 11_000, toMs: T0 + 5 * MIN } })).totals,
    ).toEqual({ allowed: 0, refused: 1 });
    expect((await readObservations(deps, tenant, { refusalRange: { fromMs: T0, toMs: T0 + 10_000 } })).totals).toEqual({
      allowed: 0,
      refused: 0,
    });
  });

  it("long ranges read the per-minute data from the start's minute", async () => {
    await setup;
    expect(
      (await readObservations(deps, tenant, { refusalRange: { fromMs: T0 + 30_000, toMs: T0 + 30_000 + 10 * MIN } }))
        .totals,
    ).toEqual({ allowed: 3, refused: 3 });
    // A range from minute 1 on leaves minute 0 out.
    expect(
      (await readObservations(deps, tenant, { refusalRange: { fromMs: T0 + MIN + 5_000, toMs: T0 + 12 * MIN } }))
        .totals,
    ).toEqual({ allowed: 0, refused: 1 });
  });

  it("sums a subject's refusals over the minutes asked for", async () => {
    await setup;
    const member = limitedMember({ tenantId: tenant, ref: "1", scope: "key", value: "KeyAAAA1" });
    const minute0 = T0 / MIN;
    expect(
      (await readObservations(deps, tenant, { limitMinutes: [minute0, minute0 + 1, minute0 + 2] })).limitCounts,
    ).toEqual(new Map([[member, 3]]));
    expect((await readObservations(deps, tenant, { limitMinutes: [minute0 + 1, minute0 + 2] })).limitCounts).toEqual(
      new Map([[member, 1]]),
    );
    expect((await readObservations(deps, tenant, { limitMinutes: [minute0 + 5] })).limitCounts).toEqual(new Map());
  });
});
