import { describe, expect, it } from "vitest";
import { fieldErrors } from "../../http/validate";
import { alertSettingsSchema } from "./alertSchema";

const errorsOf = (input: unknown) => {
  const result = alertSettingsSchema.safeParse(input);
  return result.success ? null : fieldErrors(result.error);
};

describe("alertSettingsSchema (shared by the form and PUT /alerts)", () => {
  it("fills in defaults: minRequests, conditions off, no rotation", () => {
    expect(
      alertSettingsSchema.parse({
        webhookUrl: " https://hooks.example.com/a?b=1 ",
        refusalRate: { thresholdPct: 12.5, minutes: 5 },
      }),
    ).toEqual({
      webhookUrl: "https://hooks.example.com/a?b=1",
      refusalRate: { thresholdPct: 12.5, minutes: 5, minRequests: 20 },
      clientLimit: null,
      billing: null,
      rotateSecret: false,
    });
  });

  it.each([
    [
      "no condition",
      { webhookUrl: "https://h.example" },
      { conditions: ["Turn on at least one condition or the billing hook (or remove the alerts)."] },
    ],
    [
      "a non-http URL",
      { webhookUrl: "ftp://h.example/x", clientLimit: { hits: 1, windowMinutes: 1 } },
      { webhookUrl: ["webhookUrl must use http or https"] },
    ],
    [
      "credentials in the URL",
      { webhookUrl: "https://u:p@h.example/", clientLimit: { hits: 1, windowMinutes: 1 } },
      { webhookUrl: ["webhookUrl must not contain credentials (user:password@)"] },
    ],
    [
      "port 0",
      { webhookUrl: "https://h.example:0/x", clientLimit: { hits: 1, windowMinutes: 1 } },
      { webhookUrl: ["webhookUrl must not use port 0"] },
    ],
    [
      "a relative URL",
      { webhookUrl: "/hook", clientLimit: { hits: 1, windowMinutes: 1 } },
      { webhookUrl: ["webhookUrl must be an absolute URL such as https://hooks.example.com/sluice"] },
    ],
    [
      "a threshold of 100",
      { webhookUrl: "https://h.example", refusalRate: { thresholdPct: 100, minutes: 5 } },
      { "refusalRate.thresholdPct": ["thresholdPct must be below 100"] },
    ],
    [
      "a window over an hour",
      { webhookUrl: "https://h.example", clientLimit: { hits: 5, windowMinutes: 61 } },
      { "clientLimit.windowMinutes": ["windowMinutes must be at most 60"] },
    ],
    [
      "fractional hits",
      { webhookUrl: "https://h.example", clientLimit: { hits: 1.5, windowMinutes: 5 } },
      { "clientLimit.hits": ["hits must be a whole number"] },
    ],
    [
      "an unknown field",
      { webhookUrl: "https://h.example", clientLimit: { hits: 1, windowMinutes: 5 }, secret: "mine" },
      { "": ['Unrecognized key: "secret"'] },
    ],
  ])("refuses %s with its message", (_name, input, expected) => {
    expect(errorsOf(input)).toEqual(expected);
  });
});
