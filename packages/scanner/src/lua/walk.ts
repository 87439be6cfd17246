// A pre-order walk over the syntax tree with each node's parent, iterative so that even a
// tree built with a raised depth limit cannot overflow the stack.
import type { Node } from './ast.js';
import { functionBody } from './parser.js';

/** Return false to skip the node's children. */
export type Visitor = (node: Node, parent: Node | null) => void | boolean;

function pushAll(stack: Node[], nodes: readonly Node[]): void {
  // (One by one: `push(...nodes)` throws past about 100 000 arguments, a hostile file's table.)
  for (let i = 0; i < nodes.length; i++) stack.push(nodes[i]!);
}

/**
 * Pushes a node's children onto `stack` in source order. A lazy function body is parsed for
 * it (see `functionBody`) unless `lazyBodies` is false, when it counts as empty.
 */
export function pushChildren(stack: Node[], node: Node, lazyBodies = true): void {
  switch (node.type) {
    case 'Chunk':
    case 'DoStatement':
      pushAll(stack, node.body);
      return;
    case 'LocalStatement':
    case 'AssignmentStatement':
      pushAll(stack, node.variables);
      pushAll(stack, node.init);
      return;
    case 'CallStatement':
      stack.push(node.expression);
      return;
    case 'FunctionDeclaration':
      if (node.identifier) stack.push(node.identifier);
      pushAll(stack, node.parameters);
      pushAll(stack, lazyBodies ? functionBody(node) : node.body);
      return;
    case 'IfStatement':
      pushAll(stack, node.clauses);
      return;
    case 'IfClause':
    case 'ElseifClause':
    case 'ElseClause':
    case 'WhileStatement':
      if (node.condition) stack.push(node.condition);
      pushAll(stack, node.body);
      return;
    case 'RepeatStatement':
      pushAll(stack, node.body);
      stack.push(node.condition);
      return;
    case 'ForNumericStatement':
      stack.push(node.variable, node.start, node.end);
      if (node.step) stack.push(node.step);
      pushAll(stack, node.body);
      return;
    case 'ForGenericStatement':
      pushAll(stack, node.variables);
      pushAll(stack, node.iterators);
      pushAll(stack, node.body);
      return;
    case 'ReturnStatement':
      pushAll(stack, node.arguments);
      return;
    case 'GotoStatement':
    case 'LabelStatement':
      stack.push(node.label);
      return;
    case 'TableKey':
    case 'TableKeyString':
      stack.push(node.key, node.value);
      return;
    case 'TableValue':
      stack.push(node.value);
      return;
    case 'TableConstructorExpression':
      pushAll(stack, node.fields);
      return;
    case 'BinaryExpression':
    case 'LogicalExpression':
      stack.push(node.left, node.right);
      return;
    case 'UnaryExpression':
      stack.push(node.argument);
      return;
    case 'MemberExpression':
      stack.push(node.base, node.identifier);
      return;
    case 'IndexExpression':
      stack.push(node.base, node.index);
      return;
    case 'CallExpression':
      stack.push(node.base);
      pushAll(stack, node.arguments);
      return;
    case 'TableCallExpression':
      stack.push(node.base, node.arguments);
      return;
    case 'StringCallExpression':
      stack.push(node.base, node.argument);
      return;
    case 'ParenthesizedExpression':
      stack.push(node.expression);
      return;
    default:
      return;
  }
}

/** Child nodes in source order. */
export function childrenOf(node: Node): Node[] {
  const out: Node[] = [];
  pushChildren(out, node);
  return out;
}

/** Visits `root` and every node below it, parents before children. */
export function walk(root: Node, visitor: Visitor): void {
  const stack: Array<{ node: Node; parent: Node | null }> = [{ node: root, parent: null }];
  while (stack.length > 0) {
    const { node, parent } = stack.pop()!;
    if (visitor(node, parent) === false) continue;
    const children = childrenOf(node);
    for (let i = children.length - 1; i >= 0; i--) stack.push({ node: children[i]!, parent: node });
  }
}
