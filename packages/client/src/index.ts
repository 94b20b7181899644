/** @sluice/client: the typed Sluice client, its helpers and middlewares. */
export {
  createSluiceClient,
  DEFAULT_API_TIMEOUT_MS,
  DEFAULT_DECISION_TIMEOUT_MS,
  SluiceError,
} from "./sluiceClient.js";
export type {
  AuthorizeInput,
  AuthorizeResult,
  CallOptions,
  CheckAnswer,
  CheckInput,
  CheckResult,
  Problem,
  SluiceApi,
  SluiceClient,
  SluiceClientOptions,
  Tier,
} from "./sluiceClient.js";
export { parseRateLimitHeaders, retryAfterMs } from "./rateLimitHeaders.js";
export type { PolicyInfo, RateLimitInfo, RemainingInfo } from "./rateLimitHeaders.js";
export { abortableSleep, backoffDelayMs, SluiceTimeoutError, withRetry } from "./retry.js";
export { encodeSegments, sluicePathSerializer } from "./pathParams.js";
export type { RetryOptions } from "./retry.js";
export { decisionHeaders, protect } from "./middleware/protect.js";
export type { ProtectOptions, Verdict } from "./middleware/protect.js";
export { withSluice } from "./middleware/next.js";
export { sluiceExpress } from "./middleware/express.js";
