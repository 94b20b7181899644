/**
 * A real OpenID provider for the single sign-on spec: `oidc-provider` on a loopback port
 * (IDP_PORT, testEnv.ts), with one confidential client whose redirect URIs are Sluice's callbacks
 * (and whose post-logout redirect URIs are Sluice's login pages: RP-initiated logout, whose
 * confirmation page is the provider's own) and its development login form (any login name, any password). `findAccount` answers the
 * users below with an email and a `groups` claim (granted with the `profile` scope, read by Sluice
 * from the userinfo endpoint); any other login name is unknown. `failTokenEndpoint` makes the
 * token endpoint drop its connections (an IdP failing in the middle of a login). playwright.config.ts
 * gives the server the matching SLUICE_OIDC_* settings.
 */
import type { Server } from "node:http";
import Provider from "oidc-provider";
import { IDP_CLIENT_ID, IDP_CLIENT_SECRET, IDP_ISSUER } from "./testEnv";

export interface IdpUser {
  email: string;
  groups: string[];
}

export class TestIdp {
  private server: Server | undefined;
  private readonly users = new Map<string, IdpUser>();
  /** While true, every request to the token endpoint has its connection dropped. */
  failTokenEndpoint = false;

  constructor(
    private readonly redirectUris: string[],
    private readonly postLogoutRedirectUris: string[] = [],
  ) {}

  /** Registers `login` (typed into the IdP's form) as a user with these claims. */
  addUser(login: string, user: IdpUser): void {
    this.users.set(login, user);
  }

  async start(): Promise<void> {
    const provider = new Provider(IDP_ISSUER, {
      clients: [
        {
          client_id: IDP_CLIENT_ID,
          client_secret: IDP_CLIENT_SECRET,
          redirect_uris: this.redirectUris,
          post_logout_redirect_uris: this.postLogoutRedirectUris,
          grant_types: ["authorization_code"],
          response_types: ["code"],
        },
      ],
      claims: { openid: ["sub"], email: ["email", "email_verified"], profile: ["name", "groups"] },
      pkce: { required: () => true },
      cookies: { keys: ["e2e-idp-cookie-key-not-secret"] },
      findAccount: (_ctx: unknown, id: string) => {
        const user = this.users.get(id);
        if (!user) return undefined;
        return {
          accountId: id,
          claims: () => ({ sub: id, email: user.email, email_verified: true, name: id, groups: user.groups }),
        };
      },
    });
    // First in the chain: the provider's own router answers /token without calling on.
    provider.middleware.unshift(async (ctx, next) => {
      if (this.failTokenEndpoint && ctx.path === "/token") ctx.req.socket.destroy();
      else await next();
    });
    await new Promise<void>((resolve, reject) => {
      const server = provider.listen(Number(new URL(IDP_ISSUER).port), "127.0.0.1", () => resolve());
      server.once("error", reject);
      this.server = server;
    });
  }

  async stop(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
