"use client";
/** Creates an API key for a tenant, then shows it once (CreatedKeyNotice). Names use the API's own schema. */
import { useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { ApiError, apiSend } from "@/components/api/apiClient";
import { NameCreateForm } from "@/components/shell/NameCreateForm";
import { createKeySchema } from "@/lib/control/admin/schemas";
import { CreatedKeyNotice } from "./CreatedKeyNotice";
import { tenantKeysPath } from "./keyQueries";
import type { CreatedKey } from "./keyTypes";

export function CreateKeyForm({ tenantId }: { tenantId: string }) {
  const queryClient = useQueryClient();
  const [created, setCreated] = useState<CreatedKey | null>(null);

  return (
    <>
      <NameCreateForm
        formLabel="Create API key"
        inputId="key-name"
        label="Key name"
        submitLabel="Create key"
        schema={createKeySchema}
        send={(input) =>
          apiSend<CreatedKey>("POST", tenantKeysPath(tenantId), input).catch((error: unknown) => {
            // Saved but not yet in force on this instance (503): the key exists and works within the
            // full-refresh period; its secret is shown now or never.
            if (error instanceof ApiError && error.resource) return error.resource as CreatedKey;
            throw error;
          })
        }
        // Only a name that passes the check replaces the key on screen: it cannot be shown again.
        onSend={() => setCreated(null)}
        onCreated={(key) => {
          setCreated(key);
          void queryClient.invalidateQueries({ queryKey: ["tenant", tenantId] });
        }}
      />
      {created ? <CreatedKeyNotice created={created} onDone={() => setCreated(null)} /> : null}
    </>
  );
}
