// Classifies branch conditions: an admin/permission check is a GUARD (the code behind it is an
// admin feature); a comparison of the player's identity with a literal is a TRIGGER (a gate
// that makes a backdoor worse, not safer).
import type { Expression, Node } from '../lua/ast.js';
import { functionBody } from '../lua/parser.js';
import { pushChildren } from '../lua/walk.js';

/** Methods and functions that check a player's rank or permission. */
const ADMIN_CHECK_NAMES = new Set([
  'IsSuperAdmin',
  'IsAdmin',
  'IsUserGroup',
  'CheckGroup',
  'PlayerHasAccess',
  'query',
  'HasPermission',
  'hasPermission',
  'HasAccess',
  'hasAccess',
  'IsListenServerHost',
  'GetUserGroup',
  'IsStaff',
  'isStaff',
  'CanAccess',
  'canAccess',
  'HasPriv',
  'IsOwner',
]);
const ADMIN_NAME_HINT =
  /admin|perm|access|allowed|authori[sz]|privilege|isstaff|canuse|canrun|whitelist/i;

/** Player identity getters whose comparison with a literal is a trigger (GB-007). */
export const IDENTITY_METHODS = new Set([
  'SteamID',
  'SteamID64',
  'AccountID',
  'UniqueID',
  'Nick',
  'Name',
  'GetName',
  'IPAddress',
  'OwnerSteamID64',
]);

export const STEAMID_LITERAL = /^(STEAM_[0-5]:[01]:\d{3,12}|7656119\d{10}|\[U:1:\d+\])$/;

function calleeName(e: Expression): string | undefined {
  if (e.type === 'Identifier') return e.name;
  if (e.type === 'MemberExpression') return e.identifier.name;
  if (e.type === 'IndexExpression' && e.index.type === 'StringLiteral') return e.index.value;
  return undefined;
}

function isCall(
  e: Node,
): e is Extract<
  Expression,
  { type: 'CallExpression' | 'StringCallExpression' | 'TableCallExpression' }
> {
  return (
    e.type === 'CallExpression' ||
    e.type === 'StringCallExpression' ||
    e.type === 'TableCallExpression'
  );
}

function unwrap(e: Expression): Expression {
  while (e.type === 'ParenthesizedExpression') e = e.expression;
  return e;
}

function isIdentityCall(e: Expression): string | undefined {
  e = unwrap(e);
  if (e.type === 'CallExpression' || e.type === 'StringCallExpression') {
    const n = calleeName(e.base);
    if (n && IDENTITY_METHODS.has(n)) return n;
    // string.lower(ply:Nick()) and similar wrappers
    if (e.type === 'CallExpression' && e.arguments[0]) return isIdentityCall(e.arguments[0]);
  }
  return undefined;
}

function literalText(e: Expression): string | undefined {
  e = unwrap(e);
  if (e.type === 'StringLiteral') return e.value;
  if (e.type === 'NumericLiteral') return e.raw;
  return undefined;
}

/** `ply:GetUserGroup()`, maybe parenthesized. */
function readsUserGroup(e: Expression): boolean {
  e = unwrap(e);
  return (
    (e.type === 'CallExpression' || e.type === 'StringCallExpression') &&
    calleeName(e.base) === 'GetUserGroup'
  );
}

export interface ConditionClass {
  guard?: string;
  trigger?: string;
  /** A setting the server owner controls (`Config.X`, a convar): the owner's choice. */
  config?: string;
}

const CONFIG_NAME = /config|cfg|settings|options/i;

/**
 * Looks for admin checks and identity triggers in a condition. `isLiteralIdTable` tells
 * whether an indexed table holds literal SteamIDs (the emulator knows table contents).
 */
export function classifyCondition(
  cond: Expression,
  isLiteralIdTable: (base: Expression) => boolean,
  isAdminCheckFn?: (base: Expression) => boolean,
): ConditionClass {
  return judgePlan(planCondition(cond), isLiteralIdTable, isAdminCheckFn);
}

/** What a step of a condition's plan does (see ConditionPlan). */
const enum PlanStepKind {
  /** Sets the guard to `text` unless one is set. */
  Guard,
  /** Sets the trigger to `text` unless one is set. */
  Trigger,
  /** Unless a guard is set: the guard is `text` when `base` reads a rank-checking function. */
  AskAdminFn,
  /** Unless a trigger is set: the trigger is `text` when `base` reads a table of literal IDs. */
  AskIdTable,
}

interface PlanStep {
  readonly kind: PlanStepKind;
  readonly text: string;
  readonly base: Expression | null;
}

/**
 * A condition's class as its tree alone gives it, with the questions about the emulation's
 * state (what a table or function holds) left as steps, in the order the walk meets them.
 * The emulator judges a condition each time it runs with an unknown value; the plan walks
 * its tree once.
 */
export interface ConditionPlan {
  /** The class, when the condition asks nothing about the emulation's state. */
  readonly fixed: ConditionClass | undefined;
  /** The owner's setting the condition reads: it never depends on the emulation's state. */
  readonly config: string | undefined;
  readonly steps: readonly PlanStep[];
}

/**
 * Walks a condition's tree once for `judgePlan`. A step that could no longer change the
 * class is left out: a guard or trigger found in the tree before it is always set first.
 */
