"use client";
/**
 * The editor of a descriptor rule's `match.descriptor` (Envoy's rate limit service): its entries in
 * order, each a key and an optional value (empty: counted per value), at most
 * DESCRIPTOR_ENTRIES_MAX; beside them the Envoy route config that sends such a descriptor, redrawn
 * as the entries change. The rule schema checks the entries like every other field; its message
 * is shown under the list.
 */
import { DESCRIPTOR_ENTRIES_MAX } from "@/lib/common/fieldLimits";
import { descriptorOfDraft, type DescriptorEntryDraft } from "./ruleDraft";
import { descriptorSent, envoyRouteExample } from "./envoyDescriptor";
import styles from "./RuleEditor.module.css";

export function DescriptorEditor({
  id,
  entries,
  error,
  onChange,
}: {
  id: string;
  entries: DescriptorEntryDraft[];
  error?: string;
  onChange: (entries: DescriptorEntryDraft[]) => void;
}) {
  const set = (index: number, patch: Partial<DescriptorEntryDraft>) =>
    onChange(entries.map((entry, i) => (i === index ? { ...entry, ...patch } : entry)));
  const descriptor = descriptorOfDraft(entries);
  const errorId = `${id}-error`;

  return (
    <fieldset
      className={`${styles.methods} ${styles.wide}`}
      aria-describedby={`${id}-hint${error ? ` ${errorId}` : ""}`}
      aria-invalid={error ? true : undefined}
    >
      <legend>Envoy descriptor</legend>
      <span id={`${id}-hint`} className={styles.fieldHint}>
        the entries of the descriptor, in Envoy&apos;s order; a value left empty counts each value apart (per address,
        per user); the rule applies to descriptors with exactly these keys
      </span>
      <ol className={styles.descriptorEntries}>
        {entries.map((entry, index) => (
          <li key={index} className={styles.descriptorEntry}>
            <input
              type="text"
              aria-label={`Descriptor entry ${index + 1} key`}
              placeholder="remote_address"
              autoComplete="off"
              spellCheck={false}
              value={entry.key}
              onChange={(e) => set(index, { key: e.target.value })}
            />
            <input
              type="text"
              aria-label={`Descriptor entry ${index + 1} value`}
              placeholder="any: counted per value"
              autoComplete="off"
              spellCheck={false}
              value={entry.value}
              onChange={(e) => set(index, { value: e.target.value })}
            />
            <button
              type="button"
              className="button-quiet"
              aria-label={`Remove descriptor entry ${index + 1}`}
              onClick={() => onChange(entries.filter((_, i) => i !== index))}
            >
              Remove
            </button>
          </li>
        ))}
      </ol>
      <button
        type="button"
        className="button-quiet"
        disabled={entries.length >= DESCRIPTOR_ENTRIES_MAX}
        onClick={() => onChange([...entries, { key: "", value: "" }])}
      >
        Add entry
      </button>
      {error ? (
        <p id={errorId} className="field-error">
          {error}
        </p>
      ) : null}
      <p className={styles.fieldHint}>
        Envoy route config that sends <code data-testid="descriptor-sent">{descriptorSent(descriptor) || "—"}</code>{" "}
        (domain: this tenant&apos;s id):
      </p>
      <pre className={styles.envoyExample} data-testid="envoy-route-example">
        {envoyRouteExample(descriptor)}
      </pre>
    </fieldset>
  );
}
