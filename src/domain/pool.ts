/** Run `work` over `items` with at most `size` in flight (the client's scheduler still paces them). */
export async function forEachPooled<T>(
  items: readonly T[],
  size: number,
  work: (item: T, index: number) => Promise<void>,
  /** Once aborted, no new item starts; the ones under way finish. */
  signal?: AbortSignal,
): Promise<void> {
  let next = 0;
  let failed: unknown;
  const worker = async () => {
    while (failed === undefined && next < items.length && !signal?.aborted) {
      const index = next++;
      try {
        await work(items[index]!, index);
      } catch (error) {
        failed ??= error;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(size, items.length)) }, worker));
  if (failed !== undefined) throw failed;
}
