// The client's types are generated from the server's OpenAPI document (src/openapi.ts, by
// `npm run generate`); this fails when the live server's document would generate anything
// else, so a server change reaches the client's types (and `tsc` checks the client
// against them) before it ships.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { after, before, test } from "node:test";
import { fileURLToPath } from "node:url";

import { Client } from "triform-client";

import { Server } from "./server.js";

const server = new Server();

before(() => server.start());
after(() => server.stop());

test("src/openapi.ts is what the live /openapi.json generates", async () => {
  const live = await new Client(server.url, null).openapi();
  const { render } = (await import(new URL("../../scripts/openapi.mjs", import.meta.url).href)) as
    { render: (doc: unknown) => Promise<string> };
  const committed = readFileSync(fileURLToPath(new URL("../../src/openapi.ts", import.meta.url)),
                                 "utf8");
  const generated = await render(live);
  assert.ok(generated === committed, "the server's API changed: run `npm run generate` in " +
    "clients/typescript, then `npm test` (tsc checks the client against the new types)");
  // The check can fail: a field the server drops changes what is generated.
  const changed = structuredClone(live) as { components: { schemas: Record<string, {
    properties: Record<string, unknown> }> } };
  delete changed.components.schemas["Memory"]!.properties["content"];
  assert.notEqual(await render(changed), committed);
});
