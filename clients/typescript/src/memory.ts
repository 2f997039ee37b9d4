/**
 * A memory element's ops (docs/api.md, docs/memory-runtime.md). `store` and `storeBatch`
 * carry idempotency keys made fresh for each call and kept across its retries, so a call
 * tried again after a lost answer stores nothing twice. `list` is an async iterator that
 * follows the cursor; export and import stream NDJSON and never hold the whole file.
 */

import { randomUUID } from "node:crypto";

import { AgentFacing } from "./agents.js";
import { ValidationError } from "./errors.js";
import type { Content } from "./transport.js";
import { opUrl } from "./transport.js";
import type { Answer, Category, EvalRun, EvalStatus, ExportQuery, ForgetResult, ListQuery,
  Memory, MemoryImport, MemoryPage, MemoryVersion, NewMemory, SearchRequest, SearchResult, Stats,
  StoreRequest, StoreResult, SubjectType, UpdateRequest } from "./types.js";

/** The op path of one memory; an id holding a slash would name another op. */
function one(memoryId: string, ...tail: string[]): string {
  if (typeof memoryId !== "string" || memoryId.includes("/") || memoryId === "") {
    throw new ValidationError(`memory id ${JSON.stringify(memoryId)} must be a non-empty ` +
      "string without '/'", { code: "INVALID_MEMORY_ID" });
  }
  return ["memories", memoryId, ...tail].join("/");
}

function freshKey(): string {
  return randomUUID().replaceAll("-", "");
}

export class MemoryElement extends AgentFacing {
  /**
   * Store one memory; answer it with the ids it `evicted` and `warnings`.
   * `idempotencyKey` defaults to a fresh one: pass your own to make a store you repeat
   * later (after a crash, say) return the first result instead of a copy.
   * @throws ValidationError a bad category, subject, size...; nothing stored.
   */
  store(memory: StoreRequest, options: { idempotencyKey?: string } = {}): Promise<StoreResult> {
    return this.postJson("store", memory, true,
                     { "Idempotency-Key": options.idempotencyKey ?? freshKey() });
  }

  /** Store up to 256 memories with one embedding pass and one fsync, in order. Items
   * without an `idempotency_key` get `<call key>-<index>`.
   * @throws ValidationError an item is bad (`memories[i]`); nothing stored. */
  async storeBatch(memories: NewMemory[]): Promise<StoreResult[]> {
    const call = freshKey();
    const items = memories.map((item, i) => ({ idempotency_key: `${call}-${i}`, ...item }));
    const answer = await this.postJson<Answer<"store_batch">>("store_batch", { memories: items },
                                                          true);
    return answer.results;
  }

  /** @throws NotFound no memory has this id (`MEMORY_NOT_FOUND`). */
  async get(memoryId: string): Promise<Memory> {
    return (await this.getJson<Answer<"get">>(one(memoryId))).memory;
  }

  /** Change a memory (undefined leaves a field; "" clears context or intention); subject
   * and agent never change. */
  async update(memoryId: string, changes: UpdateRequest): Promise<Memory> {
    return (await this.postJson<Answer<"update">>(one(memoryId, "update"), changes, true)).memory;
  }

  /** The memory no longer holds and nothing replaces it: kept for `history` with
   * `valid_until` = `at` (ISO 8601; default now), out of default recall.
   * @throws Conflict it was superseded or retired already (`MEMORY_NOT_CURRENT`). */
  async retire(memoryId: string, reason: string, options: { at?: string } = {}
  ): Promise<Memory> {
    return (await this.postJson<Answer<"update">>(one(memoryId, "update"),
      { retire: true, reason, ...options }, true)).memory;
  }

  /** Every version of one memory, oldest first: content, category, validity, and what
   * made it (`op`, `at`, `source`, `agent`, `evaluator`, `reason`).
   * @throws NotFound no memory has this id (a deleted one's history is gone too). */
  async history(memoryId: string): Promise<MemoryVersion[]> {
    return (await this.getJson<Answer<"history">>(one(memoryId, "history"))).versions;
  }

