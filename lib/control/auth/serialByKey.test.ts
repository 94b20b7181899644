import { describe, expect, it } from "vitest";
import { SerialByKey } from "./serialByKey";

const tick = () => new Promise((resolve) => setTimeout(resolve, 5));

describe("SerialByKey", () => {
  it("runs tasks sharing a key one at a time, in order", async () => {
    const serial = new SerialByKey();
    const log: string[] = [];
    let running = 0;
    let maxRunning = 0;
    const task = (name: string) => async () => {
      running++;
      maxRunning = Math.max(maxRunning, running);
      log.push(`start ${name}`);
      await tick();
      log.push(`end ${name}`);
      running--;
      return name;
    };
    const results = await Promise.all([
      serial.run(["a"], task("1")),
      serial.run(["a", "b"], task("2")),
      serial.run(["b"], task("3")),
    ]);
    expect(results).toEqual(["1", "2", "3"]);
    expect(maxRunning).toBe(1);
    expect(log).toEqual(["start 1", "end 1", "start 2", "end 2", "start 3", "end 3"]);
    expect(serial.busyKeys).toBe(0);
  });

  it("runs tasks on different keys concurrently", async () => {
    const serial = new SerialByKey();
    let running = 0;
    let maxRunning = 0;
    const task = async () => {
      running++;
      maxRunning = Math.max(maxRunning, running);
      await tick();
      running--;
    };
    await Promise.all([serial.run(["a"], task), serial.run(["b"], task), serial.run(["c"], task)]);
    expect(maxRunning).toBe(3);
  });

  it("a failing task rejects for its caller only; the next one still runs", async () => {
    const serial = new SerialByKey();
    const failing = serial.run(["a"], async () => {
      await tick();
      throw new Error("boom");
    });
    const next = serial.run(["a"], async () => "ran");
    await expect(failing).rejects.toThrow("boom");
    await expect(next).resolves.toBe("ran");
    expect(serial.busyKeys).toBe(0);
  });

  it("a key listed twice does not wait for itself", async () => {
    const serial = new SerialByKey();
    await expect(serial.run(["a", "a"], async () => "ok")).resolves.toBe("ok");
  });
});
