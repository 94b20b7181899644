import { afterEach, describe, expect, it, vi } from "vitest";
import { apiSend, PROPAGATION_DELAYED_EVENT } from "./apiClient";

afterEach(() => {
  vi.unstubAllGlobals();
});

/** `fetch` answering `headers` with a JSON body, and a `window` that records the events dispatched on it. */
function stubbed(headers: Record<string, string>): Event[] {
  const events: Event[] = [];
  const target = new EventTarget();
  target.addEventListener(PROPAGATION_DELAYED_EVENT, (event) => events.push(event));
  vi.stubGlobal("window", target);
  vi.stubGlobal(
    "fetch",
    vi.fn(async () => Response.json([{ name: "r" }], { headers })),
  );
  return events;
}

describe("apiSend and a change's reach", () => {
  it("announces a change the other instances get late, with its bound in seconds", async () => {
    const events = stubbed({ "sluice-propagation": "delayed; within=15" });
    expect(await apiSend("PUT", "/api/admin/tenants/t/rules", [])).toEqual([{ name: "r" }]);
    expect(events.map((e) => (e as CustomEvent<number>).detail)).toEqual([15]);
  });

  it("announces nothing for a change that reached every instance", async () => {
    const events = stubbed({});
    await apiSend("PUT", "/api/admin/tenants/t/rules", []);
    expect(events).toEqual([]);
  });
});
