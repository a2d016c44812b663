import {
  sql,
  type Kysely,
  type KyselyPlugin,
  type PluginTransformQueryArgs,
  type PluginTransformResultArgs,
  type QueryResult,
  type RootOperationNode,
  type UnknownRow,
} from 'kysely';

/**
 * Who a handle acts for: the account, API key, station or visitor of the request it serves, as
 * the events its changes record name them (the api package's `EventActor`). A handle carries it
 * to the handles made from it (`tenantDb`, `bypassDb`, `readDb`…), to its transactions and to
 * their connections, so a service that records an event reads it from the handle it was given
 * (`actorOf`) and no caller passes it along. A handle without one acts for the system (a job, a
 * sweep).
 *
 * Why on the handle and not in an `AsyncLocalStorage`: on Node 20 and 22 an async-local store
 * installs V8 promise hooks for the whole process once entered, and every promise of every request
 * then pays for them (docs/benchmarks-history.md, 'AsyncLocalStorage').
 */
export interface Actor {
  readonly kind: string;
  readonly id: number | null;
}

/** The actor `ActorTag.transformQuery` saw last: read synchronously by `actorOf`, right after compiling. */
let seen: Actor | undefined;

/**
 * A plugin that changes nothing and only says who acts: kysely carries a handle's plugins to every
 * handle, transaction and connection made from it, which is what lets the actor travel with them.
 */
export class ActorTag implements KyselyPlugin {
  constructor(readonly actor: Actor) {}

  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    seen = this.actor;
    return args.node;
  }

  transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    return Promise.resolve(args.result);
  }
}

const PROBE = sql<number>`select 1`;

/**
 * Who `db` acts for (see `Actor`), or undefined for the system. Compiling a statement runs the
 * handle's plugins' `transformQuery` (kysely's public contract), synchronously, so the last tag seen
 * is `db`'s own; nothing is sent to the database.
 */
export function actorOf<DB>(db: Kysely<DB>): Actor | undefined {
  seen = undefined;
  PROBE.compile(db);
  const actor = seen;
  seen = undefined;
  return actor;
}

/** The plugins of a handle acting for `actor`: the database's own, then the tag. */
export function pluginsActingFor(plugins: KyselyPlugin[], actor: Actor | undefined): KyselyPlugin[] {
  return actor ? [...plugins, new ActorTag(actor)] : plugins;
}

/** The cache key of an actor, beside the scope's. */
export function actorKey(actor: Actor | undefined): string {
  return actor ? `|${actor.kind}:${actor.id ?? ''}` : '';
}
