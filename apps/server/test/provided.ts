import '@lampstand/db/test/provided';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The start of the name of each worker's shared app database (`helpers/shared-app.ts`). */
    serverDatabasePrefix: string;
  }
}
export {};
