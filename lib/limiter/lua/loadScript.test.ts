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
    expect(decideScript.sha()).toBe("6a97d612813eb81ab840617d002e237f8a7f1712");
  });

  it("pins the give-back script's SHA (count by response), which shares the algorithms' state formats", () => {
    expect(giveBackScript.source()).not.toMatch(/--!include/);
    expect(giveBackScript.source()).toMatch(/GIVE_BACKS\["sw"\]/);
    expect(giveBackScript.sha()).toBe("d5f39a5e584473ab192606c42e987b1d0e1a2adf");
  });
});
