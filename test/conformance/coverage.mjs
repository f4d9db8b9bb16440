// What a conformance run must have covered to count as passed: a run that executed no scenario, or
// fewer than the required set (test/conformance/required-<set>.json) — because the pinned suite dropped or
// renamed one, the listing failed to parse, or a scenario never reported — is a failure, not a green run.

/**
 * @param {{ required: string[], listed: string[], ran: string[], grep?: string, claimsNone?: boolean }} run
 *   required: the scenarios we claim; listed: what the suite listed; ran: the scenarios that reported a
 *   result; grep: the filter of this run (only the required scenarios it selects are expected);
 *   claimsNone: a set where we claim no scenario on purpose (extensions): an empty run is then expected.
 * @returns {{ title: string, error: string }[]} one entry per missing scenario (or for an empty run)
 */
export function coverageProblems({ required, listed, ran, grep, claimsNone = false }) {
  const selects = (s) => !grep || new RegExp(grep).test(`conformance ${s}`);
  const problems = [];
  if (ran.length === 0 && !(claimsNone && required.length === 0)) {
    problems.push({ title: 'conformance (no scenario ran)', error: grep ? `no client scenario matches --grep ${grep}` : 'the suite listed no client scenario for our spec versions' });
  }
  const listedSet = new Set(listed), ranSet = new Set(ran);
  for (const s of required.filter(selects)) {
    if (!listedSet.has(s)) problems.push({ title: `conformance ${s}`, error: 'required (test/conformance/required-<set>.json) but the installed suite does not list it' });
    else if (!ranSet.has(s)) problems.push({ title: `conformance ${s}`, error: 'required but it reported no result' });
  }
  return problems;
}
