/**
 * Runs once when the Next server starts, before it answers any request (scripts/server.mjs starts
 * listening only after Next is prepared): the instance's start-up checks and warm-up
 * (lib/runtime/prepareInstance.ts). Only on the Node runtime, never while building.
 */
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME === "nodejs" && process.env.NEXT_PHASE !== "phase-production-build") {
    const { startInstance } = await import("./lib/runtime/prepareInstance");
    await startInstance();
  }
}
