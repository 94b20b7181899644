/**
 * `npm run bench:lua`: machine instructions Redis spends per decision in decide.lua, counted by
 * callgrind, not timed: the count is the same run after run whatever else the machine is doing,
 * so two versions of the script compare on a noisy machine (run it in each checkout).
 *
 * Starts its own `redis-server` under `valgrind --tool=callgrind` on a free loopback port (stopped
 * at the end; valgrind must be installed). Each case runs decide.lua's body in a loop inside ONE
 * script call (the script form, its head once per call), so the count is the body's: once with
 * `BENCH_LUA_CALLS` iterations (default 200 decisions) and once with none, the difference divided
 * by the decisions made. Rules are shaped like the limiter bench's (workload.ts): token_bucket,
 * 1,000 per 60 s with a burst of 1e9, refs 1 to 3, state kept between decisions.
 * Prints one JSON object: case -> instructions per decision.
 */
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Redis } from "ioredis";
import { decideScript } from "../../lib/limiter/decideScript";
import { freePort } from "../../test/support/freePort";

const SPEC = (field: string) => `tb,1000,60000,1000000000,1,1,${field},0,`;
const BATCH = 64;

/** decide.lua's arguments per case (KEYS count, keys, ARGV), and the decisions one call makes. */
const CASES: Record<string, { args: (string | number)[]; decisions: number }> = {
  "1 rule, lone call": { args: [1, "b:{t}2Kk0", 1, SPEC("t1"), 1, ",1,,0,1,1,1,0"], decisions: 1 },
  "3 rules, lone call": {
    args: [2, "b:{t}2Kk1", "b:{t}2I10.0.0.1", 3, SPEC("t1"), SPEC("t2"), SPEC("t3"), 1, ",1,,0,3,1,1,0,2,2,0,3,1,0"],
    decisions: 1,
  },
  [`1 rule, ${BATCH} requests per call`]: {
    args: [
      BATCH,
      ...Array.from({ length: BATCH }, (_, i) => `b:{t}2Kk${i + 10}`),
      1,
      SPEC("t1"),
      BATCH,
      ...Array.from({ length: BATCH }, (_, i) => `,1,,0,1,1,${i + 1},0`),
    ],
    decisions: BATCH,
  },
  [`3 rules, ${BATCH} requests per call`]: {
    args: [
      2 * BATCH,
      ...Array.from({ length: BATCH }, (_, i) => [`b:{t}2Kk${i + 100}`, `b:{t}2I10.0.1.${i}`]).flat(),
      3,
      SPEC("t1"),
      SPEC("t2"),
      SPEC("t3"),
      BATCH,
      ...Array.from({ length: BATCH }, (_, i) => `,1,,0,3,1,${2 * i + 1},0,2,${2 * i + 2},0,3,${2 * i + 1},0`),
    ],
    decisions: BATCH,
  },
};

/** The body of decide.lua run `ARGV[#ARGV]` times in one call (its head once). */
function loopScript(): string {
  const source = decideScript.source();
  const at = source.indexOf("\n--!body");
  return (
    `${source.slice(0, at)}\nlocal function BODY(KEYS, ARGV)\n${source.slice(at)}\nend\n` +
    "local n = tonumber(table.remove(ARGV)) local r for i = 1, n do r = BODY(KEYS, ARGV) end return r and #r or 0"
  );
}

/** A connection to the server once it answers: valgrind starts it slowly, so a fresh try every 200 ms. */
async function connectWhenUp(port: number, server: ChildProcess): Promise<Redis> {
  for (let tries = 0; ; tries++) {
    const probe = new Redis({ port, lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
    probe.on("error", () => {}); // a refused try is expected until the server is up
    try {
      await probe.connect();
      await probe.ping();
      return probe;
    } catch (error) {
      probe.disconnect();
      if (tries > 150 || server.exitCode !== null)
        throw new Error(`redis-server under valgrind did not start: ${error}`);
      await new Promise((r) => setTimeout(r, 200));
    }
  }
}

async function main(): Promise<void> {
  const calls = Number(process.env.BENCH_LUA_CALLS ?? 200);
  const dir = mkdtempSync(path.join(tmpdir(), "sluice-callgrind-"));
  const port = await freePort();
  const server = spawn(
    "valgrind",
    [
      "--tool=callgrind",
      `--callgrind-out-file=${dir}/cg.%p`,
      "redis-server",
      "--port",
      String(port),
      "--bind",
      "127.0.0.1",
      "--save",
      "",
      "--appendonly",
      "no",
    ],
    { stdio: "ignore" },
  );
  let redis: Redis | undefined;
  try {
    redis = await connectWhenUp(port, server);
    /** Dumps the counts since the last dump (callgrind_control -d zeroes them) and returns their total. */
    const dumped = (): number => {
      execFileSync("callgrind_control", ["-d", String(server.pid)], { stdio: "ignore" });
      let total = 0;
      for (const file of readdirSync(dir).filter((f) => /^cg\.\d+\.\d+$/.test(f))) {
        const match = /^(?:summary|totals): (\d+)/m.exec(readFileSync(path.join(dir, file), "utf8"));
        if (match) total = Number(match[1]);
        rmSync(path.join(dir, file));
      }
      return total;
    };
    const script = loopScript();
    const result: Record<string, number> = {};
    for (const [name, { args, decisions }] of Object.entries(CASES)) {
      const iterations = Math.max(3, Math.round(calls / decisions));
      await redis.eval(script, ...(args as [number]), 2); // keys and cached specs in place
      dumped();
      await redis.eval(script, ...(args as [number]), iterations);
      const loaded = dumped();
      await redis.eval(script, ...(args as [number]), 0);
      const empty = dumped();
      result[name] = Math.round((loaded - empty) / (iterations * decisions));
    }
    console.log(JSON.stringify(result));
  } finally {
    redis?.disconnect();
    server.kill("SIGTERM");
    await new Promise((r) => server.once("exit", r));
    rmSync(dir, { recursive: true, force: true });
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
