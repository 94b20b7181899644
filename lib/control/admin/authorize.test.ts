import { describe, expect, it } from "vitest";
import { AppError } from "../../http/errors";
import type { Actor } from "../../policy/audit/auditLog";
import { BearerFailures } from "../auth/bearerFailures";
import { authorize } from "./authorize";

const TOKEN = "the-admin-token";
const req = (auth?: string) =>
  new Request("http://test.local/api/admin/tenants", { headers: auth ? { authorization: auth } : {} });
const viewer: Actor = { id: "operator:v@example.com", role: "viewer" };

async function statusOf(p: Promise<unknown>): Promise<number> {
  try {
    await p;
    return 200;
  } catch (error) {
    if (error instanceof AppError) return error.status;
    throw error;
  }
}

describe("authorize", () => {
  it.each([
    ["no credentials", undefined, "read", 401],
    ["a wrong token", "Bearer nope", "write", 401],
    ["a malformed Authorization header", "Basic abc", "read", 401],
    ["the admin token, reading", `Bearer ${TOKEN}`, "read", 200],
    ["the admin token, writing", `Bearer ${TOKEN}`, "write", 200],
  ] as const)("%s → %i", async (_, auth, access, status) => {
    expect(await statusOf(authorize(req(auth), access, { adminToken: TOKEN }))).toBe(status);
  });

  describe("scoped API tokens", () => {
    const minted = `sluice_tok_${"a".repeat(32)}`;
    const stored = { id: "tok1", name: "ci", role: "viewer" as const, tenantId: "tenantAA" };
    const findToken = async (presented: string) => (presented === minted ? stored : null);

    it("a stored token acts as token:<name> with its role and tenant limit, and its use is noted", async () => {
      const used: string[] = [];
      const actor = await authorize(req(`Bearer ${minted}`), "read", {
        adminToken: TOKEN,
        findToken,
        noteTokenUse: (id) => used.push(id),
      });
      expect(actor).toEqual({ id: "token:ci", role: "viewer", tenantId: "tenantAA" });
      expect(used).toEqual(["tok1"]);
    });

    it("a viewer token writing is 403; an unknown, revoked or expired token (not found) is 401", async () => {
      const noteTokenUse = () => undefined;
      expect(
        await statusOf(authorize(req(`Bearer ${minted}`), "write", { adminToken: TOKEN, findToken, noteTokenUse })),
      ).toBe(403);
      expect(
        await statusOf(
          authorize(req(`Bearer sluice_tok_${"b".repeat(32)}`), "read", { adminToken: TOKEN, findToken, noteTokenUse }),
        ),
      ).toBe(401);
    });

    it("a credential not shaped like a token is never looked up", async () => {
      let lookups = 0;
      const counting = async () => {
        lookups++;
        return null;
      };
      expect(
        await statusOf(authorize(req("Bearer sluice_abc"), "read", { adminToken: TOKEN, findToken: counting })),
      ).toBe(401);
      expect(lookups).toBe(0);
    });
  });

  it("refuses every token when none is configured", async () => {
    expect(await statusOf(authorize(req("Bearer anything"), "read", { adminToken: "" }))).toBe(401);
  });

  it("a viewer session reads (200) and may not write (403)", async () => {
    const session = async () => viewer;
    expect(await authorize(req(), "read", { adminToken: TOKEN, session })).toEqual(viewer);
    expect(await statusOf(authorize(req(), "write", { adminToken: TOKEN, session }))).toBe(403);
  });

  it("answers 429 to an address after its wrong tokens ran out, before comparing (the right token too); other addresses still get in", async () => {
    const failures = new BearerFailures(5);
    const from = (ip: string, auth: string) =>
      new Request("http://test.local/api/admin/tenants", { headers: { authorization: auth, "x-forwarded-for": ip } });
    for (let i = 0; i < 5; i++)
      expect(
        await statusOf(authorize(from("203.0.113.5", `Bearer guess-${i}`), "read", { adminToken: TOKEN, failures })),
      ).toBe(401);
    expect(
      await statusOf(authorize(from("203.0.113.5", "Bearer guess-5"), "read", { adminToken: TOKEN, failures })),
    ).toBe(429);
    expect(
      await statusOf(authorize(from("203.0.113.5", `Bearer ${TOKEN}`), "read", { adminToken: TOKEN, failures })),
    ).toBe(429);
    expect(
      await statusOf(authorize(from("203.0.113.6", `Bearer ${TOKEN}`), "read", { adminToken: TOKEN, failures })),
    ).toBe(200);
    // Sessions (no bearer) are not affected by the address's bearer failures.
    expect(
      await authorize(
        new Request("http://test.local/api/admin/tenants", { headers: { "x-forwarded-for": "203.0.113.5" } }),
        "read",
        { adminToken: TOKEN, failures, session: async () => viewer },
      ),
    ).toEqual(viewer);
  });
});
