import { describe, expect, it } from "vitest";
import { hashPassword, verifyNothing, verifyPassword } from "./passwordHash";

describe("passwordHash (argon2id)", () => {
  it("stores a PHC string with OWASP's parameters and a fresh salt per hash", async () => {
    const a = await hashPassword("correct horse battery");
    const b = await hashPassword("correct horse battery");
    expect(a).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$[A-Za-z0-9+/]{22}\$[A-Za-z0-9+/]{43}$/);
    expect(a).not.toBe(b);
    expect(a).not.toContain("correct horse battery");
  });

  it("verifies the right password and refuses others", async () => {
    const stored = await hashPassword("correct horse battery");
    expect(await verifyPassword(stored, "correct horse battery")).toBe(true);
    expect(await verifyPassword(stored, "correct horse batterY")).toBe(false);
    expect(await verifyPassword(stored, "")).toBe(false);
  });

  it("answers false, without throwing, for a malformed stored hash", async () => {
    expect(await verifyPassword("not a hash", "x")).toBe(false);
    expect(await verifyPassword("", "x")).toBe(false);
  });

  it("verifyNothing is always false and costs a real verification (no shortcut for unknown emails)", async () => {
    const stored = await hashPassword("correct horse battery");
    const fastest = async (run: () => Promise<unknown>) => {
      let best = Infinity;
      for (let i = 0; i < 3; i++) {
        const t0 = performance.now();
        await run();
        best = Math.min(best, performance.now() - t0);
      }
      return best;
    };
    expect(await verifyNothing("correct horse battery")).toBe(false);
    const dummy = await fastest(() => verifyNothing("correct horse battery"));
    const real = await fastest(() => verifyPassword(stored, "wrong password here"));
    // Same parameters, same work; only a shortcut would make the dummy several times faster.
    expect(dummy).toBeGreaterThan(real / 3);
  });
});
