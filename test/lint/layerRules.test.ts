/**
 * The layer rules of eslint.layers.js fail `npm run lint` (ESLint's own API, the repository's own
 * eslint.config.js): an import against the layer order, an import between peers (the two planes
 * among them), lib/ importing app/, and an import cycle made of two files: each probe is a file
 * written for the test and removed after it. Each refusal is paired with the allowed import beside
 * it, so the test fails if the rules stop firing or start firing on everything.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { ESLint } from "eslint";
import { afterAll, describe, expect, it } from "vitest";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
// Loading the config and resolving through tsconfig takes seconds on a loaded machine.
const SLOW = 120_000;
const eslint = new ESLint({ cwd: ROOT });

let probes = 0;

/**
 * The rule ids ESLint reports for `code` as a file in `folder`. The file is written for the lint and
 * removed after it: import/no-cycle resolves the linted file itself, so a file that does not exist
 * (lintText with a made-up path) makes the rule throw instead of answering.
 */
async function ruleIds(code: string, folder: string): Promise<string[]> {
  const file = path.join(ROOT, folder, `layerProbe${process.pid}x${++probes}.ts`);
  await writeFile(file, code);
  try {
    const [result] = await eslint.lintFiles([file]);
    return (result?.messages ?? []).map((m) => m.ruleId ?? `fatal: ${m.message}`);
  } finally {
    await rm(file, { force: true });
  }
}

describe("layer order (import/no-restricted-paths)", () => {
  it(
    "refuses an import from a higher layer and allows one from a lower layer",
    async () => {
      const folder = "lib/policy/rules";
      expect(
        await ruleIds('import { services } from "../../runtime/services";\nexport const probe = services;\n', folder),
      ).toContain("import/no-restricted-paths");
      expect(await ruleIds('import { getDb } from "../../db/client";\nexport const probe = getDb;\n', folder)).toEqual(
        [],
      );
    },
    SLOW,
  );

  it(
    "refuses the @/ alias the same way",
    async () => {
      const folder = "lib/config";
      expect(
        await ruleIds(
          'import { traceEntry } from "@/lib/monitoring/record/requestTrace";\nexport const probe = traceEntry;\n',
          folder,
        ),
      ).toContain("import/no-restricted-paths");
      expect(
        await ruleIds('import { plainText } from "@/lib/common/textInput";\nexport const probe = plainText;\n', folder),
      ).toEqual([]);
    },
    SLOW,
  );

  it(
    "refuses an import between peers and from a higher subfolder of the same layer",
    async () => {
      expect(
        await ruleIds('import { AppError } from "../http/errors";\nexport const probe = AppError;\n', "lib/redis"),
      ).toContain("import/no-restricted-paths");
      const inner = "lib/monitoring/record";
      expect(
        await ruleIds('import { ReadPlan } from "../query/readPlan";\nexport const probe = ReadPlan;\n', inner),
      ).toContain("import/no-restricted-paths");
      expect(
        await ruleIds('import { metrics } from "../prometheus/metrics";\nexport const probe = metrics;\n', inner),
      ).toContain("import/no-restricted-paths");
      expect(
        await ruleIds('import { SECOND_MS } from "./monitoringKeys";\nexport const probe = SECOND_MS;\n', inner),
      ).toEqual([]);
    },
    SLOW,
  );

  it(
    "keeps the two planes peers: control/ may not import dataplane/, nor dataplane/ control/; runtime/ may import both",
    async () => {
      expect(
        await ruleIds(
          'import { admit } from "../../dataplane/admission/admit";\nexport const probe = admit;\n',
          "lib/control/admin",
        ),
      ).toContain("import/no-restricted-paths");
      expect(
        await ruleIds(
          'import { adminRoute } from "../../control/admin/adminRoute";\nexport const probe = adminRoute;\n',
          "lib/dataplane/admission",
        ),
      ).toContain("import/no-restricted-paths");
      expect(
        await ruleIds(
          'import { admit } from "../dataplane/admission/admit";\nimport { adminRoute } from "../control/admin/adminRoute";\nexport const probe = [admit, adminRoute];\n',
          "lib/runtime",
        ),
      ).toEqual([]);
    },
    SLOW,
  );

  it(
    "refuses lib/ importing app/ or components/",
    async () => {
      expect(
        await ruleIds('import * as route from "@/app/api/health/route";\nexport const probe = route;\n', "lib/runtime"),
      ).toContain("import/no-restricted-paths");
    },
    SLOW,
  );
});

describe("import cycles (import/no-cycle)", () => {
  let dir: string | undefined;
  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it(
    "refuses two files that import each other, and not one that only imports the other",
    async () => {
      dir = await mkdtemp(path.join(ROOT, "lib/common/cycleProbe-"));
      const a = path.join(dir, "a.ts");
      const b = path.join(dir, "b.ts");
      await writeFile(a, 'import { b } from "./b";\nexport const a = () => b;\n');
      await writeFile(b, 'import { a } from "./a";\nexport const b = () => a;\n');
      const [cycle] = await eslint.lintFiles([a]);
      expect(cycle?.messages.map((m) => m.ruleId)).toContain("import/no-cycle");

      const c = path.join(dir, "c.ts");
      await writeFile(c, 'import { b } from "./b";\nexport const c = () => b;\n');
      await writeFile(b, "export const b = () => 1;\n");
      const [line] = await eslint.lintFiles([c]);
      expect(line?.messages.map((m) => m.ruleId)).toEqual([]);
    },
    SLOW,
  );
});
