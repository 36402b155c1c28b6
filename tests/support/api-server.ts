import http from "node:http";
import type { AddressInfo } from "node:net";
import express from "express";
import { apiV1 } from "../../server/api-v1";

export interface ApiAnswer {
  status: number;
  headers: Headers;
  json: any;
}

/**
 * The API router (/api/v1) alone on a free local port, as server/app.ts mounts it: for tests that
 * call it over HTTP with headers (tokens, cookies) without the whole site.
 */
export async function startApiServer(): Promise<{
  base: string;
  api: (
    method: string,
    path: string,
    init?: { body?: unknown; headers?: Record<string, string> },
  ) => Promise<ApiAnswer>;
  close: () => Promise<void>;
}> {
  const site = express();
  site.use("/api/v1", apiV1);
  const server = http.createServer(site);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    base,
    api: async (method, path, { body, headers = {} } = {}) => {
      const response = await fetch(`${base}/api/v1${path}`, {
        method,
        headers: { ...(body !== undefined ? { "Content-Type": "application/json" } : {}), ...headers },
        body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
      });
      const text = await response.text();
      return { status: response.status, headers: response.headers, json: text ? JSON.parse(text) : null };
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