  /** @throws NotFound no memory has this id. */
  async delete(memoryId: string): Promise<void> {
    await this.postJson(one(memoryId, "delete"), {}, false);
  }

  /** Recall by what a memory says, its context and its intention, best first; time
   * filters `occurred_after` / `occurred_before` are exclusive ISO-8601 bounds. */
  search(request: SearchRequest): Promise<SearchResult> {
    return this.postJson("search", request, true);
  }

  /** One page, newest first; `next_cursor` is null on the last. Filters: category,
   * subject, agent, source, `created_after`/`created_before`,
   * `occurred_after`/`occurred_before` (exclusive ISO-8601 bounds). */
  listPage(query: ListQuery = {}): Promise<MemoryPage> {
    return this.getJson("memories", query);
  }

  /** Every memory that matches, newest first, a page at a time as the iteration goes.
   * Memories stored meanwhile never shift later pages. */
  async *list(query: Omit<ListQuery, "cursor" | "limit"> & { pageSize?: number } = {}
  ): AsyncGenerator<Memory> {
    const { pageSize, ...filters } = query;
    let cursor: string | undefined;
    for (;;) {
      const page = await this.listPage({ ...filters, limit: pageSize ?? 200, cursor });
      yield* page.memories;
      if (page.next_cursor === null || page.next_cursor === undefined) return;
      cursor = page.next_cursor;
    }
  }

  /** Run the recall cases (`.triform/evals/*.yaml`) of `branch` (default draft; or demo,
   * live, a commit id) with that branch's spec (docs/evals.md): each case's ranks and
   * `passed`, and the `summary` (pass rate, R@k, MRR). `cases` runs only those
   * (`FILE#ID`), which the server does not record as the branch's last eval.
   * @throws ValidationError an eval file is malformed (`SOURCE_EVAL_INVALID`, its line).
   * @throws TooLarge more cases x memories than one eval may search. */
  eval(options: { branch?: string; cases?: string[] } = {}): Promise<EvalRun> {
    return this.postJson("eval", options, true);
  }

  /** Each branch's last recorded eval beside its tip, and draft's scores minus live's
   * (`source_branches`' `evals`). */
  async evalStatus(): Promise<EvalStatus> {
    return (await this.source.branches()).evals as EvalStatus;
  }

  /** Counts by category and subject, capacity, and what retention just expired. */
  stats(): Promise<Stats> {
    return this.getJson("stats");
  }

  /** Delete every memory about one subject (general memories stay). `confirm: true`
   * sends `X-Confirm: destructive`; without it the server refuses
   * (`MEMORY_CONFIRM_REQUIRED`). */
  forgetSubject(subjectType: SubjectType, subjectId: string,
                options: { confirm: boolean }): Promise<ForgetResult> {
    return this.postJson("forget_subject", { subject_type: subjectType, subject_id: subjectId },
                     false, options.confirm ? { "X-Confirm": "destructive" } : {});
  }

  /** The memories as NDJSON, streamed chunk by chunk: a header line (`format`, `version`,
   * `element`, `model`, `count`), then one memory a line (with `vectors` when asked). */
  async *exportMemories(query: ExportQuery = {}): AsyncGenerator<Uint8Array> {
    yield* this.t.download(opUrl(this.path, "export/memories"),
                           { ...query, vectors: query.vectors || undefined });
  }

  /** Send what `exportMemories` wrote: bytes, text, or a stream of chunks (sent as it is
   * read). Ids and timestamps are kept and a re-import skips, so bytes or text are sent
   * again after a lost answer; a stream cannot be.
   * @throws ValidationError a bad line refuses the whole import (nothing written). */
  async importMemories(ndjson: Content): Promise<MemoryImport> {
    return this.t.call("POST", opUrl(this.path, "import/memories"), {
      safe: true, content: ndjson, headers: { "Content-Type": "application/x-ndjson" } });
  }
}

export type { Category };
