// A pre-order walk over the syntax tree with each node's parent, iterative so that even a
// tree built with a raised depth limit cannot overflow the stack.
import type { IfClauseNode, Node } from './ast.js';
import { functionBody } from './parser.js';

/** Return false to skip the node's children. */
export type Visitor = (node: Node, parent: Node | null) => void | boolean;

/** Child nodes in source order. */
export function childrenOf(node: Node): Node[] {
  switch (node.type) {
    case 'Chunk':
      return node.body;
    case 'LocalStatement':
      return [...node.variables, ...node.init];
    case 'AssignmentStatement':
      return [...node.variables, ...node.init];
    case 'CallStatement':
      return [node.expression];
    case 'FunctionDeclaration': {
      const list: Node[] = node.identifier ? [node.identifier] : [];
      return list.concat(node.parameters, functionBody(node));
    }
    case 'IfStatement':
      return node.clauses;
    case 'IfClause':
    case 'ElseifClause':
    case 'ElseClause': {
      const clause: IfClauseNode = node;
      return clause.condition ? [clause.condition, ...clause.body] : clause.body;
    }
    case 'WhileStatement':
    case 'RepeatStatement':
      return node.type === 'WhileStatement'
        ? [node.condition, ...node.body]
        : [...node.body, node.condition];
    case 'DoStatement':
      return node.body;
    case 'ForNumericStatement': {
      const list: Node[] = [node.variable, node.start, node.end];
      if (node.step) list.push(node.step);
      return list.concat(node.body);
    }
    case 'ForGenericStatement':
      return [...node.variables, ...node.iterators, ...node.body];
    case 'ReturnStatement':
      return node.arguments;
    case 'GotoStatement':
    case 'LabelStatement':
      return [node.label];
    case 'TableKey':
      return [node.key, node.value];
    case 'TableKeyString':
      return [node.key, node.value];
    case 'TableValue':
      return [node.value];
    case 'TableConstructorExpression':
      return node.fields;
    case 'BinaryExpression':
    case 'LogicalExpression':
      return [node.left, node.right];
    case 'UnaryExpression':
      return [node.argument];
    case 'MemberExpression':
      return [node.base, node.identifier];
    case 'IndexExpression':
      return [node.base, node.index];
    case 'CallExpression':
      return [node.base, ...node.arguments];
    case 'TableCallExpression':
      return [node.base, node.arguments];
    case 'StringCallExpression':
      return [node.base, node.argument];
    case 'ParenthesizedExpression':
      return [node.expression];
    default:
      return [];
  }
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
