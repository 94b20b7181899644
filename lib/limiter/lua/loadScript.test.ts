import { mkdtempSync, writeFileSync, mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { decideScriptSha, decideScriptSource } from "../decideScript";
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
    expect(decideScriptSource()).not.toMatch(/--!include/);
    expect(decideScriptSource()).toMatch(/ALGORITHMS\["gc"\]/);
  });

  it("pins the decide script's SHA, so every edit of the Lua is deliberate (update the pin with it)", () => {
    expect(decideScriptSha()).toBe("c11dbd542814b194f943742032fd76994aeba077");
  });
});
