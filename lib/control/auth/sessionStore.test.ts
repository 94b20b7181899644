/**
 * findSession when the operator disappears between Prisma's two reads (the session, then its
 * operator): the relation comes back null although its type says otherwise. That session is gone
 * with its operator (ON DELETE CASCADE), so it is no session (401), never a TypeError (500).
 */
import { describe, expect, it, vi } from "vitest";
import { mintSessionToken } from "./sessionToken";

const findUnique = vi.fn();
vi.mock("../../db/client", () => ({
  getDb: () => ({
    session: {
      findUnique,
      updateMany: vi.fn(async () => ({ count: 1 })),
      deleteMany: vi.fn(async () => ({ count: 0 })),
    },
  }),
}));

const { findSession } = await import("./sessionStore");

describe("findSession", () => {
  const now = new Date("2026-11-25T04:00:00Z");
  const row = { id: "s1", operatorId: "o1", expiresAt: new Date(now.getTime() + 3_600_000), lastSeenAt: now };

  it("returns the operator's session while both exist", async () => {
    findUnique.mockResolvedValueOnce({
      ...row,
      operator: { email: "ops@example.com", role: "viewer", tenantIds: ["t1"] },
    });
    expect(await findSession(mintSessionToken().token, now)).toEqual({
      sessionId: "s1",
      operatorId: "o1",
      email: "ops@example.com",
      role: "viewer",
      tenantIds: ["t1"],
      expiresAt: row.expiresAt,
    });
  });

  it("returns null when the operator was deleted between the two reads", async () => {
    findUnique.mockResolvedValueOnce({ ...row, operator: null });
    expect(await findSession(mintSessionToken().token, now)).toBeNull();
  });
});
