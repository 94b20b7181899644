#!/usr/bin/env node
/** The `sluice` command (package.json "bin"): see policyCli.ts. */
import { runCli } from "./policyCli.js";

const code = await runCli(process.argv.slice(2), {
  env: process.env,
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text),
});
process.exitCode = code;
