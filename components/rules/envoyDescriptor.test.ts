import { describe, expect, it } from "vitest";
import { descriptorSent, descriptorText, envoyRouteExample } from "./envoyDescriptor";

describe("the Envoy route config shown beside a descriptor", () => {
  it("one action per entry, in order, each the action that produces that key", () => {
    expect(envoyRouteExample([{ key: "path", value: "/login" }, { key: "remote_address" }])).toBe(
      [
        "rate_limits:",
        "  - actions:",
        "      - generic_key: { descriptor_key: path, descriptor_value: /login }",
        "      - remote_address: {}",
      ].join("\n"),
    );
  });

  it("Envoy's own keys map to their actions; other keys counted per value to a request header", () => {
    const example = envoyRouteExample([
      { key: "generic_key", value: "api" },
      { key: "masked_remote_address" },
      { key: "header_match", value: "post" },
      { key: "user" },
      { key: "destination_cluster", value: "orders" },
    ]);
    expect(example).toContain("- generic_key: { descriptor_value: api }");
    expect(example).toContain("- masked_remote_address: { v4_prefix_mask_len: 24, v6_prefix_mask_len: 64 }");
    expect(example).toContain("- header_value_match:\n          descriptor_value: post");
    expect(example).toContain("- request_headers: { header_name: x-user, descriptor_key: user }");
    expect(example).toContain("- destination_cluster: {}  # only orders");
  });

  it("path counted per value reads the :path pseudo-header; odd values are quoted", () => {
    expect(envoyRouteExample([{ key: "path" }])).toContain(
      '- request_headers: { header_name: ":path", descriptor_key: path }',
    );
    expect(envoyRouteExample([{ key: "plan", value: "free: {x}" }])).toContain(
      '- generic_key: { descriptor_key: plan, descriptor_value: "free: {x}" }',
    );
  });

  it("no entry with a key yet: an empty action list, not a broken config", () => {
    expect(envoyRouteExample([{ key: "" }])).toBe("rate_limits:\n  - actions: []  # add an entry");
  });

  it("the descriptor in words, and as Envoy sends it", () => {
    const entries = [{ key: "path", value: "/login" }, { key: "remote_address" }];
    expect(descriptorText(entries)).toBe("path=/login, remote_address");
    expect(descriptorSent(entries)).toBe("path=/login, remote_address=<remote_address>");
  });
});
