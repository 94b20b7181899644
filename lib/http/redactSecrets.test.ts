import { describe, expect, it } from "vitest";
import { errorSummary, redactSecrets } from "./redactSecrets";

const KEY = "sluice_Ab3dEf7h_Q1w2E3r4T5y6U7i8O9p0AsD";
const HASH = "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08";
const ARGON = "$argon2id$v=19$m=19456,t=2,p=1$c2FsdHNhbHQ$aGFzaGhhc2hoYXNoaGFzaA";
const NONE: string[] = [];

describe("redactSecrets", () => {
  it.each([
    ["an API key keeps its public prefix only", `key ${KEY} is bad`, "key sluice_Ab3dEf7h_[redacted] is bad"],
    [
      "a bearer credential",
      "authorization header Bearer abc.def-ghi was refused",
      "authorization header Bearer [redacted] was refused",
    ],
    ["the session cookie", "cookie sluice_session=tok123_-x; other=1", "cookie sluice_session=[redacted]; other=1"],
    ["a JSON password", `{"email":"a@b.c","password":"hunter2 \\" x"}`, `{"email":"a@b.c","password":"[redacted]"}`],
    [
      "a Prisma-rendered hash field",
      `data: {\n  operatorId: "op1",\n  tokenHash: "${HASH}",\n}`,
      `data: {\n  operatorId: "op1",\n  tokenHash: "[redacted]",\n}`,
    ],
    ["an argon2 hash on its own", `stored ${ARGON} here`, "stored [redacted] here"],
    ["a SHA-256 digest on its own", `digest ${HASH}`, "digest [redacted]"],
    [
      "signing secrets, wherever they appear",
      "url=http://u/ upsec_AbC-d_9xYz0123456789abcdefghijklmnopqrstuvw (whsec_Q1w2E3r4T5y6U7i8O9p0)",
      "url=http://u/ upsec_[redacted] (whsec_[redacted])",
    ],
    ["name=value style", "secretHash=abc token=xyz", `secretHash="[redacted]" token="[redacted]"`],
    [
      "an admin API token in free text",
      `pasted sluice_tok_${"aB3".repeat(10)}xy here`,
      "pasted sluice_tok_[redacted] here",
    ],
  ])("masks %s", (_what, text, expected) => {
    expect(redactSecrets(text, NONE)).toBe(expected);
  });

  it("masks configured secrets wherever they appear, but not short values", () => {
    expect(redactSecrets("the token is admin-token-123 (admin-token-123)", ["admin-token-123"])).toBe(
      "the token is [redacted] ([redacted])",
    );
    expect(redactSecrets("a b c", ["a"])).toBe("a b c");
  });

  it("leaves ordinary messages alone", () => {
    const text = 'No tenant with id "Ab3dEf7h". Unique constraint failed on the fields: (`email`)';
    expect(redactSecrets(text, NONE)).toBe(text);
  });
});

describe("errorSummary", () => {
  it("names the error and masks what its message renders", () => {
    const error = new Error(
      `Invalid \`prisma.operator.create()\` invocation:\n{ data: { email: "a@b.c", passwordHash: "${ARGON}" } }`,
    );
    error.name = "PrismaClientValidationError";
    const summary = errorSummary(error, NONE);
    expect(summary).toMatch(/^PrismaClientValidationError: Invalid `prisma.operator.create\(\)` invocation/);
    expect(summary).not.toContain("argon2");
    expect(summary).toContain('passwordHash: "[redacted]"');
  });

  it("caps long messages", () => {
    const summary = errorSummary(new Error("x".repeat(5_000)), NONE);
    expect(summary.length).toBeLessThan(600);
    expect(summary).toMatch(/… \(\d+ chars\)$/);
  });

  it("says what a thrown non-error was without showing it", () => {
    expect(errorSummary(KEY, NONE)).toBe("non-error value (string)");
  });
});
