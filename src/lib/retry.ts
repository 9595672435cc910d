/**
 * Retries an idempotent read on D1's transient errors (lost connections, overloaded or reset
 * storage), which D1 documents as retryable. Never used around writes that move money: a batch
 * whose answer was lost may have committed.
 */
const TRANSIENT = /D1_ERROR|Network connection lost|storage caused object to be reset|reset because its code was updated|Internal error|internal error|overloaded/;

export async function retryRead<T>(read: () => Promise<T>, attempts = 3): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await read();
    } catch (err) {
      if (attempt >= attempts || !TRANSIENT.test(String(err))) throw err;
      await new Promise((r) => setTimeout(r, 25 * 2 ** attempt));
    }
  }
}
