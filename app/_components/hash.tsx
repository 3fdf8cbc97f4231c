"use client";
// Addresses and hashes: monospace, whole on a wide screen, shortened (0x1234…abcd) on a phone, where a 66-digit
// hash would take four lines; a link to the chain's block explorer when there is one, and a copy button.
import { useState } from "react";
import { shortAddress } from "./api";

export function Hash({ value, href, testId }: { value: string | null | undefined; href?: string; testId?: string }) {
  if (!value) return <>—</>;
  const text = (
    <>
      <span className="hash-full">{value}</span>
      <span className="hash-short" aria-hidden="true">
        {shortAddress(value)}
      </span>
    </>
  );
  return href ? (
    <a className="hash" href={href} title={value} rel="noopener noreferrer" target="_blank" data-testid={testId}>
      {text}
    </a>
  ) : (
    <code className="hash" title={value} data-testid={testId}>
      {text}
    </code>
  );
}

/** Copies `value`; says so for a moment (and to screen readers). */
export function CopyButton({ value, what }: { value: string; what: string }) {
  const [state, setState] = useState<"idle" | "copied" | "failed">("idle");
  const copy = () =>
    navigator.clipboard
      .writeText(value)
      .then(
        () => setState("copied"),
        () => setState("failed"),
      )
      .finally(() => setTimeout(() => setState("idle"), 1500));
  return (
    <button type="button" className="copy" onClick={copy} data-testid="copy">
      <span aria-live="polite">{state === "copied" ? "Copied" : state === "failed" ? "Not copied" : "Copy"}</span>
      <span className="visually-hidden"> the {what}</span>
    </button>
  );
}
