// What the global setup hands each test file (vitest's provide/inject).
declare module 'vitest' {
  export interface ProvidedContext {
    pgServerUrl: string;
    pgTemplate: string;
  }
}
export {};
