/**
 * Handles on elements: what every element answers, and what a circle adds. A handle is a
 * path and the client's transport; making one sends nothing. Ops that change something
 * say whether repeating them is harmless (`safe`): only those are tried again after an
 * answer that may have been lost.
 */

import { Source } from "./source.js";
import type { Query, Transport } from "./transport.js";
import { defined, opUrl } from "./transport.js";
import type { ActivityPage, Answer, Body, Element as ElementInfo, Event, JSONObject,
  SpecAnswer, SpecUpdate } from "./types.js";

export class Element {
  readonly path: string;
  readonly source: Source;

  constructor(protected readonly t: Transport, path: string) {
    this.path = path.replace(/^\/+|\/+$/g, "");
    this.source = new Source(t, this.path);
  }

  // Async, so a path refused here (opUrl) rejects like any failure instead of throwing.
  protected async getJson<T>(op: string, params: Query = {}): Promise<T> {
    return this.t.call<T>("GET", opUrl(this.path, op), { safe: true, params });
  }

  protected async postJson<T>(op: string, body: object, safe: boolean,
                              headers?: Record<string, string>): Promise<T> {
    return this.t.call<T>("POST", opUrl(this.path, op), { safe, headers, json: defined(body) });
  }

  // -- spec and versions -------------------------------------------------------------------

  /** The spec and its version number. */
  spec(): Promise<SpecAnswer> {
    return this.getJson("spec");
  }

  /** Merge `properties` into the spec (null resets one to its default), commit it to
   * draft and record a version; `changed` is false when nothing changed. */
  specUpdate(properties?: JSONObject,
             options: { name?: string; description?: string; message?: string } = {}
  ): Promise<SpecUpdate> {
    return this.postJson("spec_update", { properties, ...options }, true);
  }

  /** The current version (`version`, `label`, `current`), with `history` when asked. */
  version(options: { history?: boolean; limit?: number } = {}): Promise<Answer<"version">> {
    return this.getJson("version", { history: options.history || undefined, limit: options.limit });
  }

  /** Make version `version` (3 or "v3") current again, as a new version. */
  restore(version: number | string): Promise<Answer<"restore">> {
    return this.postJson("restore", { version }, false);
  }

  /** README.md of a branch (default draft): `content`, `exists`. */
  readme(branch?: string): Promise<Answer<"readme">> {
    return this.getJson("readme", { branch });
  }

  /** Commit README.md to draft; `changed` is false when it already said that. */
  readmeUpdate(content: string, message?: string): Promise<Answer<"readme_update">> {
    return this.postJson("readme_update", { content, message } satisfies Body<"readme_update">, true);
  }

  // -- lifecycle and children --------------------------------------------------------------

  /** Set `ready` (admin); `changed` is false when it already was. */
  enable(reason?: string): Promise<Answer<"enable">> {
    return this.postJson("enable", { reason }, true);
  }

  /** Set `disabled` (admin): every op but a few answers 409 until enabled. */
  disable(reason?: string): Promise<Answer<"disable">> {
    return this.postJson("disable", { reason }, true);
  }

  /** Create a child element (flat under the circle) and answer it.
   * @throws Conflict the slug is taken. */
  async create(elementType: string, slug: string,
               options: { name?: string; description?: string; properties?: JSONObject } = {}
  ): Promise<ElementInfo> {
    const answer = await this.postJson<Answer<"create">>("create", {
      element_type: elementType, slug, ...options }, false);
    return answer.element;
  }

  /** Shallow-merge `meta` into the element's meta. */
  async updateMeta(meta: JSONObject): Promise<ElementInfo> {
    const answer = await this.t.call<Answer<"update_meta">>(
      "PATCH", opUrl(this.path, "update_meta"), { safe: true, json: { meta } });
    return answer.element;
  }

  // -- activity ----------------------------------------------------------------------------

  /** One page of activity, newest first; pass `next_cursor` for the next. */
  activityPage(options: { limit?: number; cursor?: string } = {}): Promise<ActivityPage> {
    return this.getJson("activity", options);
  }

  /** Every activity event of this element (a circle: of the circle), newest first, a page
   * at a time as the iteration goes. */
  async *activity(options: { pageSize?: number } = {}): AsyncGenerator<Event> {
    let cursor: string | undefined;
    for (;;) {
      const page = await this.activityPage({ limit: options.pageSize ?? 200, cursor });
      yield* page.events;
      if (page.next_cursor === null || page.next_cursor === undefined) return;
      cursor = page.next_cursor;
    }
  }

  // -- composition and graph ---------------------------------------------------------------

  /** Attached modifiers and resources, own and `inherited`. */
  attachments(): Promise<Answer<"attachments">> {
    return this.getJson("attachments");
  }

  /** Attach (`{ref, priority?, cascade?}`) and detach (`{attachment_id}`) in one
   * transaction. */
  compose(add: JSONObject[] = [], remove: JSONObject[] = []): Promise<Answer<"compose">> {
    return this.postJson("compose", { add, remove }, false);
  }

  /** Detach one attachment of this element. */
  removeModifier(attachmentId: string): Promise<Answer<"remove-modifier">> {
    return this.postJson("remove-modifier", { attachment_id: attachmentId }, false);
  }

  /** The type's property schema, ports and (memories, agents) tools. */
  schema(): Promise<Answer<"schema">> {
    return this.getJson("schema");
  }

  /** Ancestors, children, members and attachments. */
  tree(options: { depth?: number; includeMetadata?: boolean } = {}): Promise<Answer<"tree">> {
    return this.getJson("tree", { depth: options.depth,
      include_metadata: options.includeMetadata || undefined });
  }

  /** Connected elements, breadth first over every kind of edge. */
  context(options: { depth?: number; types?: string[] } = {}): Promise<Answer<"context">> {
    return this.getJson("context", { depth: options.depth, types: options.types?.join(",") });
  }

  /** The element's intention with its inheritance chain. */
  intention(): Promise<Answer<"intention">> {
    return this.getJson("intention");
  }

  /** Per-child statistics and an aggregate. */
  batchStats(): Promise<Answer<"batch_stats">> {
    return this.getJson("batch_stats");
  }

  // -- bundles -----------------------------------------------------------------------------

  /** The element's git bundle (`git clone FILE` works), streamed chunk by chunk. */
  async *exportBundle(): AsyncGenerator<Uint8Array> {
    yield* this.t.download(opUrl(this.path, "export/bundle"));
  }
}

/** A circle: the root namespace of its elements; bundles are imported here. */
export class Circle extends Element {
  /** Every child element as a JSON envelope of base64 git bundles. */
  exportEnvelope(): Promise<JSONObject> {
    return this.getJson("export/bundle");
  }

  /** Import one git bundle as a new element: `imported`, `skipped`, `errors`.
   * @throws ValidationError nothing was imported or skipped (`body` has the report). */
  importBundle(bundle: Uint8Array, options: { slug?: string; overwrite?: boolean } = {}
  ): Promise<Answer<"import_bundle">> {
    return this.postJson("import/bundle", { bundle_base64: Buffer.from(bundle).toString("base64"),
      slug: options.slug, overwrite: options.overwrite || undefined }, false);
  }

  /** Import what `exportEnvelope` answered, element by element. */
  importEnvelope(envelope: JSONObject, options: { overwrite?: boolean } = {}
  ): Promise<Answer<"import_bundle">> {
    return this.postJson("import/bundle", { envelope, overwrite: options.overwrite || undefined },
                     false);
  }
}
