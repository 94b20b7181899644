/**
 * The Node versions Sluice says it runs on are ones its dependencies accept: the lowest Node that
 * package.json's `engines.node` admits (and the README's quick start names) must satisfy the
 * `engines.node` of every direct dependency as installed. zod-openapi 6 wanted Node 22.14 while the
 * README said 20.19+ (issue 28, point 20); this fails when an upgrade raises a dependency's floor
 * above ours, so the README, package.json and the lockfile cannot drift apart again.
 */
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import semver from "semver";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const readJson = (file: string) => JSON.parse(fs.readFileSync(path.join(ROOT, file), "utf8"));

const manifest = readJson("package.json");
const ourRange: string = manifest.engines.node;
const lowestNode = semver.minVersion(ourRange)!.version;

describe("Node versions", () => {
  it("the README names the lowest Node that package.json admits", () => {
    const [major, minor] = lowestNode.split(".");
    expect(fs.readFileSync(path.join(ROOT, "README.md"), "utf8")).toContain(`Needs Node ${major}.${minor}+`);
  });

  it("every direct dependency accepts the lowest Node we admit", () => {
    const names = Object.keys({ ...manifest.dependencies, ...manifest.devDependencies });
    const refusing = names.flatMap((name) => {
      const range: string | undefined = readJson(`node_modules/${name}/package.json`).engines?.node;
      return range && !semver.satisfies(lowestNode, range) ? [`${name} wants Node ${range}`] : [];
    });
    expect(refusing).toEqual([]);
  });
});
