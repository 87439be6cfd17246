// Marks a plugin as non-encapsulated (what fastify-plugin does), so what it decorates or hooks
// applies to the whole app rather than only to its own child context.
export function shared<T extends object>(plugin: T): T {
  Object.assign(plugin, { [Symbol.for('skip-override')]: true });
  return plugin;
}
