/**
 * Loads the `.proto` files of Envoy's rate limit service and of gRPC health checking
 * (lib/dataplane/envoy/proto, copied next to the bundle as `.next/proto` by scripts/build-dataplane.mjs)
 * with @grpc/proto-loader, once per process.
 *
 * Contract: `rlsProto()` returns the service definitions to add to a grpc-js server (or to build a
 * client from, in tests); enums are decoded as their names, 64-bit numbers as numbers, missing
 * fields as their defaults (so a handler reads `hits_addend: 0`, never undefined).
 * The directory is found relative to this module: `./proto` from lib/dataplane/envoy/ in source and
 * tests, `./proto` from `.next/dataplane.mjs` in the production bundle.
 */
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import path from "node:path";
import * as protoLoader from "@grpc/proto-loader";
import { loadPackageDefinition, type GrpcObject, type ServiceClientConstructor } from "@grpc/grpc-js";

const FILES = ["envoy/service/ratelimit/v3/rls.proto", "grpc/health/v1/health.proto"];

/** The proto directory: beside this module (source, tests, and the bundle, which gets a copy). */
export function protoDir(): string {
  const here = path.dirname(fileURLToPath(import.meta.url));
  const candidates = [path.join(here, "proto"), path.join(process.cwd(), "lib/dataplane/envoy/proto")];
  const found = candidates.find((dir) => existsSync(path.join(dir, FILES[0]!)));
  if (!found) throw new Error(`the rate limit service's .proto files are missing (looked in ${candidates.join(", ")})`);
  return found;
}

export interface RlsProto {
  RateLimitService: ServiceClientConstructor;
  Health: ServiceClientConstructor;
}

let loaded: RlsProto | undefined;

export function rlsProto(): RlsProto {
  if (loaded) return loaded;
  const definition = protoLoader.loadSync(FILES, {
    includeDirs: [protoDir()],
    keepCase: true,
    enums: String,
    longs: Number,
    defaults: true,
    oneofs: true,
  });
  const root = loadPackageDefinition(definition);
  const at = (dotted: string) =>
    dotted.split(".").reduce((node, part) => (node as GrpcObject)[part] as GrpcObject, root as GrpcObject);
  loaded = {
    RateLimitService: at("envoy.service.ratelimit.v3.RateLimitService") as unknown as ServiceClientConstructor,
    Health: at("grpc.health.v1.Health") as unknown as ServiceClientConstructor,
  };
  return loaded;
}
