// Which fields an update body touches and which to read: a property of the body, so it
// lives with the body's schema (src/schema/touched.ts); the engine's modules import it here.
export * from '../schema/touched';
