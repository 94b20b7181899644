/**
 * A caller member as the hot-callers sets name it (lib/monitoring/record/callerMember.ts): an API
 * key id, `~<JWT subject id>` (plain, or `~#` and its hash) or `@<address>`. Its own module, free
 * of server imports, so the dashboard validates caller page addresses with the same schema as the
 * caller-history route.
 */
import { z } from "zod";

export const CALLER_MEMBER_MESSAGE = "caller must be a caller (a key id, ~subject or @address)";

export const callerMemberSchema = z
  .string({ error: CALLER_MEMBER_MESSAGE })
  .regex(
    /^(?:[A-Za-z0-9_-]{1,64}|~(?:#[A-Za-z0-9_-]{22}|[A-Za-z0-9._@|+-]{1,64})|@[0-9A-Fa-f.:]{2,45})$/,
    CALLER_MEMBER_MESSAGE,
  );
