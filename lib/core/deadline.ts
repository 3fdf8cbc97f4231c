// A wait with a bound: what the operator view reads from a chain or QStash must not hold its answer.

/** `work`'s value, or a rejection with `message` once `ms` have passed (the work itself is not cancelled). */
export async function withDeadline<T>(work: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(message)), ms);
    timer.unref?.();
  });
  try {
    return await Promise.race([work, expired]);
  } finally {
    clearTimeout(timer);
  }
}
