/**
 * How another app installs the client: `npm pack` of packages/client (built first by
 * `npm run client:build`, as .ci/run does) gives a versioned tarball with the compiled code, its
 * types and README and no tests; installed into a fresh temp project next to its dependencies
 * (packed from this repository's node_modules, so nothing is fetched: `npm install --offline`), it
 * imports by its package name under Node and type-checks under `moduleResolution: NodeNext`.
 * The temp directory is removed at the end.
 */
import { execFile } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const run = promisify(execFile);
const PACKAGE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const ROOT = path.resolve(PACKAGE, "../..");
const DEPENDENCIES = ["openapi-fetch", "openapi-typescript-helpers", "structured-headers", "yaml"];
const version = (JSON.parse(readFileSync(path.join(PACKAGE, "package.json"), "utf8")) as { version: string }).version;

let dir: string;
let packed: { filename: string; version: string; files: { path: string }[] };

async function npm(args: string[], cwd: string): Promise<string> {
  return (await run("npm", [...args, "--no-audit", "--no-fund", "--loglevel=error"], { cwd })).stdout;
}

beforeAll(async () => {
  if (!existsSync(path.join(PACKAGE, "dist/src/index.js"))) {
    throw new Error("packages/client/dist is missing: run `npm run client:build` first");
  }
  dir = await mkdtemp(path.join(tmpdir(), "sluice-client-pack-"));
  packed = (JSON.parse(await npm(["pack", "--json", "--pack-destination", dir], PACKAGE)) as (typeof packed)[])[0]!;
  for (const name of DEPENDENCIES) {
    await npm(["pack", "--ignore-scripts", "--pack-destination", dir, path.join(ROOT, "node_modules", name)], dir);
  }
}, 120_000);

afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe("@sluice/client as a package", () => {
  it("packs a versioned tarball of the compiled code, its types and README, without tests or sources", () => {
    expect(packed.filename).toBe(`sluice-client-${version}.tgz`);
    const files = packed.files.map((f) => f.path);
    expect(files).toEqual(
      expect.arrayContaining(["package.json", "README.md", "dist/src/index.js", "dist/src/index.d.ts"]),
    );
    expect(files.filter((f) => /\.test\.|^src\//.test(f))).toEqual([]);
  });

  it("installs into another app offline, imports by name and type-checks", async () => {
    const app = path.join(dir, "app");
    await mkdir(app);
    await writeFile(
      path.join(app, "package.json"),
      JSON.stringify({ name: "app", version: "1.0.0", private: true, type: "module" }),
    );
    const tarballs = (await run("sh", ["-c", "ls ../*.tgz"], { cwd: app })).stdout.trim().split("\n");
    await npm(["install", "--offline", "--ignore-scripts", ...tarballs], app);

    const imported = await run(
      process.execPath,
      [
        "--input-type=module",
        "-e",
        `import * as c from "@sluice/client"; import p from "@sluice/client/package.json" with { type: "json" };
         console.log(JSON.stringify({ version: p.version, exports: Object.keys(c).sort() }));`,
      ],
      { cwd: app },
    );
    expect(JSON.parse(imported.stdout)).toEqual({
      version,
      exports: expect.arrayContaining(["createSluiceClient", "withSluice", "sluiceExpress", "SluiceTimeoutError"]),
    });

    await writeFile(
      path.join(app, "index.ts"),
      `import { createSluiceClient, type CheckResult } from "@sluice/client";
const client = createSluiceClient({ baseUrl: "http://127.0.0.1:1", timeoutMs: 500 });
export const answer: Promise<CheckResult> = client.check({ identifier: "u", rule: "per-user" });
// @ts-expect-error: the identifier is a string (the types are real, not any)
client.check({ identifier: 1, rule: "per-user" });
`,
    );
    await writeFile(
      path.join(app, "tsconfig.json"),
      JSON.stringify({
        compilerOptions: {
          target: "ES2022",
          module: "NodeNext",
          moduleResolution: "NodeNext",
          strict: true,
          noEmit: true,
          skipLibCheck: true,
          types: [],
          lib: ["ES2023", "dom"],
        },
        files: ["index.ts"],
      }),
    );
    const tsc = path.join(ROOT, "node_modules/typescript/bin/tsc");
    const checked = await run(process.execPath, [tsc, "-p", app]).catch((e: { stdout: string }) => e);
    expect(checked.stdout).toBe("");
  });
});
