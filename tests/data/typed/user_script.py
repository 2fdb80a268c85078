import adjudicate

ruling = adjudicate.rule("scenarios/euchre/revoke-established.yaml")
after = [dict(outcome.after) for outcome in ruling.score.outcomes if outcome.after] if ruling.score else []
report: adjudicate.CheckReport = adjudicate.check(["scenarios/euchre/revoke-established.yaml"])
problems: list[adjudicate.Finding] = [finding for result in report.files for finding in result.findings]
found: tuple[adjudicate.Law, ...] = adjudicate.laws("euchre", search="revoke")
try:
    adjudicate.rule("no-such-file.yaml")
except adjudicate.AdjudicateError as error:
    print([law.id for law in ruling.laws], after, report.ok, len(problems), found[0].ref, error.problems[0].path)
