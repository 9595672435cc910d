/** The part of node:async_hooks the dashboard uses (workerd provides it with nodejs_compat). */
declare module 'node:async_hooks' {
  export class AsyncLocalStorage<T> {
    getStore(): T | undefined;
    run<R>(store: T, fn: () => R): R;
  }
}
