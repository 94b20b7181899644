import { describe, expect, it } from "vitest";
import { oidcFromEnv, passwordLoginFromEnv, valueList } from "./oidcConfig";

const base = {
  SLUICE_OIDC_ISSUER: "https://idp.example.com/realms/ops",
  SLUICE_OIDC_CLIENT_ID: "sluice",
  SLUICE_OIDC_ADMIN_VALUES: "sluice-admins",
};

describe("oidcFromEnv", () => {
  it("is off without an issuer", () => {
    expect(oidcFromEnv({})).toBeUndefined();
  });

  it("reads the settings with their defaults", () => {
    const c = oidcFromEnv({ ...base, SLUICE_OIDC_CLIENT_SECRET: "s3cret", SLUICE_OIDC_VIEWER_VALUES: " a , b ,," });
    expect(c).toMatchObject({
      clientId: "sluice",
      clientSecret: "s3cret",
      redirectUri: undefined,
      scopes: "openid email profile",
      roleClaim: "groups",
      adminValues: ["sluice-admins"],
      viewerValues: ["a", "b"],
      label: "single sign-on",
    });
    expect(c?.issuer.href).toBe("https://idp.example.com/realms/ops");
  });

  it("takes a role claim path, a redirect URI, scopes and a label", () => {
    const c = oidcFromEnv({
      ...base,
      SLUICE_OIDC_ROLE_CLAIM: "realm_access.roles",
      SLUICE_OIDC_REDIRECT_URI: "https://sluice.example.com/api/auth/sso/callback",
      SLUICE_OIDC_SCOPES: "openid email groups",
      SLUICE_OIDC_LABEL: "Keycloak",
    });
    expect(c?.roleClaim).toBe("realm_access.roles");
    expect(c?.redirectUri?.href).toBe("https://sluice.example.com/api/auth/sso/callback");
    expect(c?.scopes).toBe("openid email groups");
    expect(c?.label).toBe("Keycloak");
  });

  it("admits plain http only on a loopback issuer", () => {
    expect(oidcFromEnv({ ...base, SLUICE_OIDC_ISSUER: "http://127.0.0.1:4000/" })?.issuer.port).toBe("4000");
    expect(oidcFromEnv({ ...base, SLUICE_OIDC_ISSUER: "http://localhost:4000/" })).toBeDefined();
  });

  it.each([
    [{ SLUICE_OIDC_CLIENT_ID: "x" }, "SLUICE_OIDC_ISSUER must be set when SLUICE_OIDC_CLIENT_ID is"],
    [{ ...base, SLUICE_OIDC_CLIENT_ID: "" }, "SLUICE_OIDC_CLIENT_ID must be set when SLUICE_OIDC_ISSUER is"],
    [
      { ...base, SLUICE_OIDC_ISSUER: "idp.example.com" },
      'SLUICE_OIDC_ISSUER must be an absolute URL, got "idp.example.com"',
    ],
    [{ ...base, SLUICE_OIDC_ISSUER: "http://idp.example.com" }, "SLUICE_OIDC_ISSUER must be an https URL"],
    [{ ...base, SLUICE_OIDC_ISSUER: "https://u:p@idp.example.com" }, "must not carry credentials"],
    [{ ...base, SLUICE_OIDC_ADMIN_VALUES: "" }, "SLUICE_OIDC_ADMIN_VALUES or SLUICE_OIDC_VIEWER_VALUES must name"],
    [{ ...base, SLUICE_OIDC_ADMIN_VALUES: "*" }, 'SLUICE_OIDC_ADMIN_VALUES cannot be "*"'],
    [{ ...base, SLUICE_OIDC_VIEWER_VALUES: "*,staff" }, 'either "*" or a list'],
    [{ ...base, SLUICE_OIDC_SCOPES: "email profile" }, 'SLUICE_OIDC_SCOPES must include "openid"'],
    [
      { ...base, SLUICE_OIDC_REDIRECT_URI: "http://sluice.example.com/cb" },
      "SLUICE_OIDC_REDIRECT_URI must be an https URL",
    ],
  ])("refuses %o", (env, message) => {
    expect(() => oidcFromEnv(env)).toThrow(message);
  });
});

describe("passwordLoginFromEnv", () => {
  const oidc = oidcFromEnv(base);
  it.each([undefined, "", "1", "true"])("%o is on", (raw) => {
    expect(passwordLoginFromEnv({ SLUICE_PASSWORD_LOGIN: raw }, undefined)).toBe(true);
  });
  it.each(["0", "false"])("%o is off with SSO", (raw) => {
    expect(passwordLoginFromEnv({ SLUICE_PASSWORD_LOGIN: raw }, oidc)).toBe(false);
  });
  it("off without SSO is refused: nobody could log in", () => {
    expect(() => passwordLoginFromEnv({ SLUICE_PASSWORD_LOGIN: "0" }, undefined)).toThrow("needs single sign-on");
  });
  it("anything else is refused", () => {
    expect(() => passwordLoginFromEnv({ SLUICE_PASSWORD_LOGIN: "no" }, oidc)).toThrow(
      'SLUICE_PASSWORD_LOGIN must be 0 or 1, got "no"',
    );
  });
});

describe("valueList", () => {
  it("splits on commas and drops empty entries", () => {
    expect(valueList(" a,, b ")).toEqual(["a", "b"]);
    expect(valueList(undefined)).toEqual([]);
  });
});
