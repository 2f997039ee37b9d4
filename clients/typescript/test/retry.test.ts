// Retries through a proxy that fails on demand: 429 and 503 honour Retry-After, an op
// that is not safe to repeat is tried again only when the server refused it before
// running it, an answer not in the one error shape is still an error of its status.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";

import { Client, ConnectionFailed, RateLimited, RetryPolicy, ServerError, Unavailable,
  parseRetryAfter, type RetryEvent } from "triform-client";

import { Proxy } from "./proxy.js";
import { Server } from "./server.js";

const server = new Server();
let proxy: Proxy;

before(async () => {
  await server.start();
  proxy = await new Proxy(server.url).start();
});
after(async () => {
  await proxy.close();
  await server.stop();
});

function client(events: RetryEvent[], retries = 3): Client {
  return new Client(proxy.url, server.admin, { retries, backoff: 0.01, maxBackoff: 0.05,
    onRetry: (event) => events.push(event) });
}

const busy = (status: number, retryAfter: string) => ({
  answer: status, headers: { "Retry-After": retryAfter },
  body: JSON.stringify({ error: { code: status === 429 ? "RATE_LIMITED" : "BUSY",
    class: status === 429 ? "rate_limited" : "unavailable", retryable: true,
    message: "come back later" } }),
});

test("a 503 and a 429 are waited out for as long as Retry-After says", async () => {
  const events: RetryEvent[] = [];
  proxy.plan.push(busy(503, "0.2"), busy(429, "0.1"));
  const started = Date.now();
  const stats = await client(events).memory("demo/memory").stats();
  assert.equal(typeof stats.total, "number");
  assert.ok(Date.now() - started >= 280);
  assert.deepEqual(events.map((e) => [e.attempt, e.delay, e.error.status]),
                   [[1, 0.2, 503], [2, 0.1, 429]]);
});

test("a store (not safe) is retried after a 429: the server refused it before running", async () => {
  const events: RetryEvent[] = [];
  proxy.plan.push(busy(429, "0"));
  const stored = await client(events).memory("demo/memory").store({ content: "kept once",
    category: "fact" });
  assert.equal(stored.memory.content, "kept once");
  const sent = proxy.seen.slice(-2).map((s) => s.headers["idempotency-key"]);
  assert.equal(sent[0], sent[1]);     // one key for the call, kept across its retries
});

test("a delete cut off mid-answer is not tried again; a read is", async () => {
  const events: RetryEvent[] = [];
  const tf = client(events);
  const { memory } = await tf.memory("demo/memory").store({ content: "to go", category: "fact" });
  proxy.plan.push({ cut: 0 });
  await assert.rejects(tf.memory("demo/memory").delete(memory.id),
    (error: unknown) => error instanceof ConnectionFailed && error.sent);
  assert.equal(events.length, 0);
  proxy.plan.push({ cut: 0 });
  const page = await tf.memory("demo/memory").listPage({ limit: 5 });
  assert.ok(Array.isArray(page.memories));
  assert.equal(events.length, 1);
});

test("a Retry-After longer than maxRetryAfter, or retries spent, rejects with the error", async () => {
  proxy.plan.push(busy(503, "3600"));
  await assert.rejects(client([]).memory("demo/memory").stats(),
    (error: unknown) => error instanceof Unavailable && error.retryAfter === 3600);
  proxy.plan.push(busy(429, "0"), busy(429, "0"));
  await assert.rejects(client([], 1).memory("demo/memory").stats(), RateLimited);
});

test("an answer not in the one shape is an error of its status", async () => {
  proxy.plan.push({ answer: 500, headers: { "Content-Type": "text/html" },
    body: "<html>proxy error</html>" });
  await assert.rejects(client([], 0).memory("demo/memory").stats(), (error: unknown) =>
    error instanceof ServerError && error.code === "HTTP_500" && /proxy error/.test(error.message));
});

test("the policy: who may be retried and how long to wait", () => {
  assert.equal(RetryPolicy.mayRetry(true, 503, true, false), true);
  assert.equal(RetryPolicy.mayRetry(true, 500, true, false), false);
  assert.equal(RetryPolicy.mayRetry(true, null, false, false), true);
  assert.equal(RetryPolicy.mayRetry(true, null, true, false), false);
  assert.equal(RetryPolicy.mayRetry(false, 503, true, true), false);
  const policy = new RetryPolicy({ retries: 2, backoff: 1, maxBackoff: 3 });
  assert.equal(policy.delay(0, null, 1), 1);
  assert.equal(policy.delay(1, null, 0), 1);
  assert.equal(policy.delay(2, null, 1), null);
  assert.equal(policy.delay(0, 120, 1), null);
  assert.equal(parseRetryAfter("7"), 7);
  assert.equal(parseRetryAfter("Wed, 21 Oct 2015 07:28:00 GMT", Date.parse(
    "Wed, 21 Oct 2015 07:27:50 GMT")), 10);
  assert.equal(parseRetryAfter("soon"), null);
  assert.throws(() => new RetryPolicy({ retries: -1 }), RangeError);
});
