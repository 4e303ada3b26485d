/**
 * Cloud mode's cost table (`[credits]`) as declarations: core declares the units that are its own
 * (a scrape), each feature the units its routes and jobs charge (`FeatureDefinition.costs`), each
 * format the unit it adds to a scrape (`PluginDefinition.cost`). The `credits` config section is
 * built from them, so a unit exists exactly when something that charges it is installed.
 */
import { z } from 'zod';

/** A unit's price in credits, or `"plan"`: the workspace plan's `planRate`. */
export type Price = number | 'plan';

export interface DeclaredUnit {
  /** The default price (config/default.toml spells it out for people). */
  credits: Price;
  /** What one unit is, for people reading the schema. */
  description: string;
}

/** Units by their `[credits]` key. */
export type CostDeclarations = Readonly<Record<string, DeclaredUnit>>;

/** The units core charges itself. */
export const CORE_COSTS: CostDeclarations = {
  scrape: { credits: 1, description: 'POST /v1/scrape, per call (a cached answer too).' },
};

const price = (unit: DeclaredUnit) =>
  z
    .union([z.number().int().min(0), z.literal('plan')])
    .default(unit.credits)
    .describe(unit.description);

/**
 * The strict `[credits]` section of the declared units: unknown keys are refused. Two declarations
 * of one unit (the extract feature and the extract format charge the same `extract`) must agree on
 * its price; the first one's description stands.
 */
export function creditsSchema(
  declarers: ReadonlyArray<{ owner: string; costs?: CostDeclarations }>,
): z.ZodType<Readonly<Record<string, Price>>> {
  const units = new Map<string, { owner: string; unit: DeclaredUnit }>();
  for (const { owner, costs } of declarers) {
    for (const [name, unit] of Object.entries(costs ?? {})) {
      const earlier = units.get(name);
      if (earlier && earlier.unit.credits !== unit.credits) {
        throw new Error(`${owner}: cost unit "${name}" costs ${unit.credits}, but ${earlier.owner} declares it at ${earlier.unit.credits}`);
      }
      if (!earlier) units.set(name, { owner, unit });
    }
  }
  return z.strictObject(Object.fromEntries([...units].map(([name, { unit }]) => [name, price(unit)]))).prefault({});
}
