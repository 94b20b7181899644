import { describe, expect, it } from "vitest";
import { parseClusterNodes } from "./connect";

describe("parseClusterNodes", () => {
  it.each([
    ["redis://127.0.0.1:7000,redis://127.0.0.1:7001", [{ host: "127.0.0.1", port: 7000 }, { host: "127.0.0.1", port: 7001 }]],
    ["10.0.0.1:7000, 10.0.0.2", [{ host: "10.0.0.1", port: 7000 }, { host: "10.0.0.2", port: 6379 }]],
    ["redis://:secret@node-a:7000", [{ host: "node-a", port: 7000 }]],
  ])("%s", (url, nodes) => {
    expect(parseClusterNodes(url)).toEqual(nodes);
  });
});
