import { describe, expect, it } from "vitest";
import { parseNodeList } from "./nodeList";

describe("parseNodeList", () => {
  it.each([
    [
      "redis://127.0.0.1:7000,redis://127.0.0.1:7001",
      [
        { host: "127.0.0.1", port: 7000 },
        { host: "127.0.0.1", port: 7001 },
      ],
    ],
    [
      "10.0.0.1:7000, 10.0.0.2",
      [
        { host: "10.0.0.1", port: 7000 },
        { host: "10.0.0.2", port: 6379 },
      ],
    ],
    ["redis://:secret@node-a:7000", [{ host: "node-a", port: 7000 }]],
    [
      " a:1 ,, b:2 ",
      [
        { host: "a", port: 1 },
        { host: "b", port: 2 },
      ],
    ],
  ])("%s", (list, nodes) => {
    expect(parseNodeList(list, 6379)).toEqual(nodes);
  });

  it("uses the default port given (26379 for sentinels)", () => {
    expect(parseNodeList("s1,s2:5000", 26379)).toEqual([
      { host: "s1", port: 26379 },
      { host: "s2", port: 5000 },
    ]);
  });

  it.each([["a:99999"], ["a:b:c"], ["redis://:7000"]])("refuses %s", (list) => {
    expect(() => parseNodeList(list, 6379)).toThrow(/is not host:port|names no host/);
  });
});
