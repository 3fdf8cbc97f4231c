// The API reference (Scalar) over /api/openapi.json, bundled with the app: no CDN, no fonts or calls to other hosts.
"use client";
import "@scalar/api-reference-react/style.css";
import "./reference.css";
import type { ApiReferenceConfigurationWithSource } from "@scalar/types/api-reference";
import { AVAILABLE_CLIENTS } from "@scalar/types/snippetz";
import dynamic from "next/dynamic";
import { useEffect, useMemo } from "react";
import { config as zodConfig } from "zod";

// Scalar validates with zod, which first tries Function("") to compile its parsers: the page's CSP refuses eval,
// and the browser reports each try. Without it, zod parses the same way, uncompiled.
zodConfig({ jitless: true });

// Scalar mounts a Vue app into the DOM: load it in the browser only, as its own chunk.
const ApiReferenceReact = dynamic(() => import("@scalar/api-reference-react").then((m) => m.ApiReferenceReact), {
  ssr: false,
  loading: () => <p className="api-docs-loading">Loading the API reference…</p>,
});

/** The request examples offered: curl, and fetch for browsers and Node (valid TypeScript as written). */
const SHOWN_CLIENTS = new Set(["shell/curl", "js/fetch", "node/fetch"]);

function configuration(origin: string): Partial<ApiReferenceConfigurationWithSource> {
  return {
    url: "/api/openapi.json",
    // The document's server is "/": examples and the try-it panel use the origin this page was served from.
    servers: [{ url: origin, description: "This service" }],
    // The default fonts come from fonts.scalar.com; the theme falls back to system fonts.
    withDefaultFonts: false,
    // Features that reach Scalar's hosts: its AI agent, MCP button, telemetry and developer toolbar.
    telemetry: false,
    agent: { disabled: true },
    mcp: { disabled: true },
    showDeveloperTools: "never",
    // Its "Open API Client" links hand this page's URL to client.scalar.com; "Test Request" stays, on this origin.
    hideClientButton: true,
    hiddenClients: AVAILABLE_CLIENTS.filter((client) => !SHOWN_CLIENTS.has(client)),
    defaultHttpClient: { targetKey: "shell", clientKey: "curl" },
    documentDownloadType: "json",
    // The site around it is light; one scheme keeps the header and the reference alike.
    forceDarkModeState: "light",
    hideDarkModeToggle: true,
    persistAuth: false,
    metaData: { title: "API reference" },
  };
}

/**
 * Scalar's copy buttons (code blocks, headings) hold only an icon: without a name, a screen reader announces
 * "button" (axe's button-name). Each gets one as Scalar renders it.
 */
function useNamedCopyButtons() {
  useEffect(() => {
    const root = document.querySelector(".api-docs") ?? document.body;
    const name = () => {
      // Their only text is an aria-hidden "Copy" label drawn on hover.
      for (const button of root.querySelectorAll<HTMLButtonElement>('button[class*="copy-button"]:not([aria-label])'))
        button.setAttribute("aria-label", "Copy");
    };
    name();
    const observer = new MutationObserver(name);
    observer.observe(root, { childList: true, subtree: true });
    return () => observer.disconnect();
  }, []);
}

export function ApiReference() {
  useNamedCopyButtons();
  // Only evaluated usefully in the browser (the reference itself never renders on the server).
  const config = useMemo(() => configuration(typeof window === "undefined" ? "" : window.location.origin), []);
  return <ApiReferenceReact configuration={config} />;
}
