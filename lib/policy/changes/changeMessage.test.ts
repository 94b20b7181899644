import { describe, expect, it } from "vitest";
import { parseChangeMessage } from "./changeBus";

describe("change bus messages", () => {
  it("a tenant id is a change of that tenant; reset:<id> is a counter reset of it", () => {
    expect(parseChangeMessage("aB3dE5fG")).toEqual({ kind: "tenant", tenantId: "aB3dE5fG" });
    expect(parseChangeMessage("reset:aB3dE5fG")).toEqual({ kind: "reset", tenantId: "aB3dE5fG" });
  });
});
