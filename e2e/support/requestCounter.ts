/**
 * Counts the requests a page sends with one method to a URL ending in `urlEnd`, so a spec can assert
 * that an invalid form sent nothing (the count stays 0) and a valid one sent exactly one.
 */
import type { Page } from "@playwright/test";

export function countRequests(page: Page, method: string, urlEnd: string): () => number {
  let count = 0;
  page.on("request", (request) => {
    if (request.method() === method && request.url().endsWith(urlEnd)) count += 1;
  });
  return () => count;
}
