/**
 * GCRA reference model: emission interval T = windowMs / limit, burst tolerance burst * T; the
 * state is the theoretical arrival time (theoreticalArrival.ts), like lua/includes/gcra.lua.
 */
import { theoreticalArrival } from "./theoreticalArrival";

export const gcra = theoreticalArrival;
