// Types of allowed-dev-origins.mjs (JavaScript so that next.config.mjs can load it).
import type { networkInterfaces } from "node:os";

export function allowedDevOrigins(extra?: string, interfaces?: ReturnType<typeof networkInterfaces>): string[];
