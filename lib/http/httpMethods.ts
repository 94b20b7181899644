/**
 * The HTTP methods Sluice knows (a rule's `match.methods`, the methods a route file serves): the
 * one list, and its type.
 */
export const HTTP_METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"] as const;
export type HttpMethod = (typeof HTTP_METHODS)[number];
