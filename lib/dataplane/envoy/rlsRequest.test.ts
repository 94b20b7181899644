import { describe, expect, it } from "vitest";
import { readRlsRequest } from "./rlsRequest";

const descriptor = (entries: { key: string; value: string }[], hits_addend: { value: number } | null = null) => ({
  entries,
  limit: null,
  hits_addend,
});
const ok = { domain: "T1", descriptors: [descriptor([{ key: "remote_address", value: "10.0.0.1" }])], hits_addend: 0 };

describe("readRlsRequest", () => {
  it("reads domain, entries and units (0 means 1; a descriptor's own hits_addend wins)", () => {
    expect(readRlsRequest(ok)).toEqual({
      domain: "T1",
      descriptors: [{ entries: [["remote_address", "10.0.0.1"]], hits: 1 }],
    });
    expect(readRlsRequest({ ...ok, hits_addend: 3 })).toMatchObject({ descriptors: [{ hits: 3 }] });
    const own = { ...ok, hits_addend: 3, descriptors: [descriptor([{ key: "k", value: "v" }], { value: 5 })] };
    expect(readRlsRequest(own)).toMatchObject({ descriptors: [{ hits: 5 }] });
  });

  it("accepts every bound itself: 64 descriptors, 16 entries, a 64-character key, a 4,096-character value", () => {
    const entries = Array.from({ length: 16 }, (_, i) => ({ key: i === 0 ? "k".repeat(64) : `k${i}`, value: "v" }));
    entries[1]!.value = "v".repeat(4_096);
    const read = readRlsRequest({ ...ok, descriptors: Array(64).fill(descriptor(entries)) });
    expect("invalid" in read).toBe(false);
    expect(read).toMatchObject({ descriptors: Array(64).fill(expect.objectContaining({ hits: 1 })) });
  });

  it.each([
    ["no domain", { ...ok, domain: "" }, /domain is required/],
    ["no descriptors", { ...ok, descriptors: [] }, /at least one/],
    ["a descriptor without entries", { ...ok, descriptors: [descriptor([])] }, /no entries/],
    ["an empty key", { ...ok, descriptors: [descriptor([{ key: "", value: "v" }])] }, /key is empty/],
    [
      "10,000 entries",
      { ...ok, descriptors: [descriptor(Array.from({ length: 10_000 }, (_, i) => ({ key: `k${i}`, value: "v" })))] },
      /at most 16/,
    ],
    ["a huge value", { ...ok, descriptors: [descriptor([{ key: "k", value: "v".repeat(100_000) }])] }, /at most 4096/],
    ["a huge key", { ...ok, descriptors: [descriptor([{ key: "k".repeat(65), value: "v" }])] }, /at most 64/],
    ["too many descriptors", { ...ok, descriptors: Array(65).fill(ok.descriptors[0]) }, /at most 64 descriptors/],
    ["hits past the largest cost", { ...ok, hits_addend: 2_000_000_000 }, /at most/],
    ["nothing at all", undefined, /domain is required/],
  ])("refuses %s", (_, request, message) => {
    const read = readRlsRequest(request);
    expect("invalid" in read && read.invalid).toMatch(message);
  });
});
