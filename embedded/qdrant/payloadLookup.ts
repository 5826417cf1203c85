import { valuesAtPath, type Payload } from './payload';

/**
 * Value → labels maps for keyword / integer / uuid / bool payload indexes. The filter planner uses them to
 * turn `must` match conditions into a candidate set, so a selective filter costs the size of its answer
 * rather than a scan of the whole collection.
 */
export class PayloadLookup {
  private readonly fields = new Map<string, Map<unknown, Set<number>>>();

  /** Starts indexing `field`, reading every existing point. */
  addField(field: string, points: Iterable<{ label: number; payload: Payload }>): void {
    const values = new Map<unknown, Set<number>>();
    this.fields.set(field, values);
    for (const point of points) this.insertInto(values, field, point.label, point.payload);
  }

  removeField(field: string): void {
    this.fields.delete(field);
  }

  /** Records a point's payload after it was written. */
  insert(label: number, payload: Payload): void {
    for (const [field, values] of this.fields) this.insertInto(values, field, label, payload);
  }

  /** Forgets a point's previous payload, before it is replaced or deleted. */
  remove(label: number, payload: Payload): void {
    for (const [field, values] of this.fields) {
      for (const value of valuesAtPath(payload, field)) {
        const labels = values.get(value);
        labels?.delete(label);
        if (labels?.size === 0) values.delete(value);
      }
    }
  }

  /** Labels whose `field` holds any of `wanted`, or undefined when `field` is not indexed here. */
  labelsMatching(field: string, wanted: readonly unknown[]): Set<number> | undefined {
    const values = this.fields.get(field);
    if (!values) return undefined;
    if (wanted.length === 1) return values.get(wanted[0]) ?? new Set();
    const union = new Set<number>();
    for (const value of wanted) for (const label of values.get(value) ?? []) union.add(label);
    return union;
  }

  private insertInto(
    values: Map<unknown, Set<number>>,
    field: string,
    label: number,
    payload: Payload,
  ): void {
    for (const value of valuesAtPath(payload, field)) {
      if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean') continue;
      let labels = values.get(value);
      if (!labels) values.set(value, (labels = new Set()));
      labels.add(label);
    }
  }
}
