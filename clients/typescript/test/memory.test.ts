// Memory ops against a real server: store (idempotency keys), store_batch, search, update,
// list with time filters, stats, forget_subject, observe, export and import streams.
import assert from "node:assert/strict";
import { createServer, type AddressInfo, type Socket } from "node:net";
import { after, before, test } from "node:test";

import { Client, Conflict, ConnectionFailed, Forbidden, NotFound, TriformError,
  Unauthorized, ValidationError, type MemoryElement } from "triform-client";

import { Server } from "./server.js";

const server = new Server();
let tf: Client;
let memory: MemoryElement;

before(async () => {
  await server.start();
  tf = new Client(server.url, server.admin, { backoff: 0.01, maxBackoff: 0.05 });
  memory = tf.memory("demo/memory");
});
after(() => server.stop());

async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const found: T[] = [];
  for await (const item of items) found.push(item);
  return found;
}

test("store, get, search, update and delete", async () => {
  const stored = await memory.store({ content: "Ana prefers tea over coffee",
    category: "preference", subject_type: "guest", subject_id: "ana",
    context: "chat about breakfast" });
  assert.deepEqual(stored.evicted, []);
  const id = stored.memory.id;
  assert.match(id, /^[0-9a-f]{32}$/);
  assert.equal((await memory.get(id)).content, "Ana prefers tea over coffee");
  const { results } = await memory.search({ query: "what does Ana drink? tea",
    subject_type: "guest", subject_id: "ana" });
  assert.equal(results[0]?.memory.id, id);
  assert.ok(results[0]!.score > 0 && "content" in results[0]!.lanes);
  const updated = await memory.update(id, { content: "Ana prefers green tea" });
  assert.equal(updated.content, "Ana prefers green tea");
  assert.equal(updated.subject_id, "ana");
  await memory.delete(id);
  await assert.rejects(memory.get(id), (error: unknown) => error instanceof NotFound &&
    error.status === 404 && error.code === "MEMORY_NOT_FOUND" && error.errorClass === "not_found" &&
    error.retryable === false);
});

test("a move supersedes, as_of answers the old value, history keeps both", async () => {
  const maria = { subject_type: "guest" as const, subject_id: "maria" };
  const porto = (await memory.store({ content: "Maria lives in Porto", category: "fact",
    occurred_at: "2024-03-01", ...maria })).memory;
  const lisbon = (await memory.store({ content: "Maria lives in Lisbon", category: "fact",
    occurred_at: "2024-04-12", supersedes: [porto.id], ...maria })).memory;
  const now = await memory.search({ query: "Maria lives in", ...maria });
  assert.deepEqual(now.results.map((r) => r.memory.id), [lisbon.id]);
  const then = await memory.search({ query: "Maria lives in", as_of: "2024-03-15",
    ...maria });
  assert.deepEqual(then.results.map((r) => r.memory.id), [porto.id]);
  const versions = await memory.history(porto.id);
  assert.deepEqual(versions.map((v) => [v.op, v.superseded_by]),
                   [["store", null], ["supersede", lisbon.id]]);
  const retired = await memory.retire(lisbon.id, "moved abroad", { at: "2024-09-01" });
  assert.match(String(retired.valid_until), /^2024-09-01/);
  await assert.rejects(memory.retire(lisbon.id, "again"), (error: unknown) =>
    error instanceof Conflict && error.code === "MEMORY_NOT_CURRENT");
  assert.equal((await memory.history(lisbon.id)).at(-1)?.reason, "moved abroad");
  await memory.delete(porto.id);
  await assert.rejects(memory.history(porto.id), NotFound);
});

test("an idempotency key stores once; each store call gets its own", async () => {
  const first = await memory.store({ content: "Ana's flight lands at six", category: "context" },
                                   { idempotencyKey: "flight-ana-0612" });
  const again = await memory.store({ content: "Ana's flight lands at six", category: "context" },
                                   { idempotencyKey: "flight-ana-0612" });
  assert.equal(again.memory.id, first.memory.id);
  const other = await memory.store({ content: "Ana's flight lands at six", category: "context" });
  assert.notEqual(other.memory.id, first.memory.id);
  await assert.rejects(memory.store({ content: "something else", category: "context" },
                                    { idempotencyKey: "flight-ana-0612" }),
  (error: unknown) => error instanceof TriformError && error.status === 422 &&
    error.code === "IDEMPOTENCY_KEY_REUSED" && error.name === "Unprocessable");
});

test("store_batch stores in order, and a bad item refuses the batch", async () => {
  const results = await memory.storeBatch([
    { content: "The office opens at nine", category: "fact" },
    { content: "Deploys happen on Tuesdays", category: "procedure" },
  ]);
  assert.deepEqual(results.map((r) => r.memory.content),
                   ["The office opens at nine", "Deploys happen on Tuesdays"]);
  const before = (await memory.stats()).total;
  await assert.rejects(memory.storeBatch([{ content: "fine", category: "fact" },
    { content: "bad", category: "gossip" as "fact" }]),
  (error: unknown) => error instanceof ValidationError && /memories\[1\]/.test(error.message));
  assert.equal((await memory.stats()).total, before);
});

