/** The little of `oidc-provider` (which ships no types) that e2e/support/testIdp.ts uses. */
declare module "oidc-provider" {
  import type { IncomingMessage, Server } from "node:http";

  interface Account {
    accountId: string;
    claims: () => Record<string, unknown> | Promise<Record<string, unknown>>;
  }

  interface Configuration {
    clients?: Record<string, unknown>[];
    claims?: Record<string, string[]>;
    pkce?: { required?: () => boolean };
    cookies?: { keys?: string[] };
    findAccount?: (ctx: unknown, id: string) => Account | undefined | Promise<Account | undefined>;
  }

  export default class Provider {
    constructor(issuer: string, configuration?: Configuration);
    listen(port: number, host: string, callback?: () => void): Server;
    /** Koa's middleware list, composed when the server starts. */
    middleware: ((ctx: { path: string; req: IncomingMessage }, next: () => Promise<void>) => Promise<void>)[];
  }
}
