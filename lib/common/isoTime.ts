/** An instant in an answer: ISO 8601 in UTC (`Date.prototype.toISOString`). */
import { z } from "zod";

export const isoTimeSchema = z.string().meta({ description: "ISO 8601 time (UTC).", format: "date-time" });
