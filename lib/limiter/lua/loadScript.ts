/**
 * Assembles a Lua script from its `.lua` file, replacing each `--!include <path>` line with that
 * file's text (paths relative to this folder; each file included once, nested includes allowed).
 *
 * Files are read from `<cwd>/lib/limiter/lua` (the repo in `next start`, tests and scripts; traced
 * into builds by `outputFileTracingIncludes`). Throws when a file is missing: that is a broken deploy,
 * not a runtime condition to paper over.
 */
import { readFileSync } from "node:fs";
import path from "node:path";

const INCLUDE = /^--!include\s+(\S+)\s*$/;

export function luaDir(): string {
  return process.env.SLUICE_LUA_DIR || path.join(process.cwd(), "lib", "limiter", "lua");
}

export function loadScript(name: string, dir: string = luaDir()): string {
  const seen = new Set<string>();
  const expand = (file: string): string => {
    if (seen.has(file)) return "";
    seen.add(file);
    // The .lua files reach the build through next.config.js outputFileTracingIncludes; without
    // this hint Turbopack would trace the whole project for a dynamic path.
    const text = readFileSync(path.join(/*turbopackIgnore: true*/ dir, file), "utf8");
    return text
      .split("\n")
      .map((line) => {
        const match = INCLUDE.exec(line);
        return match ? expand(match[1]!) : line;
      })
      .join("\n");
  };
  return expand(name);
}
