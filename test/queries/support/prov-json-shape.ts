// The shape of a W3C PROV-JSON document (https://www.w3.org/submissions/prov-json/,
// section 2-3): the known top-level sections, qualified names with declared
// prefixes (or blank `_:` ids for relations), the required properties of each
// relation, and references that resolve to declared records. Returns the
// problems found (empty = valid).
const RELATIONS: Readonly<Record<string, readonly string[]>> = {
  wasGeneratedBy: ['prov:entity'],
  used: ['prov:activity'],
  wasInformedBy: ['prov:informed', 'prov:informant'],
  wasStartedBy: ['prov:activity'],
  wasEndedBy: ['prov:activity'],
  wasInvalidatedBy: ['prov:entity'],
  wasDerivedFrom: ['prov:generatedEntity', 'prov:usedEntity'],
  wasAttributedTo: ['prov:entity', 'prov:agent'],
  wasAssociatedWith: ['prov:activity'],
  actedOnBehalfOf: ['prov:delegate', 'prov:responsible'],
  wasInfluencedBy: ['prov:influencee', 'prov:influencer'],
  specializationOf: ['prov:specificEntity', 'prov:generalEntity'],
  alternateOf: ['prov:alternate1', 'prov:alternate2'],
  hadMember: ['prov:collection', 'prov:entity'],
};
const RECORDS = ['entity', 'activity', 'agent'] as const;
/** Which record kind each reference property must point at. */
const REFERENCES: Readonly<Record<string, (typeof RECORDS)[number]>> = {
  'prov:entity': 'entity',
  'prov:activity': 'activity',
  'prov:agent': 'agent',
  'prov:generatedEntity': 'entity',
  'prov:usedEntity': 'entity',
  'prov:collection': 'entity',
  'prov:informed': 'activity',
  'prov:informant': 'activity',
};
const TIME_PROPERTIES = ['prov:time', 'prov:startTime', 'prov:endTime'];
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;
const QNAME = /^([A-Za-z_][A-Za-z0-9_.-]*):[^\s]+$/;

export function provJsonProblems(doc: unknown): string[] {
  const problems: string[] = [];
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) return ['the document is not a JSON object'];
  const d = doc as Record<string, unknown>;
  const prefixes = new Set(['prov', 'xsd', ...Object.keys((d.prefix as Record<string, unknown>) ?? {})]);
  for (const [name, iri] of Object.entries((d.prefix as Record<string, unknown>) ?? {})) {
    if (typeof iri !== 'string' || !/^https?:\/\//.test(iri)) problems.push(`prefix ${name} is not an IRI`);
  }
  const qualified = (id: string) => {
    const m = QNAME.exec(id);
    return m !== null && (m[1] === '_' || prefixes.has(m[1]!));
  };
  for (const section of Object.keys(d)) {
    if (section !== 'prefix' && !(RECORDS as readonly string[]).includes(section) && !(section in RELATIONS))
      problems.push(`unknown section ${section}`);
  }
  const declared = Object.fromEntries(RECORDS.map((r) => [r, new Set(Object.keys((d[r] as Record<string, unknown>) ?? {}))])) as Record<
    (typeof RECORDS)[number],
    Set<string>
  >;
  const checkAttributes = (where: string, attributes: unknown) => {
    if (typeof attributes !== 'object' || attributes === null || Array.isArray(attributes)) {
      problems.push(`${where} is not an object`);
      return;
    }
    for (const [key, value] of Object.entries(attributes)) {
      if (!qualified(key)) problems.push(`${where}: attribute ${key} is not a qualified name with a declared prefix`);
      const typed = typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
      const literal =
        typeof value === 'string' ||
        typeof value === 'number' ||
        typeof value === 'boolean' ||
        (typed !== undefined && typeof typed.$ === 'string');
      if (!literal) problems.push(`${where}: attribute ${key} is not a literal`);
      if (typed !== undefined) {
        if (typeof typed.type !== 'string' || !qualified(typed.type)) problems.push(`${where}: attribute ${key} has no qualified datatype`);
        else if (typed.type === 'xsd:QName' && !qualified(String(typed.$)))
          problems.push(`${where}: attribute ${key} is not a qualified name with a declared prefix`);
      }
      if (TIME_PROPERTIES.includes(key) && !(typeof value === 'string' && DATE_TIME.test(value)))
        problems.push(`${where}: ${key} is not an xsd:dateTime`);
    }
  };
  for (const record of RECORDS) {
    for (const [id, attributes] of Object.entries((d[record] as Record<string, unknown>) ?? {})) {
      if (!qualified(id) || id.startsWith('_:')) problems.push(`${record} id ${id} is not a qualified name`);
      checkAttributes(`${record} ${id}`, attributes);
    }
  }
  for (const [relation, required] of Object.entries(RELATIONS)) {
    for (const [id, attributes] of Object.entries((d[relation] as Record<string, unknown>) ?? {})) {
      if (!qualified(id)) problems.push(`${relation} id ${id} is not a qualified or blank name`);
      checkAttributes(`${relation} ${id}`, attributes);
      const a = attributes as Record<string, unknown>;
      for (const key of required) if (typeof a[key] !== 'string') problems.push(`${relation} ${id} lacks ${key}`);
      for (const [key, kind] of Object.entries(REFERENCES)) {
        if (typeof a[key] === 'string' && !declared[kind].has(a[key] as string))
          problems.push(`${relation} ${id}: ${key} ${String(a[key])} is not a declared ${kind}`);
      }
    }
  }
  return problems;
}
