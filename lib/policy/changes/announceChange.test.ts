import { describe, expect, it } from "vitest";
import { AppError } from "../../http/errors";
import { problemFromError } from "../../http/problem";
import { announceChange } from "./announceChange";

function targets(reloadOutcomes: boolean[], published = true) {
  const calls: string[] = [];
  return {
    calls,
    targets: {
      refreshSeconds: 15,
      async reload(id: string) {
        calls.push(`reload:${id}`);
        if (!(reloadOutcomes.shift() ?? true)) throw new Error("rule store down (injected)");
      },
      async publish(id: string) {
        calls.push(`publish:${id}`);
        return published;
      },
    },
  };
}

describe("announceChange", () => {
  it("resolves once the reload here succeeded, then publishes", async () => {
    const { calls, targets: t } = targets([true]);
    expect(await announceChange(t, "T1")).toBe("everywhere");
    expect(calls).toEqual(["reload:T1", "publish:T1"]);
  });

  it("in force here but the notice could not be sent (Redis down): 'delayed', never 'everywhere'", async () => {
    const { calls, targets: t } = targets([true], false);
    expect(await announceChange(t, "T1")).toBe("delayed");
    expect(calls).toEqual(["reload:T1", "publish:T1"]);
  });

  it("retries a failed reload once; in force after the retry is in force", async () => {
    const { calls, targets: t } = targets([false, true]);
    await announceChange(t, "T1");
    expect(calls).toEqual(["reload:T1", "reload:T1", "publish:T1"]);
  });

  it("a reload that keeps failing is never swallowed: still published, then a 503 saying it is saved but not in force here", async () => {
    const { calls, targets: t } = targets([false, false]);
    const error = await announceChange(t, "T1", { id: "K1", key: "sluice_K1_secret" }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(calls).toEqual(["reload:T1", "reload:T1", "publish:T1"]);
    expect(error).toBeInstanceOf(AppError);
    const response = problemFromError(error);
    expect(response.status).toBe(503);
    expect(response.headers.get("retry-after")).toBe("15");
    const body = await response.json();
    expect(body.detail).toMatch(/saved but is not yet in force on this instance/);
    expect(body.saved).toBe(true);
    expect(body.resource).toEqual({ id: "K1", key: "sluice_K1_secret" });
  });
});
