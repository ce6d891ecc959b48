/**
 * A copy of an OpenAPI document with every local `$ref` (`#/components/…`)
 * replaced by what it points at, for readers that walk the document as plain
 * data: the portal's reference pages and the tests that inspect operations.
 * Clients and validators read the document itself, references and all.
 *
 * Members beside a `$ref` (a use's own `description`) win over the target's.
 * `modelKey`: when given, an inlined named schema (`#/components/schemas/Name`)
 * carries its name under this key, so a reader can show "Session" rather than
 * "object". A reference that leads back into itself is left as it is.
 */
export function dereference<T>(document: T, options: { modelKey?: string } = {}): T {
  const root = document as unknown;
  const resolve = (pointer: string): unknown =>
    pointer
      .slice(2)
      .split("/")
      .map((segment) => segment.replace(/~1/g, "/").replace(/~0/g, "~"))
      .reduce<unknown>((node, segment) => (node as Record<string, unknown> | undefined)?.[segment], root);

  const walk = (value: unknown, seen: readonly string[]): unknown => {
    if (Array.isArray(value)) return value.map((item) => walk(item, seen));
    if (!value || typeof value !== "object") return value;
    const { $ref, ...siblings } = value as Record<string, unknown>;
    if (typeof $ref === "string" && $ref.startsWith("#/") && !seen.includes($ref)) {
      const target = resolve($ref);
      if (target === undefined) throw new Error(`${$ref} is not in the document`);
      const model = options.modelKey && $ref.startsWith("#/components/schemas/") ? { [options.modelKey]: $ref.slice(21) } : {};
      return { ...(walk(target, [...seen, $ref]) as object), ...model, ...(walk(siblings, seen) as object) };
    }
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, walk(item, seen)]));
  };
  return walk(root, []) as T;
}
