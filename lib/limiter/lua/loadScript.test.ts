import { mkdtempSync, writeFileSync, mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { decideScript } from "../decideScript";
import { giveBackScript } from "../giveBackScript";
import { loadScript } from "./loadScript";

describe("loadScript", () => {
  it("inlines includes once each, nested ones too", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "lua-"));
    mkdirSync(path.join(dir, "inc"));
    writeFileSync(path.join(dir, "inc", "a.lua"), "local a = 1\n--!include inc/b.lua");
    writeFileSync(path.join(dir, "inc", "b.lua"), "local b = 2");
    writeFileSync(path.join(dir, "main.lua"), "--!include inc/a.lua\n--!include inc/b.lua\nreturn a + b");
    expect(loadScript("main.lua", dir)).toBe("local a = 1\nlocal b = 2\n\nreturn a + b");
  });

  it("leaves no include directive in the decide script", () => {
    expect(decideScript.source()).not.toMatch(/--!include/);
    expect(decideScript.source()).toMatch(/ALGORITHMS\["gc"\]/);
  });

  it("pins the decide script's SHA, so every edit of the Lua is deliberate (update the pin with it)", () => {
    expect(decideScript.sha()).toBe("e272ea4d1c64b42418b7b06766f935463ed96b6a");
  });

  it("pins the give-back script's SHA (count by response), which shares the algorithms' state formats", () => {
    expect(giveBackScript.source()).not.toMatch(/--!include/);
    expect(giveBackScript.source()).toMatch(/GIVE_BACKS\["sw"\]/);
    expect(giveBackScript.sha()).toBe("40046e235bd0a94fa8882cc286f7d077e7ea107e");
  });
});
