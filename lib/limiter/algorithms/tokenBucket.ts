/**
 * token_bucket reference model: capacity `burst`, `limit` units refill per `windowMs`, fractional
 * refill. Computed as the time the bucket is full again (theoreticalArrival.ts), like its Lua twin
 * lua/includes/token_bucket.lua, so the state is one number.
 */
import { theoreticalArrival } from "./theoreticalArrival";

export const tokenBucket = theoreticalArrival;
