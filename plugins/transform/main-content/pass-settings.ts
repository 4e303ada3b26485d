/**
 * What one extraction pass is set to do: the cascade (cascade.ts) varies it from strict to loose and
 * every step it runs reads it. A file of its own, so the steps need not import the cascade that
 * calls them.
 */
export interface Pass {
  /** Discussion thread: comments and replies are content. */
  forum: boolean;
  /** The page itself was recognised as a thread (not another page retried as one): its opening post is looked for. */
  thread?: boolean;
  /** Product page: the name heading stays, and blocks holding most of the content are never cleaned away whole. */
  product: boolean;
  /** Article page: no lead-in is added above the body (see leadin.ts). */
  article?: boolean;
  /** Apply class/id weights. */
  weights: boolean;
  /** Readability's conditional cleaning inside the content. */
  clean: boolean;
  /** Elements left out of this pass (boilerplate). */
  dropped: ReadonlySet<Element>;
}
