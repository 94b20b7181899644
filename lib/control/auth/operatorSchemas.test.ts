import { describe, expect, it } from "vitest";
import type { z } from "zod";
import { createOperatorSchema, loginSchema, updateOperatorSchema } from "./operatorSchemas";

const valid = { email: "ops@example.com", password: "correct horse battery", role: "viewer" };

function issues(schema: z.ZodType, input: unknown): [string, string][] {
  const parsed = schema.safeParse(input);
  return parsed.success ? [] : parsed.error.issues.map((i) => [i.path.join("."), i.message]);
}

describe("createOperatorSchema", () => {
  it("trims and lower-cases the email", () => {
    expect(createOperatorSchema.parse({ ...valid, email: "  Ops@Example.COM " })).toEqual(valid);
  });

  it.each([
    ["a 12-character password", { ...valid, password: "x".repeat(12) }],
    ["a 1024-character password", { ...valid, password: "x".repeat(1024) }],
    ["an admin", { ...valid, role: "admin" }],
    ["spaces and non-ASCII in the password", { ...valid, password: "  ü ß 密码 passphrase  " }],
  ])("accepts %s", (_, input) => {
    expect(issues(createOperatorSchema, input)).toEqual([]);
  });

  it.each([
    [
      "an 11-character password",
      { ...valid, password: "x".repeat(11) },
      "password",
      "password must be at least 12 characters",
    ],
    [
      "a 1025-character password",
      { ...valid, password: "x".repeat(1025) },
      "password",
      "password must be at most 1024 characters",
    ],
    ["a numeric password", { ...valid, password: 123456789012 }, "password", "password is required and must be text"],
    ["no password", { email: valid.email, role: "admin" }, "password", "password is required and must be text"],
    ["no email", { password: valid.password, role: "admin" }, "email", "email is required and must be text"],
    ["an email without @", { ...valid, email: "ops.example.com" }, "email", "email must be an email address"],
    ["an email of spaces", { ...valid, email: "   " }, "email", "email must be an email address"],
    [
      "an email over 254 characters",
      { ...valid, email: `${"a".repeat(250)}@example.com` },
      "email",
      "email must be at most 254 characters",
    ],
    [
      "NUL in the email",
      { ...valid, email: "ops\u0000@example.com" },
      "email",
      "email must not contain control characters (U+0000 at position 3)",
    ],
    ["an unknown role", { ...valid, role: "owner" }, "role", "role must be one of admin, viewer"],
    ["no role", { email: valid.email, password: valid.password }, "role", "role must be one of admin, viewer"],
    [
      "a password hash smuggled in",
      { ...valid, passwordHash: "$argon2id$..." },
      "",
      'Unrecognized key: "passwordHash"',
    ],
  ])("rejects %s, naming the field", (_, input, field, message) => {
    expect(issues(createOperatorSchema, input)).toContainEqual([field, message]);
  });
});

describe("updateOperatorSchema", () => {
  it.each([
    ["a role", { role: "admin" }],
    ["a password", { password: "a new long password" }],
    ["both", { role: "viewer", password: "a new long password" }],
  ])("accepts %s", (_, input) => {
    expect(issues(updateOperatorSchema, input)).toEqual([]);
  });

  it.each([
    ["an empty body", {}, "", "send role, password, tenantIds or several of them"],
    ["a short password", { password: "short" }, "password", "password must be at least 12 characters"],
    ["an unknown role", { role: "root" }, "role", "role must be one of admin, viewer"],
    ["an email change", { email: "new@example.com" }, "", 'Unrecognized key: "email"'],
  ])("rejects %s", (_, input, field, message) => {
    expect(issues(updateOperatorSchema, input)).toContainEqual([field, message]);
  });
});

describe("loginSchema", () => {
  it("normalizes the email like the operator schema, and never applies the password policy", () => {
    expect(loginSchema.parse({ email: " Ops@Example.com", password: "short" })).toEqual({
      email: "ops@example.com",
      password: "short",
    });
  });

  it.each([
    ["no email", { password: "x" }, "email", "email is required and must be text"],
    ["an empty password", { email: "a@b.c", password: "" }, "password", "password must not be empty"],
    [
      "an over-long password",
      { email: "a@b.c", password: "x".repeat(1025) },
      "password",
      "password must be at most 1024 characters",
    ],
    ["an extra field", { email: "a@b.c", password: "x", remember: true }, "", 'Unrecognized key: "remember"'],
    [
      "an unpaired surrogate in the email (it reached Postgres: 500)",
      { email: "a\udc00@b.c", password: "x" },
      "email",
      "email must not contain an unpaired surrogate (U+DC00 at position 1); send well-formed Unicode",
    ],
  ])("rejects %s", (_, input, field, message) => {
    expect(issues(loginSchema, input)).toContainEqual([field, message]);
  });
});
