import { afterEach, describe, expect, it } from "vitest";
import { readConfig } from "./config";

const saved = { email: process.env.SLUICE_ADMIN_EMAIL, password: process.env.SLUICE_ADMIN_PASSWORD };

function withAdmin(email: string | undefined, password: string | undefined) {
  if (email === undefined) delete process.env.SLUICE_ADMIN_EMAIL;
  else process.env.SLUICE_ADMIN_EMAIL = email;
  if (password === undefined) delete process.env.SLUICE_ADMIN_PASSWORD;
  else process.env.SLUICE_ADMIN_PASSWORD = password;
}

afterEach(() => withAdmin(saved.email, saved.password));

describe("config: the first admin (SLUICE_ADMIN_EMAIL, SLUICE_ADMIN_PASSWORD)", () => {
  it("neither set: none", () => {
    withAdmin(undefined, undefined);
    expect(readConfig().firstAdmin).toBeUndefined();
    withAdmin("", "");
    expect(readConfig().firstAdmin).toBeUndefined();
  });

  it("both set: the email normalized like the admin API's, the password as given", () => {
    withAdmin("  Admin@Example.com ", " a long password ");
    expect(readConfig().firstAdmin).toEqual({ email: "admin@example.com", password: " a long password " });
  });

  it.each([
    ["only the email", "admin@example.com", undefined, /SLUICE_ADMIN_PASSWORD must be set/],
    ["only the password", undefined, "a long password", /SLUICE_ADMIN_EMAIL must be set/],
    ["a malformed email", "admin", "a long password", /SLUICE_ADMIN_EMAIL: email must be an email address/],
    ["a short password", "admin@example.com", "short", /SLUICE_ADMIN_PASSWORD: password must be at least 12 characters/],
  ])("%s: refused with the variable's name", (_, email, password, message) => {
    withAdmin(email, password);
    expect(() => readConfig()).toThrow(message);
  });

  it("never puts the password in an error message", () => {
    withAdmin("admin", "my secret password");
    expect(() => readConfig()).toThrow(/^(?!.*my secret password)/);
  });
});
