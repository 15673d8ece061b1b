/** The kind folders' imports of each other: from → to → the import lines behind the edge. */
export function kindEdges(kindsDir: string): Map<string, Map<string, string[]>>;
/** The groups of kind folders in an import cycle. */
export function kindCycles(edges: Map<string, Map<string, string[]>>): string[][];
