/**
 * FTS changes of the writer's open transaction, in order (a delete precedes its re-insert), kept as
 * columns: a cold index queues a million of them per run and holds each until its group commits,
 * long enough to be promoted to V8's old space. As objects (plus a heap number per id above 2^31)
 * that was two million promoted allocations; as columns it is the texts alone.
 */
export class PendingFts {
  private ids = new Float64Array(4096);
  /** null: delete the row's entry; a string: index it. */
  private texts: (string | null)[] = [];

  get size(): number {
    return this.texts.length;
  }

  push(id: number, text: string | null): void {
    const n = this.texts.length;
    if (n === this.ids.length) {
      const grown = new Float64Array(n * 2);
      grown.set(this.ids);
      this.ids = grown;
    }
    this.ids[n] = id;
    this.texts.push(text);
  }

  /** Hands every queued change to `apply`, in order, and empties the queue (also when `apply` throws). */
  drain(apply: (id: number, text: string | null) => void): void {
    const { ids, texts } = this;
    this.texts = [];
    for (let i = 0; i < texts.length; i++) apply(ids[i]!, texts[i] ?? null);
  }

  clear(): void {
    this.texts = [];
  }
}
