/**
 * `npm start` (scripts/server.mjs) refuses to start with an admin token under 32 characters:
 * exit 1 and the reason, before Next loads or any port is opened.
 */
import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";

describe("scripts/server.mjs", () => {
  it("refuses to start with a short SLUICE_ADMIN_TOKEN, saying why", () => {
    const run = spawnSync(process.execPath, ["scripts/server.mjs"], {
      env: { ...process.env, SLUICE_ADMIN_TOKEN: "too-short-token", PORT: "1" },
      encoding: "utf8",
      timeout: 60_000,
    });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain(
      "sluice: refusing to start: SLUICE_ADMIN_TOKEN must be at least 32 characters (it has 15)",
    );
    expect(run.stdout).not.toContain("listening");
  }, 90_000);
});