test("list pages through everything, with filters and time bounds", async () => {
  const notes = tf.memory("demo/listing");
  await tf.circle("demo").create("memory", "listing");
  const early = await notes.store({ content: "first note", category: "fact" });
  await new Promise((resolve) => setTimeout(resolve, 20));
  const late = await notes.storeBatch([
    { content: "second note", category: "fact" },
    { content: "a habit", category: "procedure" },
  ]);
  const all = await collect(notes.list({ pageSize: 1 }));
  assert.deepEqual(all.map((m) => m.content), ["a habit", "second note", "first note"]);
  const facts = await collect(notes.list({ category: "fact" }));
  assert.deepEqual(facts.map((m) => m.content), ["second note", "first note"]);
  const after = await collect(notes.list({ created_after: early.memory.created_at }));
  assert.deepEqual(after.map((m) => m.id).sort(), late.map((r) => r.memory.id).sort());
  const beforeLate = await collect(notes.list({ created_before: late[0]!.memory.created_at }));
  assert.deepEqual(beforeLate.map((m) => m.content), ["first note"]);
  const page = await notes.listPage({ limit: 2 });
  assert.equal(page.memories.length, 2);
  assert.equal(typeof page.next_cursor, "string");
  const hits = await notes.search({ query: "note", occurred_after: early.memory.created_at });
  assert.ok(hits.results.every((h) => h.memory.id !== early.memory.id));
});

test("stats and forget_subject (which needs its confirmation)", async () => {
  await memory.store({ content: "Ben lives in Lyon", category: "fact", subject_type: "guest",
    subject_id: "ben" });
  const stats = await memory.stats();
  assert.ok(stats.by_subject.some((s) => s.subject_id === "ben"));
  await assert.rejects(memory.forgetSubject("guest", "ben", { confirm: false }),
    (error: unknown) => error instanceof ValidationError &&
      error.code === "MEMORY_CONFIRM_REQUIRED");
  const forgotten = await memory.forgetSubject("guest", "ben", { confirm: true });
  assert.equal(forgotten.deleted, 1);
});

test("observe lets the subconscious remember", async () => {
  const seen = await memory.observe([{ role: "user", content: "I'm vegetarian.", name: "Cleo" }],
                                    { subject_type: "guest", subject_id: "cleo" });
  assert.ok(seen.decisions.length >= 1);
  assert.deepEqual(seen.memories, ["demo/memory"]);
});

test("export streams NDJSON and import streams it back", async () => {
  await tf.circle("demo").create("memory", "source-notes");
  await tf.circle("demo").create("memory", "copy");
  const from = tf.memory("demo/source-notes");
  await from.storeBatch([{ content: "one", category: "fact" }, { content: "two", category: "fact" }]);
  const chunks = await collect(from.exportMemories({ vectors: true }));
  const text = Buffer.concat(chunks).toString("utf8");
  const lines = text.trim().split("\n").map((line) => JSON.parse(line));
  assert.equal(lines[0].count, 2);
  assert.equal(lines.length, 3);
  async function* stream(): AsyncGenerator<Uint8Array> {
    for (const chunk of chunks) yield chunk;
  }
  const imported = await tf.memory("demo/copy").importMemories(stream());
  assert.equal(imported.imported, 2);
  const again = await tf.memory("demo/copy").importMemories(Buffer.concat(chunks));
  assert.equal(again.skipped, 2);
  await assert.rejects(tf.memory("demo/copy").importMemories("not json\n"),
                       (error: unknown) => error instanceof ValidationError);
});

test("errors arrive in the one shape, typed by class", async () => {
  const viewer = new Client(server.url, server.token("viewer"));
  await assert.rejects(viewer.memory("demo/memory").store({ content: "x", category: "fact" }),
    (error: unknown) => error instanceof Forbidden && error.status === 403 &&
      error.errorClass === "forbidden" && typeof error.message === "string");
  await assert.rejects(new Client(server.url, "tfm_wrong").memory("demo/memory").stats(),
    (error: unknown) => error instanceof Unauthorized && error.code === "UNAUTHORIZED");
  await assert.rejects(memory.store({ content: "x", category: "gossip" as "fact" }),
    (error: unknown) => error instanceof ValidationError && error.status === 400 &&
      error.code === "MEMORY_INVALID_CATEGORY" &&
      (error.body as { error: { class: string } }).error.class === "validation");
  await assert.rejects(Promise.resolve().then(() => memory.get("a/b")),
    (error: unknown) => error instanceof ValidationError && error.code === "INVALID_MEMORY_ID");
  await assert.rejects(tf.memory("demo/../other").stats(),
    (error: unknown) => error instanceof ValidationError && error.code === "INVALID_PATH");
});

async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

test("a network failure is a typed error, never an unhandled rejection", async () => {
  const nowhere = `http://127.0.0.1:${await closedPort()}`;
  const dead = new Client(nowhere, server.admin, { retries: 2, backoff: 0.01,
    maxBackoff: 0.02 });
  let retries = 0;
  const counted = new Client(nowhere, server.admin, { retries: 2, backoff: 0.01,
    maxBackoff: 0.02, onRetry: () => { retries += 1; } });
  await assert.rejects(dead.memory("demo/memory").stats(), (error: unknown) =>
    error instanceof ConnectionFailed && error.sent === false && error.status === null &&
    error.code === "CONNECTION_FAILED" && error.retryable);
  // Never sent, so even a store without repeat safety is tried again.
  await assert.rejects(counted.memory("demo/memory").delete("0".repeat(32)),
                       ConnectionFailed);
  assert.equal(retries, 2);
  // A listener that accepts and never answers: the timeout is the only way out (a real
  // server may answer inside any timeout short enough to test).
  const held: Socket[] = [];
  const silent = createServer((socket) => { held.push(socket); });
  await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
  try {
    const port = (silent.address() as AddressInfo).port;
    const slow = new Client(`http://127.0.0.1:${port}`, server.admin,
                            { timeout: 0.2, retries: 0 });
    await assert.rejects(slow.memory("demo/memory").stats(), (error: unknown) =>
      error instanceof ConnectionFailed && /timed out/.test(error.message));
  } finally {
    for (const socket of held) socket.destroy();
    await new Promise<void>((resolve) => silent.close(() => resolve()));
  }
});
