/**
 * TypeScript client for the Triform Memory HTTP API.
 *
 *     import { Client } from "triform-client";
 *     const tf = new Client("http://127.0.0.1:8765", token);
 *     const memory = tf.memory("demo/memory");
 *     await memory.store({ content: "Ana prefers tea over coffee", category: "preference" });
 *     const { results } = await memory.search({ query: "what does Ana drink?" });
 *
 * Every failure rejects with a TriformError subclass carrying `code`, `errorClass`,
 * `retryable`, `status` and the message.
 */

export { Agent, AgentFacing, type SubjectOptions } from "./agents.js";
export { Client, type ClientOptions } from "./client.js";
export { Circle, Element } from "./elements.js";
export { Conflict, ConnectionFailed, Forbidden, InvalidResponse, MethodNotAllowed,
  NotFound, NotImplementedOp, RateLimited, ServerError, StorageFull, TooLarge, TriformError,
  Unauthorized, Unavailable, Unprocessable, ValidationError, errorFromResponse } from "./errors.js";
export { EventStream, type EventOptions } from "./events.js";
export { MemoryElement } from "./memory.js";
export { RetryPolicy, parseRetryAfter, type RetryOptions } from "./retry.js";
export { Source, type Branch } from "./source.js";
export { VERSION, type Content, type RetryEvent } from "./transport.js";
export type * from "./types.js";