export function planCondition(cond: Expression): ConditionPlan {
  const steps: PlanStep[] = [];
  /** A step that always sets the guard (or the trigger) is in `steps` already. */
  let guardSet = false;
  let triggerSet = false;
  let asks = false;
  let config: string | undefined;
  const stack: Node[] = [cond];
  let budget = 500;
  while (stack.length && budget-- > 0) {
    const n = stack.pop()!;
    if (isCall(n)) {
      const name = calleeName(n.base);
      if (name && (ADMIN_CHECK_NAMES.has(name) || ADMIN_NAME_HINT.test(name))) {
        if (!guardSet) {
          steps.push({ kind: PlanStepKind.Guard, text: name, base: null });
          guardSet = true;
        }
      } else if (!guardSet) {
        steps.push({
          kind: PlanStepKind.AskAdminFn,
          text: `${name ?? 'check'}() (checks rank)`,
          base: n.base,
        });
        asks = true;
      }
      if (name === 'HasValue' && n.type === 'CallExpression' && n.arguments.length === 2) {
        const id = isIdentityCall(n.arguments[1]!);
        if (id && !triggerSet) {
          steps.push({
            kind: PlanStepKind.AskIdTable,
            text: `table.HasValue(…, ${id}())`,
            base: n.arguments[0]!,
          });
          asks = true;
        }
      }
      if ((name === 'find' || name === 'match') && n.type === 'CallExpression') {
        const id = n.arguments[0] && isIdentityCall(n.arguments[0]);
        const lit = n.arguments[1] && literalText(n.arguments[1]);
        if (id && lit && !triggerSet) {
          steps.push({ kind: PlanStepKind.Trigger, text: `${id}() matches "${lit}"`, base: null });
          triggerSet = true;
        }
      }
    } else if (n.type === 'BinaryExpression' && (n.operator === '==' || n.operator === '~=')) {
      const idL = isIdentityCall(n.left);
      const idR = isIdentityCall(n.right);
      const litL = literalText(n.left);
      const litR = literalText(n.right);
      let trigger: string | undefined;
      if (idL && litR !== undefined) trigger = `${idL}() == "${litR}"`;
      else if (idR && litL !== undefined) trigger = `${idR}() == "${litL}"`;
      if (trigger !== undefined && !triggerSet) {
        steps.push({ kind: PlanStepKind.Trigger, text: trigger, base: null });
        triggerSet = true;
      }
      if (((readsUserGroup(n.left) && litR) || (readsUserGroup(n.right) && litL)) && !guardSet) {
        steps.push({ kind: PlanStepKind.Guard, text: 'GetUserGroup', base: null });
        guardSet = true;
      }
    } else if (n.type === 'MemberExpression' && config === undefined) {
      let b: Expression = n;
      while (b.type === 'MemberExpression') {
        if (CONFIG_NAME.test(b.identifier.name)) config = b.identifier.name;
        b = b.base;
      }
      if (b.type === 'Identifier' && CONFIG_NAME.test(b.name)) config = b.name;
    } else if (n.type === 'IndexExpression') {
      const id = isIdentityCall(n.index);
      if (id && !triggerSet) {
        steps.push({ kind: PlanStepKind.AskIdTable, text: `table[${id}()]`, base: n.base });
        asks = true;
      }
    }
    // (Lazy bodies stay unparsed: a condition's own code is what is judged.)
    if (n.type !== 'FunctionDeclaration') pushChildren(stack, n, false);
  }
  if (asks) return { fixed: undefined, config, steps };
  const plan: ConditionPlan = { fixed: undefined, config, steps };
  return { fixed: judgePlan(plan, noTable), config, steps: [] };
}

const noTable = (): boolean => false;

/**
 * The class of a planned condition (see planCondition), asking `isLiteralIdTable` and
 * `isAdminCheckFn` the plan's questions in the walk's order.
 */
export function judgePlan(
  plan: ConditionPlan,
  isLiteralIdTable: (base: Expression) => boolean,
  isAdminCheckFn?: (base: Expression) => boolean,
): ConditionClass {
  if (plan.fixed !== undefined) return plan.fixed;
  let guard: string | undefined;
  let trigger: string | undefined;
  const steps = plan.steps;
  for (let i = 0; i < steps.length; i++) {
    const step = steps[i]!;
    switch (step.kind) {
      case PlanStepKind.Guard:
        guard ??= step.text;
        break;
      case PlanStepKind.Trigger:
        trigger ??= step.text;
        break;
      case PlanStepKind.AskAdminFn:
        if (guard === undefined && isAdminCheckFn?.(step.base!)) guard = step.text;
        break;
      case PlanStepKind.AskIdTable:
        if (trigger === undefined && isLiteralIdTable(step.base!)) trigger = step.text;
        break;
    }
  }
  const out: ConditionClass = {};
  if (guard !== undefined) out.guard = guard;
  if (trigger !== undefined) out.trigger = trigger;
  if (plan.config !== undefined) out.config = plan.config;
  return out;
}

/** Literal identity comparisons anywhere inside a function (used for metamethod overrides). */
export function identityTriggersIn(
  root: Node,
  isLiteralIdTable: (base: Expression) => boolean,
): string[] {
  const found: string[] = [];
  const stack: Node[] = [root];
  let budget = 5000;
  while (stack.length && budget-- > 0) {
    const n = stack.pop()!;
    if (n.type === 'BinaryExpression' || n.type === 'IndexExpression' || isCall(n)) {
      const c = classifyCondition(n as Expression, isLiteralIdTable);
      if (c.trigger && !found.includes(c.trigger)) found.push(c.trigger);
    }
    pushChildren(stack, n, false);
  }
  return found;
}

/** A statement list whose last statement leaves the function or loop. */
export function endsWithExit(body: readonly Node[]): boolean {
  const last = body[body.length - 1];
  return !!last && (last.type === 'ReturnStatement' || last.type === 'BreakStatement');
}

/** A helper function whose body checks the player's rank (`local function canManage(ply)`). */
export function containsAdminCheck(fn: Node): boolean {
  const body: Node[] = fn.type === 'FunctionDeclaration' ? functionBody(fn) : [];
  return body.some((st) => !!classifyCondition(st as unknown as Expression, () => false).guard);
}
