// The table of operations a running testnet serves: each defined once in its own module (operation.ts says what a
// definition holds and the faces it shows). The control endpoint serves every one of them, the client asks any of
// them by name with its body's and answer's types read from here, the CLI makes a command of each command face and the
// scenario language a step kind of each step face. An operation added at run time (registerOperation) is served,
// asked and shown like the built-in ones.
import type { z } from 'zod';
import { routeOf, type ControlRoute, type Operation } from './operation.js';
import { automineOperation } from './automine.js';
import { fundOperation } from './fund.js';
import { metricsOperation } from './metrics.js';
import { loadOperation } from './load.js';
import { mineOperation } from './mine.js';
import { healOperation, linkOperation, partitionOperation, syncOperation } from './network.js';
import { snapshotOperation } from './snapshot.js';
import { stateOperation } from './state.js';
import { uiOperation } from './ui.js';

const BUILTIN = {
  snapshot: snapshotOperation,
  mine: mineOperation,
  automine: automineOperation,
  ui: uiOperation,
  fund: fundOperation,
  partition: partitionOperation,
  heal: healOperation,
  link: linkOperation,
  sync: syncOperation,
  state: stateOperation,
  metrics: metricsOperation,
  load: loadOperation,
};

type Builtin = typeof BUILTIN;
export type OperationName = keyof Builtin;
/** What the request of operation N takes (its body, as JSON). */
export type BodyOf<N extends OperationName> = z.input<Builtin[N]['body']>;
/** What operation N answers. */
export type AnswerOf<N extends OperationName> = Awaited<ReturnType<Builtin[N]['run']>>;

const added = new Map<string, Operation>();
const listeners: ((op: Operation) => void)[] = [];
/** Names the control endpoint keeps for itself (server.ts: /cancel). */
const RESERVED = new Set(['cancel']);

/** Every operation now: the built-in ones, then those added with registerOperation. */
export function operations(): Operation[] {
  return [...(Object.values(BUILTIN) as Operation[]), ...added.values()];
}

/** The operation named `name`, if there is one. */
export function operationNamed(name: string): Operation | undefined {
  return (BUILTIN as Record<string, Operation>)[name] ?? added.get(name);
}

/** Add an operation (a name of its own): the control endpoints started from now on serve it. */
export function registerOperation(op: Operation): void {
  if (operationNamed(op.name) || RESERVED.has(op.name)) throw new Error(`an operation named ${op.name} exists already`);
  if (!/^[a-z][a-z0-9-]*$/.test(op.name)) throw new Error(`an operation's name is lower-case letters, digits and -`);
  added.set(op.name, op);
  for (const l of listeners) l(op);
}

/** Call `listener` with each operation registered from now on (the scenario language adds its step face). */
export function onOperationAdded(listener: (op: Operation) => void): void {
  listeners.push(listener);
}

/** The routes of every operation, at POST /<name>. */
export function operationRoutes(): Record<string, ControlRoute> {
  return Object.fromEntries(operations().map((op) => [`/${op.name}`, routeOf(op)]));
}
