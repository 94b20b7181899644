import { describe, expect, it } from "vitest";
import { rlsProto } from "./rlsProto";

describe("rlsProto", () => {
  it("loads ShouldRateLimit and Health.Check with Envoy's fully qualified names", () => {
    const proto = rlsProto();
    expect(proto.RateLimitService.service.ShouldRateLimit!.path).toBe(
      "/envoy.service.ratelimit.v3.RateLimitService/ShouldRateLimit",
    );
    expect(proto.Health.service.Check!.path).toBe("/grpc.health.v1.Health/Check");
  });

  it("decodes a request as Envoy encodes it, with the descriptor entries' field numbers of the v3 API", () => {
    const method = rlsProto().RateLimitService.service.ShouldRateLimit!;
    // domain=1 "d"; descriptors=2 { entries=1 { key=1 "k", value=2 "v" } }; hits_addend=3 5
    const wire = Buffer.from([
      0x0a, 0x01, 0x64, 0x12, 0x08, 0x0a, 0x06, 0x0a, 0x01, 0x6b, 0x12, 0x01, 0x76, 0x18, 0x05,
    ]);
    const request = method.requestDeserialize(wire) as {
      domain: string;
      descriptors: { entries: { key: string; value: string }[] }[];
      hits_addend: number;
    };
    expect(request.domain).toBe("d");
    expect(request.descriptors[0]!.entries).toEqual([{ key: "k", value: "v" }]);
    expect(request.hits_addend).toBe(5);
  });
});
