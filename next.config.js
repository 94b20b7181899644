// @ts-check
import { staticHeaderRules } from "./lib/http/securityHeaders.js";

/** @type {import("next").NextConfig} */
const nextConfig = {
  poweredByHeader: false,
  // Native-socket clients stay outside the server bundle (loaded from node_modules at run time).
  serverExternalPackages: ["ioredis", "@prisma/adapter-pg", "prom-client"],
  // The limiter reads its Lua scripts from disk at run time; trace them into the build output.
  outputFileTracingIncludes: {
    "/**": ["./lib/limiter/lua/**/*.lua"],
  },
  // Security headers every response carries (lib/http/securityHeaders.js); the pages'
  // Content-Security-Policy, with its per-request nonce, is set by proxy.ts.
  async headers() {
    return staticHeaderRules();
  },
};

export default nextConfig;
