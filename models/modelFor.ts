import type { Connection, Model, Schema } from 'mongoose';

/**
 * Returns the model named `name` bound to `connection`, compiling it on first use. Models are per connection (not
 * mongoose's global default) so the composition root decides which database they use.
 */
export function modelFor<T>(connection: Connection, name: string, schema: Schema<T>): Model<T> {
  return (connection.models[name] as Model<T> | undefined) ?? connection.model<T>(name, schema);
}
