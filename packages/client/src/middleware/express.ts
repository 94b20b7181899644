/**
 * Express middleware protecting the routes after it through Sluice's decision API:
 *
 *   app.use("/api", sluiceExpress({ client, rule: "per-user", identifier: (req) => req.get("x-user-id") ?? req.ip ?? "?" }));
 *
 * A refused request is answered 429 (Retry-After, problem+json) and goes no further; an admitted
 * one continues with the rate-limit headers set on its response. Errors never reach `next(err)`:
 * Sluice being unreachable is handled by `failMode`.
 */
import type { NextFunction, Request, RequestHandler, Response } from "express";
import { PROBLEM_TYPE, protect, type ProtectOptions } from "./protect.js";

export function sluiceExpress(options: ProtectOptions<Request>): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    const aborted = new AbortController();
    res.once("close", () => aborted.abort());
    protect(options, req, aborted.signal).then(
      (verdict) => {
        res.set(verdict.headers);
        if (verdict.pass) return next();
        res.status(verdict.status).type(PROBLEM_TYPE).send(JSON.stringify(verdict.body));
      },
      // Only an abort gets here (the client went away): nothing to answer.
      () => undefined,
    );
  };
}
